"""``SqliteStore``: the embedded default's system of record, its parts on one file."""

from __future__ import annotations

from engram.adapters.clock import SystemClock
from engram.adapters.sqlite.database import SqliteDatabase
from engram.adapters.sqlite.deletion_log import SqliteDeletionLog
from engram.adapters.sqlite.embeddings import SqliteEmbeddingBacklog
from engram.adapters.sqlite.history import SqliteHistory
from engram.adapters.sqlite.idempotency import SqliteIdempotency
from engram.adapters.sqlite.jobs import SqliteJobs
from engram.adapters.sqlite.lifecycle import SqliteLifecycleReports
from engram.adapters.sqlite.memory_writes import SqliteMemories
from engram.adapters.sqlite.tenants import SqliteTenants
from engram.ports import Clock


class SqliteStore:
    """``Store`` on ``SqliteDatabase``: ``SqliteStore(db, clock=clock)``, each part its own object
    over the same file and clock (``store.records``, ``store.jobs`` …; one also works alone:
    ``SqliteJobs(db, clock=clock)``). No part calls another: a change of the records writes its
    history, idempotency, deletion-log and report rows in its own transaction, through those
    modules' row writers (``insert_history`` …)."""

    def __init__(self, db: SqliteDatabase, *, clock: Clock | None = None) -> None:
        clock = clock or SystemClock()
        self.tenants = SqliteTenants(db, clock=clock)
        self.records = SqliteMemories(db, clock=clock)
        self.history = SqliteHistory(db, clock=clock)
        self.deletion_log = SqliteDeletionLog(db, clock=clock)
        self.idempotency = SqliteIdempotency(db, clock=clock)
        self.jobs = SqliteJobs(db, clock=clock)
        self.reports = SqliteLifecycleReports(db, clock=clock)
        self.pending = SqliteEmbeddingBacklog(db, clock=clock)
