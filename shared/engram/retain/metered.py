"""``retain``: store what a caller tells (``engram.retain`` does the work), metered and budgeted."""

from __future__ import annotations

from engram.embedding.backlog import Backlog
from engram.metering import counters
from engram.metering.counters import Meter, MeteredEmbedder
from engram.models import RetainRequest, RetainResponse
from engram.ports import LLM, Clock, Embedder, Extractor, IdempotencyRecords, MemoryRecords, SearchIndex
from engram.retain import service
from engram.tenants.tenancy import TenantContext


def run(
    context: TenantContext,
    request: RetainRequest,
    *,
    records: MemoryRecords,
    idempotency: IdempotencyRecords,
    index: SearchIndex,
    embedder: Embedder,
    extractor: Extractor,
    llm: LLM | None,
    meter: Meter,
    clock: Clock,
    backlog: Backlog,
) -> RetainResponse:
    """Retain now. A spent embedding budget is a 429; a spent LLM budget extracts by the rules
    (the response's ``fallback`` says so). A deferred retain wakes the background embedder."""
    tenant_id, settings = context.tenant_id, context.settings
    context.scopes.narrow([request.scope])
    meter.check_embedding_budget(
        tenant_id, settings.limits, estimate=counters.estimated_tokens(request_texts(request))
    )
    fallback = None
    if llm is not None and request.mode != "raw":
        fallback = meter.llm_budget_spent(tenant_id, settings.limits)
        llm = None if fallback else llm
    with meter.metered(tenant_id, "retain_calls") as usage:
        if fallback:
            usage["llm_budget_fallbacks"] += 1
        response = service.retain(
            tenant_id,
            request,
            records=records,
            idempotency=idempotency,
            index=index,
            embedder=MeteredEmbedder(embedder, usage),
            clock=clock,
            extractor=extractor,
            settings=settings,
            llm=llm,
            usage=usage,
        )
    if fallback:
        response.fallback = fallback
        response.extraction = "rules"
    if settings.retain.defer_embedding and response.results:
        backlog.wake.set()
    return response


def request_texts(request: RetainRequest) -> list[str]:
    """The texts a retain carries (what it embeds, at most: extraction only shortens them)."""
    texts = [request.text] if request.text else []
    texts += [m.content for m in request.messages or []]
    texts += [i.text for i in request.items or []]
    return texts
