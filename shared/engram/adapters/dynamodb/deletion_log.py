"""``DeletionLog`` on DynamoDB: the tenant's ``#DELLOG`` partition, one content-free receipt per
hard delete, in time order."""

from __future__ import annotations

from engram.adapters.dynamodb.items import key, s
from engram.adapters.dynamodb.requests import DynamoTable
from engram.adapters.matching import iso
from engram.models import DeletionLogEntry


def deletion_log_pk(tenant_id: str) -> str:
    return f"TENANT#{tenant_id}#DELLOG"


def log_deletion(table: DynamoTable, tenant_id: str, entry: DeletionLogEntry) -> None:
    """Write a receipt (after the delete it records)."""
    table.client.put_item(
        TableName=table.table,
        Item={
            **key(deletion_log_pk(tenant_id), f"{iso(entry.at)}#{entry.receipt_id}"),
            "tenant_id": s(tenant_id),
            "doc": s(entry.model_dump_json()),
        },
    )


class DynamoDeletionLog(DynamoTable):
    def deletion_log(self, tenant_id: str) -> list[DeletionLogEntry]:
        return [
            DeletionLogEntry.model_validate_json(i["doc"]["S"])
            for i in self.query(key="pk", value=deletion_log_pk(tenant_id))
        ]
