"""One SQLite file, several processes (``engram serve``'s workers): what one process remembers
about the file's tables never outlives another process changing them."""

from __future__ import annotations

from pathlib import Path

from engram.adapters.sqlite.database import SqliteDatabase


def test_a_tenant_table_dropped_by_another_process_is_made_again_when_needed(tmp_path: Path) -> None:
    # Given two processes' databases on one file, both having written the tenant's text index
    path = tmp_path / "engram.db"
    here, there = SqliteDatabase(path), SqliteDatabase(path)
    for db in (here, there):
        with db.transaction() as conn:
            db.ensure_fts(conn, "acme")
    # When the other one erases the tenant (its table goes)
    with there.transaction() as conn:
        there.drop_fts(conn, "acme")
    # Then this one sees the table is gone, and makes it again before writing to it
    assert not here.has_fts("acme")
    with here.transaction() as conn:
        name = here.ensure_fts(conn, "acme")
        conn.execute(f"INSERT INTO {name}(rowid, content) VALUES(1, 'green tea')")
    assert here.has_fts("acme")
