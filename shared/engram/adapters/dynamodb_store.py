"""The AWS system of record: one DynamoDB table (single-table design), low-level boto3 client.

Keys (``pk``/``sk``) and the six global secondary indexes are documented in the README
("DynamoDB key design"). In short::

    TENANT#<t>                       META                  the tenant (g1: TENANTS / <t>)
    TENANT#<t>                       USAGE#D#<day>         usage counters of a day (atomic ADD; dynamodb_usage)
    TENANT#<t>#MEM#<id>              MEM                   one memory (record, vector, filter fields)
    TENANT#<t>#MEM#<id>              HIST#<version>#…      its history, deleted with it
    TENANT#<t>#IDEM#<key>            IDEM                  idempotency result (TTL attribute ``ttl``)
    TENANT#<t>#JOB#<id>              JOB                   an asynchronous retain
    TENANT#<t>#DELLOG                <at>#<receipt>        content-free deletion log
    APIKEY#<key_id>                  APIKEY                an API key record (secret HMAC only)

    g1  <owner listing>: TENANT#<t>#MEMS | #KEYS | #JOBS | #IDEMS, TENANTS   sk <created>#<id>
    g2  memories by scope  TENANT#<t>#SCOPE#<scope>; open jobs JOBS#OPEN      sk <created>#<id>
    g3  memories by tier   TENANT#<t>#TIER#<tier>  (the lifecycle scheduler)  sk <created>#<id>
    g4  content hash       TENANT#<t>#HASH#<scope>#<sha256>  (keys only)       sk <id>
    g5  pending embedding  TENANT#<t>#PENDING  (sparse, keys only)            sk <created>#<id>
    g6  session neighbours TENANT#<t>#SESSION#<scope>#<session>  (sparse)      sk <created>#<id>

Every key this module builds starts with the tenant id handed to the method, so no call can
read, change or count another tenant's items. The memory record is kept as JSON (``doc``)
beside native attributes for what conditions and atomic counters need (``version``,
``access_count``, ``last_accessed_at``, scope, status, tier, …). Writes that must be atomic go
through ``TransactWriteItems``; bulk deletes through ``BatchWriteItem`` in chunks of 25 with
their unprocessed items retried.
"""

from __future__ import annotations

import json
import logging
import random
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from engram.adapters.clock import SystemClock
from engram.adapters.matching import iso, matches
from engram.adapters.store_policy import (
    FINISHED_JOB_TTL,
    IDEMPOTENCY_TTL,
    LIFECYCLE_REPORTS_KEPT,
    decode_cursor,
    encode_cursor,
)
from engram.errors import ConflictError, PayloadTooLargeError, ProviderError, ValidationFailedError
from engram.models import (
    CATEGORIES,
    TIERS,
    DeletionLogEntry,
    HistoryEntry,
    Job,
    LifecycleReport,
    MemoryRecord,
    StatsResponse,
    Tenant,
)
from engram.ports import BlobStore, Clock, ConditionalUpdate, Conditions, Page, Vector, WriteBatch
from engram.scopes import ScopeSet

logger = logging.getLogger(__name__)

Item = dict[str, dict[str, Any]]

BATCH_WRITE_LIMIT = 25
BATCH_GET_LIMIT = 100
TRANSACTION_LIMIT = 100
TRANSACTION_BYTES = 3_500_000  # below the 4 MB request limit, leaving room for the envelope
ERASE_ROUNDS = 10
INLINE_JOB_BYTES = 100_000
"""Job bodies up to this size stay in the item (DynamoDB's item limit is 400 KB)."""


def job_body_key(tenant_id: str, job_id: str) -> str:
    """Where a large job body waits in the blob store (everything of a tenant under one prefix)."""
    return f"tenants/{tenant_id}/jobs/{job_id}.json"


GSIS = ("g1", "g2", "g3", "g4", "g5", "g6")
_KEYS_ONLY = ("g4", "g5")
_MEMORY_FIELDS = (
    "tenant_id", "id", "doc", "scope", "category", "status", "tier",
    "created_at", "occurred_at", "content_hash", "session_id", "dim",
)  # fmt: skip
PROJECTED: dict[str, tuple[str, ...]] = {
    # Listings carry what filters and counts need, never the vector (4 KB at 1,024 dimensions)
    # nor the access counters: recall's access tracking then writes the base item alone.
    "g1": (*_MEMORY_FIELDS, "name", "settings", "key_id", "display_prefix", "secret_hash", "scopes",
           "read_only", "expires_at", "revoked_at", "last_used_at"),
    "g2": _MEMORY_FIELDS,
    "g3": _MEMORY_FIELDS,
    "g6": _MEMORY_FIELDS,
}  # fmt: skip


def _s(value: str) -> dict[str, str]:
    return {"S": value}


def _n(value: int | float) -> dict[str, str]:
    return {"N": repr(value) if isinstance(value, float) else str(value)}


def _key(pk: str, sk: str) -> Item:
    return {"pk": _s(pk), "sk": _s(sk)}


def index_name(gsi: str) -> str:
    """The index's name (``g1-index``); its key attributes are ``g1pk`` and ``g1sk``."""
    return f"{gsi}-index"


def session_key(tenant_id: str, scope: str, session_id: str) -> str:
    return f"TENANT#{tenant_id}#SESSION#{scope}#{session_id}"


def memory_pk(tenant_id: str, memory_id: str) -> str:
    return f"TENANT#{tenant_id}#MEM#{memory_id}"


