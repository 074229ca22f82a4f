"""``LifecycleReports`` on DynamoDB: one item per run in the tenant's ``#LIFECYCLE`` partition; a
completed run trims the tenant's reports to the newest ``LIFECYCLE_REPORTS_KEPT``."""

from __future__ import annotations

import itertools

from engram.adapters.dynamodb.items import Item, key, s
from engram.adapters.dynamodb.requests import DynamoTable
from engram.adapters.matching import iso
from engram.adapters.store_policy import LIFECYCLE_REPORTS_KEPT
from engram.errors import ValidationFailedError
from engram.models import LifecycleReport

_WRITES = itertools.count()
"""Orders two writes of this process at the same clock time (a fixed clock in tests)."""


def _pk(tenant_id: str) -> str:
    return f"TENANT#{tenant_id}#LIFECYCLE"


def _reports(table: DynamoTable, tenant_id: str) -> list[Item]:
    """The tenant's report items, newest first (at most ~100 are kept, so all are read)."""
    items = list(table.query(key="pk", value=_pk(tenant_id)))
    return sorted(items, key=lambda i: i["seq"]["S"], reverse=True)


def put_report(table: DynamoTable, tenant_id: str, report: LifecycleReport) -> None:
    """Keyed by run id; ``seq`` (start time, then write time) orders the partition as SQLite's
    started_at-then-rowid does: a rewritten report of a run counts as its latest. A completed
    run trims the tenant's reports to the latest ``LIFECYCLE_REPORTS_KEPT``."""
    if report.tenant_id != tenant_id:
        raise ValidationFailedError("the report must belong to the tenant written to")
    written = f"{iso(table.clock.now())}#{next(_WRITES):012d}"
    table.client.put_item(
        TableName=table.table,
        Item={
            **key(_pk(tenant_id), f"RUN#{report.run_id}"),
            "tenant_id": s(tenant_id),
            "seq": s(f"{iso(report.started_at)}#{written}"),
            "doc": s(report.model_dump_json()),
        },
    )
    if report.status == "completed":
        stale = _reports(table, tenant_id)[LIFECYCLE_REPORTS_KEPT:]
        table.batch_delete([key(_pk(tenant_id), i["sk"]["S"]) for i in stale])


class DynamoLifecycleReports(DynamoTable):
    def put_lifecycle_report(self, tenant_id: str, report: LifecycleReport) -> None:
        put_report(self, tenant_id, report)

    def lifecycle_reports(self, tenant_id: str, limit: int = 10) -> list[LifecycleReport]:
        return [LifecycleReport.model_validate_json(i["doc"]["S"]) for i in _reports(self, tenant_id)[:limit]]
