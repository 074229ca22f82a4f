"""``IdempotencyRecords`` on SQLite: a retain's stored answer per ``Idempotency-Key``, kept for
``IDEMPOTENCY_TTL`` (records past it are deleted by the tenant's next keyed write)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from engram.adapters.matching import iso
from engram.adapters.sqlite.database import SqliteTables
from engram.adapters.store_policy import IDEMPOTENCY_TTL, idempotency_live, stored_time


def put_idempotency(
    conn: Any, tenant_id: str, record: tuple[str, str, list[dict[str, Any]]], now: datetime
) -> None:
    """Store (key, fingerprint, results) inside the write's transaction; expired records go too."""
    key, fingerprint, results = record
    conn.execute(
        "INSERT OR REPLACE INTO idempotency(tenant_id, key, fingerprint, results, created_at) VALUES(?,?,?,?,?)",
        (tenant_id, key, fingerprint, json.dumps(results), iso(now)),
    )
    conn.execute(  # the tenant's records past their time go with any later write
        "DELETE FROM idempotency WHERE tenant_id=? AND created_at < ?",
        (tenant_id, iso(now - IDEMPOTENCY_TTL)),
    )


class SqliteIdempotency(SqliteTables):
    def idempotent_result(self, tenant_id: str, key: str) -> tuple[str, list[dict[str, Any]]] | None:
        row = self.db.one(
            "SELECT fingerprint, results, created_at FROM idempotency WHERE tenant_id=? AND key=?",
            (tenant_id, key),
        )
        if row is None or not idempotency_live(stored_time(row[2]), self.clock.now()):
            return None
        return row[0], json.loads(row[1])
