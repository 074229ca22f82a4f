"""Recall's ranking stages over one ``RecallState``: fuse → context → (rerank) → shape →
diversify. Each reads the state the ones before it left and sets its own part; with a trace on
(``debug``), each adds its scores to every memory's entry."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, cast

import numpy as np

from engram.models import MemoryRecord, RerankTrace
from engram.ports import MemoryRecords, Reranker, SearchIndex, ThreadNeighbours, ThreadSearch, supports
from engram.recall.factors import shape_factor, shape_factors
from engram.recall.gather import pool
from engram.recall.state import RecallState
from engram.scoring import answer_types, channels, fusion, lifecycle, shaping, words
from engram.settings import Settings

logger = logging.getLogger("engram.recall")


def fuse(state: RecallState, settings: Settings) -> None:
    """Fused scores in [0, 1]. A memory without a cosine has no vector yet (deferred embedding):
    its BM25 score stands in for both channels until it has one."""
    r, method, cos, trace = settings.recall, state.method, state.cos, state.trace
    bm25 = dict(state.bm25)
    bm25_norm, bm25_ranks = fusion.normalise_bm25(bm25), fusion.ranks_of(bm25)
    knn_ranks = {memory_id: rank for rank, (memory_id, _) in enumerate(state.knn, start=1)}
    for memory_id in state.ids:
        c = cos.get(memory_id, 0.0)
        vec = fusion.calibrate_cosine(c, floor=r.cosine_floor, scale=r.cosine_scale)
        b = bm25_norm.get(memory_id, 0.0)
        if memory_id not in cos and method == "weighted":
            vec = b  # not embedded yet: found by its words alone
        if method == "rrf":
            ranks = [knn_ranks.get(memory_id), bm25_ranks.get(memory_id)]
            score = fusion.rrf(ranks, [r.weight_vector, r.weight_bm25], k=r.rrf_k)
        elif method == "bm25":
            score = b
        elif method == "vector":
            score = vec
        else:
            score = fusion.weighted(vec, b, w_vector=r.weight_vector, w_bm25=r.weight_bm25)
        state.fused[memory_id] = score
        if trace:
            trace.start(
                memory_id,
                {
                    "cosine": round(c, 6),
                    "vector_score": round(vec, 6),
                    "vector_rank": knn_ranks.get(memory_id),
                    "bm25": round(bm25.get(memory_id, 0.0), 6),
                    "bm25_score": round(b, 6),
                    "bm25_rank": bm25_ranks.get(memory_id),
                    "fusion": method,
                    "fusion_score": round(score, 6),  # before the context bonuses ("fused" is after them)
                    "fused": round(score, 6),
                }
                | ({"bm25_query": state.bm25_query} if state.bm25_query else {})
                | ({"vector_query": state.vector_query} if state.vector_query else {}),
            )


def _bonus(state: RecallState, name: str, weight: float, share_of: Callable[[str], float]) -> None:
    fused, trace = state.fused, state.trace
    for memory_id in state.ids:
        share = share_of(memory_id)
        fused[memory_id] = channels.with_bonus(fused[memory_id], share, weight)
        if trace:
            trace.note(memory_id, {name: round(share, 6), "fused": round(fused[memory_id], 6)})


def context(state: RecallState, store: MemoryRecords, index: SearchIndex, settings: Settings) -> None:
    """Time, when, thread and entity bonuses, then the thread neighbours of the best hits (which
    may add candidates)."""
    r, query, records = settings.recall, state.request.query, state.records
    window = state.window
    if window is not None:
        _bonus(state, "in_time_window", r.time_weight, lambda i: channels.inside(_when(records[i]), window))
    if r.when_weight > 0 and channels.asks_when(query):
        _bonus(state, "says_when", r.when_weight, lambda i: channels.has_time_expression(records[i].content))
    if r.thread_weight > 0 and supports(index, ThreadSearch):
        shares = cast(ThreadSearch, index).thread_scores(state.tenant_id, query, state.conditions, state.ids)
        _bonus(state, "thread_bm25", r.thread_weight, lambda i: shares.get(i, 0.0))
    if r.amount_weight > 0 and channels.asks_amount(query):
        _bonus(state, "says_amount", r.amount_weight, lambda i: channels.has_amount(records[i].content))
    entities = channels.query_entities(query)
    for kind, weight in (("place", r.place_weight), ("person", r.person_weight)):
        if weight > 0 and answer_types.asks(kind, query):

            def names(i: str, kind: str = kind) -> float:
                return answer_types.names(kind, records[i].content, entities)

            _bonus(state, f"names_{kind}", weight, names)
    if entities and r.speaker_weight > 0:
        speakers = {i: words.speaker_of(records[i].content) for i in state.ids}
        named = channels.named_speakers(entities, set(speakers.values()))
        if named:
            _bonus(
                state,
                "speaker_named",
                r.speaker_weight,
                lambda i: channels.speaker_share(named, speakers[i], records[i].content),
            )
    if entities and r.entity_weight > 0:
        _bonus(
            state,
            "entity_share",
            r.entity_weight,
            lambda i: channels.entity_share(entities, records[i].content),
        )
    if r.neighbour_weight > 0 and state.ids:
        neighbours(state, store, index, settings)


def neighbours(state: RecallState, store: MemoryRecords, index: SearchIndex, settings: Settings) -> None:
    """The thread neighbours of the best hits inherit a share of their score (new ones join)."""
    r, fused, records, trace = settings.recall, state.fused, state.records, state.trace
    seeds = sorted(state.ids, key=lambda i: (-fused[i], i))[: r.neighbour_seeds]
    around = None
    if supports(index, ThreadNeighbours):  # the index's own thread links: no store round trip
        links = cast(ThreadNeighbours, index)
        around = links.neighbours(state.tenant_id, seeds, state.conditions, r.neighbour_span)
    if around is None:
        around = store.neighbours(state.tenant_id, seeds, state.conditions, r.neighbour_span)
    inherited = channels.propagate(fused, around, r.neighbour_weight)
    new = [i for i in inherited if i not in records]
    if new:
        records.update(store.get_many(state.tenant_id, new))
        assert state.query_vector is not None
        state.cos.update(index.cosines(state.tenant_id, state.query_vector, [i for i in new if i in records]))
    for memory_id, (share, seed) in inherited.items():
        if memory_id not in records or share <= fused.get(memory_id, 0.0):
            continue
        if memory_id not in fused:
            state.ids.append(memory_id)
        fused[memory_id] = share
        if trace:
            first = {"cosine": round(state.cos.get(memory_id, 0.0), 6), "fusion": state.method}
            trace.adopt(memory_id, first, {"neighbour_of": seed, "fused": round(share, 6)})


def rerank(state: RecallState, reranker: Reranker, settings: Settings) -> None:
    """The ``rerank_top`` best fused candidates scored ``w·rerank + (1-w)·fused``, the others
    ``(1-w)·fused`` (not judged: a rerank score of 0). No answer within the budget, or any
    failure, keeps the fused scores, and the trace says why."""
    r, fused, trace = settings.recall, state.fused, state.trace
    top = sorted(state.ids, key=lambda i: (-fused[i], i))[: r.rerank_top]
    outcome, scores = _rerank_call(
        state.request.query, [state.records[i].content for i in top], reranker, settings
    )
    state.reranked = outcome
    if outcome.status != "ok":
        trace.note_all({"rerank": outcome.status})
        return
    w = r.rerank_weight
    out = {memory_id: (1.0 - w) * fused[memory_id] for memory_id in state.ids}
    for memory_id, score in zip(top, scores, strict=True):
        out[memory_id] = w * score + (1.0 - w) * fused[memory_id]
        if trace:
            trace.note(memory_id, {"rerank": round(score, 6), "reranked": round(out[memory_id], 6)})
    if trace:
        for memory_id in state.ids:
            if memory_id not in top:
                trace.note(memory_id, {"rerank": "not in top", "reranked": round(out[memory_id], 6)})
    state.fused = out


def _rerank_call(
    query: str, texts: list[str], reranker: Reranker, settings: Settings
) -> tuple[RerankTrace, list[float]]:
    """The provider's scores within the time budget, on its own pool (a hung provider must not
    hold up the threads the candidates need), or why there are none."""
    budget = settings.recall.rerank_budget_ms
    start = time.perf_counter()
    future = pool("rerank").submit(reranker.rerank, query, texts)
    outcome = RerankTrace(
        provider=reranker.provider, model=reranker.model_id, status="ok", reranked=len(texts)
    )
    scores: list[float] = []
    try:
        scores = future.result(timeout=budget / 1000.0)
        if len(scores) != len(texts):
            outcome.status, outcome.reason = "error", f"{len(scores)} scores for {len(texts)} documents"
    except TimeoutError:
        outcome.status, outcome.reason = "timeout", f"no answer within {budget} ms"
    except Exception as exc:  # a failing optional provider must not fail recall
        outcome.status, outcome.reason = "error", str(exc) or type(exc).__name__
    outcome.ms = round((time.perf_counter() - start) * 1000.0, 3)
    if outcome.status != "ok":
        logger.warning("rerank skipped; keeping fused order", extra={"reason": outcome.reason})
        outcome.reranked = 0
    return outcome, scores


def shape(state: RecallState, settings: Settings, min_score: float) -> None:
    """Each candidate's fused score times its lifecycle prior, length norm and brevity; those
    below ``min_score`` drop out, unless fewer than ``min_results`` pass: then the best of the
    near misses (at least ``near_miss``·``min_score``) that match the query (``matches``) make up
    the number."""
    r, trace = settings.recall, state.trace
    below: dict[str, float] = {}
    for memory_id in state.ids:
        record = state.records[memory_id]
        if trace:  # every value the trace shows, rounded (the multiplier too, as the trace shows it)
            life = lifecycle_values(record, state.now, settings, rounded=True)
            prior, norm, brevity = shape_factors(record, life["multiplier"], settings)
            score = state.fused[memory_id] * (round(prior, 6) * norm * brevity)
            trace.note(
                memory_id,
                {
                    "lifecycle": life,
                    "access_count": record.access_count,
                    "prior": round(prior, 6),
                    "length_norm": round(norm, 6),
                    "brevity": round(brevity, 6),
                    "final": round(score, 6),
                },
            )
        else:
            factor = state.factors.get(memory_id)
            if factor is None:
                factor = shape_factor(record, state.now, settings)
            score = state.fused[memory_id] * factor
        if score >= min_score:
            state.final[memory_id] = score
        else:
            below[memory_id] = score
    wanted = r.min_results - len(state.final)
    if wanted > 0 and below:
        words_hit = {memory_id for memory_id, value in state.bm25 if value > 0}
        near = r.near_miss * min_score
        matching = [
            i for i in below if below[i] >= near and matches(state.cos.get(i), i in words_hit, settings)
        ]
        for memory_id in sorted(matching, key=lambda i: (-below[i], i))[:wanted]:
            state.final[memory_id] = below[memory_id]
            if trace:
                trace.note(memory_id, {"kept_by": "min_results"})


def matches(cosine: float | None, shares_word: bool, settings: Settings) -> bool:
    """Whether a memory below ``min_score`` still answers the query: close in meaning
    (``match_cosine``), or sharing a query word and not far in meaning (``match_cosine_with_word``;
    a memory not embedded yet is judged by its words alone).

    >>> from engram.settings import Settings
    >>> s = Settings()
    >>> matches(0.30, False, s), matches(0.22, True, s), matches(0.22, False, s), matches(None, True, s)
    (True, True, False, True)
    """
    r = settings.recall
    if cosine is None:
        return shares_word
    return cosine >= r.match_cosine or (shares_word and cosine >= r.match_cosine_with_word)


def diversify(state: RecallState, store: MemoryRecords, index: SearchIndex, settings: Settings) -> None:
    """MMR over what passed, best first; a memory forgotten meanwhile drops out, one not embedded
    yet counts as unlike every other."""
    final, limit = state.final, state.request.limit
    passed = sorted(final, key=lambda i: (-final[i], i))
    if len(passed) <= 1 or settings.recall.mmr_lambda >= 1.0:
        state.chosen = passed[:limit]
        return
    vectors = index.vectors(state.tenant_id, passed)
    missing = [i for i in passed if i not in vectors]
    gone = set(missing) - store.get_many(state.tenant_id, missing).keys() if missing else set()
    present = [i for i in passed if i not in gone]
    if len(present) <= 1:
        state.chosen = present[:limit]
        return
    assert state.query_vector is not None
    none = np.zeros(state.query_vector.shape[-1], dtype=np.float32)
    matrix = np.stack([vectors.get(i, none) for i in present]).astype(np.float32)
    r = settings.recall
    state.chosen = shaping.mmr(present, final, matrix, k=limit, lam=r.mmr_lambda, threshold=r.mmr_threshold)


def _when(record: MemoryRecord) -> datetime:
    return record.occurred_at or record.created_at


def lifecycle_values(
    record: MemoryRecord, now: datetime, settings: Settings, *, rounded: bool
) -> dict[str, Any]:
    """The record's lifecycle values at ``now`` as recall ranks by them (frequency left out, and
    the tier's floor no higher than the memory's fresh composite: see ``lifecycle.rank_prior`` and
    ``lifecycle.rank_multiplier``); rounded to 6 places for a trace."""
    state = lifecycle.state_of(record, access_count=0)
    values = lifecycle.explain(**state, now=now, settings=settings.lifecycle)
    life = settings.lifecycle
    fresh = lifecycle.composite(
        1.0,
        0.0,
        values["importance"],
        w_r=life.weight_retention,
        w_f=life.weight_frequency,
        w_i=life.weight_importance,
    )
    values["multiplier"] = lifecycle.rank_multiplier(values["composite"], fresh, record.tier, life)
    if not rounded:
        return values
    return {k: round(v, 6) if isinstance(v, float) else v for k, v in values.items()}
