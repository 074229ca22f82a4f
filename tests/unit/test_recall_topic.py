"""Recall's words channel without the name of the speaker the query names, on the one-trip path
(a remote index that answers both channels in one request, as OpenSearch does)."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from datetime import UTC, datetime

import numpy as np
import pytest

from engram.identity import content_hash
from engram.models import MemoryRecord, RecallRequest
from engram.ports import Conditions, Vector
from engram.recall import gather
from engram.recall.state import RecallState
from engram.scopes import ScopeSet
from engram.settings import Settings

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TEXTS = {
    "weather": "Maya: The weather has been lovely all week.",
    "kayak": "Jonah: Did you get the kayak in the end?",
}


def _record(memory_id: str) -> MemoryRecord:
    text = TEXTS[memory_id]
    return MemoryRecord(
        tenant_id="acme", id=memory_id, scope="user:maya", content=text, created_at=T0,
        updated_at=T0, content_hash=content_hash(text),
    )  # fmt: skip


class OneTrip:
    """Both channels in one trip; BM25 finds the kayak only for the words without her name."""

    def __init__(self) -> None:
        self.bm25_queries: list[str] = []

    def candidates(
        self, tenant_id: str, vector: Vector, query: str, k: int, conditions: Conditions
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]], dict[str, float]]:
        return [("weather", 0.4)], [("weather", 2.0)], {"weather": 0.4}

    def bm25(
        self, tenant_id: str, query: str, k: int, conditions: Conditions, *, context_weight: float = 0.0
    ) -> list[tuple[str, float]]:
        self.bm25_queries.append(query)
        return [("kayak", 3.0)] if "Maya" not in query else [("weather", 2.0)]

    def cosines(self, tenant_id: str, vector: Vector, memory_ids: Sequence[str]) -> dict[str, float]:
        return {i: 0.5 for i in memory_ids}


class Records:
    def get_many(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        return {i: _record(i) for i in memory_ids}


def _state() -> RecallState:
    request = RecallRequest.model_validate({"query": "Which kayak did Maya get?"})
    state = RecallState(
        "acme", request, Conditions(scopes=ScopeSet.of(["user:maya"])), method="weighted", now=T0
    )
    state.query_vector = np.ones(3, dtype=np.float32)
    return state


def test_a_one_trip_search_asks_bm25_again_without_the_named_speaker() -> None:
    # Given a one-trip index whose first answer holds only a turn of Maya's about the weather
    index, state = OneTrip(), _state()

    # When recall gathers its candidates for a question naming her
    gather.gather(state, index, Records(), None, Settings())  # type: ignore[arg-type]

    # Then BM25 is asked again without her name, and its hit joins with its record and cosine
    assert index.bm25_queries == ["Which kayak did get?"] and state.bm25_query == "Which kayak did get?"
    assert state.bm25 == [("kayak", 3.0), ("weather", 0.0)]
    assert state.ids == ["weather", "kayak"] and state.cos["kayak"] == 0.5
    assert set(state.records) == {"weather", "kayak"}


def test_with_the_setting_off_the_one_trip_answer_stands() -> None:
    index, state = OneTrip(), _state()
    settings = Settings.model_validate({"recall": {"bm25_without_speakers": False}})
    gather.gather(state, index, Records(), None, settings)  # type: ignore[arg-type]
    assert index.bm25_queries == [] and state.bm25 == [("weather", 2.0)] and state.bm25_query is None


def test_on_the_one_trip_path_the_query_vector_embeds_the_question_as_asked() -> None:
    # Given no words channel beside the embedding (the one-trip search answers both channels)
    state = _state()
    # Then the vector embeds the question with the name, and no vector_query is traced
    assert gather.vector_query(state, OneTrip(), None, Settings()) == "Which kayak did Maya get?"
    assert state.vector_query is None


class _Unfinished(Future):  # type: ignore[type-arg]
    """A words channel still running: waiting for it fails the test instead of hanging it."""

    def result(self, timeout: float | None = None) -> object:
        raise AssertionError("the embedding waited for the words channel")


def _running(state: RecallState) -> _Unfinished:
    """The words channel of ``state``, still running: neither it nor its hits are done."""
    state.bm25_hits = _Unfinished()
    return _Unfinished()


def test_a_query_that_names_no_one_is_embedded_beside_the_words_channel() -> None:
    # Given a question without a name, and a words channel that has not answered yet
    state = _state()
    state.request = RecallRequest.model_validate({"query": "where do I live these days?"})
    # Then the vector embeds it as asked at once (no speaker can be named, so nothing to strip)
    assert gather.vector_query(state, OneTrip(), _running(state), Settings()) == "where do I live these days?"
    # And a question naming someone waits for the words channel's answer
    with pytest.raises(AssertionError, match="waited for the words channel"):
        gather.vector_query(named := _state(), OneTrip(), _running(named), Settings())


class _Speakers:
    """An index that knows who speaks in each scope's turns (``SpeakerLabels``)."""

    def __init__(self, names: set[str], scope: str = "user:maya") -> None:
        self.names, self.scope = frozenset(names), scope

    def speakers(self, tenant_id: str, scopes: ScopeSet) -> frozenset[str]:
        self.asked = scopes
        return self.names if scopes.is_every or self.scope in scopes else frozenset()


def test_with_the_scopes_speakers_known_a_query_is_embedded_at_once_without_their_names() -> None:
    # Given an index that knows who speaks in the scopes searched, and a words channel that has
    # not answered (waiting for it fails the test)
    state = _state()
    # Then "Maya", who never speaks there, is not stripped: the question is embedded as asked
    speakers = _Speakers({"omar"})
    assert gather.vector_query(state, speakers, _running(state), Settings()) == "Which kayak did Maya get?"  # type: ignore[arg-type]
    assert state.vector_query is None and speakers.asked == ScopeSet.of(["user:maya"])
    # And once she speaks there (by a short name too: "Maya" for "Mayanna"), it is embedded at
    # once without her name, as BM25 will score it, and the trace says so
    for names in ({"maya", "omar"}, {"mayanna"}):
        named = _state()
        assert (
            gather.vector_query(named, _Speakers(names), _running(named), Settings())
            == "Which kayak did get?"
        )  # type: ignore[arg-type]
        assert named.vector_query == "Which kayak did get?"
    # But not when she speaks only in a scope that is not searched
    other = _state()
    assert gather.vector_query(other, _Speakers({"maya"}, "user:omar"), _running(other), Settings()) == (  # type: ignore[arg-type]
        "Which kayak did Maya get?"
    )


def test_a_query_that_is_nothing_but_a_speaker_s_name_is_embedded_as_asked() -> None:
    state = _state()
    state.request = RecallRequest.model_validate({"query": "Maya?"})
    assert gather.vector_query(state, _Speakers({"maya"}), _running(state), Settings()) == "Maya?"  # type: ignore[arg-type]
    assert state.vector_query is None


def test_where_bm25_keeps_the_names_the_vector_does_too_at_once() -> None:
    # Given the speaker bonus off (or another fusion): BM25 scores the question with the name
    for settings, method in (
        (Settings.model_validate({"recall": {"speaker_weight": 0}}), "weighted"),
        (Settings(), "rrf"),
    ):
        state = _state()
        state.method = method
        # Then the vector embeds it as asked, without waiting for the words channel
        assert (
            gather.vector_query(state, _Speakers({"maya"}), _running(state), settings)
            == "Which kayak did Maya get?"
        )  # type: ignore[arg-type]
        assert not gather.strips_speakers(state, settings) and state.vector_query is None
