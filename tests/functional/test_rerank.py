"""Recall's rerank stage against a scripted text-embeddings-inference server over real HTTP:
the blend reorders the pool, and a server that is down, failing or slow leaves the fused order,
with the reason in the debug trace."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from scripted_rerank import ScriptedReranker

from engram.engine import Engine
from engram.models import RecallRequest, RetainRequest
from engram.settings import RecallSettings, RerankSettings, Settings

SCOPE = "user:alice"
FACTS = [
    "Alice keeps her passport in the blue drawer of the hall cabinet",
    "The passport office in town opens at nine on weekdays",
    "Alice renewed her passport last spring before the trip to Lisbon",
    "Alice's passport photo was taken at the pharmacy on Main Street",
]
QUERY = "where does Alice keep her passport"


@pytest.fixture
def tei() -> Iterator[ScriptedReranker]:
    server = ScriptedReranker().start()
    yield server
    server.stop()


def _engine(data_dir: Path, url: str, **recall: object) -> Engine:
    settings = Settings(
        data_dir=data_dir,
        rerank=RerankSettings(provider="tei", url=url, api_key="tei-token", timeout_s=2.0),
        recall=RecallSettings.model_validate(recall),
    )
    engine = Engine.local(settings)
    engine.create_tenant("acme")
    engine.retain("acme", RetainRequest(scope=SCOPE, items=[{"text": t} for t in FACTS], mode="raw"))
    return engine


def _recall(engine: Engine, **options: object) -> tuple[list[str], object]:
    request = RecallRequest.model_validate(
        {"query": QUERY, "limit": 4, "min_score": 0.0, "debug": True, **options}
    )
    response = engine.recall("acme", request)
    return [m.content for m in response.memories], response


def _closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/rerank"


def test_a_reranked_recall_puts_the_providers_favourite_first(data_dir: Path, tei: ScriptedReranker) -> None:
    # Given an engine whose reranker favours the memory fusion ranks last
    engine = _engine(data_dir, tei.url)
    fused_order, _ = _recall(engine, rerank=False)
    favourite = fused_order[-1]
    tei.phrases = {favourite: 0.99}
    # When it recalls with rerank
    order, response = _recall(engine, rerank=True)
    # Then the favourite leads, the stage is in the trace, and the provider saw the top of the pool
    assert order[0] == favourite != fused_order[0]
    assert response.rerank is not None
    assert (response.rerank.status, response.rerank.reranked, response.rerank.provider) == ("ok", 4, "tei")
    first = response.memories[0].trace
    assert first is not None and first["rerank"] == 0.99
    assert first["reranked"] == pytest.approx(0.6 * 0.99 + 0.4 * first["fused"], abs=1e-5)
    headers, body = tei.seen[-1]
    assert body["query"] == QUERY and sorted(body["texts"]) == sorted(FACTS)
    assert headers["Authorization"] == "Bearer tei-token"
    assert response.timings_ms is not None and "rerank" in response.timings_ms
    engine.close()


def test_only_the_top_of_the_pool_is_sent_to_the_provider(data_dir: Path, tei: ScriptedReranker) -> None:
    # Given a tenant reranking only its two best fused candidates
    engine = _engine(data_dir, tei.url, rerank_top=2)
    fused_order, _ = _recall(engine, rerank=False)
    # When it recalls with rerank
    _, response = _recall(engine, rerank=True)
    # Then the provider saw exactly those two, and the others are marked as not judged
    assert sorted(tei.seen[-1][1]["texts"]) == sorted(fused_order[:2])
    assert response.rerank is not None and response.rerank.reranked == 2
    others = [m.trace for m in response.memories if m.content not in fused_order[:2]]
    assert others and all(t is not None and t["rerank"] == "not in top" for t in others)
    engine.close()


def test_a_server_that_is_down_leaves_the_fused_order(data_dir: Path) -> None:
    # Given a reranker URL nothing listens on
    engine = _engine(data_dir, _closed_port_url())
    fused_order, _ = _recall(engine, rerank=False)
    # When it recalls with rerank
    order, response = _recall(engine, rerank=True)
    # Then it answers in the fused order and the trace says why
    assert order == fused_order
    assert response.rerank is not None and response.rerank.status == "error"
    assert "ConnectError" in (response.rerank.reason or "")
    assert all(m.trace is not None and m.trace["rerank"] == "error" for m in response.memories)
    engine.close()


def test_a_failing_server_leaves_the_fused_order(data_dir: Path, tei: ScriptedReranker) -> None:
    # Given a reranker answering 503
    engine = _engine(data_dir, tei.url)
    fused_order, _ = _recall(engine, rerank=False)
    tei.status = 503
    # When it recalls with rerank
    order, response = _recall(engine, rerank=True)
    # Then the fused order stands
    assert order == fused_order
    assert response.rerank is not None and response.rerank.reason == "rerank request rejected: HTTP 503"
    engine.close()


def test_a_slow_server_is_cut_at_the_time_budget(data_dir: Path, tei: ScriptedReranker) -> None:
    # Given a reranker taking a second and a budget of 150 ms
    engine = _engine(data_dir, tei.url, rerank_budget_ms=150)
    fused_order, _ = _recall(engine, rerank=False)
    tei.phrases = {fused_order[-1]: 0.99}
    tei.delay = 1.0
    # When it recalls with rerank
    started = time.perf_counter()
    order, response = _recall(engine, rerank=True)
    elapsed = time.perf_counter() - started
    # Then it answers within the budget (plus the rest of recall), in the fused order
    assert order == fused_order
    assert response.rerank is not None and response.rerank.status == "timeout"
    assert elapsed < 0.9
    engine.close()


def test_the_tenant_setting_and_the_request_decide_whether_to_rerank(
    data_dir: Path, tei: ScriptedReranker
) -> None:
    # Given a tenant that turned rerank off
    engine = _engine(data_dir, tei.url)
    engine.configure_tenant("acme", {"recall": {"rerank": False}})
    # When it recalls without saying, and then asks for rerank
    _, default = _recall(engine)
    calls = len(tei.seen)
    _, asked = _recall(engine, rerank=True)
    # Then the first did not rerank and the second did
    assert default.rerank is None and calls == 0
    assert asked.rerank is not None and asked.rerank.status == "ok" and len(tei.seen) == 1
    engine.close()


def test_a_jina_shaped_answer_is_read_too(data_dir: Path, tei: ScriptedReranker) -> None:
    # Given a server answering in Jina's shape
    engine = _engine(data_dir, tei.url)
    fused_order, _ = _recall(engine, rerank=False)
    tei.phrases, tei.jina = {fused_order[-1]: 0.9}, True
    # When it recalls with rerank
    order, response = _recall(engine, rerank=True)
    # Then the answer is used
    assert response.rerank is not None and response.rerank.status == "ok"
    assert order[0] == fused_order[-1]
    engine.close()
