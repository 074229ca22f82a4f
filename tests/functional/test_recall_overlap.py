"""Recall runs BM25 and reads its hits' records on another thread while it embeds the query."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from engram.engine import Engine
from engram.models import RecallRequest, RetainItem, RetainRequest, parse

TEXTS = [
    "Deploys on the green cluster fail with error E4711 after the cache flush",
    "I prefer dark mode in every editor",
    "The billing dashboard shows invoices by month",
]


def _spy(engine: Engine, obj: Any, name: str, seen: list[tuple[str, str]]) -> None:
    original = getattr(obj, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append((name, threading.current_thread().name))
        return original(*args, **kwargs)

    setattr(obj, name, spy)


def test_bm25_and_its_records_are_read_beside_the_embedding(engine: Engine) -> None:
    engine.retain(
        "acme", RetainRequest(scope="user:a", items=[RetainItem(text=t) for t in TEXTS], mode="raw")
    )
    request = parse(RecallRequest, {"query": "error E4711", "scopes": ["user:a"], "min_score": 0.0})
    expected = engine.recall("acme", request)
    seen: list[tuple[str, str]] = []
    _spy(engine, engine.index, "bm25", seen)
    _spy(engine, engine.store.records, "get_many", seen)
    _spy(engine, engine.embedder, "embed", seen)

    response = engine.recall("acme", request, with_timings=True)

    # The same answer as before, BM25 first among it
    assert [m.id for m in response.memories] == [m.id for m in expected.memories]
    assert "E4711" in response.memories[0].content
    bm25_thread = next(thread for name, thread in seen if name == "bm25")
    embed_thread = next(thread for name, thread in seen if name == "embed")
    assert bm25_thread.startswith("engram-recall") and embed_thread == threading.main_thread().name
    assert ("get_many", bm25_thread) in seen  # BM25's hits are read on that thread too
    assert response.timings_ms is not None and "beside_embed" in response.timings_ms


def test_a_failure_beside_the_embedding_fails_the_recall(engine: Engine) -> None:
    engine.retain("acme", RetainRequest(scope="user:a", items=[RetainItem(text=TEXTS[0])], mode="raw"))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("text index unavailable")

    engine.index.bm25 = broken  # type: ignore[method-assign]
    with pytest.raises(RuntimeError, match="text index unavailable"):
        engine.recall("acme", parse(RecallRequest, {"query": "error E4711", "scopes": ["user:a"]}))


class _ForgettingIndex:
    """The engine's own index, except that a memory is forgotten (for real) just as recall asks
    for the vectors of what passed: the race of a recall with a forget, made to happen."""

    def __init__(self, engine: Engine, victim: str) -> None:
        self._engine, self._inner, self._victim = engine, engine.index, victim

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def vectors(self, tenant_id: str, memory_ids: Any) -> Any:
        from engram.models import ForgetRequest

        self._engine.forget(tenant_id, ForgetRequest(ids=[self._victim]))
        return self._inner.vectors(tenant_id, memory_ids)


def test_a_memory_forgotten_while_recall_runs_is_left_out_not_an_error(engine: Engine) -> None:
    # Given three memories that all match a query
    texts = ["the blue car is fast", "the blue car is red", "the blue car is old"]
    request = RetainRequest(scope="user:a", items=[RetainItem(text=t) for t in texts], mode="raw")
    ids = [r.id for r in engine.retain("acme", request).results]
    # When one of them is forgotten between ranking and diversification
    engine = engine.with_ports(index=_ForgettingIndex(engine, ids[0]))
    got = engine.recall("acme", parse(RecallRequest, {"query": "blue car", "min_score": 0, "limit": 5}))
    # Then recall answers without it
    assert {m.id for m in got.memories} == set(ids[1:])
