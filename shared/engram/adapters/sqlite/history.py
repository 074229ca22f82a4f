"""``MemoryHistory`` on SQLite: the ``history`` table, written in the transaction of each change."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engram.adapters.matching import iso
from engram.adapters.sqlite.database import SqliteTables
from engram.models import HistoryEntry


def insert_history(conn: Any, tenant_id: str, entries: Sequence[HistoryEntry]) -> None:
    """Append history entries (inside the caller's transaction)."""
    conn.executemany(
        "INSERT INTO history(tenant_id, memory_id, version, event, at, content, detail) VALUES(?,?,?,?,?,?,?)",
        [
            (tenant_id, h.memory_id, h.version, h.event, iso(h.at), h.content, json.dumps(h.detail))
            for h in entries
        ],
    )


class SqliteHistory(SqliteTables):
    def history(self, tenant_id: str, memory_id: str) -> list[HistoryEntry]:
        rows = self.db.rows(
            "SELECT memory_id, version, event, at, content, detail FROM history "
            "WHERE tenant_id=? AND memory_id=? ORDER BY seq",
            (tenant_id, memory_id),
        )
        return [
            HistoryEntry(
                memory_id=r[0], version=r[1], event=r[2], at=r[3], content=r[4], detail=json.loads(r[5])
            )
            for r in rows
        ]
