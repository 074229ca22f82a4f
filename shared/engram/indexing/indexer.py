"""DynamoDB Streams -> search index, and the rebuild of a tenant's index from the store.

The stream carries every change of the table; the store's stream adapter
(``engram.adapters.dynamodb_stream``) reads the memory items' changes, and of their modifications
only those that change what the index holds (recall's access counts do not) matter here. An
active memory with a vector is upserted (external version = the record's version, so a replayed
or late event never rolls the index back); anything else (removed, superseded, archived, still
unembedded) is removed from the index. Records are applied in stream order, grouped per tenant
into one ``_bulk``; the first group that fails is reported with every record after it, so Lambda
retries from there (``ReportBatchItemFailures``) and the DLQ receives what keeps failing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engram.models import MemoryRecord
from engram.ports import MemoryChange, SearchIndex, Vector, removed_state

logger = logging.getLogger(__name__)


@dataclass
class _Change:
    sequence: str
    tenant_id: str
    memory_id: str
    record: MemoryRecord | None = None
    vector: Vector | None = None
    removal: MemoryRecord | None = None
    """For a removal, the state it stands for when the image tells (versions order the delete)."""


@dataclass
class StreamResult:
    upserted: int = 0
    removed: int = 0
    skipped: int = 0
    failures: list[str] = field(default_factory=list)

    def response(self) -> dict[str, Any]:
        """The Lambda answer for a stream batch with ``ReportBatchItemFailures``."""
        return {"batchItemFailures": [{"itemIdentifier": s} for s in self.failures]}


def _change(change: MemoryChange | None) -> _Change | None:
    if change is None or not change.index_changed:
        return None  # not a memory, or access counts and versions only (every recall makes these)
    out = _Change(sequence=change.sequence, tenant_id=change.tenant_id, memory_id=change.memory_id)
    if change.event != "REMOVE" and change.new is not None:
        if searchable(change.new) and change.vector is not None:
            out.record, out.vector = change.new, change.vector
        elif not searchable(change.new):
            out.removal = change.new  # archived or superseded: this state removes it, at its version
        # (active without a vector: nothing was indexed; a delete without a version is enough)
    elif change.event == "REMOVE" and change.old is not None:
        out.removal = removed_state(change.old)
    return out


def searchable(record: MemoryRecord) -> bool:
    """Whether the search index holds this state: active and not archived."""
    return record.status == "active" and record.tier != "archived"


def apply_stream(records: Sequence[MemoryChange | None], index: SearchIndex) -> StreamResult:
    """Apply one stream batch (decoded by the store's stream adapter) to the index, in order;
    failures as Lambda expects them."""
    result = StreamResult()
    changes: list[_Change] = []
    for raw in records:
        change = _change(raw)
        if change is None:
            result.skipped += 1
        else:
            changes.append(change)
    position = 0
    while position < len(changes):
        # A run of consecutive changes of one tenant and one kind goes in one request.
        first = changes[position]
        upsert = first.record is not None
        end = position
        while (
            end < len(changes)
            and changes[end].tenant_id == first.tenant_id
            and (changes[end].record is not None) == upsert
        ):
            end += 1
        run = changes[position:end]
        try:
            if upsert:
                latest = {c.memory_id: c for c in run}  # the last image of each memory wins
                index.upsert(
                    first.tenant_id,
                    [c.record for c in latest.values() if c.record is not None],
                    [c.vector for c in latest.values() if c.vector is not None],
                )
                result.upserted += len(latest)
            else:
                last = {c.memory_id: c for c in run}  # the last state of each memory decides
                index.remove(
                    first.tenant_id,
                    list(last),
                    states=[c.removal for c in last.values() if c.removal is not None],
                )
                result.removed += len(run)
        except Exception:
            logger.exception("indexing a stream batch failed; Lambda retries from the first failure")
            result.failures = [c.sequence for c in changes[position:]]
            return result
        position = end
    return result


def reindex(
    tenant_ids: Iterable[str],
    *,
    records: Callable[[str], Iterable[tuple[MemoryRecord, Vector | None]]],
    index: SearchIndex,
    batch: int = 200,
    clean: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, int]:
    """Rebuild each tenant's index from the system of record; counts per tenant.

    Upserts are idempotent (external versions), so a rebuild can run beside live traffic;
    ``clean`` then removes the documents of memories the store does not index (anymore). It never
    drops the tenant's documents first: their tombstones would outrank the rewrites for a minute.
    """
    counts: dict[str, int] = {}
    for tenant_id in tenant_ids:
        kept: set[str] = set()
        counts[tenant_id] = _reindex_one(tenant_id, records(tenant_id), index, batch, progress, kept)
        if clean:
            # documents of memories the store no longer has (or no longer indexes)
            strays = [i for i in index.indexed_ids(tenant_id) if i not in kept]
            for start in range(0, len(strays), batch):
                index.remove(tenant_id, strays[start : start + batch])
    return counts


def _reindex_one(
    tenant_id: str,
    records: Iterable[tuple[MemoryRecord, Vector | None]],
    index: SearchIndex,
    batch: int,
    progress: Callable[[int], None] | None,
    kept: set[str],
) -> int:
    done = 0
    pending: list[tuple[MemoryRecord, Vector]] = []
    for record, vector in records:
        if vector is not None and searchable(record):
            pending.append((record, vector))
            kept.add(record.id)
        if pending and len(pending) >= batch:
            index.upsert(tenant_id, [r for r, _ in pending], [v for _, v in pending])
            done += len(pending)
            if progress is not None:
                progress(len(pending))
            pending = []
    if pending:
        index.upsert(tenant_id, [r for r, _ in pending], [v for _, v in pending])
        done += len(pending)
        if progress is not None:
            progress(len(pending))
    return done
