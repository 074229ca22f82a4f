"""``DeletionLog`` on SQLite: content-free receipts of hard deletes (ids and reason, never text)."""

from __future__ import annotations

import json
from typing import Any

from engram.adapters.matching import iso
from engram.adapters.sqlite.database import SqliteTables
from engram.models import DeletionLogEntry


def log_deletion(conn: Any, tenant_id: str, entry: DeletionLogEntry) -> None:
    """Write a receipt (inside the transaction of the delete it records)."""
    conn.execute(
        "INSERT INTO deletion_log(receipt_id, tenant_id, at, ids, reason) VALUES(?,?,?,?,?)",
        (entry.receipt_id, tenant_id, iso(entry.at), json.dumps(entry.ids), entry.reason),
    )


class SqliteDeletionLog(SqliteTables):
    def deletion_log(self, tenant_id: str) -> list[DeletionLogEntry]:
        rows = self.db.rows(
            "SELECT receipt_id, at, ids, reason FROM deletion_log WHERE tenant_id=? ORDER BY at",
            (tenant_id,),
        )
        return [
            DeletionLogEntry(receipt_id=r[0], tenant_id=tenant_id, at=r[1], ids=json.loads(r[2]), reason=r[3])
            for r in rows
        ]
