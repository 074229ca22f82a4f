"""Feedback (DESIGN §7): an EMA of how useful a memory was, updated with optimistic concurrency;
negative signals can demote a memory at once."""

from __future__ import annotations

import random
import time
from typing import Any

from engram.errors import ConflictError
from engram.memories.history import entry as history_entry
from engram.memories.operations import visible
from engram.models import FeedbackRequest, FeedbackResponse
from engram.ports import Clock, MemoryRecords, SearchIndex
from engram.scopes import ScopeSet
from engram.scoring.lifecycle import POSITIVE_SIGNALS, demotion_on_feedback, feedback_ema
from engram.settings import Settings

MAX_ATTEMPTS = 64


def feedback(
    tenant_id: str,
    memory_id: str,
    request: FeedbackRequest,
    *,
    records: MemoryRecords,
    index: SearchIndex,
    clock: Clock,
    settings: Settings,
    scopes: ScopeSet,
) -> FeedbackResponse:
    """Apply one signal: read, compute, write only if nobody wrote in between; else retry with jitter.

    ``used`` and ``positive`` also count an access (``access_count``, ``last_accessed_at``): what
    an agent says it used is the access that should promote a memory, more than being returned.

    ``corrected`` demotes the memory one tier at once; ``ignored``/``negative`` do when the weight
    falls below ``lifecycle.feedback_demote_below`` (pinned memories never move down).
    """
    for attempt in range(MAX_ATTEMPTS):
        record = visible(records, tenant_id, memory_id, scopes)
        # Stored as answered: the weight a GET shows is the one this call returned.
        weight = round(
            feedback_ema(record.feedback_weight, request.signal, alpha=settings.lifecycle.feedback_alpha), 6
        )
        now = clock.now()
        tier = demotion_on_feedback(
            record.tier, request.signal, weight, pinned=record.pinned, settings=settings.lifecycle
        )
        changes: dict[str, Any] = {
            "feedback_weight": weight,
            "version": record.version + 1,
            "updated_at": now,
        }
        detail: dict[str, Any] = {"signal": request.signal, "feedback_weight": weight}
        if tier is not None:
            changes["tier"] = tier
            reason = (
                "corrected by the user"
                if request.signal == "corrected"
                else f"{request.signal}: feedback weight {weight:.3f} < {settings.lifecycle.feedback_demote_below}"
            )
            detail.update(from_tier=record.tier, to_tier=tier, by="feedback", reason=reason)
        updated = record.model_copy(update=changes)
        entry = history_entry(updated, "feedback", now, detail, content=record.content)
        if records.update(tenant_id, updated, expected_version=record.version, history=entry):
            if request.signal in POSITIVE_SIGNALS:  # a memory the agent says it used was accessed
                # Counted as recalls count theirs (atomic, version unmoved): an update keeps the
                # stored access bookkeeping, so a count carried in the record would be lost.
                records.record_access(tenant_id, [memory_id], now)
            if tier is not None:  # the index filters on the tier
                vectors = records.get_vectors(tenant_id, [memory_id])
                index.upsert(tenant_id, [updated], [vectors.get(memory_id)])
            return FeedbackResponse(id=memory_id, feedback_weight=weight)
        time.sleep(random.uniform(0, 0.002 * min(attempt + 1, 10)))
    raise ConflictError("the memory is being changed too often; retry")
