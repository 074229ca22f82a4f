"""The one derivation of events from record changes, on hand-built old and new records."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram.events.changes import (
    EVENT_TYPES,
    SCHEMAS,
    Event,
    deletion_events,
    job_events,
    memory_events,
    webhooks_openapi,
)
from engram.models import DeletionLogEntry, Job, MemoryRecord, RetainResult
from engram.ports import MemoryChange

T0 = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
T1 = T0 + timedelta(minutes=5)


def record(**changes: Any) -> MemoryRecord:
    base = MemoryRecord(
        tenant_id="acme",
        id="mem_a",
        scope="user:alice",
        content="I prefer dark mode",
        created_at=T0,
        updated_at=T0,
        content_hash="h1",
    )
    return base.model_copy(update=changes)


def change(old: MemoryRecord | None, new: MemoryRecord | None) -> MemoryChange:
    event = "INSERT" if old is None else ("REMOVE" if new is None else "MODIFY")
    return MemoryChange(
        sequence="1",
        event=event,  # type: ignore[arg-type]
        tenant_id="acme",
        memory_id="mem_a",
        new=new,
        vector=None,
        old=old,
        index_changed=True,
    )


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def test_a_new_record_is_created_with_its_memory_and_what_it_supersedes() -> None:
    # Given a record that did not exist before, replacing another one
    new = record(supersedes="mem_old")
    # When its change is derived
    [event] = memory_events(change(None, new))
    # Then it is one memory.created in the versioned envelope
    assert (event.type, event.version, event.tenant_id, event.subject) == (
        "memory.created",
        1,
        "acme",
        "mem_a",
    )
    assert event.occurred_at == T0
    assert event.data["memory"]["content"] == "I prefer dark mode"
    assert event.data["supersedes"] == "mem_old"
    assert "tenant_id" not in event.data["memory"]


def test_the_replaced_record_is_superseded_and_nothing_else() -> None:
    # Given the old record marked superseded by a newer one (status, validity and version change)
    old = record()
    new = record(status="superseded", superseded_by="mem_b", valid_until=T1, version=2, updated_at=T1)
    # When derived
    [event] = memory_events(change(old, new))
    # Then it is memory.superseded naming its successor, not also an update
    assert event.type == "memory.superseded"
    assert event.data["superseded_by"] == "mem_b"
    assert event.occurred_at == T1


def test_a_content_change_is_a_merge_only_when_the_history_says_merged() -> None:
    old = record()
    new = record(content="I prefer dark mode everywhere", content_hash="h2", version=2, updated_at=T1)
    # When derived with the merge's history entry, and without any
    [merged] = memory_events(change(old, new), cause="merged")
    [edited] = memory_events(change(old, new), cause="updated")
    [unknown] = memory_events(change(old, new))
    # Then the merge says merged; an edit (or a change of unknown cause) says updated, with the field
    assert (merged.type, edited.type, unknown.type) == ("memory.merged", "memory.updated", "memory.updated")
    assert edited.data["changed"] == ["content"]


def test_tags_metadata_pin_and_expiry_changes_are_updates_naming_each_field() -> None:
    old = record()
    new = record(tags=["ui"], metadata={"source": "chat"}, pinned=True, expires_at=T1, version=2)
    [event] = memory_events(change(old, new), cause="updated")
    assert event.type == "memory.updated"
    assert event.data["changed"] == ["tags", "metadata", "pinned", "expires_at"]


def test_archiving_and_restoring_are_their_own_events_with_the_tiers() -> None:
    live, archived = record(tier="working"), record(tier="archived", version=2)
    [gone] = memory_events(change(live, archived), cause="tier")
    [back] = memory_events(change(archived, record(tier="peripheral", version=3)), cause="tier")
    assert (gone.type, gone.data["from_tier"], gone.data["to_tier"]) == (
        "memory.archived",
        "working",
        "archived",
    )
    assert (back.type, back.data["from_tier"], back.data["to_tier"]) == (
        "memory.restored",
        "archived",
        "peripheral",
    )


def test_a_restore_with_new_content_is_a_restore_then_an_update() -> None:
    old = record(tier="archived")
    new = record(tier="working", content="new text", content_hash="h2", version=2)
    assert types(memory_events(change(old, new), cause="updated")) == ["memory.restored", "memory.updated"]


@pytest.mark.parametrize(
    "changes",
    [
        {"access_count": 7, "last_accessed_at": T1},  # a recall
        {"feedback_weight": 0.8, "version": 2},  # feedback
        {"tier": "core", "version": 2},  # a tier move between live tiers
        {"embedding_model": "local-minilm@384"},  # the deferred embedding arrived
    ],
    ids=["access", "feedback", "live-tier", "embedding"],
)
def test_bookkeeping_changes_imply_no_event(changes: dict[str, Any]) -> None:
    assert memory_events(change(record(), record(**changes))) == []


def test_a_removed_item_implies_nothing_the_deletion_log_says_why() -> None:
    assert memory_events(change(record(), None)) == []


def test_a_forget_receipt_is_one_deleted_event_per_memory_without_content() -> None:
    # Given the deletion log entry of a forget of two memories (one named twice)
    entry = DeletionLogEntry(
        receipt_id="rcpt_1", tenant_id="acme", at=T1, ids=["mem_a", "mem_b", "mem_a"], reason="ids"
    )
    # When derived
    events = deletion_events(entry)
    # Then each memory has one memory.deleted carrying the receipt, and no content at all
    assert types(events) == ["memory.deleted", "memory.deleted"]
    assert [e.subject for e in events] == ["mem_a", "mem_b"]
    assert events[0].data == {
        "memory_id": "mem_a",
        "receipt_id": "rcpt_1",
        "reason": "ids",
        "deleted_at": "2026-03-01T09:35:00Z",
    }


def test_an_expiry_receipt_is_expired_not_deleted() -> None:
    entry = DeletionLogEntry(receipt_id="rcpt_2", tenant_id="acme", at=T1, ids=["mem_a"], reason="expired")
    assert types(deletion_events(entry)) == ["memory.expired"]


def job(status: str, **changes: Any) -> Job:
    return Job(job_id="job_1", status=status, scope="user:alice", created_at=T0, updated_at=T1, **changes)  # type: ignore[arg-type]


def test_a_job_reaching_its_end_is_succeeded_or_failed_once() -> None:
    done = job("succeeded", results=[RetainResult(id="mem_a", action="created")])
    [ok] = job_events("acme", job("running"), done)
    [bad] = job_events("acme", None, job("failed", error="boom"))
    assert (ok.type, ok.data["results"]) == (
        "job.succeeded",
        [{"id": "mem_a", "action": "created", "reason": None}],
    )
    assert (bad.type, bad.data["error"]) == ("job.failed", "boom")
    assert job_events("acme", done, done) == []  # the same status again is no new event
    assert job_events("acme", None, job("running")) == []


def test_the_same_change_read_twice_has_the_same_event_id() -> None:
    new = record()
    first, again = memory_events(change(None, new)), memory_events(change(None, new))
    other = memory_events(change(None, record(id="mem_b")))
    assert first[0].id == again[0].id != other[0].id
    assert first[0].id.startswith("evt_")


def test_every_event_type_has_a_published_schema() -> None:
    webhooks, components = webhooks_openapi()
    assert set(webhooks) == set(EVENT_TYPES) == set(SCHEMAS)
    ref = webhooks["memory.deleted"]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert ref == "#/components/schemas/DeletionEvent"
    assert {"MemoryEvent", "DeletionEvent", "JobEvent", "MemoryView"} <= set(components)


def test_derived_events_validate_against_their_schema() -> None:
    created = memory_events(change(None, record()))[0]
    deleted = deletion_events(
        DeletionLogEntry(receipt_id="r", tenant_id="acme", at=T1, ids=["mem_a"], reason="ids")
    )[0]
    finished = job_events("acme", None, job("succeeded"))[0]
    for event in (created, deleted, finished):
        SCHEMAS[event.type].model_validate_json(event.model_dump_json())