def _created_key(created_at: datetime, item_id: str) -> str:
    return f"{iso(created_at)}#{item_id}"


def table_definition(table_name: str) -> dict[str, Any]:
    """The ``CreateTable`` request for the table (the CDK stack declares the same)."""
    attributes = ["pk", "sk"] + [f"{g}{part}" for g in GSIS for part in ("pk", "sk")]
    return {
        "TableName": table_name,
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"} for a in attributes],
        "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": index_name(g),
                "KeySchema": [
                    {"AttributeName": f"{g}pk", "KeyType": "HASH"},
                    {"AttributeName": f"{g}sk", "KeyType": "RANGE"},
                ],
                "Projection": (
                    {"ProjectionType": "INCLUDE", "NonKeyAttributes": list(PROJECTED[g])}
                    if g in PROJECTED
                    else {"ProjectionType": "KEYS_ONLY"}
                ),
            }
            for g in GSIS
        ],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    }


def create_table(client: Any, table_name: str) -> None:
    """Create the table (idempotent), wait until it is active and turn on TTL on ``ttl``."""
    try:
        client.create_table(**table_definition(table_name))
    except client.exceptions.ResourceInUseException:
        return
    client.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig={"Delay": 1})
    client.update_time_to_live(
        TableName=table_name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"}
    )


def dynamodb_client(
    *, region: str | None = None, endpoint_url: str | None = None, max_attempts: int = 4, **kwargs: Any
) -> Any:
    """A DynamoDB client with botocore's ``standard`` retry mode and bounded attempts and timeouts."""
    import boto3
    from botocore.config import Config

    config = Config(
        retries={"mode": "standard", "total_max_attempts": max_attempts},
        connect_timeout=2,
        read_timeout=5,
        tcp_keepalive=True,
        max_pool_connections=32,
    )
    return boto3.client("dynamodb", region_name=region, endpoint_url=endpoint_url, config=config, **kwargs)


def _cancellation_codes(exc: BaseException) -> list[str]:
    response = getattr(exc, "response", None) or {}
    return [str(r.get("Code", "None")) for r in response.get("CancellationReasons", [])]


