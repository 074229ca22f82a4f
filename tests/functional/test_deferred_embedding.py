"""Raw retains are acknowledged once durable; their vectors follow, and no read ever misses them."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from engram.adapters import sqlite_index
from engram.engine import Engine
from engram.identity import content_hash
from engram.models import PatchRequest, RecallRequest, RetainItem, RetainRequest
from engram.settings import Settings


def _retain_raw(engine: Engine, texts: list[str]) -> list[str]:
    request = RetainRequest(scope="user:alice", items=[RetainItem(text=t) for t in texts], mode="raw")
    return [r.id for r in engine.retain("acme", request).results]


def test_a_raw_retain_is_stored_before_its_vector_and_recall_still_finds_it(data_dir: Path) -> None:
    # Given an engine without the background embedder (so the backlog stays visible)
    engine = Engine.local(Settings(data_dir=data_dir, background_embedding=False))
    engine.create_tenant("acme")
    # When raw texts are retained
    ids = _retain_raw(engine, ["I prefer dark mode", "The standup starts at nine"])
    # Then they are durable without vectors, and a paraphrased recall embeds them first and finds them
    assert {i for i, _, _ in engine.store.pending.pending_embedding("acme", 10)} == set(ids)
    found = engine.recall("acme", RecallRequest(query="what theme do I like?"))
    assert found.memories[0].id == ids[0]
    assert engine.store.pending.pending_embedding("acme", 10) == []


TOPICS = [
    "the {n}th rehearsal ran long because the drummer forgot the setlist",
    "we drove {n} miles to the lake and the kids slept the whole way",
    "my sister paid {n} dollars for the concert tickets, can you believe it",
    "honestly the sourdough starter is on day {n} and still not bubbling",
    "the landlord said the boiler will be fixed within {n} days",
    "haha yes, that was {n} years ago now",
]


def _bulk_turns(count: int) -> list[list[str]]:
    """``count`` chat turns in sessions of 100, varied enough that BM25 statistics are ordinary."""
    turns = [f"{('Ana', 'Ben')[i % 2]}: " + TOPICS[i % len(TOPICS)].format(n=i) for i in range(count)]
    return [turns[start : start + 100] for start in range(0, count, 100)]


def test_a_recall_right_after_a_5000_turn_retain_answers_from_bm25_while_the_backlog_embeds(
    data_dir: Path,
) -> None:
    # Given the default engine (a background embedder, recall does not wait), and 5,000 turns
    # retained in 50 sessions, the last of which holds the one turn about a passport
    engine = Engine.local(Settings(data_dir=data_dir))
    engine.create_tenant("acme")
    sessions = _bulk_turns(5000)
    sessions[-1][50] = "Ana: my passport number is XK-2291, remind me before the Lisbon trip"
    ids: list[str] = []
    for number, turns in enumerate(sessions):
        request = RetainRequest(
            scope="user:alice",
            mode="raw",
            session_id=f"s{number}",
            items=[RetainItem(text=t) for t in turns],
        )
        ids += [r.id for r in engine.retain("acme", request).results]
    passport, exact = ids[-50], ids[-3]
    unembedded = {i for i, _, _ in engine.store.pending.pending_embedding("acme", 5000)}
    assert {passport, exact} <= unembedded

    # When recalls come at once: one by the passport's words, one by a turn's exact text
    by_words = engine.recall("acme", RecallRequest(query="what is Ana's passport number?"))
    by_text = engine.recall("acme", RecallRequest(query=sessions[-1][-3], min_score=0.0))
    backlog = engine.stats("acme").pending_embedding

    # Then both answer with the turn, while the backlog is still being embedded
    assert by_words.memories and by_words.memories[0].id == passport
    assert by_text.memories and by_text.memories[0].id == exact
    assert backlog > 0
    engine.erase_tenant("acme")  # nothing left for the background embedder
    engine.close()


def test_the_background_embedder_clears_the_backlog_without_any_read(data_dir: Path) -> None:
    # Given a few hundred raw texts retained in batches
    engine = Engine.local(Settings(data_dir=data_dir))
    engine.create_tenant("acme")
    for start in range(0, 300, 100):
        _retain_raw(
            engine, [f"Note {i} about the quarterly migration plan" for i in range(start, start + 100)]
        )
    # When nobody reads, for as long as the backlog takes
    deadline = time.monotonic() + 60
    while engine.store.pending.pending_embedding("acme", 1) and time.monotonic() < deadline:
        time.sleep(0.05)
    # Then every memory has its vector, of the configured model
    assert engine.store.pending.pending_embedding("acme", 10) == []
    records = list(engine.store.records.iter_records("acme"))
    assert len(records) == 300
    assert all(v is not None and v.shape == (384,) for _, v in records)
    assert {r.embedding_model for r, _ in records} == {engine.embedder.model_id}
    engine.close()


def test_close_embeds_what_is_still_pending(data_dir: Path) -> None:
    # Given a backlog the background embedder will not touch
    engine = Engine.local(Settings(data_dir=data_dir, background_embedding=False))
    engine.create_tenant("acme")
    _retain_raw(engine, ["I prefer dark mode", "I live in Porto"])
    # When the engine closes
    engine.close()
    # Then nothing is left pending
    assert engine.store.pending.pending_embedding("acme", 10) == []


def test_a_vector_computed_for_an_old_text_never_lands_on_a_patched_memory(data_dir: Path) -> None:
    # Given a raw memory still waiting for its vector
    engine = Engine.local(Settings(data_dir=data_dir, background_embedding=False))
    engine.create_tenant("acme")
    memory_id = _retain_raw(engine, ["I live in Porto"])[0]
    stale = engine.embedder.embed(["I live in Porto"])[0]
    # When its text is patched, and then the old text's vector arrives
    engine.patch("acme", memory_id, PatchRequest(content="I live in Lisbon"))
    updated = engine.store.pending.set_embeddings(
        "acme", [(memory_id, content_hash("I live in Porto"), stale)], engine.embedder.model_id
    )
    # Then the stale vector is refused and the stored one is the new text's
    assert updated == []
    ((_, vector),) = [(r, v) for r, v in engine.store.records.iter_records("acme")]
    assert vector is not None
    expected = engine.embedder.embed(["I live in Lisbon"])[0]
    assert float(np.dot(vector, expected)) > 0.999


def test_deferral_can_be_turned_off(data_dir: Path) -> None:
    # Given an engine with deferred embedding off
    settings = Settings(data_dir=data_dir).for_tenant({"retain": {"defer_embedding": False}})
    engine = Engine.local(settings)
    engine.create_tenant("acme")
    # When a raw text is retained
    _retain_raw(engine, ["I prefer dark mode"])
    # Then it has its vector at once
    assert engine.store.pending.pending_embedding("acme", 10) == []


def test_writes_in_this_process_keep_the_search_cache_without_reloading_it(data_dir: Path) -> None:
    # Given a loaded search cache and the background embedder running
    engine = Engine.local(Settings(data_dir=data_dir))
    engine.create_tenant("acme")
    _retain_raw(engine, ["I prefer dark mode"])
    engine.recall("acme", RecallRequest(query="dark mode"))
    loads = engine.index.loads  # type: ignore[attr-defined]

    # When two threads retain while recalls run, and the embedder commits in between
    def writer(offset: int) -> None:
        for start in range(offset, offset + 200, 50):
            _retain_raw(engine, [f"Entry {i} of the migration diary" for i in range(start, start + 50)])

    threads = [threading.Thread(target=writer, args=(n,)) for n in (0, 1000)]
    for t in threads:
        t.start()
    for _ in range(10):  # (no access tracking: the lifecycle boost of what they return is not at issue)
        engine.recall("acme", RecallRequest(query="migration diary", track_access=False))
    for t in threads:
        t.join()
    engine.close()
    # Then the cache was never reloaded, and it holds every memory
    found = engine.recall(
        "acme", RecallRequest(query="Entry 1150 of the migration diary", limit=1, min_score=0)
    )
    assert engine.index.loads == loads  # type: ignore[attr-defined]
    assert found.memories[0].content == "Entry 1150 of the migration diary"


def test_a_long_running_engine_packs_the_rows_its_deferred_embeddings_leave_behind(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a loaded search cache, packing from 64 dead rows (4,096 in a server)
    monkeypatch.setattr(sqlite_index, "PACK_DEAD_ROWS", 64)
    engine = Engine.local(Settings(data_dir=data_dir))
    engine.create_tenant("acme")
    _retain_raw(engine, ["I prefer dark mode"])
    engine.recall("acme", RecallRequest(query="dark mode"))
    loads = engine.index.loads  # type: ignore[attr-defined]
    # When 400 memories are retained, each stored before its vector and written again with it
    for start in range(0, 400, 50):
        _retain_raw(engine, [f"Entry {i} of the migration diary" for i in range(start, start + 50)])
        engine.recall("acme", RecallRequest(query="migration diary", track_access=False))
    engine.close()
    found = engine.recall(
        "acme", RecallRequest(query="Entry 350 of the migration diary", limit=1, min_score=0)
    )
    # Then the cache holds every memory beside at most half as many dead rows (it held one dead
    # row per memory before packing), and it never loaded the tenant again
    cache = engine.index._tenants["acme"]  # type: ignore[attr-defined]
    assert len(cache.row_of) == 401 and cache.dead <= 401 // 2
    assert engine.index.loads == loads  # type: ignore[attr-defined]
    assert found.memories[0].content == "Entry 350 of the migration diary"


def test_a_write_by_another_process_makes_the_next_query_reload(data_dir: Path) -> None:
    # Given two engines on the same file, as two processes would have
    first = Engine.local(Settings(data_dir=data_dir))
    first.create_tenant("acme")
    _retain_raw(first, ["I prefer dark mode"])
    first.recall("acme", RecallRequest(query="dark mode"))
    second = Engine.local(Settings(data_dir=data_dir))
    # When the second one writes
    second.retain("acme", RetainRequest(scope="user:alice", text="My cat is called Miso", mode="raw"))
    second.close()
    # Then the first one sees it on its next recall
    found = first.recall("acme", RecallRequest(query="what is my cat's name?"))
    assert found.memories[0].content == "My cat is called Miso"
