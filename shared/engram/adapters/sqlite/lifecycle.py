"""``LifecycleReports`` on SQLite: one row per run; a completed run trims the tenant's reports to
the newest ``LIFECYCLE_REPORTS_KEPT``."""

from __future__ import annotations

from typing import Any

from engram.adapters.matching import iso
from engram.adapters.sqlite.database import SqliteTables
from engram.adapters.store_policy import LIFECYCLE_REPORTS_KEPT
from engram.errors import ValidationFailedError
from engram.models import LifecycleReport


def put_report(conn: Any, tenant_id: str, report: LifecycleReport) -> None:
    """Insert or replace the run's report (inside the caller's transaction)."""
    conn.execute(
        "INSERT OR REPLACE INTO lifecycle_runs(tenant_id, run_id, started_at, doc) VALUES(?,?,?,?)",
        (tenant_id, report.run_id, iso(report.started_at), report.model_dump_json()),
    )
    if report.status == "completed":  # an hourly job would otherwise pile up reports forever
        conn.execute(
            "DELETE FROM lifecycle_runs WHERE tenant_id=? AND run_id NOT IN (SELECT run_id FROM"
            " lifecycle_runs WHERE tenant_id=? ORDER BY started_at DESC, rowid DESC LIMIT ?)",
            (tenant_id, tenant_id, LIFECYCLE_REPORTS_KEPT),
        )


class SqliteLifecycleReports(SqliteTables):
    def put_lifecycle_report(self, tenant_id: str, report: LifecycleReport) -> None:
        if report.tenant_id != tenant_id:
            raise ValidationFailedError("the report must belong to the tenant written to")
        with self.db.transaction() as conn:
            put_report(conn, tenant_id, report)

    def lifecycle_reports(self, tenant_id: str, limit: int = 10) -> list[LifecycleReport]:
        rows = self.db.rows(
            "SELECT doc FROM lifecycle_runs WHERE tenant_id=? ORDER BY started_at DESC, rowid DESC LIMIT ?",
            (tenant_id, limit),
        )
        return [LifecycleReport.model_validate_json(r[0]) for r in rows]
