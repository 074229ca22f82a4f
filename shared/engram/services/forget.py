"""``forget`` and ``delete``: hard deletes with a receipt (``engram.forget`` does the work)."""

from __future__ import annotations

from engram import forget as pipeline
from engram import metering
from engram.deps import Deps, metered_ports
from engram.models import ForgetRequest, ForgetResponse
from engram.services.backlog import embed_pending
from engram.tenancy import TenantContext


def forget(deps: Deps, context: TenantContext, request: ForgetRequest) -> ForgetResponse:
    """Delete by ids, by query or by filter, among the scopes named (the filter's, or the
    request's) within the caller's. A forget by query first embeds the backlog: what it cannot
    rank it could not delete."""
    tenant_id = context.tenant_id
    named = [request.filter.scope] if request.filter is not None and request.filter.scope else request.scopes
    scopes = context.scopes.narrow(named)
    if request.query is not None:
        embed_pending(deps, tenant_id)
    with metering.metered(deps, tenant_id, "forget_calls") as usage:
        return pipeline.forget(
            tenant_id, request, metered_ports(deps, usage), scopes=scopes, settings=context.settings
        )


def delete(deps: Deps, context: TenantContext, memory_id: str) -> ForgetResponse:
    """``DELETE /v1/memories/{id}``: a forget of one id."""
    return forget(deps, context, ForgetRequest(ids=[memory_id]))
