"""The embedding backlog: memories stored without a vector (a deferred retain), embedded later.

The background embedder (``engram.background.embedder``, local server only) calls
``embed_pending`` to keep the backlog short; reads that need every vector (forget by query,
export) call it first, and so does recall when nothing else would embed the backlog or the
index cannot search memories without one (``recall_waits``).
"""

from __future__ import annotations

from typing import Any

from engram.deps import Deps
from engram.embedding import key_text
from engram.memories.history import entry
from engram.metering import counters
from engram.metering.counters import MeteredEmbedder
from engram.models import MemoryRecord
from engram.ports import Vector
from engram.screening.verdict import marked
from engram.tenants import tenancy


def embed_pending(deps: Deps, tenant_id: str, *, batch: int = 64, at_most: int | None = None) -> int:
    """Embed every memory of the tenant still stored without a vector; how many were embedded.
    With ``at_most``, a backlog larger than that is left alone (to the background embedder)."""
    done = 0
    store = deps.store
    lock = deps.backlog.lock(tenant_id)
    waiting = store.pending_embedding(tenant_id, 1 if at_most is None else at_most + 1)
    if not waiting:  # the common case: nothing to wait for
        if lock.locked() and deps.index.follows_upserts_only:
            # An index that learns of writes only through upsert (not from the store) must
            # not be read between a batch's set_embeddings and its upsert: wait for the batch.
            with lock:
                pass
        return done
    if at_most is not None and len(waiting) > at_most:
        return done
    retain = tenancy.settings_for(deps, tenant_id).retain
    with lock:
        while True:
            pending = store.pending_embedding(tenant_id, batch)
            if not pending:
                return done
            texts = key_text.texts_to_embed(tenant_id, pending, store=store, settings=retain)
            with counters.metered(deps, tenant_id) as usage:
                vectors = MeteredEmbedder(deps.embedder, usage).embed(texts)
                # The estimate their retain reserved is settled: their real cost is counted now.
                usage["embedding_tokens_settled"] += counters.estimated_tokens([c for _, c, _ in pending])
            items = [
                (memory_id, digest, v) for (memory_id, _, digest), v in zip(pending, vectors, strict=True)
            ]
            stored = set(store.set_embeddings(tenant_id, items, deps.embedder.model_id))
            records = store.get_many(tenant_id, [i for i, _, _ in items if i in stored])
            _second_screen(deps, tenant_id, records, {i: v for i, _, v in items})
            pairs = [(records[i], v) for i, _, v in items if i in records]
            deps.index.upsert(tenant_id, [r for r, _ in pairs], [v for _, v in pairs])
            done += len(pending)


def _second_screen(
    deps: Deps, tenant_id: str, records: dict[str, MemoryRecord], vectors: dict[str, Vector]
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
    now = deps.clock.now()
    for record, verdict in zip(
        active, second_look([r.content for r in active], stacked, deps.embedder.model_id), strict=True
    ):
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
        if deps.store.update(
            tenant_id,
            updated,
            expected_version=record.version,
            history=entry(updated, "updated", now, detail),
        ):
            records[record.id] = updated


def recall_waits(deps: Deps) -> bool:
    """Whether recall embeds the backlog before it ranks. Not when a background embedder embeds
    it and the index finds unembedded memories by BM25: the first recall after a bulk retain
    then answers at once, and vectors join as they are made."""
    return not (deps.settings.background_embedding and deps.index.indexes_unembedded)


def embed_all_pending(deps: Deps) -> None:
    """Embed every tenant's backlog (a local process does this before it ends)."""
    for tenant_id in deps.store.tenants_with_pending():
        embed_pending(deps, tenant_id)
