"""The embedded default's process-wide tuning reaches SQLite and the index."""

from __future__ import annotations

from pathlib import Path

from engram.adapters.sqlite.database import SqliteDatabase
from engram.adapters.sqlite.store import SqliteStore
from engram.adapters.sqlite.usage import SqliteUsage
from engram.adapters.sqlite_index import SqliteIndex
from engram.engine import Engine
from engram.settings import Settings


def _pragma(engine: Engine) -> int:
    assert isinstance(engine.store, SqliteStore)
    return int(engine.store.records.db.connection().execute("PRAGMA mmap_size").fetchone()[0])


def test_reads_are_memory_mapped_as_configured(tmp_path: Path) -> None:
    engine = Engine.local(Settings(data_dir=tmp_path / "a", background_embedding=False))
    assert _pragma(engine) == 4_096 * 2**20
    off = Engine.local(Settings(data_dir=tmp_path / "b", background_embedding=False, sqlite_mmap_mb=0))
    assert _pragma(off) == 0


def test_the_exact_scan_limit_comes_from_the_environment(tmp_path: Path) -> None:
    settings = Settings.from_env({"ENGRAM_SCAN_EXACT_MAX_ROWS": "0", "ENGRAM_DATA_DIR": str(tmp_path)})
    assert settings.scan.exact_max_rows == 0
    engine = Engine.local(settings.model_copy(update={"background_embedding": False}))
    assert isinstance(engine.index, SqliteIndex) and engine.index.scan.exact_max_rows == 0


def test_a_file_written_before_threads_gets_its_sessions_as_threads(tmp_path: Path) -> None:
    # Given a memories table as an earlier version wrote it (no thread column), with a session turn
    import sqlite3 as stdlib_sqlite

    path = tmp_path / "engram.db"
    old = stdlib_sqlite.connect(path)
    old.execute(
        "CREATE TABLE memories (rowid INTEGER PRIMARY KEY, tenant_id TEXT NOT NULL, id TEXT NOT NULL, "
        "scope TEXT NOT NULL, category TEXT NOT NULL, status TEXT NOT NULL, tier TEXT NOT NULL, "
        "content_hash TEXT NOT NULL, session_id TEXT, created_at TEXT NOT NULL, occurred_at TEXT, "
        "version INTEGER NOT NULL, tags TEXT NOT NULL, metadata TEXT NOT NULL, doc TEXT NOT NULL, "
        "embedding BLOB, embedding_model TEXT NOT NULL, UNIQUE (tenant_id, id))"
    )
    old.execute(
        "INSERT INTO memories (tenant_id, id, scope, category, status, tier, content_hash, session_id, "
        "created_at, version, tags, metadata, doc, embedding_model) "
        "VALUES ('acme', 'mem_1', 'user:a', 'raw', 'active', 'peripheral', 'h', 's1', '2026', 1, '[]', '{}', '{}', '')"
    )
    old.commit()
    old.close()

    # When the current version opens it
    db = SqliteDatabase(path)

    # Then the thread column exists and holds the session
    row = db.connection().execute("SELECT thread_id FROM memories WHERE id = 'mem_1'").fetchone()
    assert row == ("s1",)


def _statements(db: SqliteDatabase) -> list[str]:
    seen: list[str] = []
    db.connection().set_trace_callback(seen.append)
    return seen


def test_counts_commit_without_an_fsync_and_leave_full_sync_for_memories(tmp_path: Path) -> None:
    # Given the embedded store's usage ledger
    db = SqliteDatabase(tmp_path / "engram.db")
    seen = _statements(db)

    # When a usage count is added
    SqliteUsage(db).add("acme", "2026-12-07", {"recall_calls": 1})

    # Then its commit ran at synchronous=NORMAL (no fsync), and the connection is back to FULL
    assert seen[0] == "PRAGMA synchronous=NORMAL" and seen[-1] == "PRAGMA synchronous=FULL"
    assert "COMMIT" in seen
    assert int(db.connection().execute("PRAGMA synchronous").fetchone()[0]) == 2  # FULL
    # and another connection reads the count: it was committed
    other = SqliteDatabase(tmp_path / "engram.db").connection()
    assert other.execute("SELECT value FROM usage_days WHERE tenant_id='acme'").fetchone() == (1,)


def test_a_failed_count_rolls_back_and_leaves_full_sync(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "engram.db")
    try:
        with db.bookkeeping() as conn:
            conn.execute("INSERT INTO usage_days(tenant_id, day, counter, value) VALUES('a','d','c',1)")
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    conn = db.connection()
    assert conn.execute("SELECT count(*) FROM usage_days").fetchone() == (0,)
    assert int(conn.execute("PRAGMA synchronous").fetchone()[0]) == 2
