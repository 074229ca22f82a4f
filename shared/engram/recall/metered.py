"""``recall``: the memories that matter for a query (``engram.recall`` ranks them), metered."""

from __future__ import annotations

from engram.embedding.backlog import Backlog, embed_pending, recall_waits
from engram.metering.counters import Meter, MeteredEmbedder
from engram.models import RecallRequest, RecallResponse
from engram.ports import Clock, Embedder, MemoryStore, Ports, Reranker, SearchIndex, TenantRegistry
from engram.recall import service
from engram.settings import Settings
from engram.tenants.tenancy import TenantContext


def run(
    context: TenantContext,
    request: RecallRequest,
    *,
    with_timings: bool = False,
    store: MemoryStore,
    tenants: TenantRegistry,
    index: SearchIndex,
    embedder: Embedder,
    reranker: Reranker | None,
    meter: Meter,
    clock: Clock,
    backlog: Backlog,
    settings: Settings,
) -> RecallResponse:
    """Recall among the scopes the request names (all the caller's when it names none).
    ``settings`` are the service's (the context's are the tenant's, which the recall uses)."""
    tenant_id, tenant_settings = context.tenant_id, context.settings
    scopes = context.scopes.narrow(request.scopes)
    meter.check_embedding_budget(tenant_id, tenant_settings.limits)
    # A backlog of a few memories (one short retain) is embedded here, so a paraphrase finds
    # them at once; a larger one is the background's, and BM25 finds it meanwhile.
    waits = recall_waits(settings=settings, index=index)
    embed_pending(
        tenant_id,
        store=store,
        tenants=tenants,
        index=index,
        embedder=embedder,
        meter=meter,
        clock=clock,
        backlog=backlog,
        settings=settings,
        at_most=None if waits else tenant_settings.recall.embed_inline_max,
    )
    with meter.metered(tenant_id, "recall_calls") as usage:
        return service.recall(
            tenant_id,
            request,
            Ports(store, index, MeteredEmbedder(embedder, usage), clock),
            scopes=scopes,
            settings=tenant_settings,
            reranker=reranker,
            with_timings=with_timings,
            usage=usage,
        )
