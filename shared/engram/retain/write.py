"""Retain's last stage: the planned batch committed in one transaction, then indexed; and the
replay of a retain already made under the same idempotency key."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engram.extraction.llm import LlmUsage
from engram.identity import scoped_key
from engram.metering import counters
from engram.models import MemoryView, RetainResponse, RetainResult
from engram.ports import LLM, MemoryRecords, SearchIndex, WriteBatch
from engram.retain.plan import RetainState


def batch_of(state: RetainState, fingerprint: str) -> WriteBatch:
    """The records, vectors, history and idempotency record the plan made."""
    batch = WriteBatch(history=list(state.history))
    for record, vector in state.batch.values():
        batch.records.append(record)
        batch.vectors.append(vector)
    key = state.request.idempotency_key
    if key:
        outcome = [{"id": r.id, "action": r.action, "reason": r.reason} for r in state.results]
        batch.idempotency = (scoped_key(state.request.scope, key), fingerprint, outcome)
    return batch


def write(state: RetainState, batch: WriteBatch, *, store: MemoryRecords, index: SearchIndex) -> None:
    """All of it in one transaction, or nothing; then the index. What waits for its vector goes
    in too: an index that can, finds it by BM25 meanwhile."""
    if not (batch.records or batch.idempotency):
        return
    store.write(state.tenant_id, batch)
    vectors = [
        v if v is not None else state.index_vectors.get(r.id)
        for r, v in zip(batch.records, batch.vectors, strict=True)
    ]
    index.upsert(state.tenant_id, batch.records, vectors)


def count(usage: Counter[str], results: list[RetainResult], llm: LLM | None, spent: LlmUsage) -> None:
    """The LLM's calls and tokens and the memories retained, in the tenant's usage counters."""
    if llm is not None:
        usage.update(
            counters.llm_counters(
                llm.provider,
                llm.model_id,
                calls=spent.llm_calls,
                input_tokens=spent.llm_input_tokens,
                output_tokens=spent.llm_output_tokens,
            )
        )
    usage["llm_fallbacks"] += spent.llm_fallbacks
    usage["retained_items"] += sum(r.action in ("created", "merged", "superseded") for r in results)


def replay(tenant_id: str, stored: list[dict[str, Any]], store: MemoryRecords) -> RetainResponse:
    """The stored outcome of a retain; memories forgotten since are reported, never re-created."""
    records = store.get_many(tenant_id, [r["id"] for r in stored])
    results = []
    for item in stored:
        record = records.get(item["id"])
        results.append(
            RetainResult(
                id=item["id"],
                action=item["action"],
                reason="forgotten" if record is None else item.get("reason"),
                memory=MemoryView.of(record) if record else None,
            )
        )
    return RetainResponse(results=results, replayed=True)
