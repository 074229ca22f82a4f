"""The stream of record changes published as events (the cloud's events out).

The records of one stream batch are read into events (``engram.events.changes``, through the stream
adapter), published in stream order, and the first record any of whose events could not be
published is reported with ``ReportBatchItemFailures``: Lambda retries the batch from there, so
an event is published at least once (a retry may publish a later one again; event ids are
stable, so a consumer drops repeats by id). Only the events of the tenants ``publishes`` names go
on the bus (``events.publish``, ``engram.events.subscribers``); the others' are dropped here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from engram.events.changes import Event


@dataclass
class PublishResult:
    published: int = 0
    dropped: int = 0
    """Events of tenants that do not publish (``events.publish`` off)."""
    failures: list[str] = field(default_factory=list)

    def response(self) -> dict[str, Any]:
        """The Lambda answer for a stream batch with ``ReportBatchItemFailures``."""
        return {"batchItemFailures": [{"itemIdentifier": s} for s in self.failures]}


def publish_stream(
    records: Sequence[tuple[str, list[Event]]],
    publish: Callable[[Sequence[Event]], list[int]],
    publishes: Callable[[Collection[str]], Collection[str]] | None = None,
) -> PublishResult:
    """Publish every record's events in one pass (batched by ``publish``); report the first
    record with an event that failed. ``publishes``: of the batch's tenants, those whose events
    go on the bus (None: every tenant's)."""
    every = [(sequence, event) for sequence, events in records for event in events]
    tenants = {event.tenant_id for _, event in every}
    chosen = set(publishes(tenants)) if publishes is not None and tenants else tenants
    flat = [(sequence, event) for sequence, event in every if event.tenant_id in chosen]
    failed = set(publish([event for _, event in flat])) if flat else set()
    result = PublishResult(published=len(flat) - len(failed), dropped=len(every) - len(flat))
    first = next((flat[i][0] for i in sorted(failed)), None)
    if first is not None:
        result.failures.append(first)
    return result
