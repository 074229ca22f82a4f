"""Memories one by one and the tenant's counts: get, list, patch, restore, release, feedback, stats.

Each works within the caller's scopes: a memory of another scope is "not found", as one of
another tenant is. ``engram.memories.operations`` and ``engram.memories.usefulness`` do the work.
"""

from __future__ import annotations

from engram.deps import Deps, metered_ports
from engram.memories import operations as pipeline
from engram.memories import usefulness
from engram.metering import counters
from engram.models import (
    USAGE_COUNTERS,
    FeedbackRequest,
    FeedbackResponse,
    ListRequest,
    ListResponse,
    MemoryView,
    PatchRequest,
    RestoreRequest,
    StatsResponse,
)
from engram.tenants.tenancy import TenantContext

STATS_USAGE_DAYS = 31
"""``GET /v1/stats`` shows the usage of this many days up to today."""


def get(deps: Deps, context: TenantContext, memory_id: str, *, with_history: bool = False) -> MemoryView:
    """One memory, with its lifecycle now (and its version history on request)."""
    return pipeline.get(
        context.tenant_id,
        memory_id,
        deps.ports,
        scopes=context.scopes,
        with_history=with_history,
        settings=context.settings,
    )


def list_memories(deps: Deps, context: TenantContext, request: ListRequest) -> ListResponse:
    scopes = context.scopes.narrow([request.scope] if request.scope else None)
    return pipeline.list_memories(context.tenant_id, request, scopes=scopes, store=deps.store)


def patch(deps: Deps, context: TenantContext, memory_id: str, request: PatchRequest) -> MemoryView:
    with deps.meter.metered(context.tenant_id) as usage:
        return pipeline.patch(
            context.tenant_id, memory_id, request, metered_ports(deps, usage), scopes=context.scopes
        )


def restore(
    deps: Deps, context: TenantContext, memory_id: str, request: RestoreRequest | None = None
) -> MemoryView:
    with deps.meter.metered(context.tenant_id) as usage:
        return pipeline.restore(
            context.tenant_id,
            memory_id,
            request or RestoreRequest(),
            metered_ports(deps, usage),
            scopes=context.scopes,
        )


def release(deps: Deps, context: TenantContext, memory_id: str, *, released_by: str = "") -> MemoryView:
    """A quarantined memory back to recall; ``released_by`` (default: the caller's key) is noted."""
    return pipeline.release(
        context.tenant_id,
        memory_id,
        deps.ports,
        scopes=context.scopes,
        released_by=released_by or context.key_id,
    )


def feedback(
    deps: Deps, context: TenantContext, memory_id: str, request: FeedbackRequest
) -> FeedbackResponse:
    deps.meter.add(context.tenant_id, {"feedback_calls": 1})
    return usefulness.feedback(
        context.tenant_id, memory_id, request, deps.ports, settings=context.settings, scopes=context.scopes
    )


def stats(deps: Deps, context: TenantContext) -> StatsResponse:
    """Counts of what the caller may see; tenant-wide usage and the lifecycle report (which
    names memories of every scope) only for a key of the whole tenant."""
    tenant_id, scopes = context.tenant_id, context.scopes
    stats = deps.store.stats(tenant_id, scopes=None if scopes.is_every else list(scopes.names))
    if not scopes.is_every:
        return stats
    last = deps.store.lifecycle_reports(tenant_id, 1)
    stats.last_lifecycle_run = last[0] if last else None
    totals = deps.ledger.totals(tenant_id) if deps.ledger is not None else {}
    stats.usage = dict.fromkeys(USAGE_COUNTERS, 0) | totals
    if deps.ledger is not None:
        today = counters.day_of(deps.clock.now())
        since = counters.days_back(today, STATS_USAGE_DAYS - 1)
        stats.usage_by_day = deps.ledger.days(tenant_id, since=since, until=today)
    return stats
