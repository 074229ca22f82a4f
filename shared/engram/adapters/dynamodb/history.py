"""``MemoryHistory`` on DynamoDB: ``HIST#<version>#…`` items in the memory's own partition, so a
memory's hard delete takes its history with it (written by ``actions.history_put``)."""

from __future__ import annotations

from engram.adapters.dynamodb.items import memory_pk, s
from engram.adapters.dynamodb.requests import DynamoTable
from engram.models import HistoryEntry


class DynamoHistory(DynamoTable):
    def history(self, tenant_id: str, memory_id: str) -> list[HistoryEntry]:
        items = self.query(
            key="pk",
            value=memory_pk(tenant_id, memory_id),
            sk_condition="begins_with(sk, :h)",
            values={":h": s("HIST#")},
        )
        return [HistoryEntry.model_validate_json(i["doc"]["S"]) for i in items]
