"""The embedded default's process-wide tuning reaches SQLite and the index."""

from __future__ import annotations

from pathlib import Path

from engram.adapters.sqlite_index import SqliteIndex
from engram.adapters.sqlite_store import SqliteStore
from engram.app import Engine
from engram.settings import Settings


def _pragma(engine: Engine) -> int:
    assert isinstance(engine.store, SqliteStore)
    return int(engine.store.db.connection().execute("PRAGMA mmap_size").fetchone()[0])


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
