"""``retain``: the stages of one retain, in order (see the package's docstring)."""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter

from engram.embedding import inputs
from engram.errors import ConflictError
from engram.extraction.llm import LlmUsage
from engram.extraction.llm_extractor import for_retain
from engram.identity import scoped_key
from engram.metering.counters import estimated_tokens
from engram.models import RetainRequest, RetainResponse, check_expiry
from engram.ports import LLM, Clock, Embedder, Extractor, IdempotencyRecords, MemoryRecords, SearchIndex
from engram.retain import plan as planning
from engram.retain.candidates import candidates
from engram.retain.write import batch_of, count, replay, write
from engram.settings import Settings

logger = logging.getLogger("engram.retain")


def fingerprint(request: RetainRequest) -> str:
    """A hash of the request body (without the key) to detect an idempotency key reused for other data."""
    body = request.model_dump(mode="json", exclude={"idempotency_key"})
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def retain(
    tenant_id: str,
    request: RetainRequest,
    *,
    records: MemoryRecords,
    idempotency: IdempotencyRecords,
    index: SearchIndex,
    embedder: Embedder,
    clock: Clock,
    extractor: Extractor,
    settings: Settings,
    llm: LLM | None = None,
    usage: Counter[str] | None = None,
) -> RetainResponse:
    """Store what the request asks to keep; all of it in one transaction, or nothing.
    ``llm`` (None: this retain may not use one) makes the dedup decisions, and lets an LLM
    ``extractor`` call its model; ``usage``, if given, counts the LLM's calls and tokens and the
    memories retained.

    >>> # engine.retain("acme", RetainRequest(scope="user:alice", text="I prefer dark mode"))
    """
    fp = fingerprint(request)
    if request.idempotency_key:
        previous = idempotency.idempotent_result(
            tenant_id, scoped_key(request.scope, request.idempotency_key)
        )
        if previous is not None:
            if previous[0] != fp:
                raise ConflictError("this Idempotency-Key was used for a different request")
            return replay(tenant_id, previous[1], records)
    now = clock.now()
    check_expiry(request.expires_at, now)
    spent = LlmUsage()
    texts, items = for_retain(extractor, llm_allowed=llm is not None, settings=settings.retain, usage=spent)
    found = candidates(request, texts=texts, items=items, settings=settings, now=now)
    state = planning.RetainState(tenant_id, request, now)
    state.items = planning.records(tenant_id, found, request, now, embedder.model_id)
    planning.embed(state.items, embedder, defer=settings.retain.defer_embedding)
    planning.second_screen(state.items, embedder.model_id)
    planning.find_twins(state, records, index, settings.retain.dedup_candidates if llm is not None else 1)
    if llm is not None:
        planning.ask_llm(state, llm, records, settings, spent)
    planning.plan(state, store=records, index=index, embedder=embedder, settings=settings)
    batch = batch_of(state, fp)
    write(state, batch, store=records, index=index)
    if usage is not None:
        count(usage, state.results, llm, spent)
        # What the background will embed is charged now, as an estimate it settles then.
        deferred = [r.content for r, v in zip(batch.records, batch.vectors, strict=True) if v is None]
        usage["embedding_tokens_reserved"] += estimated_tokens(deferred)
    results = state.results
    logger.info(
        "retained",
        extra={
            "memories_created": sum(r.action == "created" for r in results),
            "memories_seen": len(results),
        },
    )
    extraction = None if request.mode == "raw" else (spent.extraction or "rules")
    cut = [i.record.id for i in state.items if inputs.fit(i.record.content, embedder.model_id)[1]]
    return RetainResponse(
        results=results,
        extraction=extraction,
        fallback=spent.extraction_fallback,
        embedding_truncated=cut or None,
    )
