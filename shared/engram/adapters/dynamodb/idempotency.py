"""``IdempotencyRecords`` on DynamoDB: one item per key (``TENANT#<t>#IDEM#<key>``), expiring
through the table's TTL attribute after ``IDEMPOTENCY_TTL``."""

from __future__ import annotations

import json
from typing import Any

from engram.adapters.dynamodb.items import expired, key, n, s
from engram.adapters.dynamodb.requests import DynamoTable
from engram.adapters.store_policy import IDEMPOTENCY_TTL


def _key(tenant_id: str, idempotency_key: str) -> dict[str, Any]:
    return key(f"TENANT#{tenant_id}#IDEM#{idempotency_key}", "IDEM")


def put_idempotency(
    table: DynamoTable, tenant_id: str, record: tuple[str, str, list[dict[str, Any]]]
) -> None:
    """Store (key, fingerprint, results), after the write it answers for."""
    idempotency_key, fingerprint, results = record
    table.client.put_item(
        TableName=table.table,
        Item={
            **_key(tenant_id, idempotency_key),
            "tenant_id": s(tenant_id),
            "g1pk": s(f"TENANT#{tenant_id}#IDEMS"),
            "g1sk": s(idempotency_key),
            "fingerprint": s(fingerprint),
            "results": s(json.dumps(results)),
            "ttl": n(table.now_s() + int(IDEMPOTENCY_TTL.total_seconds())),
        },
    )


class DynamoIdempotency(DynamoTable):
    def idempotent_result(self, tenant_id: str, key: str) -> tuple[str, list[dict[str, Any]]] | None:
        item = self.client.get_item(TableName=self.table, Key=_key(tenant_id, key), ConsistentRead=True).get(
            "Item"
        )
        # TTL deletion lags expiry by up to days: an expired item is treated as gone.
        if item is None or expired(item, self.now_s()):
            return None
        return item["fingerprint"]["S"], json.loads(item["results"]["S"])
