"""``forget`` and ``delete``: hard deletes with a receipt (``engram.forget.deletion`` does the work)."""

from __future__ import annotations

from engram.deps import Deps, metered_ports
from engram.embedding.backlog import embed_pending
from engram.forget import deletion as pipeline
from engram.models import ForgetRequest, ForgetResponse
from engram.tenants.tenancy import TenantContext


def forget(deps: Deps, context: TenantContext, request: ForgetRequest) -> ForgetResponse:
    """Delete by ids, by query or by filter, among the scopes named (the filter's, or the
    request's) within the caller's. A forget by query first embeds the backlog: what it cannot
    rank it could not delete."""
    tenant_id = context.tenant_id
    named = [request.filter.scope] if request.filter is not None and request.filter.scope else request.scopes
    scopes = context.scopes.narrow(named)
    if request.query is not None:
        deps.call(embed_pending, tenant_id)
    with deps.meter.metered(tenant_id, "forget_calls") as usage:
        return pipeline.forget(
            tenant_id, request, metered_ports(deps, usage), scopes=scopes, settings=context.settings
        )


def delete(deps: Deps, context: TenantContext, memory_id: str) -> ForgetResponse:
    """``DELETE /v1/memories/{id}``: a forget of one id."""
    return forget(deps, context, ForgetRequest(ids=[memory_id]))
