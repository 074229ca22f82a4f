"""``recall``: the memories that matter for a query (``engram.recall`` ranks them), metered."""

from __future__ import annotations

from engram.embedding.backlog import Backfill
from engram.metering.counters import Meter, MeteredEmbedder
from engram.models import RecallRequest, RecallResponse
from engram.ports import Clock, Embedder, MemoryRecords, Ports, Reranker, SearchIndex
from engram.recall import service
from engram.tenants.tenancy import TenantContext


def run(
    context: TenantContext,
    request: RecallRequest,
    *,
    with_timings: bool = False,
    records: MemoryRecords,
    index: SearchIndex,
    embedder: Embedder,
    reranker: Reranker | None,
    meter: Meter,
    clock: Clock,
    backfill: Backfill,
) -> RecallResponse:
    """Recall among the scopes the request names (all the caller's when it names none)."""
    tenant_id, tenant_settings = context.tenant_id, context.settings
    scopes = context.scopes.narrow(request.scopes)
    meter.check_embedding_budget(tenant_id, tenant_settings.limits)
    # A backlog of a few memories (one short retain) is embedded here, so a paraphrase finds
    # them at once; a larger one is the background's, and BM25 finds it meanwhile.
    waits = backfill.waits()
    backfill.run(tenant_id, at_most=None if waits else tenant_settings.recall.embed_inline_max)
    with meter.metered(tenant_id, "recall_calls") as usage:
        return service.recall(
            tenant_id,
            request,
            Ports(records, index, MeteredEmbedder(embedder, usage), clock),
            scopes=scopes,
            settings=tenant_settings,
            reranker=reranker,
            with_timings=with_timings,
            usage=usage,
        )
