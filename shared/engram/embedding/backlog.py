"""The embedding backlog: memories stored without a vector (a deferred retain), embedded later.

The background embedder (``engram.background.embedder``, local server only) calls
``Backfill.run`` to keep the backlog short; reads that need every vector (forget by query,
export) call it first, and so does recall when nothing else would embed the backlog or the
index cannot search memories without one (``Backfill.waits``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from engram.embedding import key_text
from engram.memories.history import entry
from engram.metering import counters
from engram.metering.counters import Meter, MeteredEmbedder
from engram.models import MemoryRecord
from engram.ports import (
    BlobStore,
    Clock,
    Embedder,
    EmbeddingBacklog,
    JobQueue,
    JobRunner,
    JobStore,
    MemoryRecords,
    Ports,
    SearchIndex,
    StepQueue,
    TenantRegistry,
    Vector,
)
from engram.screening.verdict import marked
from engram.settings import Settings
from engram.tenants import tenancy


class Backlog:
    """What the memories stored without a vector need across calls: one lock per tenant (one
    caller embeds a tenant's backlog at a time, and a recall of one tenant never waits for
    another's), and the event that tells a background embedder there is work."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self.wake = threading.Event()

    def lock(self, tenant_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(tenant_id, threading.Lock())


@dataclass(frozen=True, kw_only=True)
class TenantPorts:
    """The ports that work on a tenant's memories and their vectors: the records, the tenants
    (whose settings stand over the service's ``settings``), the index, the embedder, the meter and
    the clock. The backfill, an import and a job take these and more (``ImportPorts`` in
    ``engram.imports``, ``JobPorts`` in ``engram.retain.jobs``)."""

    records: MemoryRecords
    tenants: TenantRegistry
    index: SearchIndex
    embedder: Embedder
    meter: Meter
    clock: Clock
    settings: Settings


@dataclass(frozen=True, kw_only=True)
class ImportPorts(TenantPorts):
    """The ports an import takes (a ``Deps.call`` bundle; here, not in ``engram.imports``, so that
    the functions that only name it do not load the import package at a cold start): a tenant's (``TenantPorts``: what
    writes and embeds its memories), object storage for its file, and whoever runs the job it may
    become (the step queue in the cloud, the job queue, or this process's runner). A retain job's
    ports are these and more (``engram.retain.jobs.JobPorts``). ``settings`` are the service's (a
    job runs with the tenant's)."""

    jobs: JobStore
    blobs: BlobStore | None
    steps: StepQueue | None
    queue: JobQueue | None
    runner: JobRunner | None

    @property
    def writing(self) -> Ports:
        """The ports the batches are written with (``engram.imports.writing.write``)."""
        return Ports(self.records, self.index, self.embedder, self.clock)


@dataclass(frozen=True, kw_only=True)
class Backfill(TenantPorts):
    """The embedding of what a tenant stored without a vector, over the ports it takes
    (``Deps.backfill``): a service that must see every vector first (forget by query, export,
    recall, the lifecycle) names this one port."""

    pending: EmbeddingBacklog
    backlog: Backlog

    def run(self, tenant_id: str, *, batch: int = 64, at_most: int | None = None) -> int:
        """Embed every memory of the tenant still stored without a vector; how many were embedded.
        With ``at_most``, a backlog larger than that is left alone (to the background embedder)."""
        done = 0
        lock = self.backlog.lock(tenant_id)
        waiting = self.pending.pending_embedding(tenant_id, 1 if at_most is None else at_most + 1)
        if not waiting:  # the common case: nothing to wait for
            if lock.locked() and self.index.follows_upserts_only:
                # An index that learns of writes only through upsert (not from the store) must
                # not be read between a batch's set_embeddings and its upsert: wait for the batch.
                with lock:
                    pass
            return done
        if at_most is not None and len(waiting) > at_most:
            return done
        retain = tenancy.settings_for(tenant_id, tenants=self.tenants, settings=self.settings).retain
        with lock:
            while True:
                pending = self.pending.pending_embedding(tenant_id, batch)
                if not pending:
                    return done
                texts = key_text.texts_to_embed(tenant_id, pending, store=self.records, settings=retain)
                with self.meter.metered(tenant_id) as usage:
                    vectors = MeteredEmbedder(self.embedder, usage).embed(texts)
                    # The estimate their retain reserved is settled: their real cost is counted now.
                    usage["embedding_tokens_settled"] += counters.estimated_tokens([c for _, c, _ in pending])
                items = [
                    (memory_id, digest, v) for (memory_id, _, digest), v in zip(pending, vectors, strict=True)
                ]
                stored = set(self.pending.set_embeddings(tenant_id, items, self.embedder.model_id))
                records = self.records.get_many(tenant_id, [i for i, _, _ in items if i in stored])
                _second_screen(
                    tenant_id,
                    records,
                    {i: v for i, _, v in items},
                    store=self.records,
                    clock=self.clock,
                    model=self.embedder.model_id,
                )
                pairs = [(records[i], v) for i, _, v in items if i in records]
                self.index.upsert(tenant_id, [r for r, _ in pairs], [v for _, v in pairs])
                done += len(pending)

    def waits(self) -> bool:
        """Whether recall embeds the backlog before it ranks. Not when a background embedder embeds
        it and the index finds unembedded memories by BM25: the first recall after a bulk retain
        then answers at once, and vectors join as they are made."""
        return not (self.settings.background_embedding and self.index.indexes_unembedded)

    def run_all(self) -> None:
        """Embed every tenant's backlog (a local process does this before it ends)."""
        for tenant_id in self.pending.tenants_with_pending():
            self.run(tenant_id)


def _second_screen(
    tenant_id: str,
    records: dict[str, MemoryRecord],
    vectors: dict[str, Vector],
    *,
    store: MemoryRecords,
    clock: Clock,
    model: str,
) -> None:
    """The screening head on the vectors just made, as retain runs it on the ones it makes: a
    hit is quarantined, a near miss marked, each with a history entry (a conditional update: a
    memory changed meanwhile is left as it is). ``records`` gets the updated records."""
    active = [r for r in records.values() if r.status == "active" and r.id in vectors]
    if not active:
        return
    import numpy as np  # the embedder that made the vectors has it; a bare install may not

    from engram.screening.head import second_look

    stacked = np.stack([vectors[r.id] for r in active])
    now = clock.now()
    for record, verdict in zip(active, second_look([r.content for r in active], stacked, model), strict=True):
        if verdict is None:
            continue
        changes: dict[str, Any] = {
            "tags": marked(record.tags, verdict),
            "version": record.version + 1,
            "updated_at": now,
        }
        if verdict.action == "quarantine":
            changes["status"] = "quarantined"
        updated = record.model_copy(update=changes)
        detail = {
            "quarantined" if verdict.action == "quarantine" else "marked": verdict.reason,
            "by": "embedding",
        }
        if store.update(
            tenant_id,
            updated,
            expected_version=record.version,
            history=entry(updated, "updated", now, detail),
        ):
            records[record.id] = updated
