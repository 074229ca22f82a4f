"""``forget`` and ``delete``: hard deletes with a receipt (``engram.forget.deletion`` does the work)."""

from __future__ import annotations

from engram.embedding.backlog import Backfill
from engram.forget import deletion as pipeline
from engram.metering.counters import Meter, MeteredEmbedder
from engram.models import ForgetRequest, ForgetResponse
from engram.ports import Clock, Embedder, MemoryStore, Ports, SearchIndex
from engram.tenants.tenancy import TenantContext


def forget(
    context: TenantContext,
    request: ForgetRequest,
    *,
    store: MemoryStore,
    index: SearchIndex,
    embedder: Embedder,
    meter: Meter,
    clock: Clock,
    backfill: Backfill,
) -> ForgetResponse:
    """Delete by ids, by query or by filter, among the scopes named (the filter's, or the
    request's) within the caller's. A forget by query first embeds the backlog: what it cannot
    rank it could not delete."""
    if request.query is not None:
        backfill.run(context.tenant_id)
    return _forget(context, request, store=store, index=index, embedder=embedder, meter=meter, clock=clock)


def delete(
    context: TenantContext,
    memory_id: str,
    *,
    store: MemoryStore,
    index: SearchIndex,
    embedder: Embedder,
    meter: Meter,
    clock: Clock,
) -> ForgetResponse:
    """``DELETE /v1/memories/{id}``: a forget of one id."""
    request = ForgetRequest(ids=[memory_id])
    return _forget(context, request, store=store, index=index, embedder=embedder, meter=meter, clock=clock)


def _forget(
    context: TenantContext,
    request: ForgetRequest,
    *,
    store: MemoryStore,
    index: SearchIndex,
    embedder: Embedder,
    meter: Meter,
    clock: Clock,
) -> ForgetResponse:
    tenant_id = context.tenant_id
    named = [request.filter.scope] if request.filter is not None and request.filter.scope else request.scopes
    scopes = context.scopes.narrow(named)
    with meter.metered(tenant_id, "forget_calls") as usage:
        ports = Ports(store, index, MeteredEmbedder(embedder, usage), clock)
        return pipeline.forget(tenant_id, request, ports, scopes=scopes, settings=context.settings)
