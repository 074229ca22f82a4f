"""Events out: what a change of the system of record means to the tenant's systems.

One derivation for both backends. The DynamoDB stream (cloud) and the SQLite outbox (embedded)
both hand over record changes; the pure functions here turn them into versioned events:

- a memory's change (old record, new record) → ``memory.created`` | ``merged`` | ``superseded`` |
  ``updated`` | ``archived`` | ``restored`` (none when only bookkeeping changed: access counts,
  the feedback weight, an embedding that arrived later, a tier move between live tiers);
- a deletion-log entry (the content-free receipt of a forget or an expiry) → one ``memory.deleted``
  or ``memory.expired`` per memory, carrying the receipt and never the content;
- a job's change → ``job.succeeded`` | ``job.failed``.

Event ids are derived from what happened (tenant, subject, version or receipt, type), so a change
read twice (a stream retry, a replayed write) yields the same id and receivers can drop repeats.

Example::

    >>> events = memory_events(MemoryChange(..., old=None, new=record, ...))
    >>> events[0].type
    'memory.created'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from engram.models import DeletionLogEntry, Job, MemoryRecord, MemoryView
from engram.ports import MemoryChange

EventType = Literal[
    "memory.created",
    "memory.merged",
    "memory.superseded",
    "memory.updated",
    "memory.deleted",
    "memory.archived",
    "memory.restored",
    "memory.expired",
    "job.succeeded",
    "job.failed",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)
SCHEMA_VERSION: Literal[1] = 1
EXPIRY_REASON = "expired"
"""The deletion-log reason the lifecycle job writes when it deletes expired memories."""

UPDATED_FIELDS = ("content", "category", "scope", "tags", "metadata", "pinned", "expires_at", "status")
"""What a ``memory.updated`` reports as changed (what the tenant set or sees, not bookkeeping)."""


class MemoryEventData(BaseModel):
    """The memory after the change, and what the change was about."""

    memory: MemoryView
    supersedes: str | None = None
    """``memory.created``: the memory this one replaced (a supersede)."""
    superseded_by: str | None = None
    """``memory.superseded``: the memory that replaced this one."""
    changed: list[str] = Field(default_factory=list)
    """``memory.updated`` and ``memory.merged``: the fields that changed."""
    from_tier: str | None = None
    """``memory.archived`` and ``memory.restored``: the tier before."""
    to_tier: str | None = None


class DeletionEventData(BaseModel):
    """A deleted memory: its id and the deletion receipt, never its content."""

    memory_id: str
    receipt_id: str
    reason: str
    """``ids``, ``query`` or ``filter`` for a forget, ``expired`` for an expiry."""
    deleted_at: datetime


class JobResult(BaseModel):
    id: str
    action: str
    reason: str | None = None


class JobEventData(BaseModel):
    """A finished asynchronous retain: its results (ids and actions; the memories have their own events)."""

    job_id: str
    status: Literal["succeeded", "failed"]
    scope: str | None = None
    results: list[JobResult] = Field(default_factory=list)
    error: str | None = None
    fallback: str | None = None


class Event(BaseModel):
    """The envelope every event travels in (webhook body, EventBridge ``detail``)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    """Stable for one change: a redelivered event has the id it had the first time."""
    type: EventType
    version: Literal[1] = SCHEMA_VERSION
    """The envelope's and data's schema version; a breaking change gets a new one."""
    tenant_id: str
    occurred_at: datetime
    subject: str
    """The memory or job the event is about; events of one subject arrive in order."""
    data: dict[str, Any]


class MemoryEvent(Event):
    type: Literal[
        "memory.created",
        "memory.merged",
        "memory.superseded",
        "memory.updated",
        "memory.archived",
        "memory.restored",
    ]
    data: MemoryEventData  # type: ignore[assignment]


class DeletionEvent(Event):
    type: Literal["memory.deleted", "memory.expired"]
    data: DeletionEventData  # type: ignore[assignment]


class JobEvent(Event):
    type: Literal["job.succeeded", "job.failed"]
    data: JobEventData  # type: ignore[assignment]


SCHEMAS: dict[str, type[Event]] = {
    **{t: MemoryEvent for t in get_args(MemoryEvent.model_fields["type"].annotation)},
    **{t: DeletionEvent for t in ("memory.deleted", "memory.expired")},
    **{t: JobEvent for t in ("job.succeeded", "job.failed")},
}
"""The schema each event type's envelope follows (the OpenAPI document's ``webhooks``)."""


def event_id(tenant_id: str, subject: str, mark: str, event_type: str) -> str:
    """``evt_`` + 32 hex digits of a hash of what happened (the same change, the same id)."""
    digest = hashlib.sha256(f"{tenant_id}\x1f{subject}\x1f{mark}\x1f{event_type}".encode()).hexdigest()
    return "evt_" + digest[:32]


