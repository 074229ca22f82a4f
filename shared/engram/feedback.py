"""Feedback (DESIGN §7): an EMA of how useful a memory was, updated with optimistic concurrency."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from engram.errors import ConflictError, NotFoundError
from engram.models import FeedbackRequest, FeedbackResponse, HistoryEntry
from engram.ports import Clock, MemoryStore
from engram.scoring.lifecycle import feedback_ema
from engram.settings import Settings

MAX_ATTEMPTS = 64


def feedback(
    tenant_id: str,
    memory_id: str,
    request: FeedbackRequest,
    *,
    store: MemoryStore,
    clock: Clock,
    settings: Settings,
    scopes: Sequence[str] | None = None,
) -> FeedbackResponse:
    """Apply one signal: read, compute, write only if nobody wrote in between; else retry with jitter."""
    for attempt in range(MAX_ATTEMPTS):
        record = store.get(tenant_id, memory_id)
        if record is None or (scopes is not None and record.scope not in scopes):
            raise NotFoundError(f"memory '{memory_id}' not found")
        weight = feedback_ema(record.feedback_weight, request.signal, alpha=settings.lifecycle.feedback_alpha)
        now = clock.now()
        updated = record.model_copy(
            update={"feedback_weight": weight, "version": record.version + 1, "updated_at": now}
        )
        entry = HistoryEntry(
            memory_id=memory_id,
            version=updated.version,
            event="feedback",
            at=now,
            content=record.content,
            detail={"signal": request.signal, "feedback_weight": weight},
        )
        if store.update(tenant_id, updated, expected_version=record.version, history=entry):
            return FeedbackResponse(id=memory_id, feedback_weight=round(weight, 6))
        time.sleep(random.uniform(0, 0.002 * min(attempt + 1, 10)))
    raise ConflictError("the memory is being changed too often; retry")
