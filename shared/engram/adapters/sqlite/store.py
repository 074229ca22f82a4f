"""``SqliteStore``: the embedded default's system of record, every port of the store on one file."""

from __future__ import annotations

from engram.adapters.sqlite.deletion_log import SqliteDeletionLog
from engram.adapters.sqlite.embeddings import SqliteEmbeddingBacklog
from engram.adapters.sqlite.history import SqliteHistory
from engram.adapters.sqlite.idempotency import SqliteIdempotency
from engram.adapters.sqlite.jobs import SqliteJobs
from engram.adapters.sqlite.lifecycle import SqliteLifecycleReports
from engram.adapters.sqlite.memory_writes import SqliteMemories
from engram.adapters.sqlite.tenants import SqliteTenants


class SqliteStore(
    SqliteTenants,
    SqliteMemories,
    SqliteHistory,
    SqliteDeletionLog,
    SqliteIdempotency,
    SqliteJobs,
    SqliteLifecycleReports,
    SqliteEmbeddingBacklog,
):
    """``MemoryStore`` on ``SqliteDatabase``: ``SqliteStore(db, clock=clock)``; each part also
    works alone on the same database (``SqliteJobs(db, clock=clock)``)."""