def _base64_size(blob: bytes) -> str:
    """A stand-in as long as the blob's base64 form, to size a request before sending it."""
    return "x" * (4 * (len(blob) + 2) // 3)


def _backoff(attempt: int) -> None:
    time.sleep(random.uniform(0, min(1.0, 0.02 * 2**attempt)))


class DynamoStore:
    """``MemoryStore`` on one DynamoDB table; the client is injected (see ``dynamodb_client``)."""

    def __init__(
        self,
        client: Any,
        table_name: str,
        *,
        max_unprocessed_rounds: int = 8,
        blobs: BlobStore | None = None,
        clock: Clock | None = None,
    ) -> None:
        """``blobs``: where job bodies too large for an item go (S3 in the stack); ``clock``: what
        the TTLs of idempotency records and finished jobs count from."""
        self.client = client
        self.table = table_name
        self.max_unprocessed_rounds = max_unprocessed_rounds
        self.blobs = blobs
        self.clock: Clock = clock or SystemClock()

    def _now_s(self) -> int:
        return int(self.clock.now().timestamp())

    # -- low-level helpers -----------------------------------------------------------------------

    def _query(
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
        expression_values = {":p": _s(value), **(values or {})}
        request: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": f"{key} = :p" + (f" AND {sk_condition}" if sk_condition else ""),
            "ExpressionAttributeValues": expression_values,
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

    def _batch_write(self, requests: Sequence[dict[str, Any]]) -> None:
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
                _backoff(attempt)

    def _batch_delete(self, keys: Sequence[Item]) -> None:
        self._batch_write([{"DeleteRequest": {"Key": k}} for k in keys])

    def _batch_get(self, keys: Sequence[Item], projection: str | None = None) -> list[Item]:
        """``BatchGetItem`` (consistent) in chunks of 100; unprocessed keys are retried."""
        out: list[Item] = []
        for start in range(0, len(keys), BATCH_GET_LIMIT):
            request: dict[str, Any] = {
                "Keys": list(keys[start : start + BATCH_GET_LIMIT]),
                "ConsistentRead": True,
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
                _backoff(attempt)
        return out

    def _transact(self, actions: Sequence[dict[str, Any]]) -> None:
        """One ``TransactWriteItems``; conflicts with another transaction are retried."""
        for attempt in range(self.max_unprocessed_rounds + 1):
            try:
                self.client.transact_write_items(TransactItems=list(actions))
                return
            except self.client.exceptions.TransactionCanceledException as exc:
                codes = _cancellation_codes(exc)
                if "TransactionConflict" not in codes or "ConditionalCheckFailed" in codes:
                    raise
                if attempt == self.max_unprocessed_rounds:
                    raise
                _backoff(attempt)

    def _transact_chunks(self, groups: Sequence[list[dict[str, Any]]]) -> None:
        """Transactions of whole groups, each under the item and size limits of one request."""
        chunk: list[dict[str, Any]] = []
        size = 0
        for group in groups:
            group_size = sum(len(json.dumps(a, default=_base64_size)) for a in group)
            if chunk and (
                len(chunk) + len(group) > TRANSACTION_LIMIT or size + group_size > TRANSACTION_BYTES
            ):
                self._transact(chunk)
                chunk, size = [], 0
            chunk.extend(group)
            size += group_size
        if chunk:
            self._transact(chunk)

    # -- tenants ---------------------------------------------------------------------------------

    @staticmethod
    def _tenant(item: Item) -> Tenant:
        return Tenant(
            tenant_id=item["tenant_id"]["S"],
            name=item["name"]["S"],
            created_at=item["created_at"]["S"],
            settings_overrides=json.loads(item["settings"]["S"]),
            erasing=bool(item.get("erasing", {}).get("BOOL", False)),
        )

    def create_tenant(self, tenant: Tenant) -> None:
        item = {
            **_key(f"TENANT#{tenant.tenant_id}", "META"),
            "g1pk": _s("TENANTS"),
            "g1sk": _s(tenant.tenant_id),
            "tenant_id": _s(tenant.tenant_id),
            "name": _s(tenant.name),
            "created_at": _s(iso(tenant.created_at) or ""),
            "settings": _s(json.dumps(tenant.settings_overrides)),
        }
        try:
            self.client.put_item(
                TableName=self.table, Item=item, ConditionExpression="attribute_not_exists(pk)"
            )
        except self.client.exceptions.ConditionalCheckFailedException as exc:
            raise ConflictError(f"tenant '{tenant.tenant_id}' already exists") from exc

    def get_tenant(self, tenant_id: str) -> Tenant | None:
        item = self.client.get_item(
            TableName=self.table, Key=_key(f"TENANT#{tenant_id}", "META"), ConsistentRead=True
        ).get("Item")
        return None if item is None else self._tenant(item)

    def set_tenant_settings(self, tenant_id: str, overrides: dict[str, Any]) -> bool:
        try:
            self.client.update_item(
                TableName=self.table,
                Key=_key(f"TENANT#{tenant_id}", "META"),
                UpdateExpression="SET settings = :s",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues={":s": _s(json.dumps(overrides))},
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            return False
        return True

    def list_tenants(self) -> list[Tenant]:
        return [self._tenant(i) for i in self._query(index="g1", key="g1pk", value="TENANTS")]

    def erase_tenant(self, tenant_id: str, *, should_stop: Callable[[], bool] | None = None) -> int:
        """Every item of the tenant goes: memories with their history, jobs, logs, usage, the
        tenant last. The tenant is marked ``erasing`` first, so nothing is served meanwhile; when
        ``should_stop()`` turns true between two batches the erasure stops there (the tenant is
        still there, erasing) and the next call goes on, so a large tenant is erased in steps."""
        stop = should_stop or (lambda: False)
        prefix = f"TENANT#{tenant_id}"
        try:
            self.client.update_item(
                TableName=self.table,
                Key=_key(prefix, "META"),
                UpdateExpression="SET erasing = :t",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues={":t": {"BOOL": True}},
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            return 0  # erased already (or never there)
        removed = 0
        # The listings are eventually consistent: go round until one finds nothing left.
        for attempt in range(ERASE_ROUNDS):
            found = 0
            for item in list(self._query(index="g1", key="g1pk", value=f"{prefix}#MEMS", projection="pk")):
                if stop():
                    return removed
                self._batch_delete(
                    [
                        _key(i["pk"]["S"], i["sk"]["S"])
                        for i in self._query(key="pk", value=item["pk"]["S"], projection="pk, sk")
                    ]
                )
                removed += 1
                found += 1
            for kind in ("JOBS", "IDEMS", "KEYS"):
                if stop():
                    return removed
                keys = [
                    _key(i["pk"]["S"], i["sk"]["S"])
                    for i in self._query(
                        index="g1", key="g1pk", value=f"{prefix}#{kind}", projection="pk, sk"
                    )
                ]
                self._batch_delete(keys)
                found += len(keys)
            if not found:
                break
            if attempt == ERASE_ROUNDS - 1:
                raise ProviderError(
                    f"tenant '{tenant_id}' still had items after {ERASE_ROUNDS} rounds; retry"
                )
            _backoff(attempt)
        for pk in (f"{prefix}#DELLOG", f"{prefix}#LIFECYCLE", prefix):
            self._batch_delete(
                [
                    _key(i["pk"]["S"], i["sk"]["S"])
                    for i in self._query(key="pk", value=pk, projection="pk, sk")
                ]
            )
        return removed

    # -- memories: reading -----------------------------------------------------------------------

    @staticmethod
    def _record(item: Item) -> MemoryRecord:
        """The record of a full item (a listing's projection lacks the counters: 0 there)."""
        doc = json.loads(item["doc"]["S"])
        doc["version"] = int(item.get("version", {}).get("N", 0))
        doc["access_count"] = int(item.get("access_count", {}).get("N", 0))
        last = item.get("last_accessed_at", {}).get("S")
        doc["last_accessed_at"] = last or None
        model = item.get("embedding_model", {}).get("S")
        if model:  # set by set_embeddings after the record was written unembedded
            doc["embedding_model"] = model
        return MemoryRecord.model_validate(doc)

    @staticmethod
    def _vector(item: Item) -> Vector | None:
        blob = item.get("embedding", {}).get("B")
        return None if blob is None else np.frombuffer(blob, dtype=np.float32).copy()

    def _owned(self, tenant_id: str, item: Item) -> bool:
        return item.get("tenant_id", {}).get("S") == tenant_id and item["sk"]["S"] == "MEM"

    def get(self, tenant_id: str, memory_id: str) -> MemoryRecord | None:
        item = self.client.get_item(
            TableName=self.table, Key=_key(memory_pk(tenant_id, memory_id), "MEM"), ConsistentRead=True
        ).get("Item")
        return self._record(item) if item is not None and self._owned(tenant_id, item) else None

    def get_many(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        keys = [_key(memory_pk(tenant_id, i), "MEM") for i in dict.fromkeys(memory_ids)]
        records = [self._record(i) for i in self._batch_get(keys) if self._owned(tenant_id, i)]
        return {r.id: r for r in records}

    def find_by_hash(self, tenant_id: str, scope: str, content_hash: str) -> MemoryRecord | None:
        hits = self._query(
            index="g4", key="g4pk", value=f"TENANT#{tenant_id}#HASH#{scope}#{content_hash}", projection="pk"
        )
        ids = [h["pk"]["S"].rsplit("#", 1)[1] for h in hits]
        for record in self.get_many(tenant_id, ids).values():
            if record.status == "active" and record.content_hash == content_hash and record.scope == scope:
                return record
        return None

    def neighbours(
        self, tenant_id: str, memory_ids: Sequence[str], conditions: Conditions, span: int
    ) -> dict[str, list[str]]:
        """For each listed memory of a thread (session or retain batch), up to ``span`` memories
        before and after it in the same scope and thread (creation order) that meet ``conditions``;
        through index g6."""
        if not memory_ids or span < 1:
            return {}
        out: dict[str, list[str]] = {}
        for seed in self.get_many(tenant_id, memory_ids).values():
            session = seed.thread
            if session is None:
                continue
            position = _created_key(seed.created_at, seed.id)
            sides: list[list[str]] = []
            for condition, forward in (("g6sk < :at", False), ("g6sk > :at", True)):
                found: list[str] = []
                for item in self._query(
                    index="g6",
                    key="g6pk",
                    value=session_key(tenant_id, seed.scope, session),
                    sk_condition=condition,
                    values={":at": _s(position)},
                    forward=forward,
                ):
                    if item.get("tenant_id", {}).get("S") == tenant_id and matches(
                        self._record(item), conditions
                    ):
                        found.append(item["id"]["S"])
                        if len(found) == span:
                            break
                sides.append(found)
            before, after = sides
            if before or after:
                out[seed.id] = [*reversed(before), *after]
        return out

    def get_vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        """The stored vector of each listed memory of this tenant (unembedded or missing ids left out)."""
        keys = [_key(memory_pk(tenant_id, i), "MEM") for i in dict.fromkeys(memory_ids)]
        out: dict[str, Vector] = {}
        for item in self._batch_get(keys, projection="id, tenant_id, sk, embedding"):
            vector = self._vector(item)
            if vector is not None and self._owned(tenant_id, item):
                out[item["id"]["S"]] = vector
        return out

    def _listing(
        self, tenant_id: str, conditions: Conditions, *, after: str | None = None, before: str | None = None
    ) -> Iterator[Item]:
        """Memory items in (created_at, id) order from the narrowest index the conditions allow."""
        prefix = f"TENANT#{tenant_id}"
        if not conditions.scopes:
            raise ValidationFailedError("a search must name at least one scope")
        if not conditions.scopes.is_every and len(conditions.scopes) == 1:
            index, value = "g2", f"{prefix}#SCOPE#{conditions.scopes.names[0]}"
        elif len(conditions.tiers) == 1:
            index, value = "g3", f"{prefix}#TIER#{conditions.tiers[0]}"
        else:
            index, value = "g1", f"{prefix}#MEMS"
        sk = f"{index}sk"
        values: dict[str, Any] = {}
        clauses = []
        if after is not None:
            clauses.append(f"{sk} > :after")
            values[":after"] = _s(after)
        if before is not None:
            clauses.append(f"{sk} < :before")
            values[":before"] = _s(before)
        if len(clauses) == 2:  # a key condition takes one range: BETWEEN is inclusive, so filter below
            clauses = [f"{sk} BETWEEN :after AND :before"]
        for item in self._query(
            index=index, key=f"{index}pk", value=value, sk_condition=" AND ".join(clauses), values=values
        ):
            if item.get("tenant_id", {}).get("S") != tenant_id:
                continue  # defensive: a key of this tenant never holds another's item
            if (before is not None and item[sk]["S"] >= before) or (
                after is not None and item[sk]["S"] <= after
            ):
                continue
            yield item

    def select_ids(
        self,
        tenant_id: str,
        conditions: Conditions,
        *,
        older_than: datetime | None = None,
        limit: int | None = None,
    ) -> list[str]:
        out: list[str] = []
        before = iso(older_than) if older_than is not None else None
        for item in self._listing(tenant_id, conditions, before=before):
            record = self._record(item)
            if matches(record, conditions):
                out.append(record.id)
                if limit is not None and len(out) >= limit:
                    break
        return out

    def list_page(
        self,
        tenant_id: str,
        conditions: Conditions,
        *,
        cursor: str | None,
        limit: int,
        tag: str | None = None,
    ) -> Page:
        after = "#".join(decode_cursor(cursor)) if cursor else None
        listed: list[MemoryRecord] = []
        more = False
        for item in self._listing(tenant_id, conditions, after=after):
            record = self._record(item)
            if not matches(record, conditions) or (tag is not None and tag not in record.tags):
                continue
            if len(listed) == limit:
                more = True
                break
            listed.append(record)
        next_cursor = (
            encode_cursor(iso(listed[-1].created_at) or "", listed[-1].id) if more and listed else None
        )
        full = self.get_many(tenant_id, [r.id for r in listed])  # counters and the latest state
        return Page(records=[full[r.id] for r in listed if r.id in full], next_cursor=next_cursor)

    def history(self, tenant_id: str, memory_id: str) -> list[HistoryEntry]:
        items = self._query(
            key="pk",
            value=memory_pk(tenant_id, memory_id),
            sk_condition="begins_with(sk, :h)",
            values={":h": _s("HIST#")},
        )
        return [HistoryEntry.model_validate_json(i["doc"]["S"]) for i in items]

    def iter_records(self, tenant_id: str) -> Iterator[tuple[MemoryRecord, Vector | None]]:
        """Every memory with its vector, in (created_at, id) order, 100 full items per read."""
        ids: list[str] = []
        for item in self._listing(tenant_id, Conditions(scopes=ScopeSet.every())):
            ids.append(item["id"]["S"])
            if len(ids) == BATCH_GET_LIMIT:
                yield from self._full(tenant_id, ids)
                ids = []
        yield from self._full(tenant_id, ids)

    def _full(self, tenant_id: str, ids: Sequence[str]) -> Iterator[tuple[MemoryRecord, Vector | None]]:
        if not ids:
            return
        keys = [_key(memory_pk(tenant_id, i), "MEM") for i in ids]
        found = {i["id"]["S"]: i for i in self._batch_get(keys) if self._owned(tenant_id, i)}
        for memory_id in ids:
            if memory_id in found:
                yield self._record(found[memory_id]), self._vector(found[memory_id])

    def stats(self, tenant_id: str, *, scopes: Sequence[str] | None = None) -> StatsResponse:
        by_scope: dict[str, int] = {}
        by_category = dict.fromkeys(CATEGORIES, 0)
        by_tier = dict.fromkeys(TIERS, 0)
        by_status: dict[str, int] = {}
        size = 0
        for item in self._listing(
            tenant_id, Conditions(scopes=ScopeSet.every() if scopes is None else ScopeSet.of(scopes))
        ):
            for counts, name in (
                (by_scope, "scope"),
                (by_category, "category"),
                (by_tier, "tier"),
                (by_status, "status"),
            ):
                value = item[name]["S"]
                counts[value] = counts.get(value, 0) + 1
            size += len(item["doc"]["S"]) + 4 * int(item.get("dim", {}).get("N", 0))
        return StatsResponse(
            tenant_id=tenant_id,
            total=sum(by_status.values()),
            by_scope=by_scope,
            by_category=by_category,
            by_tier=by_tier,
            by_status=by_status,
            storage_bytes=size,
            usage={},
            pending_embedding=sum(
                1 for _ in self._query(index="g5", key="g5pk", value=f"TENANT#{tenant_id}#PENDING")
            ),
        )

    # -- memories: writing -----------------------------------------------------------------------

    def _memory_update(
        self,
        tenant_id: str,
        record: MemoryRecord,
        vector: Vector | None,
        *,
        pending: bool,
        condition: str = "",
        condition_values: dict[str, Any] | None = None,
        keep_access: bool = False,
    ) -> dict[str, Any]:
        """An ``Update`` action that writes the whole record (and the vector, if given);
        ``keep_access``: all but the access bookkeeping, which recalls add to atomically, unless
        the record moves the last access itself (a restore restarts the decay clock)."""
        created = _created_key(record.created_at, record.id)
        doc = record.model_dump(mode="json", exclude={"version", "access_count", "last_accessed_at"})
        fields: dict[str, dict[str, Any]] = {
            "tenant_id": _s(tenant_id),
            "id": _s(record.id),
            "doc": _s(json.dumps(doc)),
            "version": _n(record.version),
            "access_count": _n(record.access_count),
            "scope": _s(record.scope),
            "category": _s(record.category),
            "status": _s(record.status),
            "tier": _s(record.tier),
            "content_hash": _s(record.content_hash),
            "created_at": _s(iso(record.created_at) or ""),
            "g1pk": _s(f"TENANT#{tenant_id}#MEMS"),
            "g1sk": _s(created),
            "g2pk": _s(f"TENANT#{tenant_id}#SCOPE#{record.scope}"),
            "g2sk": _s(created),
            "g3pk": _s(f"TENANT#{tenant_id}#TIER#{record.tier}"),
            "g3sk": _s(created),
            "g4pk": _s(f"TENANT#{tenant_id}#HASH#{record.scope}#{record.content_hash}"),
            "g4sk": _s(record.id),
        }
        optional = {
            "last_accessed_at": iso(record.last_accessed_at),
            "occurred_at": iso(record.occurred_at),
            "session_id": record.source.session_id,
        }
        if record.embedding_model:  # an empty one never hides the model of a stored vector
            fields["embedding_model"] = _s(record.embedding_model)
        if keep_access:
            del fields["access_count"]
            if record.last_accessed_at is None:
                del optional["last_accessed_at"]
        removes = [name for name, value in optional.items() if value is None]
        fields.update({name: _s(value) for name, value in optional.items() if value is not None})
        if record.thread is not None:  # sparse: only turns of a session (or a retain batch) are listed
            fields["g6pk"] = _s(session_key(tenant_id, record.scope, record.thread))
            fields["g6sk"] = _s(created)
        else:
            removes += ["g6pk", "g6sk"]
        if vector is not None:
            array = np.asarray(vector, dtype=np.float32)
            fields["embedding"] = {"B": array.tobytes()}
            fields["dim"] = _n(int(array.shape[0]))
            removes += ["g5pk", "g5sk"]
        elif pending:
            fields["g5pk"] = _s(f"TENANT#{tenant_id}#PENDING")
            fields["g5sk"] = _s(created)
        names = {f"#{k}": k for k in fields} | {f"#{k}": k for k in removes}
        values = {f":{k}": v for k, v in fields.items()} | (condition_values or {})
        expression = "SET " + ", ".join(f"#{k} = :{k}" for k in fields)
        if removes:
            expression += " REMOVE " + ", ".join(f"#{k}" for k in removes)
        action: dict[str, Any] = {
            "TableName": self.table,
            "Key": _key(memory_pk(tenant_id, record.id), "MEM"),
            "UpdateExpression": expression,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
        }
        if condition:
            action["ConditionExpression"] = condition
        return {"Update": action}

    def _history_put(self, tenant_id: str, entry: HistoryEntry) -> dict[str, Any]:
        sk = f"HIST#{entry.version:012d}#{iso(entry.at)}#{uuid.uuid4().hex[:8]}"
        return {
            "Put": {
                "TableName": self.table,
                "Item": {
                    **_key(memory_pk(tenant_id, entry.memory_id), sk),
                    "tenant_id": _s(tenant_id),
                    "doc": _s(entry.model_dump_json()),
                },
            }
        }

    def _embedded(self, tenant_id: str, memory_ids: Sequence[str]) -> set[str]:
        """Which of these memories already have a vector stored."""
        keys = [_key(memory_pk(tenant_id, i), "MEM") for i in memory_ids]
        return {i["id"]["S"] for i in self._batch_get(keys, projection="id, dim") if "dim" in i}

    def write(self, tenant_id: str, batch: WriteBatch) -> None:
        """Records with their history in transactions (each record with its own history in the
        same one), the idempotency result last: a crash in between leaves whole records that a
        replay of the same request rewrites under the same ids, and never a stored result for a
        write that did not happen."""
        if any(r.tenant_id != tenant_id for r in batch.records):
            raise ValidationFailedError("every record must belong to the tenant written to")
        vectors = list(batch.vectors) or [None] * len(batch.records)
        unembedded = [r.id for r, v in zip(batch.records, vectors, strict=True) if v is None]
        embedded = self._embedded(tenant_id, unembedded) if unembedded else set()
        groups: dict[str, list[dict[str, Any]]] = {}
        for record, vector in zip(batch.records, vectors, strict=True):
            groups[record.id] = [
                self._memory_update(
                    tenant_id, record, vector, pending=vector is None and record.id not in embedded
                )
            ]
        loose: list[list[dict[str, Any]]] = []
        for entry in batch.history:
            put = self._history_put(tenant_id, entry)
            if entry.memory_id in groups:
                groups[entry.memory_id].append(put)
            else:
                loose.append([put])
        self._transact_chunks([*groups.values(), *loose])
        if batch.idempotency is not None:
            key, fingerprint, results = batch.idempotency
            now = self._now_s()
            self.client.put_item(
                TableName=self.table,
                Item={
                    **_key(f"TENANT#{tenant_id}#IDEM#{key}", "IDEM"),
                    "tenant_id": _s(tenant_id),
                    "g1pk": _s(f"TENANT#{tenant_id}#IDEMS"),
                    "g1sk": _s(key),
                    "fingerprint": _s(fingerprint),
                    "results": _s(json.dumps(results)),
                    "ttl": _n(now + int(IDEMPOTENCY_TTL.total_seconds())),
                },
            )

    def update(
        self,
        tenant_id: str,
        record: MemoryRecord,
        *,
        expected_version: int,
        history: HistoryEntry | None = None,
        vector: Vector | None = None,
    ) -> bool:
        """A conditional write: only if the stored version is ``expected_version`` (lost updates
        of the feedback EMA or a tier are impossible; the loser re-reads and retries). The access
        bookkeeping recalls add meanwhile is kept."""
        return self._conditional(tenant_id, record, expected_version, history, vector)

    def _conditional(
        self,
        tenant_id: str,
        record: MemoryRecord,
        expected_version: int,
        history: HistoryEntry | None,
        vector: Vector | None,
        *,
        unaccessed: bool = False,
    ) -> bool:
        """``update``; ``unaccessed``: also only if no recall touched the memory since it was
        read (its access count is still the record's), as the lifecycle job needs."""
        if record.tenant_id != tenant_id:
            raise ValidationFailedError("the record must belong to the tenant written to")
        condition, values = "#version = :expected", {":expected": _n(expected_version)}
        if unaccessed:
            condition += " AND access_count = :seen"
            values[":seen"] = _n(record.access_count)
        actions = [
            self._memory_update(
                tenant_id,
                record,
                vector,
                pending=False,
                condition=condition,
                condition_values=values,
                keep_access=True,
            )
        ]
        if history is not None:
            actions.append(self._history_put(tenant_id, history))
        try:
            # No retry here: a conflict means another writer moved first, and the caller re-reads.
            self.client.transact_write_items(TransactItems=actions)
        except self.client.exceptions.TransactionCanceledException as exc:
            codes = _cancellation_codes(exc)
            if "ConditionalCheckFailed" in codes or "TransactionConflict" in codes:
                return False
            raise
        return True

    def update_many(
        self, tenant_id: str, updates: Sequence[ConditionalUpdate], *, report: LifecycleReport | None = None
    ) -> list[str]:
        """Each update is its own conditional transaction (with its history); the report follows.
        DynamoDB has no transaction wide enough for a page, so a crash between the two can make a
        resumed run see these changes again: they are then no-ops (their versions moved on)."""
        applied = [
            u.record.id
            for u in updates
            if self._conditional(tenant_id, u.record, u.expected_version, u.history, None, unaccessed=True)
        ]
        if report is not None:
            self.put_lifecycle_report(tenant_id, report)
        return applied

    def put_lifecycle_report(self, tenant_id: str, report: LifecycleReport) -> None:
        """Keyed by run id; ``seq`` (start time, then write time) orders the partition as SQLite's
        started_at-then-rowid does: a rewritten report of a run counts as its latest. A completed
        run trims the tenant's reports to the latest ``LIFECYCLE_REPORTS_KEPT``."""
        if report.tenant_id != tenant_id:
            raise ValidationFailedError("the report must belong to the tenant written to")
        pk = f"TENANT#{tenant_id}#LIFECYCLE"
        self.client.put_item(
            TableName=self.table,
            Item={
                **_key(pk, f"RUN#{report.run_id}"),
                "tenant_id": _s(tenant_id),
                "seq": _s(f"{iso(report.started_at)}#{time.time_ns():020d}"),
                "doc": _s(report.model_dump_json()),
            },
        )
        if report.status == "completed":
            stale = self._reports(tenant_id)[LIFECYCLE_REPORTS_KEPT:]
            self._batch_delete([_key(pk, i["sk"]["S"]) for i in stale])

    def _reports(self, tenant_id: str) -> list[Item]:
        """The tenant's report items, newest first (at most ~100 are kept, so all are read)."""
        items = list(self._query(key="pk", value=f"TENANT#{tenant_id}#LIFECYCLE"))
        return sorted(items, key=lambda i: i["seq"]["S"], reverse=True)

    def lifecycle_reports(self, tenant_id: str, limit: int = 10) -> list[LifecycleReport]:
        return [LifecycleReport.model_validate_json(i["doc"]["S"]) for i in self._reports(tenant_id)[:limit]]

    def delete(self, tenant_id: str, memory_ids: Sequence[str], log: DeletionLogEntry) -> list[str]:
        """Memories go in transactions (only those that exist), then their history, then the log."""
        present = [r.id for r in self.get_many(tenant_id, memory_ids).values()]
        deleted: list[str] = []
        for start in range(0, len(present), TRANSACTION_LIMIT - 1):
            chunk = present[start : start + TRANSACTION_LIMIT - 1]
            actions = [
                {
                    "Delete": {
                        "TableName": self.table,
                        "Key": _key(memory_pk(tenant_id, i), "MEM"),
                        "ConditionExpression": "attribute_exists(pk)",
                    }
                }
                for i in chunk
            ]
            try:
                self._transact(actions)
                deleted.extend(chunk)
            except self.client.exceptions.TransactionCanceledException:
                for memory_id in chunk:  # someone deleted one meanwhile: go one by one
                    try:
                        self.client.delete_item(
                            TableName=self.table,
                            Key=_key(memory_pk(tenant_id, memory_id), "MEM"),
                            ConditionExpression="attribute_exists(pk)",
                        )
                        deleted.append(memory_id)
                    except self.client.exceptions.ConditionalCheckFailedException:
                        pass
        for memory_id in deleted:
            self._batch_delete(
                [
                    _key(i["pk"]["S"], i["sk"]["S"])
                    for i in self._query(key="pk", value=memory_pk(tenant_id, memory_id), projection="pk, sk")
                ]
            )
        if deleted:
            entry = log.model_copy(update={"ids": deleted})
            self.client.put_item(
                TableName=self.table,
                Item={
                    **_key(f"TENANT#{tenant_id}#DELLOG", f"{iso(entry.at)}#{entry.receipt_id}"),
                    "tenant_id": _s(tenant_id),
                    "doc": _s(entry.model_dump_json()),
                },
            )
        return deleted

    def record_access(self, tenant_id: str, memory_ids: Sequence[str], at: datetime) -> None:
        """access_count + 1 and last_accessed_at = at for each id (atomic per item)."""
        for memory_id in dict.fromkeys(memory_ids):
            try:
                self.client.update_item(
                    TableName=self.table,
                    Key=_key(memory_pk(tenant_id, memory_id), "MEM"),
                    # The version stays (it counts changes); ``update`` leaves these two alone.
                    UpdateExpression="SET last_accessed_at = :at ADD access_count :one",
                    ConditionExpression="attribute_exists(pk)",
                    ExpressionAttributeValues={":at": _s(iso(at) or ""), ":one": _n(1)},
                )
            except self.client.exceptions.ConditionalCheckFailedException:
                continue  # forgotten meanwhile

    def idempotent_result(self, tenant_id: str, key: str) -> tuple[str, list[dict[str, Any]]] | None:
        item = self.client.get_item(
            TableName=self.table, Key=_key(f"TENANT#{tenant_id}#IDEM#{key}", "IDEM"), ConsistentRead=True
        ).get("Item")
        # TTL deletion lags expiry by up to days: an expired item is treated as gone.
        if item is None or int(item["ttl"]["N"]) <= self._now_s():
            return None
        return item["fingerprint"]["S"], json.loads(item["results"]["S"])

    def deletion_log(self, tenant_id: str) -> list[DeletionLogEntry]:
        return [
            DeletionLogEntry.model_validate_json(i["doc"]["S"])
            for i in self._query(key="pk", value=f"TENANT#{tenant_id}#DELLOG")
        ]

    # -- deferred embedding ----------------------------------------------------------------------

    def pending_embedding(self, tenant_id: str, limit: int) -> list[tuple[str, str, str]]:
        ids: list[str] = []
        for item in self._query(index="g5", key="g5pk", value=f"TENANT#{tenant_id}#PENDING", page_size=limit):
            ids.append(item["pk"]["S"].rsplit("#", 1)[1])
            if len(ids) >= limit:
                break
        keys = [_key(memory_pk(tenant_id, i), "MEM") for i in ids]
        found = {
            i["id"]["S"]: i for i in self._batch_get(keys) if self._owned(tenant_id, i) and "dim" not in i
        }
        out = []
        for memory_id in ids:  # oldest first, as the index listed them
            if memory_id in found:
                item = found[memory_id]
                out.append((memory_id, self._record(item).content, item["content_hash"]["S"]))
        return out

    def set_embeddings(
        self, tenant_id: str, items: Sequence[tuple[str, str, Vector]], model_id: str
    ) -> list[str]:
        done: list[str] = []
        for memory_id, content_hash, vector in items:
            array = np.asarray(vector, dtype=np.float32)
            try:
                # The hash guard: a text patched meanwhile keeps waiting for its own vector.
                self.client.update_item(
                    TableName=self.table,
                    Key=_key(memory_pk(tenant_id, memory_id), "MEM"),
                    UpdateExpression="SET embedding = :e, dim = :d, embedding_model = :m REMOVE g5pk, g5sk",
                    ConditionExpression="content_hash = :h AND attribute_not_exists(dim)",
                    ExpressionAttributeValues={
                        ":e": {"B": array.tobytes()},
                        ":d": _n(int(array.shape[0])),
                        ":m": _s(model_id),
                        ":h": _s(content_hash),
                    },
                )
            except self.client.exceptions.ConditionalCheckFailedException:
                continue
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

    # -- jobs and usage --------------------------------------------------------------------------

    def put_job(self, tenant_id: str, job: Job) -> None:
        """The job; a body over ``INLINE_JOB_BYTES`` waits in the blob store and the item keeps a
        pointer (an item holds at most 400 KB). A finished job's body is deleted."""
        body = job.request
        doc = json.dumps({**job.model_dump(mode="json"), "request": body})
        pointer = None
        if body is not None and len(doc.encode()) > INLINE_JOB_BYTES:
            if self.blobs is None:
                raise PayloadTooLargeError(
                    f"an asynchronous retain body is limited to {INLINE_JOB_BYTES // 1000} KB here "
                    "(no object storage is configured for larger ones)"
                )
            pointer = job_body_key(tenant_id, job.job_id)
            self.blobs.put(pointer, json.dumps(body).encode())
            doc = json.dumps({**job.model_dump(mode="json"), "request": None})
        item: Item = {
            **_key(f"TENANT#{tenant_id}#JOB#{job.job_id}", "JOB"),
            "tenant_id": _s(tenant_id),
            "g1pk": _s(f"TENANT#{tenant_id}#JOBS"),
            "g1sk": _s(_created_key(job.created_at, job.job_id)),
            "status": _s(job.status),
            # ``request`` is excluded from API dumps but must persist while the job waits.
            "doc": _s(doc),
        }
        if pointer is not None:
            item["request_ref"] = _s(pointer)
        if job.status in ("queued", "running"):
            item["g2pk"] = _s("JOBS#OPEN")
            item["g2sk"] = _s(f"{iso(job.created_at)}#{tenant_id}#{job.job_id}")
        else:
            item["ttl"] = _n(self._now_s() + int(FINISHED_JOB_TTL.total_seconds()))
        self.client.put_item(TableName=self.table, Item=item)
        if body is None and self.blobs is not None:  # its body, if it had one there, goes now
            self.blobs.delete(job_body_key(tenant_id, job.job_id))

    def _job(self, item: Item) -> Job:
        job = Job.model_validate_json(item["doc"]["S"])
        pointer = item.get("request_ref", {}).get("S")
        if pointer and self.blobs is not None:
            data = self.blobs.get(pointer)
            if data is not None:
                job = job.model_copy(update={"request": json.loads(data)})
        return job

    def get_job(self, tenant_id: str, job_id: str) -> Job | None:
        item = self.client.get_item(
            TableName=self.table, Key=_key(f"TENANT#{tenant_id}#JOB#{job_id}", "JOB"), ConsistentRead=True
        ).get("Item")
        # TTL deletion lags expiry by up to days: a finished job past its time is treated as gone.
        if item is None or ("ttl" in item and int(item["ttl"]["N"]) <= self._now_s()):
            return None
        return self._job(item)

    def pending_jobs(self) -> list[tuple[str, Job]]:
        """Jobs of every tenant that were queued or running when a process stopped (index g2)."""
        return [
            (i["tenant_id"]["S"], self._job(i))
            for i in self._query(index="g2", key="g2pk", value="JOBS#OPEN")
        ]
