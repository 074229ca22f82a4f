"""Memories one by one and the tenant's counts: get, list, patch, restore, release, feedback, stats.

Each works within the caller's scopes: a memory of another scope is "not found", as one of
another tenant is. ``engram.memories.operations`` and ``engram.memories.usefulness`` do the work.
"""

from __future__ import annotations

from engram.memories import operations as pipeline
from engram.memories import usefulness
from engram.memories.operations import get, release
from engram.metering import counters
from engram.metering.counters import Meter, MeteredPorts
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
from engram.ports import (
    Clock,
    LifecycleReports,
    MemoryRecords,
    SearchIndex,
    UsageLedger,
)
from engram.tenants.tenancy import TenantContext

__all__ = ["feedback", "get", "list_memories", "patch", "release", "restore", "stats"]
"""``get`` and ``release`` are ``engram.memories.operations``' own: they take the caller's context."""

STATS_USAGE_DAYS = 31
"""``GET /v1/stats`` shows the usage of this many days up to today."""


def list_memories(context: TenantContext, request: ListRequest, *, records: MemoryRecords) -> ListResponse:
    scopes = context.scopes.narrow([request.scope] if request.scope else None)
    return pipeline.list_memories(context.tenant_id, request, scopes=scopes, records=records)


def patch(
    context: TenantContext, memory_id: str, request: PatchRequest, *, metered_ports: MeteredPorts
) -> MemoryView:
    with metered_ports.ports(context.tenant_id) as ports:
        return pipeline.patch(context.tenant_id, memory_id, request, ports, scopes=context.scopes)


def restore(
    context: TenantContext,
    memory_id: str,
    request: RestoreRequest | None = None,
    *,
    metered_ports: MeteredPorts,
) -> MemoryView:
    with metered_ports.ports(context.tenant_id) as ports:
        return pipeline.restore(
            context.tenant_id, memory_id, request or RestoreRequest(), ports, scopes=context.scopes
        )


def feedback(
    context: TenantContext,
    memory_id: str,
    request: FeedbackRequest,
    *,
    records: MemoryRecords,
    index: SearchIndex,
    meter: Meter,
    clock: Clock,
) -> FeedbackResponse:
    meter.add(context.tenant_id, {"feedback_calls": 1})
    return usefulness.feedback(
        context.tenant_id,
        memory_id,
        request,
        records=records,
        index=index,
        clock=clock,
        settings=context.settings,
        scopes=context.scopes,
    )


def stats(
    context: TenantContext,
    *,
    records: MemoryRecords,
    reports: LifecycleReports,
    ledger: UsageLedger | None,
    clock: Clock,
) -> StatsResponse:
    """Counts of what the caller may see; tenant-wide usage and the lifecycle report (which
    names memories of every scope) only for a key of the whole tenant."""
    tenant_id, scopes = context.tenant_id, context.scopes
    stats = records.stats(tenant_id, scopes=None if scopes.is_every else list(scopes.names))
    if not scopes.is_every:
        return stats
    last = reports.lifecycle_reports(tenant_id, 1)
    stats.last_lifecycle_run = last[0] if last else None
    totals = ledger.totals(tenant_id) if ledger is not None else {}
    stats.usage = dict.fromkeys(USAGE_COUNTERS, 0) | totals
    if ledger is not None:
        today = counters.day_of(clock.now())
        since = counters.days_back(today, STATS_USAGE_DAYS - 1)
        stats.usage_by_day = ledger.days(tenant_id, since=since, until=today)
    return stats
