"""``forget`` and ``delete``: hard deletes with a receipt (``engram.forget.deletion`` does the work)."""

from __future__ import annotations

from engram.embedding.backlog import Backfill
from engram.forget import deletion as pipeline
from engram.metering.counters import MeteredPorts
from engram.models import ForgetRequest, ForgetResponse
from engram.tenants.tenancy import TenantContext


def forget(
    context: TenantContext, request: ForgetRequest, *, metered_ports: MeteredPorts, backfill: Backfill
) -> ForgetResponse:
    """Delete by ids, by query or by filter, among the scopes named (the filter's, or the
    request's) within the caller's. A forget by query first embeds the backlog: what it cannot
    rank it could not delete."""
    if request.query is not None:
        backfill.run(context.tenant_id)
    return _forget(context, request, metered_ports)


def delete(context: TenantContext, memory_id: str, *, metered_ports: MeteredPorts) -> ForgetResponse:
    """``DELETE /v1/memories/{id}``: a forget of one id."""
    return _forget(context, ForgetRequest(ids=[memory_id]), metered_ports)


def _forget(context: TenantContext, request: ForgetRequest, metered_ports: MeteredPorts) -> ForgetResponse:
    named = [request.filter.scope] if request.filter is not None and request.filter.scope else request.scopes
    scopes = context.scopes.narrow(named)
    with metered_ports.ports(context.tenant_id, "forget_calls") as ports:
        return pipeline.forget(context.tenant_id, request, ports, scopes=scopes, settings=context.settings)
