"""The stream of record changes published as events (the cloud's events out).

The records of one stream batch are read into events (``engram.events.changes``, through the stream
adapter), published in stream order, and the first record any of whose events could not be
published is reported with ``ReportBatchItemFailures``: Lambda retries the batch from there, so
an event is published at least once (a retry may publish a later one again; event ids are
stable, so a consumer drops repeats by id).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engram.events.changes import Event


@dataclass
class PublishResult:
    published: int = 0
    failures: list[str] = field(default_factory=list)

    def response(self) -> dict[str, Any]:
        """The Lambda answer for a stream batch with ``ReportBatchItemFailures``."""
        return {"batchItemFailures": [{"itemIdentifier": s} for s in self.failures]}


def publish_stream(
    records: Sequence[tuple[str, list[Event]]], publish: Callable[[Sequence[Event]], list[int]]
) -> PublishResult:
    """Publish every record's events in one pass (batched by ``publish``); report the first
    record with an event that failed."""
    flat = [(sequence, event) for sequence, events in records for event in events]
    failed = set(publish([event for _, event in flat])) if flat else set()
    result = PublishResult(published=len(flat) - len(failed))
    first = next((flat[i][0] for i in sorted(failed)), None)
    if first is not None:
        result.failures.append(first)
    return result
