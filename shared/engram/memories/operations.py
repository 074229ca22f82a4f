"""Single-memory operations and tenant-wide views: get, list, patch, restore, release, export, and
the write of imported memories (``engram.imports`` reads and checks them).

Text that comes in by ``PATCH`` or import is screened like retained text (``engram.screening``):
an instruction to a model is kept ``quarantined`` until someone reviews and releases it.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from engram.errors import ConflictError, NotFoundError
from engram.extraction.guard import instruction_like
from engram.extraction.rules import abstract_of, entities_of
from engram.identity import content_hash
from engram.lifecycle import sweep
from engram.memories.history import entry as history_entry
from engram.models import (
    HistoryEntry,
    ListRequest,
    ListResponse,
    MemoryRecord,
    MemoryView,
    PatchRequest,
    RestoreRequest,
    check_expiry,
    dump,
)
from engram.ports import (
    Clock,
    Conditions,
    MemoryHistory,
    MemoryRecords,
    Ports,
    SearchIndex,
    Vector,
    WriteBatch,
)
from engram.scopes import ScopeSet
from engram.screening.head import MARK_TAG, marked, second_look
from engram.tenants.tenancy import TenantContext

EXPORT_FORMAT = "engram.export.v1"


def get(
    context: TenantContext,
    memory_id: str,
    *,
    records: MemoryRecords,
    history: MemoryHistory,
    clock: Clock,
    with_history: bool = False,
) -> MemoryView:
    """One memory among the caller's scopes, with its lifecycle now under the tenant's settings
    (R, C, tier and why), and its version history on request."""
    tenant_id = context.tenant_id
    record = visible(records, tenant_id, memory_id, context.scopes)
    chain = _chain_history(tenant_id, record, records, history) if with_history else None
    view = MemoryView.of(record, chain)
    entries = history.history(tenant_id, memory_id)
    view.lifecycle = sweep.describe(record, entries, now=clock.now(), settings=context.settings)
    return view


def visible(records: MemoryRecords, tenant_id: str, memory_id: str, scopes: ScopeSet) -> MemoryRecord:
    """The memory if it exists among ``scopes``; one of another scope is "not found", as one of
    another tenant is."""
    record = records.get(tenant_id, memory_id)
    if record is None or not scopes.allows(record.scope):
        raise NotFoundError(f"memory '{memory_id}' not found")
    return record


MAX_CHAIN = 50


def _chain_history(
    tenant_id: str, record: MemoryRecord, records: MemoryRecords, history: MemoryHistory
) -> list[HistoryEntry]:
    """The history of a memory and of every version that superseded it or that it superseded,
    oldest first: the whole chain, whichever link is asked for."""
    older: list[str] = []
    newer: list[str] = []
    for link, found_ids in (("supersedes", older), ("superseded_by", newer)):
        cursor = record
        while len(older) + len(newer) < MAX_CHAIN:
            next_id = getattr(cursor, link)
            seen = next_id in older or next_id in newer or next_id == record.id
            found = records.get(tenant_id, next_id) if next_id and not seen else None
            if found is None or found.scope != record.scope:
                break
            found_ids.append(found.id)
            cursor = found
    chain = [*reversed(older), record.id, *newer]  # oldest version first
    entries = [entry for memory_id in chain for entry in history.history(tenant_id, memory_id)]
    # One supersede writes both sides at the same time: the old version ends before the new one starts.
    return sorted(entries, key=lambda e: (e.at, e.event != "superseded"))


def list_memories(
    tenant_id: str, request: ListRequest, *, scopes: ScopeSet, records: MemoryRecords
) -> ListResponse:
    conditions = Conditions(
        scopes=scopes,
        statuses=(request.status,) if request.status else (),
        categories=(request.category,) if request.category else (),
        tiers=(request.tier,) if request.tier else (),
        exclude_tiers=(),
    )
    page = records.list_page(
        tenant_id, conditions, cursor=request.cursor, limit=request.limit, tag=request.tag
    )
    views = [MemoryView.of(r) for r in page.records]
    fit = _fitting(views, LIST_MAX_BYTES)
    if fit < len(views):  # over the byte bound: the same page, shorter, with the store's own cursor
        page = records.list_page(tenant_id, conditions, cursor=request.cursor, limit=fit, tag=request.tag)
        views = [MemoryView.of(r) for r in page.records]
    return ListResponse(memories=views, next_cursor=page.next_cursor)


LIST_MAX_BYTES = 5 * 1024 * 1024
"""A page of the listing answers at most this much JSON (Lambda answers at most 6 MB); a page
that would be larger holds fewer memories than ``limit`` and its cursor goes on from there."""


def _fitting(views: list[MemoryView], budget: int) -> int:
    """How many of ``views`` fit ``budget`` bytes of UTF-8 JSON (at least one)."""
    used = 64  # the envelope: {"memories": [...], "next_cursor": "..."}
    for count, view in enumerate(views):
        used += len(json.dumps(dump(view), default=str, ensure_ascii=False).encode()) + 2
        if used > budget:
            return max(1, count)
    return len(views)


def patch(
    tenant_id: str,
    memory_id: str,
    request: PatchRequest,
    ports: Ports,
    *,
    scopes: ScopeSet,
    reason: str = "set by PATCH",
) -> MemoryView:
    """Change content (re-embedded), tags, metadata, pin, tier or expiry; one version and history
    entry per patch. Moving a memory out of ``archived`` restores it to the search index and
    restarts its decay clock (``last_accessed_at`` = now), so the next job run does not archive
    it again at once; moving it into ``archived`` takes it out of the index."""
    records, index, embedder, clock = ports.records, ports.index, ports.embedder, ports.clock
    record = visible(records, tenant_id, memory_id, scopes)
    now = clock.now()
    changes: dict[str, Any] = {"version": record.version + 1, "updated_at": now}
    detail: dict[str, Any] = {"fields": sorted(request.model_fields_set)}
    if "expires_at" in request.model_fields_set:
        check_expiry(request.expires_at, now)
        changes["expires_at"] = request.expires_at  # null clears it
    if request.tier is not None and request.tier != record.tier:
        changes["tier"] = request.tier
        if record.tier == "archived":
            changes["last_accessed_at"] = now
        detail.update(from_tier=record.tier, to_tier=request.tier, by="request", reason=reason)
    vector = None
    if request.content is not None and request.content != record.content:
        # Everything derived from the old text goes with it: abstract, overview, key facts, entities.
        changes.update(
            content=request.content,
            content_hash=content_hash(request.content),
            abstract=abstract_of(request.content),
            overview=request.content,
            key_facts=[],
            entities=entities_of(request.content),
        )
        changes.update(_quarantine(record, request.content, detail))
        vector = embedder.embed([request.content])[0]
        if "status" not in changes and record.status != "quarantined":
            changes.update(_second_look(record, request.content, vector, embedder.model_id, detail))
    for name in ("tags", "metadata", "pinned"):
        value = getattr(request, name)
        if value is not None:
            changes[name] = value
    if (changes.get("status") or record.status) == "quarantined" and "quarantined" not in changes.get(
        "tags", []
    ):
        changes["tags"] = [*changes.get("tags", record.tags), "quarantined"]  # the review tag stays
    updated = record.model_copy(update=changes)
    entry = history_entry(
        updated, "tier" if "to_tier" in detail and request.content is None else "updated", now, detail
    )
    if not records.update(tenant_id, updated, expected_version=record.version, history=entry, vector=vector):
        raise ConflictError("the memory changed while it was being patched; retry")
    if updated.tier == "archived":
        index.remove(tenant_id, [memory_id], states=[updated])
    elif vector is not None or updated.tier != record.tier:
        vectors = {memory_id: vector} if vector is not None else records.get_vectors(tenant_id, [memory_id])
        index.upsert(tenant_id, [updated], [vectors.get(memory_id)])
    return MemoryView.of(updated)


def restore(
    tenant_id: str,
    memory_id: str,
    request: RestoreRequest,
    ports: Ports,
    *,
    scopes: ScopeSet,
) -> MemoryView:
    """Bring an archived memory back into ``request.tier`` (a memory that is not archived is
    returned unchanged, so a retried restore is harmless)."""
    record = visible(ports.records, tenant_id, memory_id, scopes)
    if record.tier != "archived":
        return MemoryView.of(record)
    return patch(
        tenant_id,
        memory_id,
        PatchRequest(tier=request.tier),
        ports,
        scopes=scopes,
        reason="restored",
    )


def _quarantine(record: MemoryRecord, content: str, detail: dict[str, Any]) -> dict[str, Any]:
    """The changes that quarantine ``record`` if ``content`` reads as an instruction (noted in
    ``detail``); none if it does not, or if the memory is quarantined already."""
    reason = instruction_like(content, user_said=record.trust in ("user-stated", "imported"))
    if reason is None or record.status == "quarantined":
        return {}
    detail["quarantined"] = reason
    return {"status": "quarantined", "tags": list(dict.fromkeys([*record.tags, "quarantined"]))}


def _second_look(
    record: MemoryRecord, content: str, vector: Vector, model_id: str, detail: dict[str, Any]
) -> dict[str, Any]:
    """The screening head on the new text's vector (the patterns found nothing): the changes
    that quarantine or mark ``record``, noted in ``detail``."""
    verdict = second_look([content], vector[None, :], model_id)[0]
    if verdict is None:
        return {}
    detail["quarantined" if verdict.action == "quarantine" else "marked"] = verdict.reason
    changes: dict[str, Any] = {"tags": marked(record.tags, verdict)}
    if verdict.action == "quarantine":
        changes["status"] = "quarantined"
    return changes


def release(
    context: TenantContext,
    memory_id: str,
    *,
    records: MemoryRecords,
    index: SearchIndex,
    clock: Clock,
    released_by: str = "",
) -> MemoryView:
    """Return a quarantined memory to recall after review: ``active`` again (``superseded`` if a
    newer version replaced it meanwhile), without the ``quarantined`` tag, with a history entry
    naming who released it (``released_by``, by default the caller's key). A memory that is not
    quarantined is a conflict."""
    tenant_id = context.tenant_id
    record = visible(records, tenant_id, memory_id, context.scopes)
    if record.status != "quarantined":
        raise ConflictError(f"memory '{memory_id}' is not quarantined (status: {record.status})")
    now = clock.now()
    status = "superseded" if record.superseded_by else "active"
    updated = record.model_copy(
        update={
            "status": status,
            # Released, it still reads as an instruction: recall's debug trace says so.
            "tags": [*(t for t in record.tags if t not in ("quarantined", MARK_TAG)), MARK_TAG],
            "version": record.version + 1,
            "updated_at": now,
        }
    )
    detail = {"from": "quarantined", "to": status, "released_by": released_by or context.key_id or "unknown"}
    entry = history_entry(updated, "released", now, detail)
    if not records.update(tenant_id, updated, expected_version=record.version, history=entry):
        raise ConflictError("the memory changed while it was being released; retry")
    vectors = records.get_vectors(tenant_id, [memory_id])
    if memory_id in vectors:  # the index filters on status: it must learn the new one
        index.upsert(tenant_id, [updated], [vectors[memory_id]])
    return MemoryView.of(updated)


def _screened(
    record: MemoryRecord, history: list[HistoryEntry], now: datetime
) -> tuple[MemoryRecord, list[HistoryEntry]]:
    """An imported memory whose text reads as an instruction, quarantined with a history entry."""
    detail: dict[str, Any] = {"by": "import"}
    changes = _quarantine(record, record.content, detail)
    if not changes:
        return record, history
    record = record.model_copy(update={**changes, "version": record.version + 1})
    return record, [*history, history_entry(record, "updated", now, detail)]


def export_lines(
    tenant_id: str, *, records: MemoryRecords, history: MemoryHistory, scopes: ScopeSet
) -> Iterator[str]:
    """JSONL: one header line, then one line per memory (of ``scopes``, if given) with its
    history and embedding."""
    yield json.dumps({"format": EXPORT_FORMAT, "tenant_id": tenant_id})
    for record, vector in records.iter_records(tenant_id):
        if not scopes.allows(record.scope):
            continue
        line = {
            "memory": record.model_dump(mode="json", exclude={"tenant_id"}),
            "history": [h.model_dump(mode="json") for h in history.history(tenant_id, record.id)],
            "embedding": base64.b64encode(vector.tobytes()).decode() if vector is not None else None,
        }
        yield json.dumps(line, sort_keys=True)


Imported = tuple[MemoryRecord, list[HistoryEntry], np.ndarray | None]
"""A memory to import, its history and its vector (None: embed it)."""


def write_imported(
    tenant_id: str,
    items: Sequence[Imported],
    ports: Ports,
    *,
    now: datetime,
    batch_size: int = 200,
    progress: Callable[[int, int], None] | None = None,
) -> list[MemoryRecord]:
    """Write validated imports in batches (one store write and one index upsert each); returns
    the memories written. An id that exists already is skipped; instruction-like text is
    quarantined; a memory without a vector is embedded."""
    store, embedder = ports.records, ports.embedder
    written: list[MemoryRecord] = []
    for start in range(0, len(items), batch_size):
        batch = [(*_screened(r, h, now), v) for r, h, v in items[start : start + batch_size]]
        existing = store.get_many(tenant_id, [r.id for r, _, _ in batch])
        fresh = [(r, h, v) for r, h, v in batch if r.id not in existing]
        to_embed = [i for i, (_, _, v) in enumerate(fresh) if v is None]
        vectors = [v for _, _, v in fresh]
        if to_embed:
            embedded = embedder.embed([fresh[i][0].content for i in to_embed])
            for j, i in enumerate(to_embed):
                vectors[i] = embedded[j]
        records = [
            r.model_copy(update={"embedding_model": embedder.model_id}) if i in to_embed else r
            for i, (r, _, _) in enumerate(fresh)
        ]
        arrays: list[Vector] = [np.asarray(v, dtype=np.float32) for v in vectors]
        if records:
            history = [h for _, hs, _ in fresh for h in hs]
            store.write(tenant_id, WriteBatch(records=records, vectors=list(arrays), history=history))
            ports.index.upsert(tenant_id, records, arrays)
        written.extend(records)
        if progress is not None:
            progress(min(start + batch_size, len(items)), len(items))
    return written
