"""``recall``: the memories that matter for a query (``engram.recall`` ranks them), metered."""

from __future__ import annotations

from engram.deps import Deps, metered_ports
from engram.embedding.backlog import embed_pending, recall_waits
from engram.models import RecallRequest, RecallResponse
from engram.recall import service
from engram.tenants.tenancy import TenantContext


def run(
    deps: Deps, context: TenantContext, request: RecallRequest, *, with_timings: bool = False
) -> RecallResponse:
    """Recall among the scopes the request names (all the caller's when it names none)."""
    tenant_id, settings = context.tenant_id, context.settings
    scopes = context.scopes.narrow(request.scopes)
    deps.meter.check_embedding_budget(tenant_id, settings.limits)
    # A backlog of a few memories (one short retain) is embedded here, so a paraphrase finds
    # them at once; a larger one is the background's, and BM25 finds it meanwhile.
    deps.call(
        embed_pending,
        tenant_id,
        at_most=None if deps.call(recall_waits) else settings.recall.embed_inline_max,
    )
    with deps.meter.metered(tenant_id, "recall_calls") as usage:
        return service.recall(
            tenant_id,
            request,
            metered_ports(deps, usage),
            scopes=scopes,
            settings=settings,
            reranker=deps.reranker,
            with_timings=with_timings,
            usage=usage,
        )
