"""The history entry of a change, built one way for every operation that changes a memory."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from engram.models import HistoryEntry, MemoryRecord

Event = Literal["created", "merged", "updated", "superseded", "feedback", "tier", "released"]


def entry(
    record: MemoryRecord, event: Event, at: datetime, detail: dict[str, Any], *, content: str | None = None
) -> HistoryEntry:
    """What ``record`` became (its id and version as written) and why; ``content`` is its text
    unless given (a change that keeps the text records the text it had)."""
    return HistoryEntry(
        memory_id=record.id,
        version=record.version,
        event=event,
        at=at,
        content=record.content if content is None else content,
        detail=detail,
    )
