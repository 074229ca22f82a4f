"""``UsageLedger`` in the embedded default's SQLite file: one row per tenant, day and counter
(the ``usage_days`` table; erased with the tenant by ``SqliteTenants.erase_tenant``)."""

from __future__ import annotations

from collections.abc import Mapping

from engram.adapters.sqlite.database import SqliteDatabase


class SqliteUsage:
    def __init__(self, db: SqliteDatabase) -> None:
        self.db = db  # its schema holds the table: usage_days(tenant_id, day, counter, value)

    def add(self, tenant_id: str, day: str, counters: Mapping[str, int]) -> None:
        rows = [(tenant_id, day, name, int(amount)) for name, amount in counters.items() if amount]
        if not rows:
            return
        with self.db.bookkeeping() as conn:  # counts, not acknowledged writes: no fsync
            conn.executemany(
                "INSERT INTO usage_days(tenant_id, day, counter, value) VALUES(?,?,?,?) "
                "ON CONFLICT(tenant_id, day, counter) DO UPDATE SET value = value + excluded.value",
                rows,
            )

    def days(self, tenant_id: str, *, since: str, until: str) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for day, name, value in self.db.connection().execute(
            "SELECT day, counter, value FROM usage_days WHERE tenant_id=? AND day BETWEEN ? AND ? "
            "ORDER BY day, counter",
            (tenant_id, since, until),
        ):
            out.setdefault(str(day), {})[str(name)] = int(value)
        return out

    def totals(self, tenant_id: str) -> dict[str, int]:
        return {
            str(name): int(value)
            for name, value in self.db.connection().execute(
                "SELECT counter, sum(value) FROM usage_days WHERE tenant_id=? GROUP BY counter ORDER BY counter",
                (tenant_id,),
            )
        }

    def forget_tenant(self, tenant_id: str) -> None:
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM usage_days WHERE tenant_id=?", (tenant_id,))
