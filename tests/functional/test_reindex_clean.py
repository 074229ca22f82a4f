"""A clean rebuild (``engram reindex --clean``) on each backend's index: what the store holds is
indexed again, and a document of a memory the store does not have is removed."""

from __future__ import annotations

from engram.engine import Engine
from engram.identity import content_hash
from engram.models import MemoryRecord, RetainItem, RetainRequest


def test_a_clean_rebuild_keeps_the_stores_memories_and_drops_a_stray(engine: Engine) -> None:
    request = RetainRequest(
        scope="user:a", items=[RetainItem(text=t) for t in ("blue car", "red bike")], mode="raw"
    )
    ids = {r.id for r in engine.retain("acme", request).results}
    engine.embed_pending("acme")
    assert ids <= set(engine.index.indexed_ids("acme"))
    # a document the store has no memory for (left by a crash between a delete and its index removal)
    stray = next(iter(engine.store.records.get_many("acme", sorted(ids)).values())).model_copy(
        update={"id": "mem_" + "f" * 32, "content": "stray", "content_hash": content_hash("stray")}
    )
    assert isinstance(stray, MemoryRecord)
    engine.index.upsert("acme", [stray], [None])
    assert stray.id in set(engine.index.indexed_ids("acme"))
    counts = engine.reindex(["acme"], clean=True)
    assert counts == {"acme": 2}
    held = set(engine.index.indexed_ids("acme"))
    assert ids <= held and stray.id not in held
    assert set(engine.index.indexed_ids("globex")).isdisjoint(ids)
