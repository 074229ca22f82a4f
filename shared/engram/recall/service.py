"""``recall``: the stages of one recall, in order, each timed (see the package's docstring)."""

from __future__ import annotations

import time
from collections import Counter

from engram.models import RecallRequest, RecallResponse
from engram.ports import Clock, Conditions, Ports, Reranker
from engram.ports.query import recall_conditions
from engram.recall import gather, stages
from engram.recall.present import present
from engram.recall.state import RecallState
from engram.recall.trace import NO_TRACE, Trace
from engram.scopes import ScopeSet
from engram.scoring import channels
from engram.settings import Settings


def recall(
    tenant_id: str,
    request: RecallRequest,
    ports: Ports,
    *,
    scopes: ScopeSet,
    settings: Settings,
    reranker: Reranker | None = None,
    with_timings: bool = False,
    usage: Counter[str] | None = None,
) -> RecallResponse:
    """The ``limit`` best memories for ``request.query`` among ``scopes`` of this tenant.

    ``scopes`` is what the caller may read and asked for (already checked).
    ``usage``, if given, counts the provider calls made (``rerank_calls``).
    """
    began = time.perf_counter()
    store, index = ports.records, ports.index
    state = start(tenant_id, request, scopes, ports.clock, settings)
    timer, r = state.timer, settings.recall
    side = gather.text_side(state, index, store, settings)
    state.query_vector = timer.run(
        "embed", lambda: gather.embed_query(state, index, side, ports.embedder, settings)
    )
    gather.gather(state, index, store, side, settings)
    timer.run("fusion", lambda: stages.fuse(state, settings))
    timer.run("context", lambda: stages.context(state, store, index, settings))
    wanted = r.rerank if request.rerank is None else request.rerank
    if reranker is not None and wanted and state.ids:
        timer.run("rerank", lambda: stages.rerank(state, reranker, settings))
        if usage is not None:
            usage["rerank_calls"] += 1
    min_score = r.min_score if request.min_score is None else request.min_score
    timer.run("lifecycle", lambda: stages.shape(state, settings, min_score))
    timer.run("mmr", lambda: stages.diversify(state, store, index, settings))
    used = state.chosen[: r.access_top]
    if request.track_access and used:
        timer.run("access", lambda: store.record_access(tenant_id, used, state.now))
    response = timer.run("serialise", lambda: present(state, settings))
    if with_timings or request.debug:
        timer.stages["total"] = (time.perf_counter() - began) * 1000.0
        response.timings_ms = {k: round(v, 3) for k, v in timer.stages.items()}
    return response


def start(
    tenant_id: str, request: RecallRequest, scopes: ScopeSet, clock: Clock, settings: Settings
) -> RecallState:
    """The state a recall begins with: its conditions, fusion, time window, pool and trace."""
    conditions: Conditions = recall_conditions(scopes, request.filters, as_of=request.as_of)
    now = clock.now()
    return RecallState(
        tenant_id,
        request,
        conditions,
        method=request.fusion or settings.recall.fusion,
        now=now,
        window=channels.time_window(request.query, now) if settings.recall.time_weight > 0 else None,
        pool=gather.candidate_pool(request.limit, settings),
        trace=Trace() if request.debug else NO_TRACE,
    )
