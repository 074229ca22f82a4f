"""``TenantRegistry`` on SQLite: the ``tenants`` table, and a tenant's erasure in one transaction."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engram.adapters.matching import iso
from engram.adapters.sqlite.database import SqliteTables, insert_new
from engram.adapters.sqlite.schema import TENANT_TABLES
from engram.models import Tenant

_COLUMNS = "tenant_id, name, created_at, settings"


def _tenant(row: Any) -> Tenant:
    return Tenant(tenant_id=row[0], name=row[1], created_at=row[2], settings_overrides=json.loads(row[3]))


class SqliteTenants(SqliteTables):
    def create_tenant(self, tenant: Tenant) -> None:
        values = (
            tenant.tenant_id,
            tenant.name,
            iso(tenant.created_at),
            json.dumps(tenant.settings_overrides),
        )
        with self.db.transaction() as conn:
            insert_new(
                conn,
                f"INSERT INTO tenants({_COLUMNS}) VALUES(?,?,?,?)",
                values,
                f"tenant '{tenant.tenant_id}' already exists",
            )
            self.db.ensure_fts(conn, tenant.tenant_id)

    def get_tenant(self, tenant_id: str) -> Tenant | None:
        row = self.db.one(f"SELECT {_COLUMNS} FROM tenants WHERE tenant_id=?", (tenant_id,))
        return None if row is None else _tenant(row)

    def set_tenant_settings(self, tenant_id: str, overrides: dict[str, Any]) -> bool:
        """Replace a tenant's setting overrides; False if there is no such tenant."""
        with self.db.transaction() as conn:
            cur = conn.execute(
                "UPDATE tenants SET settings=? WHERE tenant_id=?", (json.dumps(overrides), tenant_id)
            )
        return bool(cur.rowcount)

    def list_tenants(self) -> list[Tenant]:
        rows = self.db.connection().execute(f"SELECT {_COLUMNS} FROM tenants ORDER BY tenant_id").fetchall()
        return [_tenant(r) for r in rows]

    def erase_tenant(self, tenant_id: str, *, should_stop: Callable[[], bool] | None = None) -> int:
        """Everything of the tenant goes in one transaction, its text index table included;
        returns memories removed (``should_stop`` is not needed: it never takes long)."""
        with self.db.transaction() as conn:
            count = conn.execute("SELECT count(*) FROM memories WHERE tenant_id=?", (tenant_id,)).fetchone()[
                0
            ]
            for table in TENANT_TABLES:
                conn.execute(f"DELETE FROM {table} WHERE tenant_id=?", (tenant_id,))
            self.db.drop_fts(conn, tenant_id)
        self.db.checkpoint()
        return int(count)
