"""Events to an EventBridge bus: ``PutEvents`` in batches of at most 10 entries and 256 KB.

Each event is one entry: source ``engram``, detail-type = the event type, detail = the whole
envelope (``engram.events.changes.Event``), time = when it happened. Entries that EventBridge refuses
(``FailedEntryCount``: throttling, an internal error) are sent again, up to ``attempts`` times in
all; what still fails is reported back by position, so the caller can have it retried.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from engram.events.changes import Event

logger = logging.getLogger(__name__)

MAX_ENTRIES = 10
MAX_BYTES = 256 * 1024
SOURCE = "engram"


class EventBridgePublisher:
    def __init__(
        self, bus_name: str, *, client: Any = None, attempts: int = 3, backoff_s: float = 0.2
    ) -> None:
        """``client``: a boto3 ``events`` client (built with standard retries when none is given)."""
        if client is None:
            import boto3
            from botocore.config import Config

            client = boto3.client("events", config=Config(retries={"mode": "standard", "max_attempts": 3}))
        self.client = client
        self.bus_name = bus_name
        self.attempts = attempts
        self.backoff_s = backoff_s

    def publish(self, events: Sequence[Event]) -> list[int]:
        """Put every event on the bus; returns the positions of those that could not be put."""
        entries = [self._entry(e) for e in events]
        pending = list(range(len(entries)))
        for attempt in range(self.attempts):
            if not pending:
                break
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            pending = [i for batch in _batches(entries, pending) for i in self._put(entries, batch)]
        if pending:
            logger.warning("events not put on the bus", extra={"failed": len(pending)})
        return pending

    def _put(self, entries: list[dict[str, Any]], batch: list[int]) -> list[int]:
        answer = self.client.put_events(Entries=[entries[i] for i in batch])
        if not answer.get("FailedEntryCount"):
            return []
        return [i for i, result in zip(batch, answer["Entries"], strict=True) if result.get("ErrorCode")]

    def _entry(self, event: Event) -> dict[str, Any]:
        return {
            "Source": SOURCE,
            "DetailType": event.type,
            "Detail": event.model_dump_json(),
            "EventBusName": self.bus_name,
            "Time": event.occurred_at,
        }


def entry_size(entry: dict[str, Any]) -> int:
    """An entry's size as EventBridge counts it (time 14 bytes, then the UTF-8 of the text fields)."""
    return 14 + sum(len(str(entry[k]).encode()) for k in ("Source", "DetailType", "Detail"))


def _batches(entries: list[dict[str, Any]], positions: list[int]) -> list[list[int]]:
    batches: list[list[int]] = []
    size = 0
    for i in positions:
        need = entry_size(entries[i])
        if not batches or len(batches[-1]) == MAX_ENTRIES or size + need > MAX_BYTES:
            batches.append([])
            size = 0
        batches[-1].append(i)
        size += need
    return batches
