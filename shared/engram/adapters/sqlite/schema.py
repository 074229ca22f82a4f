"""The embedded store's schema: every table of the SQLite file, in one place.

Tables: tenants, memories (record JSON + filter columns + float32 embedding), one contentless
FTS5 table per tenant (created on first use, see ``SqliteDatabase.ensure_fts``), history,
deletion_log, idempotency, jobs, usage_days (the metering ledger), index_state (a per-tenant
generation that lets every process's vector cache notice writes made by another process) and
index_changes (which memories each recent generation changed, so that such a cache re-reads those
rows rather than the tenant's every row),
lifecycle_runs and api_keys. ``create_schema`` runs on every open: each statement is
``IF NOT EXISTS`` and each migration checks before it changes anything.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol

from engram.adapters.sqlite.outbox import install_outbox

TOKENIZER = "porter unicode61 remove_diacritics 2"

SCHEMA = """
CREATE TABLE IF NOT EXISTS tenants (
  tenant_id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL, settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS memories (
  rowid INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, scope TEXT NOT NULL, category TEXT NOT NULL,
  status TEXT NOT NULL, tier TEXT NOT NULL, content_hash TEXT NOT NULL, session_id TEXT, thread_id TEXT,
  created_at TEXT NOT NULL, occurred_at TEXT, version INTEGER NOT NULL,
  tags TEXT NOT NULL, metadata TEXT NOT NULL, doc TEXT NOT NULL,
  embedding BLOB, embedding_model TEXT NOT NULL,
  UNIQUE (tenant_id, id)
);
CREATE INDEX IF NOT EXISTS memories_hash ON memories (tenant_id, scope, content_hash);
CREATE INDEX IF NOT EXISTS memories_created ON memories (tenant_id, created_at, id);
CREATE INDEX IF NOT EXISTS memories_session ON memories (tenant_id, scope, session_id);
CREATE INDEX IF NOT EXISTS memories_unembedded ON memories (tenant_id, rowid) WHERE embedding IS NULL;
CREATE TABLE IF NOT EXISTS history (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, tenant_id TEXT NOT NULL, memory_id TEXT NOT NULL,
  version INTEGER NOT NULL, event TEXT NOT NULL, at TEXT NOT NULL, content TEXT NOT NULL, detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS history_memory ON history (tenant_id, memory_id, seq);
CREATE TABLE IF NOT EXISTS deletion_log (
  receipt_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, at TEXT NOT NULL, ids TEXT NOT NULL, reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS deletion_log_tenant ON deletion_log (tenant_id, at);
CREATE TABLE IF NOT EXISTS idempotency (
  tenant_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, results TEXT NOT NULL,
  created_at TEXT NOT NULL, PRIMARY KEY (tenant_id, key)
);
CREATE TABLE IF NOT EXISTS jobs (
  tenant_id TEXT NOT NULL, job_id TEXT NOT NULL, status TEXT NOT NULL, doc TEXT NOT NULL,
  created_at TEXT NOT NULL, PRIMARY KEY (tenant_id, job_id)
);
CREATE TABLE IF NOT EXISTS usage (
  tenant_id TEXT NOT NULL, counter TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (tenant_id, counter)
);
CREATE TABLE IF NOT EXISTS usage_days (
  tenant_id TEXT NOT NULL, day TEXT NOT NULL, counter TEXT NOT NULL, value INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, day, counter)
);
CREATE TABLE IF NOT EXISTS index_state (tenant_id TEXT PRIMARY KEY, generation INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS index_changes (
  tenant_id TEXT NOT NULL, generation INTEGER NOT NULL, memory_id TEXT, receipt_id TEXT
);
CREATE INDEX IF NOT EXISTS index_changes_at ON index_changes (tenant_id, generation);
CREATE TABLE IF NOT EXISTS lifecycle_runs (
  tenant_id TEXT NOT NULL, run_id TEXT NOT NULL, started_at TEXT NOT NULL, doc TEXT NOT NULL,
  PRIMARY KEY (tenant_id, run_id)
);
CREATE INDEX IF NOT EXISTS lifecycle_runs_started ON lifecycle_runs (tenant_id, started_at);
CREATE TABLE IF NOT EXISTS api_keys (
  key_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, display_prefix TEXT NOT NULL,
  secret_hash TEXT NOT NULL, scopes TEXT NOT NULL, read_only INTEGER NOT NULL,
  created_at TEXT NOT NULL, expires_at TEXT, revoked_at TEXT, last_used_at TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_tenant ON api_keys (tenant_id, created_at);
"""

TENANT_TABLES = (
    "memories",
    "history",
    "deletion_log",
    "idempotency",
    "jobs",
    "usage",
    "usage_days",
    "index_state",
    "index_changes",
    "lifecycle_runs",
    "tenants",
)
"""The tables a tenant's erasure empties of its rows, the tenant itself last (its API keys go
through the key store, its text index table is dropped)."""


class Database(Protocol):
    """What ``create_schema`` needs of the file it sets up (``SqliteDatabase``; named here as a
    protocol so that the schema does not import the database that imports it)."""

    def connection(self) -> Any: ...

    def transaction(self) -> AbstractContextManager[Any]: ...


def create_schema(db: Database) -> None:
    """Create every table and bring a file written by an earlier version up to this schema."""
    conn = db.connection()
    # executescript manages its own transaction; every statement is IF NOT EXISTS.
    conn.executescript(SCHEMA)
    install_outbox(conn)  # events out: the outbox and the triggers that fill it
    if "thread_id" not in {row[1] for row in conn.execute("PRAGMA table_info(memories)")}:
        with db.transaction():  # re-checked inside: another process may have just done it
            if "thread_id" not in {row[1] for row in conn.execute("PRAGMA table_info(memories)")}:
                # A turn's thread was its session before retain batches had one.
                conn.execute("ALTER TABLE memories ADD COLUMN thread_id TEXT")
                conn.execute("UPDATE memories SET thread_id = session_id WHERE session_id IS NOT NULL")
    conn.execute("CREATE INDEX IF NOT EXISTS memories_thread ON memories (tenant_id, scope, thread_id)")
