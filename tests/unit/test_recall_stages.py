"""Recall's stages on hand-built states: fusion, shaping, diversity, the answer, and the trace
that keeps nothing when debug is off."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.identity import content_hash
from engram.models import MemoryRecord, RecallRequest, Source
from engram.ports import Conditions
from engram.recall import stages
from engram.recall.present import CONTEXT_HEADER, present
from engram.recall.state import RecallState
from engram.recall.trace import NO_TRACE, Trace
from engram.scopes import ScopeSet
from engram.settings import Settings

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SETTINGS = Settings()


def _record(memory_id: str, content: str, **extra: object) -> MemoryRecord:
    return MemoryRecord(
        tenant_id="acme",
        id=memory_id,
        scope="user:alice",
        content=content,
        created_at=T0,
        updated_at=T0,
        content_hash=content_hash(content),
        **extra,  # type: ignore[arg-type]
    )


def _state(method: str = "weighted", *, debug: bool = False, **request: object) -> RecallState:
    return RecallState(
        "acme",
        RecallRequest.model_validate({"query": "dark mode", "debug": debug, **request}),
        Conditions(scopes=ScopeSet.of(["user:alice"])),
        method=method,
        now=T0,
        trace=Trace() if debug else NO_TRACE,
    )


def _candidates(state: RecallState) -> RecallState:
    """a: both channels, b: the vector only, c: BM25 only and not embedded yet."""
    state.knn = [("a", 0.80), ("b", 0.75)]
    state.bm25 = [("a", 3.0), ("c", 6.0)]
    state.cos = {"a": 0.80, "b": 0.75}
    state.ids = ["a", "b", "c"]
    return state


def test_weighted_fusion_lets_bm25_stand_in_for_a_memory_without_a_vector() -> None:
    state = _candidates(_state())
    stages.fuse(state, SETTINGS)
    fused = state.fused
    assert set(fused) == {"a", "b", "c"}
    # c has the best BM25 and no cosine: its words count for both channels
    assert fused["c"] == pytest.approx(1.0) and fused["c"] > fused["a"] > fused["b"]


def test_rrf_ranks_a_memory_in_both_lists_first() -> None:
    state = _candidates(_state("rrf"))
    stages.fuse(state, SETTINGS)
    assert max(state.fused, key=state.fused.__getitem__) == "a"


def test_with_debug_off_no_trace_entry_is_kept() -> None:
    off, on = _candidates(_state()), _candidates(_state(debug=True))
    stages.fuse(off, SETTINGS)
    stages.fuse(on, SETTINGS)
    assert off.fused == on.fused
    assert not off.trace and off.trace.memories == {} and off.trace.of("a", 1) is None
    assert on.trace.memories["c"]["vector_score"] == on.trace.memories["c"]["bm25_score"]
    assert on.trace.memories["a"]["vector_rank"] == 1 and on.trace.memories["c"]["bm25_rank"] == 1


def test_shaping_drops_what_falls_below_min_score_and_only_shortens_transcript_turns() -> None:
    state = _state(debug=True)
    turn = _record("turn", "ok sure", source=Source(session_id="s1"))
    fact = _record("fact", "ok sure")  # the same text, stored on its own
    low = _record("low", "I prefer dark mode in my editor")
    state.records = {r.id: r for r in (turn, fact, low)}
    state.ids = ["turn", "fact", "low"]
    state.fused = {"turn": 0.9, "fact": 0.9, "low": 0.01}
    for memory_id in state.ids:
        state.trace.start(memory_id, {"fused": state.fused[memory_id]})
    stages.shape(state, SETTINGS, min_score=0.05)
    assert set(state.final) == {"turn", "fact"}
    assert state.final["turn"] < state.final["fact"]
    assert state.trace.memories["turn"]["brevity"] < 1.0 == state.trace.memories["fact"]["brevity"]
    assert state.trace.memories["low"]["final"] < 0.05


def test_without_mmr_the_best_come_first_ties_by_id() -> None:
    state = _state(limit=2)
    state.final = {"b": 0.5, "a": 0.5, "c": 0.9}
    settings = Settings.model_validate({"recall": {"mmr_lambda": 1.0}})
    stages.diversify(state, None, None, settings)  # type: ignore[arg-type]
    assert state.chosen == ["c", "a"]


def test_the_answer_keeps_the_chosen_order_with_rounded_scores_and_the_trace_rank() -> None:
    state = _state(debug=True, context=True)
    state.records = {"a": _record("a", "I prefer dark mode"), "b": _record("b", "I use vim")}
    state.trace.start("a", {"fused": 0.5})
    state.trace.start("b", {"fused": 0.4})
    state.final = {"a": 0.123456789, "b": 0.5}
    state.chosen = ["b", "a"]
    response = present(state, SETTINGS)
    assert [m.id for m in response.memories] == ["b", "a"]
    assert response.memories[1].score == 0.123457
    assert response.memories[1].trace == {"fused": 0.5, "mmr_rank": 2}
    assert response.context is not None and response.context.splitlines()[0] == CONTEXT_HEADER
    assert response.context.splitlines()[1].endswith('"I use vim"')


def test_a_trace_notes_only_memories_it_has_and_adopts_the_ones_brought_in() -> None:
    trace = Trace()
    trace.start("a", {"fused": 0.5})
    trace.note("a", {"fused": 0.6})
    trace.note("zz", {"fused": 1.0})
    trace.adopt("n", {"cosine": 0.1}, {"neighbour_of": "a"})
    trace.note_all({"rerank": "timeout"})
    assert trace.memories == {
        "a": {"fused": 0.6, "rerank": "timeout"},
        "n": {"cosine": 0.1, "neighbour_of": "a", "rerank": "timeout"},
    }
    NO_TRACE.start("a", {"fused": 0.5})
    NO_TRACE.adopt("n", {}, {"x": 1})
    assert NO_TRACE.memories == {}
