"""``DynamoTable``: what every part of the DynamoDB store shares, the low-level requests.

Queries page through ``LastEvaluatedKey``; bulk writes go through ``BatchWriteItem`` in chunks of
25 and reads through ``BatchGetItem`` in chunks of 100, their unprocessed items retried with
backoff; writes that must be atomic go through ``TransactWriteItems``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

from engram.adapters.clock import SystemClock
from engram.adapters.dynamodb.errors import translating
from engram.adapters.dynamodb.items import Item, key_of, s
from engram.adapters.dynamodb.table import index_name
from engram.errors import ConflictError, ProviderError
from engram.ports import Clock

BATCH_WRITE_LIMIT = 25
BATCH_GET_LIMIT = 100
TRANSACTION_LIMIT = 100
TRANSACTION_BYTES = 3_500_000  # below the 4 MB request limit, leaving room for the envelope


def cancellation_codes(exc: BaseException) -> list[str]:
    """The reason of each action of a cancelled transaction (``ConditionalCheckFailed``, …)."""
    response = getattr(exc, "response", None) or {}
    return [str(r.get("Code", "None")) for r in response.get("CancellationReasons", [])]


def _base64_size(blob: bytes) -> str:
    """A stand-in as long as the blob's base64 form, to size a request before sending it."""
    return "x" * (4 * (len(blob) + 2) // 3)


def backoff(attempt: int) -> None:
    time.sleep(random.uniform(0, min(1.0, 0.02 * 2**attempt)))


class DynamoTable:
    """What every part of the store works on: the client (injected, see ``dynamodb_client``),
    the table name and the clock TTLs count from."""

    def __init__(
        self, client: Any, table_name: str, *, max_unprocessed_rounds: int = 8, clock: Clock | None = None
    ) -> None:
        # Every failure of the client is an Engram error (engram.adapters.dynamodb.errors).
        self.client, self.table = translating(client), table_name
        self.max_unprocessed_rounds = max_unprocessed_rounds
        self.clock: Clock = clock or SystemClock()

    def now_s(self) -> int:
        return int(self.clock.now().timestamp())

    def query(
        self,
        *,
        index: str | None = None,
        key: str,
        value: str,
        sk_condition: str = "",
        values: dict[str, Any] | None = None,
        forward: bool = True,
        page_size: int | None = None,
        projection: str | None = None,
    ) -> Iterator[Item]:
        """Every item of one partition (of the table or of an index), page after page."""
        request: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": f"{key} = :p" + (f" AND {sk_condition}" if sk_condition else ""),
            "ExpressionAttributeValues": {":p": s(value), **(values or {})},
            "ScanIndexForward": forward,
        }
        if index is None:
            request["ConsistentRead"] = True
        else:
            request["IndexName"] = index_name(index)
        if page_size is not None:
            request["Limit"] = page_size
        if projection is not None:
            request["ProjectionExpression"] = projection
        while True:
            page = self.client.query(**request)
            yield from page.get("Items", [])
            last = page.get("LastEvaluatedKey")
            if not last:
                return
            request["ExclusiveStartKey"] = last

    def partition_keys(self, pk: str) -> list[Item]:
        """The key of every item of one partition of the table."""
        return [key_of(i) for i in self.query(key="pk", value=pk, projection="pk, sk")]

    def put_new(self, item: Item, conflict: str) -> None:
        """Put an item whose key must be new; ``ConflictError(conflict)`` if it is taken."""
        try:
            self.client.put_item(
                TableName=self.table, Item=item, ConditionExpression="attribute_not_exists(pk)"
            )
        except self.client.exceptions.ConditionalCheckFailedException as exc:
            raise ConflictError(conflict) from exc

    def update_existing(
        self, item_key: Item, expression: str, values: dict[str, Any], condition: str = ""
    ) -> bool:
        """``UpdateItem`` on an item that must exist (and meet ``condition``); False if not."""
        try:
            self.client.update_item(
                TableName=self.table,
                Key=item_key,
                UpdateExpression=expression,
                ConditionExpression="attribute_exists(pk)" + (f" AND {condition}" if condition else ""),
                ExpressionAttributeValues=values,
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            return False
        return True

    def batch_write(self, requests: Sequence[dict[str, Any]]) -> None:
        """``BatchWriteItem`` in chunks of 25; unprocessed items are retried with backoff."""
        for start in range(0, len(requests), BATCH_WRITE_LIMIT):
            pending: list[dict[str, Any]] = list(requests[start : start + BATCH_WRITE_LIMIT])
            for attempt in range(self.max_unprocessed_rounds + 1):
                response = self.client.batch_write_item(RequestItems={self.table: pending})
                pending = response.get("UnprocessedItems", {}).get(self.table, [])
                if not pending:
                    break
                if attempt == self.max_unprocessed_rounds:
                    raise ProviderError(f"DynamoDB left {len(pending)} writes unprocessed; retry")
                backoff(attempt)

    def batch_delete(self, keys: Sequence[Item]) -> None:
        self.batch_write([{"DeleteRequest": {"Key": k}} for k in keys])

    def batch_get(
        self, keys: Sequence[Item], projection: str | None = None, *, consistent: bool = True
    ) -> list[Item]:
        """``BatchGetItem`` (consistent unless not ``consistent``) in chunks of 100; unprocessed
        keys are retried."""
        out: list[Item] = []
        for start in range(0, len(keys), BATCH_GET_LIMIT):
            request: dict[str, Any] = {
                "Keys": list(keys[start : start + BATCH_GET_LIMIT]),
                "ConsistentRead": consistent,
            }
            if projection is not None:
                request["ProjectionExpression"] = projection
            for attempt in range(self.max_unprocessed_rounds + 1):
                response = self.client.batch_get_item(RequestItems={self.table: request})
                out.extend(response.get("Responses", {}).get(self.table, []))
                unprocessed = response.get("UnprocessedKeys", {}).get(self.table)
                if not unprocessed:
                    break
                if attempt == self.max_unprocessed_rounds:
                    raise ProviderError("DynamoDB left reads unprocessed; retry")
                request = unprocessed
                backoff(attempt)
        return out

    def transact(self, actions: Sequence[dict[str, Any]]) -> None:
        """One ``TransactWriteItems``; conflicts with another transaction are retried."""
        for attempt in range(self.max_unprocessed_rounds + 1):
            try:
                self.client.transact_write_items(TransactItems=list(actions))
                return
            except self.client.exceptions.TransactionCanceledException as exc:
                codes = cancellation_codes(exc)
                if "TransactionConflict" not in codes or "ConditionalCheckFailed" in codes:
                    raise
                if attempt == self.max_unprocessed_rounds:
                    raise
                backoff(attempt)

    def transact_chunks(self, groups: Sequence[list[dict[str, Any]]]) -> None:
        """Transactions of whole groups, each under the item and size limits of one request."""
        chunk: list[dict[str, Any]] = []
        size = 0
        for group in groups:
            group_size = sum(len(json.dumps(a, default=_base64_size)) for a in group)
            if chunk and (
                len(chunk) + len(group) > TRANSACTION_LIMIT or size + group_size > TRANSACTION_BYTES
            ):
                self.transact(chunk)
                chunk, size = [], 0
            chunk.extend(group)
            size += group_size
        if chunk:
            self.transact(chunk)
