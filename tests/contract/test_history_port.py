"""``MemoryHistory``: each memory's changes in the order they happened, written with the change
(in the same transaction where the backend has one), gone with the memory, per tenant."""

from __future__ import annotations

from datetime import timedelta

from store_support import T0, Backend, log, put, record

from engram.models import HistoryEntry
from engram.ports import ConditionalUpdate


def _entry(memory_id: str, version: int, event: str, content: str) -> HistoryEntry:
    return HistoryEntry(
        memory_id=memory_id, version=version, event=event, at=T0 + timedelta(minutes=version), content=content
    )


def test_history_lists_every_change_in_order_and_a_failed_update_adds_none(backend: Backend) -> None:
    store = backend.store
    r = record("acme", "I prefer dark mode")
    put(store, r)
    patched = r.model_copy(update={"version": 2, "tags": ["ui"]})
    assert store.records.update(
        "acme", patched, expected_version=1, history=_entry(r.id, 2, "updated", r.content)
    )
    assert not store.records.update(
        "acme", patched, expected_version=1, history=_entry(r.id, 2, "feedback", r.content)
    )
    archived = patched.model_copy(update={"version": 3, "tier": "archived"})
    applied = store.records.update_many(
        "acme",
        [ConditionalUpdate(archived, expected_version=2, history=_entry(r.id, 3, "tier", r.content))],
    )
    assert applied == [r.id]
    assert [(h.version, h.event) for h in store.history.history("acme", r.id)] == [
        (1, "created"),
        (2, "updated"),
        (3, "tier"),
    ]


def test_history_is_per_tenant_and_goes_with_its_memory(backend: Backend) -> None:
    store = backend.store
    mine, kept = record("acme", "acme's plan"), record("acme", "acme's other plan", minute=1)
    put(store, mine, kept)
    assert store.history.history("globex", mine.id) == []
    assert store.records.delete("acme", [mine.id], log("acme")) == [mine.id]
    assert store.history.history("acme", mine.id) == []
    assert [h.event for h in store.history.history("acme", kept.id)] == ["created"]
