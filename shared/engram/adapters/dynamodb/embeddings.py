"""``EmbeddingBacklog`` on DynamoDB: memories written without a vector are listed in the sparse,
keys-only index g5 (``TENANT#<t>#PENDING``) until ``set_embeddings`` stores theirs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engram.adapters.dynamodb.actions import vector_put
from engram.adapters.dynamodb.items import (
    dim_of,
    memory_id_of,
    memory_key,
    owned,
    record_of,
    s,
    tenant_pk,
)
from engram.adapters.dynamodb.requests import DynamoTable, cancellation_codes
from engram.adapters.dynamodb.table import index_name
from engram.ports import Vector


class DynamoEmbeddingBacklog(DynamoTable):
    def pending_embedding(self, tenant_id: str, limit: int) -> list[tuple[str, str, str]]:
        ids: list[str] = []
        for item in self.query(
            index="g5", key="g5pk", value=f"{tenant_pk(tenant_id)}#PENDING", page_size=limit
        ):
            ids.append(memory_id_of(item["pk"]["S"]))
            if len(ids) >= limit:
                break
        keys = [memory_key(tenant_id, i) for i in ids]
        found = {i["id"]["S"]: i for i in self.batch_get(keys) if owned(tenant_id, i) and "dim" not in i}
        # oldest first, as the index listed them
        return [
            (memory_id, record_of(found[memory_id]).content, found[memory_id]["content_hash"]["S"])
            for memory_id in ids
            if memory_id in found
        ]

    def set_embeddings(
        self, tenant_id: str, items: Sequence[tuple[str, str, Vector]], model_id: str
    ) -> list[str]:
        done: list[str] = []
        for memory_id, content_hash, vector in items:
            # The hash guard: a text patched meanwhile keeps waiting for its own vector; the
            # vector item goes in the same transaction, so a refused one leaves none behind.
            mark = {
                "TableName": self.table,
                "Key": memory_key(tenant_id, memory_id),
                "UpdateExpression": "SET dim = :d, embedding_model = :m REMOVE g5pk, g5sk",
                "ConditionExpression": "attribute_exists(pk) AND content_hash = :h AND attribute_not_exists(dim)",
                "ExpressionAttributeValues": {":d": dim_of(vector), ":m": s(model_id), ":h": s(content_hash)},
            }
            try:
                self.transact([{"Update": mark}, vector_put(self.table, tenant_id, memory_id, vector)])
            except self.client.exceptions.TransactionCanceledException as exc:
                if "ConditionalCheckFailed" in cancellation_codes(exc):
                    continue
                raise
            done.append(memory_id)
        return done

    def tenants_with_pending(self) -> list[str]:
        """Tenants with memories still unembedded (a scan of the sparse, keys-only index g5)."""
        tenants: set[str] = set()
        request: dict[str, Any] = {
            "TableName": self.table,
            "IndexName": index_name("g5"),
            "ProjectionExpression": "g5pk",
        }
        while True:
            page = self.client.scan(**request)
            for item in page.get("Items", []):
                tenants.add(item["g5pk"]["S"].removeprefix("TENANT#").removesuffix("#PENDING"))
            if not page.get("LastEvaluatedKey"):
                return sorted(tenants)
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
