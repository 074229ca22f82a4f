"""``MemoryRecords`` on DynamoDB, reads by id: one memory, many (``BatchGetItem``), by content
hash (index g4), thread neighbours (index g6) and stored vectors."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from engram.adapters.dynamodb.deletion_log import deletion_log_pk
from engram.adapters.dynamodb.items import (
    created_key,
    memory_id_of,
    memory_key,
    owned,
    record_of,
    s,
    session_key,
    vector_key,
    vector_of,
    vector_owned,
)
from engram.adapters.dynamodb.projected import entry_matches, needs_record
from engram.adapters.dynamodb.requests import DynamoTable
from engram.adapters.dynamodb.write_behind import WriteBehind
from engram.adapters.matching import iso, matches
from engram.models import DeletionLogEntry, MemoryRecord
from engram.ports import Clock, Conditions, Vector


class DynamoMemoryReads(DynamoTable):
    def __init__(
        self,
        client: Any,
        table_name: str,
        *,
        clock: Clock | None = None,
        memory_reads: Literal["consistent", "eventual"] = "consistent",
    ) -> None:
        super().__init__(client, table_name, clock=clock)
        self.memory_reads = memory_reads
        """``eventual``: ``get_many`` reads eventually consistent (half the read units), for a
        process whose reads by id only rank (the recall function: ``AwsSettings.memory_reads``)."""
        self._accesses: WriteBehind | None = None
        """Recall's access counts waiting in this process (the writing half, ``DynamoMemories``,
        keeps them); what this half reads counts them."""

    def _seen(self, tenant_id: str, record: MemoryRecord) -> MemoryRecord:
        """The record with the accesses still waiting in this process counted."""
        waiting: Any = self._accesses.pending((tenant_id, record.id)) if self._accesses is not None else None
        if waiting is None:
            return record
        count, at = waiting
        last = at if record.last_accessed_at is None else max(record.last_accessed_at, at)
        return record.model_copy(
            update={"access_count": record.access_count + count, "last_accessed_at": last}
        )

    def get(self, tenant_id: str, memory_id: str) -> MemoryRecord | None:
        item = self.client.get_item(
            TableName=self.table, Key=memory_key(tenant_id, memory_id), ConsistentRead=True
        ).get("Item")
        return self._seen(tenant_id, record_of(item)) if item is not None and owned(tenant_id, item) else None

    def get_many(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """The records by id; eventually consistent when ``memory_reads`` is ``eventual``, less
        those a forget or an expiry deleted in the last minute (a replica may still hold them)."""
        keys = [memory_key(tenant_id, i) for i in dict.fromkeys(memory_ids)]
        consistent = self.memory_reads == "consistent"
        items = self.batch_get(keys, consistent=consistent)
        records = [self._seen(tenant_id, record_of(i)) for i in items if owned(tenant_id, i)]
        gone = self._recently_deleted(tenant_id) if records and not consistent else {}
        # a record written after its id's deletion (the same text retained again) is a new one
        return {r.id: r for r in records if r.id not in gone or r.updated_at > gone[r.id]}

    RECENT_DELETES_S = 60.0
    """How far back an eventually consistent ``get_many`` looks in the deletion log: far longer
    than DynamoDB's replicas take to converge (normally well under a second)."""

    def _recently_deleted(self, tenant_id: str) -> dict[str, datetime]:
        """When each id in the deletion-log receipts of the last ``RECENT_DELETES_S`` was deleted
        (a consistent read: each receipt is written after its delete, so a forget that answered
        is in it)."""
        since = iso(self.clock.now() - timedelta(seconds=self.RECENT_DELETES_S)) or ""
        receipts = self.query(
            key="pk",
            value=deletion_log_pk(tenant_id),
            sk_condition="sk > :since",
            values={":since": s(since)},
        )
        out: dict[str, datetime] = {}
        for receipt in receipts:
            entry = DeletionLogEntry.model_validate_json(receipt["doc"]["S"])
            out.update(dict.fromkeys(entry.ids, entry.at))
        return out

    def find_by_hash(self, tenant_id: str, scope: str, content_hash: str) -> MemoryRecord | None:
        hits = self.query(
            index="g4", key="g4pk", value=f"TENANT#{tenant_id}#HASH#{scope}#{content_hash}", projection="pk"
        )
        ids = [memory_id_of(h["pk"]["S"]) for h in hits]
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
            if seed.thread is None:
                continue
            before, after = (
                self._side(tenant_id, seed, conditions, span, forward) for forward in (False, True)
            )
            if before or after:
                out[seed.id] = [*reversed(before), *after]
        return out

    def _side(
        self, tenant_id: str, seed: MemoryRecord, conditions: Conditions, span: int, forward: bool
    ) -> list[str]:
        """Up to ``span`` ids after (``forward``) or before the seed in its thread."""
        assert seed.thread is not None
        found: list[str] = []
        items: Iterator[dict[str, dict[str, str]]] = self.query(
            index="g6",
            key="g6pk",
            value=session_key(tenant_id, seed.scope, seed.thread),
            sk_condition="g6sk > :at" if forward else "g6sk < :at",
            values={":at": s(created_key(seed.created_at, seed.id))},
            forward=forward,
        )
        full_check = needs_record(conditions)
        for item in items:
            if item.get("tenant_id", {}).get("S") != tenant_id or not entry_matches(item, conditions):
                continue
            if full_check:  # tags, metadata or validity: only the record answers (one read)
                record = self.get_many(tenant_id, [item["id"]["S"]]).get(item["id"]["S"])
                if record is None or not matches(record, conditions):
                    continue
            found.append(item["id"]["S"])
            if len(found) == span:
                break
        return found

    def get_vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        """The stored vector of each listed memory of this tenant (unembedded or missing ids left
        out): the vector items, and for a memory written before vectors had an item of their own,
        the vector in its memory item."""
        ids = list(dict.fromkeys(memory_ids))
        out: dict[str, Vector] = {}
        for item in self.batch_get([vector_key(tenant_id, i) for i in ids]):
            vector = vector_of(item)
            if vector is not None and vector_owned(tenant_id, item):
                out[memory_id_of(item["pk"]["S"])] = vector  # a vector item has no ``id`` of its own
        older = [memory_key(tenant_id, i) for i in ids if i not in out]
        for item in self.batch_get(older, projection="id, tenant_id, sk, embedding") if older else []:
            vector = vector_of(item)
            if vector is not None and owned(tenant_id, item):
                out[item["id"]["S"]] = vector
        return out
