"""Recall's words channel (BM25, its hits' records, the threads' BM25) runs beside the query
embedding; its hits are handed on as soon as they are final, so the k-NN need not wait for the
rest of that thread's work."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt
import pytest

from engram.identity import content_hash
from engram.models import MemoryRecord, RecallRequest
from engram.ports import Conditions
from engram.recall import gather
from engram.recall.state import RecallState
from engram.scopes import ScopeSet
from engram.settings import Settings

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Words:
    """A local index's words side: BM25 finds the lake turn; the threads' BM25 waits to be let go."""

    def __init__(self, fail: bool = False, topic_finds: bool = True) -> None:
        self.fail, self.topic_finds = fail, topic_finds
        self.let_go = threading.Event()

    def bm25(
        self, tenant_id: str, query: str, k: int, conditions: Conditions, *, context_weight: float = 0.0
    ) -> list[tuple[str, float]]:
        if self.fail:
            raise ValueError("the text index is gone")
        if "Maya" not in query and not self.topic_finds:  # the words besides her name match nothing
            return []
        return [("lake", 2.5)]

    def thread_scores(
        self, tenant_id: str, query: str, conditions: Conditions, memory_ids: Sequence[str]
    ) -> dict[str, float]:
        assert self.let_go.wait(10)
        return {i: 1.0 for i in memory_ids}


class Labelled(Words):
    """The same words side in an index that knows who speaks in each scope (``SpeakerLabels``)."""

    def speakers(self, tenant_id: str, scopes: ScopeSet) -> frozenset[str]:
        return frozenset({"maya"}) if "user:maya" in scopes else frozenset()


class Embedder:
    """Each text's vector is its length; the texts embedded are kept, in order."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.texts.extend(texts)
        return np.array([[float(len(t))] for t in texts], dtype=np.float32)


class Records:
    def get_many(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        text = "Maya: we drove up to the lake house"
        return {
            i: MemoryRecord(
                tenant_id=tenant_id, id=i, scope="user:maya", content=text, created_at=T0,
                updated_at=T0, content_hash=content_hash(text),
            )
            for i in memory_ids
        }  # fmt: skip


def _state(query: str = "when did we go to the lake?") -> RecallState:
    request = RecallRequest.model_validate({"query": query})
    return RecallState(
        "acme", request, Conditions(scopes=ScopeSet.of(["user:maya"])), method="weighted", now=T0
    )


def test_bm25_s_hits_are_handed_on_before_the_thread_prior_is_done() -> None:
    # Given a words channel whose threads' BM25 has not finished
    index, state = Words(), _state()
    side = gather.text_side(state, index, Records(), Settings())  # type: ignore[arg-type]
    assert side is not None and state.bm25_hits is not None
    # Then its hits are there already, while the channel is still running
    assert state.bm25_hits.result(timeout=10) == [("lake", 2.5)]
    assert not side.done()
    # And once the thread prior is done, the whole side holds the hits' records
    index.let_go.set()
    assert set(side.result(timeout=10).records) == {"lake"}


def test_a_words_channel_that_fails_before_its_hits_fails_whoever_waits_for_them() -> None:
    index, state = Words(fail=True), _state()
    side = gather.text_side(state, index, Records(), Settings())  # type: ignore[arg-type]
    assert side is not None and state.bm25_hits is not None
    with pytest.raises(ValueError, match="the text index is gone"):
        state.bm25_hits.result(timeout=10)
    with pytest.raises(ValueError, match="the text index is gone"):
        side.result(timeout=10)


def test_a_query_naming_a_speaker_is_embedded_once_the_hits_are_final_not_after_the_thread_prior() -> None:
    # Given a question naming the speaker of BM25's hit, and a thread prior that has not finished
    index, state = Words(), _state("When did Maya go to the lake?")
    side = gather.text_side(state, index, Records(), Settings())  # type: ignore[arg-type]
    # Then the text to embed, without her name, is known while the channel is still running
    assert gather.vector_query(state, index, side, Settings()) == "When did go to the lake?"  # type: ignore[arg-type]
    assert side is not None and not side.done()
    index.let_go.set()
    side.result(timeout=10)


def test_a_query_naming_a_speaker_of_the_scope_is_embedded_at_once_without_the_name() -> None:
    # Given an index that knows Maya speaks in the scope, and a words channel still running
    index, state, embedder = Labelled(), _state("When did Maya go to the lake?"), Embedder()
    side = gather.text_side(state, index, Records(), Settings())  # type: ignore[arg-type]
    released = threading.Timer(0.2, index.let_go.set)  # the thread prior ends after the embedding
    released.start()
    vector = gather.embed_query(state, index, side, embedder, Settings())  # type: ignore[arg-type]
    # Then the question was embedded once, without her name, before the thread prior was done,
    # and it is the text BM25 scored too
    assert embedder.texts == ["When did go to the lake?"] and vector[0] == len("When did go to the lake?")
    assert side is not None and not side.done()
    assert state.vector_query == state.bm25_query == "When did go to the lake?"
    released.join()
    side.result(timeout=10)


def test_where_bm25_scores_the_name_after_all_the_query_is_embedded_again_with_it() -> None:
    # Given a question whose words besides the speaker's name match nothing (BM25 keeps the name)
    index, state, embedder = Labelled(topic_finds=False), _state("When did Maya go to the lake?"), Embedder()
    index.let_go.set()
    side = gather.text_side(state, index, Records(), Settings())  # type: ignore[arg-type]
    vector = gather.embed_query(state, index, side, embedder, Settings())  # type: ignore[arg-type]
    # Then the guess without the name is replaced by the question as asked, as BM25 scored it
    assert embedder.texts == ["When did go to the lake?", "When did Maya go to the lake?"]
    assert vector[0] == len("When did Maya go to the lake?")
    assert state.bm25_query is None and state.vector_query is None
