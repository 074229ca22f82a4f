"""Recall's first stage: the candidates of both channels, their cosines and their records.

BM25, its hits' records, their shape factors and the threads' BM25 (the thread prior's) need no
query vector: they run on another thread while the query is embedded (the embedder gives a
single text one core), and are waited for when needed; the hits themselves are handed on
(``RecallState.bm25_hits``) as soon as they are final, so the k-NN starts beside the rest.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple, cast

from engram.models import MemoryRecord
from engram.ports import (
    CandidateSearch,
    Embedder,
    MemoryRecords,
    SearchIndex,
    SpeakerLabels,
    ThreadSearch,
    Vector,
    supports,
)
from engram.recall.factors import shape_factor
from engram.recall.state import RecallState
from engram.scoring import channels, words
from engram.settings import Settings

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor


class TextSide(NamedTuple):
    hits: list[tuple[str, float]]
    records: dict[str, MemoryRecord]
    factors: dict[str, float]  # ``factors.shape_factor`` of each record (none with a trace on)
    ms: float


_POOLS: dict[str, ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def pool(name: str) -> ThreadPoolExecutor:
    """The threads recall's work beside the query runs on: ``recall`` (what needs no query vector)
    or ``rerank`` (a provider call with a time budget); made on first use."""
    with _POOLS_LOCK:
        if name not in _POOLS:
            # Imported here: the cloud path (one OpenSearch round trip) never needs the threads,
            # and a Lambda's cold start should not pay for the import.
            from concurrent.futures import ThreadPoolExecutor

            _POOLS[name] = ThreadPoolExecutor(max_workers=4, thread_name_prefix=f"engram-{name}")
        return _POOLS[name]


def candidate_pool(limit: int, settings: Settings) -> int:
    """``max(candidate_pool_min, candidate_pool_factor × limit)``; 25 for the default limit of 5."""
    return max(settings.recall.candidate_pool_min, settings.recall.candidate_pool_factor * limit)


def one_trip(state: RecallState, index: SearchIndex) -> bool:
    """Both lists and their cosines in one round trip (OpenSearch ``_msearch``)."""
    return supports(index, CandidateSearch) and state.method in ("weighted", "rrf")


def text_side(
    state: RecallState, index: SearchIndex, store: MemoryRecords, settings: Settings
) -> Future[TextSide] | None:
    """BM25's candidates and their records, started on another thread (None when not needed)."""
    if one_trip(state, index) or state.method == "vector":
        return None

    from concurrent.futures import Future  # here: the cloud's single trip never needs it

    ready: Future[list[tuple[str, float]]] = Future()
    state.bm25_hits = ready

    def run() -> TextSide:
        try:
            return search()
        except BaseException as exc:  # also reaches whoever waits for the hits alone
            if not ready.done():
                ready.set_exception(exc)
            raise

    def search() -> TextSide:
        start = time.perf_counter()
        context_weight = settings.recall.context_weight
        hits = index.bm25(
            state.tenant_id, state.request.query, state.pool, state.conditions, context_weight=context_weight
        )
        records = store.get_many(state.tenant_id, [i for i, _ in hits])
        hits = topic_hits(state, index, settings, hits, records)
        ready.set_result(hits)  # final: the k-NN may start beside the rest
        missing = [i for i, _ in hits if i not in records]
        if missing:
            records |= store.get_many(state.tenant_id, missing)
        if settings.recall.thread_weight > 0 and supports(index, ThreadSearch):
            # The threads' BM25 needs no vector either: the index keeps it for the context stage.
            threads = cast(ThreadSearch, index)
            threads.thread_scores(
                state.tenant_id, state.request.query, state.conditions, [i for i, _ in hits]
            )
        # A trace computes every part of these itself, to show them
        made = {} if state.trace else {i: shape_factor(m, state.now, settings) for i, m in records.items()}
        return TextSide(hits, records, made, (time.perf_counter() - start) * 1000.0)

    return pool("recall").submit(run)


def strips_speakers(state: RecallState, settings: Settings) -> bool:
    """Whether BM25 scores a query naming a speaker without the name (``topic_hits``):
    ``recall.bm25_without_speakers``, with the speaker bonus on to stand for the name, in a
    weighted fusion."""
    r = settings.recall
    return r.bm25_without_speakers and r.speaker_weight > 0 and state.method == "weighted"


def topic_hits(
    state: RecallState,
    index: SearchIndex,
    settings: Settings,
    hits: list[tuple[str, float]],
    records: dict[str, MemoryRecord],
) -> list[tuple[str, float]]:
    """BM25's hits for the query without the names of the speakers it names, when the hits' turns
    show it names one (``recall.bm25_without_speakers``): every turn carries its speaker's label
    ("Hannah: …"), so "What big purchases has Hannah made?" matched half the conversation on the
    name and filled the pool with her turns about anything. The speaker bonus stands for the name.
    The first query's other hits stay candidates, at no BM25 score. ``hits`` itself when nothing
    changes."""
    r = settings.recall
    if not strips_speakers(state, settings):
        return hits
    entities = channels.query_entities(state.request.query)
    named = channels.named_speakers(entities, {words.speaker_of(m.content) for m in records.values()})
    topic = channels.without_speakers(state.request.query, named) if named else ""
    if not any(ch.isalnum() for ch in topic):
        return hits
    found = index.bm25(state.tenant_id, topic, state.pool, state.conditions, context_weight=r.context_weight)
    if not found:
        return hits
    state.bm25_query = topic
    seen = {i for i, _ in found}
    return found + [(i, 0.0) for i, _ in hits if i not in seen]