def memory_events(change: MemoryChange, *, cause: str | None = None) -> list[Event]:
    """The events a memory's change implies, in the order they happened.

    ``cause`` is the history event written with the change (``merged``, ``updated``…), when the
    reader has it: a merge and a content edit change the same fields, only the history tells them
    apart (without it a content change is ``memory.updated``). Removals imply nothing here: the
    deletion log says why a memory went (:func:`deletion_events`).
    """
    old, new = change.old, change.new
    if new is None or change.event == "REMOVE":
        return []
    if old is None:
        data = MemoryEventData(memory=_view(new), supersedes=new.supersedes)
        return [_memory_event("memory.created", new, data)]
    found: list[Event] = []
    if new.superseded_by is not None and new.superseded_by != old.superseded_by:
        data = MemoryEventData(memory=_view(new), superseded_by=new.superseded_by)
        found.append(_memory_event("memory.superseded", new, data))
    if (old.tier == "archived") != (new.tier == "archived"):
        kind: EventType = "memory.archived" if new.tier == "archived" else "memory.restored"
        data = MemoryEventData(memory=_view(new), from_tier=old.tier, to_tier=new.tier)
        found.append(_memory_event(kind, new, data))
    changed = [
        name
        for name in UPDATED_FIELDS
        if getattr(old, name) != getattr(new, name)
        and not (name == "status" and new.status == "superseded" and found)
    ]
    if changed:
        edit: EventType = "memory.merged" if cause == "merged" and "content" in changed else "memory.updated"
        found.append(_memory_event(edit, new, MemoryEventData(memory=_view(new), changed=changed)))
    return found


def deletion_events(entry: DeletionLogEntry) -> list[Event]:
    """One ``memory.deleted`` (or ``memory.expired``, for the lifecycle's expiry) per id of the receipt."""
    kind: EventType = "memory.expired" if entry.reason == EXPIRY_REASON else "memory.deleted"
    return [
        Event(
            id=event_id(entry.tenant_id, memory_id, entry.receipt_id, kind),
            type=kind,
            tenant_id=entry.tenant_id,
            occurred_at=entry.at,
            subject=memory_id,
            data=DeletionEventData(
                memory_id=memory_id, receipt_id=entry.receipt_id, reason=entry.reason, deleted_at=entry.at
            ).model_dump(mode="json"),
        )
        for memory_id in dict.fromkeys(entry.ids)
    ]


def job_events(tenant_id: str, old: Job | None, new: Job | None) -> list[Event]:
    """``job.succeeded`` or ``job.failed`` when a job reaches that status (nothing otherwise)."""
    if new is None or new.status not in ("succeeded", "failed"):
        return []
    if old is not None and old.status == new.status:
        return []
    kind: EventType = "job.succeeded" if new.status == "succeeded" else "job.failed"
    data = JobEventData(
        job_id=new.job_id,
        status=new.status,
        scope=new.scope,
        results=[JobResult(id=r.id, action=r.action, reason=r.reason) for r in new.results or []],
        error=new.error,
        fallback=new.fallback,
    )
    return [
        Event(
            id=event_id(tenant_id, new.job_id, new.status, kind),
            type=kind,
            tenant_id=tenant_id,
            occurred_at=new.updated_at,
            subject=new.job_id,
            data=data.model_dump(mode="json"),
        )
    ]


def wanted(events: Sequence[Event], types: Sequence[str]) -> list[Event]:
    """The events whose type is among ``types``."""
    return [e for e in events if e.type in types]


def webhooks_openapi() -> tuple[dict[str, Any], dict[str, Any]]:
    """The OpenAPI 3.1 ``webhooks`` section (one entry per event type) and the component schemas it refers to."""
    from pydantic.json_schema import models_json_schema

    models = (MemoryEvent, DeletionEvent, JobEvent)
    refs, top = models_json_schema(
        [(m, "serialization") for m in models], ref_template="#/components/schemas/{model}"
    )
    components = dict(top.get("$defs", {}))
    webhooks = {
        kind: {
            "post": {
                "summary": f"{kind} (envelope version {SCHEMA_VERSION})",
                "description": _DESCRIPTIONS[kind],
                "operationId": "event_" + kind.replace(".", "_"),
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": refs[(model, "serialization")]}},
                },
                "responses": {"2XX": {"description": "received (any other answer is retried)"}},
            }
        }
        for kind, model in SCHEMAS.items()
    }
    return webhooks, components


_DESCRIPTIONS = {
    "memory.created": "A memory was written for the first time (``data.supersedes``: the one it replaced).",
    "memory.merged": "A retain merged new text into an existing memory.",
    "memory.superseded": "A newer memory replaced this one (``data.superseded_by``).",
    "memory.updated": "Content, tags, metadata, pin, expiry or status changed (``data.changed``).",
    "memory.deleted": "A forget deleted the memory: its id and the receipt, never its content.",
    "memory.archived": "The lifecycle job (or a PATCH) archived the memory.",
    "memory.restored": "An archived memory came back to a live tier.",
    "memory.expired": "The lifecycle job deleted the memory because its expires_at had passed.",
    "job.succeeded": "An asynchronous retain finished (its results: ids and actions).",
    "job.failed": "An asynchronous retain failed (``data.error``).",
}


def _view(record: MemoryRecord) -> MemoryView:
    return MemoryView.of(record)


def _memory_event(kind: EventType, record: MemoryRecord, data: MemoryEventData) -> Event:
    return Event(
        id=event_id(record.tenant_id, record.id, str(record.version), kind),
        type=kind,
        tenant_id=record.tenant_id,
        occurred_at=record.updated_at,
        subject=record.id,
        data={
            k: v
            for k, v in data.model_dump(mode="json", exclude={"memory": {"history", "lifecycle"}}).items()
            if v is not None
        },
    )
