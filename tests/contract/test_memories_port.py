"""``MemoryRecords``, the same contract on every backend: conditional updates, listings in
creation order with an opaque cursor, reads by id, hash, thread and vector, access counts, hard
deletes, and one tenant never seeing, changing or counting another's memories."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np
import pytest
from store_support import EVERY_SCOPE, T0, Backend, log, put, record, vector

from engram.errors import ValidationFailedError
from engram.identity import content_hash, memory_id
from engram.models import MemoryRecord, Source
from engram.ports import ConditionalUpdate, Conditions, WriteBatch
from engram.scopes import ScopeSet


def test_an_update_with_a_stale_version_changes_nothing(backend: Backend) -> None:
    store = backend.store
    original = record("acme", "I prefer dark mode")
    put(store, original)
    first = original.model_copy(update={"feedback_weight": 0.65, "version": 2})
    stale = original.model_copy(update={"feedback_weight": 0.1, "version": 2})
    assert store.records.update("acme", first, expected_version=1)
    assert not store.records.update("acme", stale, expected_version=1)
    stored = store.records.get("acme", original.id)
    assert stored is not None and stored.feedback_weight == 0.65 and stored.version == 2


def test_an_update_keeps_the_stored_vector_and_the_accesses_recalls_added(backend: Backend) -> None:
    store = backend.store
    original = record("acme", "I prefer dark mode")
    put(store, original)
    # a recall counts an access after the writer read the record
    store.records.record_access("acme", [original.id], T0 + timedelta(hours=1))
    assert store.records.update(
        "acme", original.model_copy(update={"version": 2, "tags": ["ui"]}), expected_version=1
    )
    [(stored, kept)] = list(store.records.iter_records("acme"))
    assert kept is not None and np.allclose(kept, vector(0), rtol=2**-11, atol=1e-7)
    assert (
        stored.tags == ["ui"]
        and stored.access_count == 1
        and stored.last_accessed_at == T0 + timedelta(hours=1)
    )


def test_a_lifecycle_batch_skips_what_changed_or_was_recalled_since_it_was_read(backend: Backend) -> None:
    store = backend.store
    untouched, recalled, rewritten = (record("acme", f"fact {i}", minute=i) for i in range(3))
    put(store, untouched, recalled, rewritten)
    store.records.record_access("acme", [recalled.id], T0 + timedelta(hours=1))
    assert store.records.update(
        "acme", rewritten.model_copy(update={"version": 2, "tags": ["x"]}), expected_version=1
    )
    demoted = [
        ConditionalUpdate(r.model_copy(update={"tier": "archived", "version": 2}), expected_version=1)
        for r in (untouched, recalled, rewritten)
    ]
    assert store.records.update_many("acme", demoted) == [untouched.id]
    tiers = {r.id: r.tier for r, _ in store.records.iter_records("acme")}
    assert tiers == {untouched.id: "archived", recalled.id: untouched.tier, rewritten.id: untouched.tier}


def test_listing_pages_through_every_memory_in_creation_order(backend: Backend) -> None:
    store = backend.store
    records = [
        record("acme", f"fact number {i}", scope="user:alice" if i % 3 else "user:bob", minute=i)
        for i in range(25)
    ]
    put(store, *records)
    for scopes, expected in (
        (ScopeSet.every(), records),
        (ScopeSet.of(["user:bob"]), [r for r in records if r.scope == "user:bob"]),
        (ScopeSet.of(["user:alice", "user:bob"]), records),
    ):
        seen: list[str] = []
        cursor = None
        pages = 0
        while True:
            page = store.records.list_page("acme", Conditions(scopes=scopes), cursor=cursor, limit=4)
            seen += [r.id for r in page.records]
            pages += 1
            cursor = page.next_cursor
            if cursor is None:
                break
        assert seen == [r.id for r in expected]
        assert pages == -(-len(expected) // 4)


def test_a_listing_by_tag_and_a_made_up_cursor(backend: Backend) -> None:
    store = backend.store
    put(store, record("acme", "tagged", tags=["ui"]), record("acme", "plain", minute=1))
    page = store.records.list_page("acme", EVERY_SCOPE, cursor=None, limit=10, tag="ui")
    assert [r.content for r in page.records] == ["tagged"] and page.next_cursor is None
    for forged in ("not-a-cursor", "WyJ4Il0=", "bWVtXzE="):  # garbage, a one-element list, plain text
        with pytest.raises(ValidationFailedError, match="cursor"):
            store.records.list_page("acme", EVERY_SCOPE, cursor=forged, limit=2)


def test_selecting_ids_by_tier_age_and_limit(backend: Backend) -> None:
    store = backend.store
    core, old, new = (
        record("acme", "core", tier="core"),
        record("acme", "old", minute=1),
        record("acme", "new", minute=9),
    )
    put(store, core, old, new)
    assert store.records.select_ids("acme", Conditions(scopes=ScopeSet.every(), tiers=("core",))) == [core.id]
    assert store.records.select_ids("acme", EVERY_SCOPE, older_than=T0 + timedelta(minutes=5)) == [
        core.id,
        old.id,
    ]
    assert store.records.select_ids("acme", EVERY_SCOPE, limit=2) == [core.id, old.id]


def test_find_by_hash_finds_an_active_memory_of_the_scope(backend: Backend) -> None:
    store = backend.store
    r = record("acme", "I prefer dark mode")
    put(store, r, record("acme", "gone", status="superseded", minute=1))
    # one whose id its text derives may be left to the read by that id (DynamoDB's sparse g4)
    found = store.records.find_by_hash("acme", "user:alice", r.content_hash) or store.records.get(
        "acme", r.id
    )
    assert found is not None and found.id == r.id
    assert store.records.find_by_hash("acme", "user:bob", r.content_hash) is None
    assert store.records.find_by_hash("acme", "user:alice", record("acme", "gone").content_hash) is None
    assert store.records.find_by_hash("globex", "user:alice", r.content_hash) is None


def test_find_by_hash_finds_a_memory_whose_text_changed_and_not_by_its_old_text(backend: Backend) -> None:
    store = backend.store
    # Given a memory whose text was edited (its id is still its first text's)
    first = record("acme", "I prefer light mode")
    put(store, first)
    edited = first.model_copy(
        update={
            "content": "I prefer dark mode",
            "content_hash": content_hash("I prefer dark mode"),
            "version": 2,
        }
    )
    assert store.records.update("acme", edited, expected_version=1)
    # Then its new text finds it, its old text does not, and no other tenant's or scope's does
    found = store.records.find_by_hash("acme", "user:alice", content_hash("I prefer dark mode"))
    assert found is not None and found.id == first.id and found.version == 2
    assert store.records.find_by_hash("acme", "user:alice", first.content_hash) is None
    assert store.records.find_by_hash("acme", "user:bob", edited.content_hash) is None
    assert store.records.find_by_hash("globex", "user:alice", edited.content_hash) is None
    # And when it is edited back to its first text, the read by id finds it again
    back = edited.model_copy(
        update={"content": first.content, "content_hash": first.content_hash, "version": 3}
    )
    assert store.records.update("acme", back, expected_version=2)
    again = store.records.find_by_hash("acme", "user:alice", first.content_hash) or store.records.get(
        "acme", first.id
    )
    assert again is not None and again.version == 3
    assert store.records.find_by_hash("acme", "user:alice", edited.content_hash) is None


def test_thread_neighbours_come_in_retain_order_within_scope_thread_and_conditions(backend: Backend) -> None:
    store = backend.store

    def turn(i: int, session: str | None = "s1", scope: str = "user:alice", **fields: Any) -> MemoryRecord:
        return record(
            "acme", f"turn {i} of {session}", scope, minute=i, source=Source(session_id=session), **fields
        )

    turns = [turn(i) for i in range(6)]
    put(store, *turns, turn(10, session="s2"), turn(11, scope="user:bob"), turn(12, session=None))
    put(store, turn(13, status="superseded"))
    ids = [t.id for t in turns]
    active = Conditions(scopes=ScopeSet.every())
    assert store.records.neighbours("acme", [ids[2]], active, 2) == {ids[2]: [ids[0], ids[1], ids[3], ids[4]]}
    # a memory without a thread has no neighbours; the superseded turn is filtered out
    assert (
        store.records.neighbours("acme", [memory_id("acme", "user:alice", "turn 12 of None")], active, 2)
        == {}
    )
    assert store.records.neighbours("acme", [ids[5]], active, 3) == {ids[5]: [ids[2], ids[3], ids[4]]}
    assert store.records.neighbours("globex", [ids[2]], active, 2) == {}


def test_stored_vectors_come_back_by_id_for_this_tenant_only(backend: Backend) -> None:
    store = backend.store
    a, b = record("acme", "first text"), record("acme", "second text", minute=1)
    put(store, a)
    put(store, b, embed=False)
    vectors = store.records.get_vectors("acme", [a.id, b.id, "mem_" + "0" * 32])
    # as stored: DynamoDB's at half precision, each component within 2^-11 of itself
    assert list(vectors) == [a.id] and np.allclose(vectors[a.id], vector(0), rtol=2**-11, atol=1e-7)
    assert store.records.get_vectors("globex", [a.id]) == {}


def test_record_access_counts_once_per_call_and_keeps_the_version(backend: Backend) -> None:
    store = backend.store
    r = record("acme", "first text")
    put(store, r)
    store.records.record_access("acme", [r.id, r.id], T0 + timedelta(hours=24))
    stored = store.records.get("acme", r.id)
    assert stored is not None
    assert (stored.access_count, stored.version, stored.last_accessed_at) == (1, 1, T0 + timedelta(hours=24))


def test_a_hard_delete_returns_only_the_ids_that_were_there(backend: Backend) -> None:
    store = backend.store
    a, b = record("acme", "first text"), record("acme", "second text", minute=1)
    put(store, a, b)
    assert store.records.delete("acme", [a.id, "mem_" + "0" * 32], log("acme")) == [a.id]
    assert store.records.get("acme", a.id) is None and list(store.records.get_many("acme", [a.id, b.id])) == [
        b.id
    ]
    assert store.records.stats("acme").total == 1


def test_counts_by_scope_category_tier_status_and_backlog(backend: Backend) -> None:
    store = backend.store
    put(store, record("acme", "a"), record("acme", "b", scope="user:bob", minute=1, tier="core"))
    put(store, record("acme", "c", minute=2), embed=False)
    stats = store.records.stats("acme")
    assert (stats.total, stats.by_scope, stats.pending_embedding) == (3, {"user:alice": 2, "user:bob": 1}, 1)
    assert stats.by_tier["core"] == 1 and stats.by_status == {"active": 3} and stats.storage_bytes > 0
    assert store.records.stats("acme", scopes=["user:bob"]).total == 1


def test_one_tenant_never_sees_changes_or_counts_anothers_memories(backend: Backend) -> None:
    store = backend.store
    mine = record("acme", "acme's secret plan")
    put(store, mine)
    put(store, record("globex", "globex note"))
    # globex cannot read it by id, list it, find it, count it or access it
    assert store.records.get("globex", mine.id) is None and store.records.get_many("globex", [mine.id]) == {}
    assert store.records.select_ids("globex", EVERY_SCOPE) == [
        memory_id("globex", "user:alice", "globex note")
    ]
    assert [
        r.content for r in store.records.list_page("globex", EVERY_SCOPE, cursor=None, limit=10).records
    ] == ["globex note"]
    assert [r.content for r, _ in store.records.iter_records("globex")] == ["globex note"]
    assert store.records.stats("globex").total == 1
    store.records.record_access("globex", [mine.id], T0)
    # nor change or delete it
    forged = mine.model_copy(update={"tenant_id": "globex", "feedback_weight": 0.0, "version": 2})
    assert not store.records.update("globex", forged, expected_version=1)
    assert store.records.update_many("globex", [ConditionalUpdate(forged, expected_version=1)]) == []
    assert store.records.delete("globex", [mine.id], log("globex")) == []
    for wrong in (
        lambda: store.records.update("globex", mine.model_copy(update={"version": 2}), expected_version=1),
        lambda: store.records.write("globex", WriteBatch(records=[mine])),
        lambda: store.records.update_many("globex", [ConditionalUpdate(mine, expected_version=1)]),
    ):
        with pytest.raises(ValidationFailedError):
            wrong()
    stored = store.records.get("acme", mine.id)
    assert stored is not None and stored.feedback_weight == 0.5 and stored.access_count == 0
