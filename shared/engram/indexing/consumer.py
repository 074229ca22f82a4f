"""The table stream's one consumer: each batch applied to the search index, then its events put
on the bus, by one function (``functions/stream``) instead of two readers of the stream.

What each part's failure does (Lambda's ``ReportBatchItemFailures``: the batch is retried from
the lowest sequence number reported, and after the retries, bisected, it goes to the DLQ):

- **The index fails** (a ``_bulk`` refused, the domain away): ``apply_stream`` reports its first
  failed record and every one after it. The events of the whole batch are still published in
  this invocation: events never wait for the index. The retry indexes again from there (an
  upsert carries the record's version, so a repeat changes nothing) and publishes again the
  events of the records from there on (at least once: event ids are stable, a consumer drops
  repeats by id).
- **The bus refuses events** (entries refused after the publisher's own attempts, a
  ``PutEvents`` that fails, the tenants' settings unreadable): the first record with such an
  event is reported. The index has already applied the whole batch; the retry applies the
  records from there again, which changes nothing in the index, and publishes their events again.
  A bus that keeps refusing holds the batch for the retries (at most ``retry_attempts``, the
  record age limit) and then sends it to the DLQ, as a failing index does; the index is never
  behind for it. The DLQ message names the shard and sequence range: ``engram reindex`` (the
  index) or a replay of the range (the events) recovers it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from engram.events.changes import Event
from engram.events.stream import PublishResult, publish_stream
from engram.indexing.indexer import StreamResult, apply_stream
from engram.ports import MemoryChange, SearchIndex

logger = logging.getLogger(__name__)


@dataclass
class BatchResult:
    index: StreamResult
    events: PublishResult

    @property
    def failures(self) -> list[str]:
        """Every record reported, in stream order (Lambda retries from the first)."""
        return sorted(set(self.index.failures) | set(self.events.failures), key=int)

    def response(self) -> dict[str, Any]:
        """The Lambda answer for a stream batch with ``ReportBatchItemFailures``."""
        return {"batchItemFailures": [{"itemIdentifier": s} for s in self.failures]}


def consume(
    changes: Sequence[MemoryChange | None],
    events: Sequence[tuple[str, list[Event]]],
    *,
    index: SearchIndex,
    publish: Callable[[Sequence[Event]], list[int]],
    publishes: Callable[[Collection[str]], Collection[str]],
) -> BatchResult:
    """Index one stream batch (its memory ``changes``), then publish its ``events`` (each
    record's sequence number and events) for the tenants ``publishes`` names."""
    indexed = apply_stream(changes, index)
    try:
        published = publish_stream(events, publish, publishes)
    except Exception:
        # A publisher or a settings read that failed outright: like a refused entry, the first
        # record with an event is retried (its index changes were applied above).
        logger.exception("publishing a stream batch's events failed; Lambda retries from its first event")
        first = next((sequence for sequence, found in events if found), None)
        published = PublishResult(failures=[first] if first is not None else [])
    return BatchResult(index=indexed, events=published)