def vector_query(
    state: RecallState, index: SearchIndex, side: Future[TextSide] | None, settings: Settings
) -> str:
    """The text the query vector embeds: the query, or (``recall.vector_without_speakers``) the
    query without the names of the speakers it names, as BM25 scores it (``topic_hits``). A
    turn's vector holds its speaker's label too, so the name pulled the speaker's every turn
    toward the question as BM25's did (calibrated set 74.1 -> 78.1). Where the index knows who
    speaks in the scopes searched (``SpeakerLabels``), the names come from there, so the query
    is embedded at once, beside the words channel (``embed_query`` checks the guess against the
    words BM25 scored); otherwise the embedding waits for that channel's hits and takes the
    words BM25 scored. Without a words channel (the cloud's single round trip, a one-channel
    ranking) the query as asked."""
    query = state.request.query
    if not (settings.recall.vector_without_speakers and strips_speakers(state, settings)) or side is None:
        return query
    entities = channels.query_entities(query)
    if not entities:
        return query
    if supports(index, SpeakerLabels):
        labels = cast(SpeakerLabels, index).speakers(state.tenant_id, state.conditions.scopes)
        named = channels.named_speakers(entities, labels)
        topic = channels.without_speakers(query, named) if named else ""
        if not any(ch.isalnum() for ch in topic):
            return query
        state.vector_query = topic
        return topic
    # topic_hits, on that thread, set the query without the names (or left none) before it handed
    # on the hits: the embedding need not wait for the thread prior and the shape factors too
    assert state.bm25_hits is not None  # made with the side
    state.bm25_hits.result()
    state.vector_query = state.bm25_query
    return state.bm25_query or query


def embed_query(
    state: RecallState,
    index: SearchIndex,
    side: Future[TextSide] | None,
    embedder: Embedder,
    settings: Settings,
) -> Vector:
    """The query vector of ``vector_query``'s text. A text guessed from the speaker labels is
    checked against the words BM25 scored once its hits are final (they usually are by the end of
    the embedding), and embedded again where they differ, so the vector is always of the words
    BM25 scored: a question whose other words match nothing keeps the name (BM25's topic query
    found nothing, and "Does Kenji have an entrepreneurial streak?" without "Kenji" matched no
    turn of his above the threshold), as do names the labels know but the hits do not speak."""
    guess = vector_query(state, index, side, settings)
    vector: Vector = embedder.embed([guess])[0]
    if state.vector_query is not None and state.bm25_hits is not None:
        state.bm25_hits.result()
        if state.bm25_query != state.vector_query:
            state.vector_query = state.bm25_query
            vector = embedder.embed([state.bm25_query or state.request.query])[0]
    return vector


def candidates(state: RecallState, index: SearchIndex) -> None:
    """k-NN and BM25 hits, the best matches in the query's time window, and every one's cosine."""
    tenant, vector, conditions = state.tenant_id, state.query_vector, state.conditions
    assert vector is not None
    if one_trip(state, index):
        assert isinstance(index, CandidateSearch)
        state.knn, state.bm25, both = index.candidates(
            tenant, vector, state.request.query, state.pool, conditions
        )
        state.cos = dict(both)
    else:
        # A one-channel ranking (``bm25`` or ``vector``) takes its candidates from that channel alone.
        state.knn = index.knn(tenant, vector, state.pool, conditions) if state.method != "bm25" else []
        state.bm25 = state.bm25_hits.result() if state.bm25_hits is not None else []  # made with the side
        state.cos = dict(state.knn)
    if state.window is not None and state.method != "bm25":  # the time channel
        low, high = conditions.occurred_at
        window = state.window
        span = (max(window[0], low) if low else window[0], min(window[1], high) if high else window[1])
        within = replace(conditions, occurred_at=span)
        state.cos.update(
            (i, c) for i, c in index.knn(tenant, vector, state.pool, within) if i not in state.cos
        )
    missing = [i for i, _ in state.bm25 if i not in state.cos]
    if missing:  # a BM25-only hit still gets its cosine
        state.cos.update(index.cosines(tenant, vector, missing))
    state.ids = list(dict.fromkeys([i for i, _ in state.knn] + [i for i, _ in state.bm25] + list(state.cos)))


def fetch(state: RecallState, store: MemoryRecords, side: Future[TextSide] | None) -> None:
    """The candidates' records (BM25's came with them); a candidate gone meanwhile drops out."""
    fetched = dict(side.result().records) if side is not None else {}
    rest = [i for i in state.ids if i not in fetched]
    if rest:
        fetched.update(store.get_many(state.tenant_id, rest))
    state.records = fetched
    if side is not None:
        state.factors = side.result().factors


def topic_trip(state: RecallState, index: SearchIndex, store: MemoryRecords, settings: Settings) -> None:
    """``topic_hits`` after a one-trip search: the new hits join with their records and cosines."""
    hits = topic_hits(state, index, settings, state.bm25, state.records)
    if hits is state.bm25:
        return
    state.bm25 = hits
    new = [i for i, _ in hits if i not in state.records]
    if new:
        state.records.update(store.get_many(state.tenant_id, new))
        assert state.query_vector is not None
        state.cos.update(index.cosines(state.tenant_id, state.query_vector, new))
        state.ids.extend(i for i in new if i not in state.ids)


def gather(
    state: RecallState,
    index: SearchIndex,
    store: MemoryRecords,
    side: Future[TextSide] | None,
    settings: Settings,
) -> None:
    """Candidates, then records, each timed; the ids keep only those with a record."""
    state.timer.run("candidates", lambda: candidates(state, index))
    state.timer.run("fetch", lambda: fetch(state, store, side))
    if one_trip(state, index):  # the words channel came in the same trip: its second query now
        state.timer.run("topic", lambda: topic_trip(state, index, store, settings))
    if side is not None:
        state.timer.stages["beside_embed"] = side.result().ms
    state.ids = [i for i in state.ids if i in state.records]
