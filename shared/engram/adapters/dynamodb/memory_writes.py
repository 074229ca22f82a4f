"""``MemoryRecords`` on DynamoDB, the writing half: batches (records, then their history),
conditional updates (each with its history in one transaction), access counts and hard deletes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Unpack

from engram.adapters.dynamodb.actions import history_put, memory_update, vector_put
from engram.adapters.dynamodb.deletion_log import log_deletion
from engram.adapters.dynamodb.history import born_entry, inline_creation
from engram.adapters.dynamodb.idempotency import put_idempotency
from engram.adapters.dynamodb.items import memory_key, memory_pk, n, owned, s
from engram.adapters.dynamodb.lifecycle import put_report
from engram.adapters.dynamodb.listing import DynamoListing
from engram.adapters.dynamodb.requests import TRANSACTION_LIMIT, cancellation_codes
from engram.adapters.dynamodb.write_behind import WriteBehind
from engram.adapters.matching import iso
from engram.errors import ValidationFailedError
from engram.models import DeletionLogEntry, HistoryEntry, LifecycleReport, MemoryRecord
from engram.ports import ConditionalUpdate, Vector, WriteBatch
from engram.ports.store import Change

_EXISTS = "attribute_exists(pk)"


def _own(tenant_id: str, records: Sequence[MemoryRecord]) -> None:
    if any(r.tenant_id != tenant_id for r in records):
        raise ValidationFailedError("every record must belong to the tenant written to")


def _access_merged(old: tuple[int, datetime], new: tuple[int, datetime]) -> tuple[int, datetime]:
    return old[0] + new[0], max(old[1], new[1])


class DynamoMemories(DynamoListing):
    def _embedded(self, tenant_id: str, memory_ids: Sequence[str]) -> set[str]:
        """Which of these memories already have a vector stored."""
        keys = [memory_key(tenant_id, i) for i in memory_ids]
        return {i["id"]["S"] for i in self.batch_get(keys, projection="id, dim") if "dim" in i}

    def write(self, tenant_id: str, batch: WriteBatch) -> None:
        """The vectors, then the records, then their history, then the idempotency result: each
        step only once the one before is stored, so a failure anywhere answers an error and
        leaves whole records (never a history entry or a stored result for a record that is not
        there), which a replay of the same request rewrites under the same ids.

        The vectors are plain puts (a vector item whose record then fails is rewritten by the
        replay; a memory id names one text). One record is one ``UpdateItem`` (atomic alone); a
        batch of several is written in transactions (all or none per transaction). The history
        entries are plain puts after the records (a transaction writes each item at twice the
        units): a failure between the two leaves records without their latest history entry
        until the replay writes it, under the same key (``history_put``), so nothing is written
        twice."""
        _own(tenant_id, batch.records)
        vectors = list(batch.vectors) or [None] * len(batch.records)
        unembedded = [r.id for r, v in zip(batch.records, vectors, strict=True) if v is None]
        embedded = self._embedded(tenant_id, unembedded) if unembedded else set()
        born = {r.id: e for r in batch.records if (e := inline_creation(r, batch.history)) is not None}
        changed = [r.id for r in batch.records if r.version > 1]
        self.batch_write(
            [
                {"PutRequest": {"Item": vector_put(self.table, tenant_id, r.id, v)["Put"]["Item"]}}
                for r, v in zip(batch.records, vectors, strict=True)
                if v is not None
            ]
            + [  # the creations their items carry, written out before these versions replace them
                {"PutRequest": {"Item": history_put(self.table, tenant_id, e)["Put"]["Item"]}}
                for e in self.born_entries(tenant_id, changed)
            ]
        )
        causes = {(e.memory_id, e.version): e.event for e in batch.history}
        updates = [
            memory_update(
                self.table,
                tenant_id,
                record,
                vector,
                pending=vector is None and record.id not in embedded,
                cause=causes.get((record.id, record.version)),
                born=born.get(record.id),
            )
            for record, vector in zip(batch.records, vectors, strict=True)
        ]
        if len(updates) == 1:
            self.client.update_item(**updates[0]["Update"])
        elif updates:
            self.transact_chunks([[u] for u in updates])
        self.batch_write(
            [
                {"PutRequest": {"Item": history_put(self.table, tenant_id, e)["Put"]["Item"]}}
                for e in batch.history
                if born.get(e.memory_id) is not e
            ]
        )
        if batch.idempotency is not None:
            put_idempotency(self, tenant_id, batch.idempotency)

    def born_entries(self, tenant_id: str, memory_ids: Sequence[str]) -> list[HistoryEntry]:
        """The creation entries these memories' items still carry (``history``: only a memory
        never changed since it was made has one)."""
        if not memory_ids:
            return []
        keys = [memory_key(tenant_id, i) for i in dict.fromkeys(memory_ids)]
        items = self.batch_get(keys, projection="pk, sk, tenant_id, born, doc")
        return [e for i in items if owned(tenant_id, i) and (e := born_entry(i)) is not None]

    def _born_entry(self, tenant_id: str, memory_id: str) -> list[HistoryEntry]:
        """``born_entries`` of one memory, by ``GetItem`` (the one read a conditional update adds,
        and the one the feedback function may make)."""
        item = self.client.get_item(
            TableName=self.table,
            Key=memory_key(tenant_id, memory_id),
            ConsistentRead=True,
            ProjectionExpression="pk, sk, tenant_id, born, doc",
        ).get("Item")
        entry = born_entry(item) if item is not None and owned(tenant_id, item) else None
        return [] if entry is None else [entry]

    def update(self, tenant_id: str, record: MemoryRecord, **change: Unpack[Change]) -> bool:
        """A conditional write: only if the stored version is ``expected_version`` (lost updates
        of the feedback EMA or a tier are impossible; the loser re-reads and retries). The access
        bookkeeping recalls add meanwhile is kept."""
        expected_version = change["expected_version"]
        history, vector = change.get("history"), change.get("vector")
        return self._conditional(tenant_id, ConditionalUpdate(record, expected_version, history), vector)

    def _conditional(
        self, tenant_id: str, update: ConditionalUpdate, vector: Vector | None, *, unaccessed: bool = False
    ) -> bool:
        """``update``; ``unaccessed``: also only if no recall touched the memory since it was
        read (its access count is still the record's), as the lifecycle job needs."""
        record = update.record
        _own(tenant_id, [record])
        condition, values = "#version = :expected", {":expected": n(update.expected_version)}
        if unaccessed:
            condition += " AND access_count = :seen"
            values[":seen"] = n(record.access_count)
        actions = [
            memory_update(
                self.table,
                tenant_id,
                record,
                vector,
                pending=False,
                condition=condition,
                condition_values=values,
                keep_access=True,
                cause=update.history.event if update.history is not None else None,
            )
        ]
        if vector is not None:  # in the transaction: a conflict's loser must not leave its vector
            actions.append(vector_put(self.table, tenant_id, record.id, vector))
        if update.expected_version == 1:  # its first change: write out the creation its item carries
            actions += [history_put(self.table, tenant_id, e) for e in self._born_entry(tenant_id, record.id)]
        if update.history is not None:
            actions.append(history_put(self.table, tenant_id, update.history))
        try:
            # No retry here: a conflict means another writer moved first, and the caller re-reads.
            self.client.transact_write_items(TransactItems=actions)
        except self.client.exceptions.TransactionCanceledException as exc:
            codes = cancellation_codes(exc)
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
        self.accesses().flush()  # the condition compares stored access counts
        applied = [u.record.id for u in updates if self._conditional(tenant_id, u, None, unaccessed=True)]
        if report is not None:
            put_report(self, tenant_id, report)
        return applied

    def delete(self, tenant_id: str, memory_ids: Sequence[str], log: DeletionLogEntry) -> list[str]:
        """Memories go in transactions (only those that exist), then their history, then the log."""
        present = [r.id for r in self.get_many(tenant_id, memory_ids).values()]
        deleted: list[str] = []
        for start in range(0, len(present), TRANSACTION_LIMIT - 1):
            deleted += self._delete_chunk(tenant_id, present[start : start + TRANSACTION_LIMIT - 1])
        for memory_id in deleted:
            self.batch_delete(self.partition_keys(memory_pk(tenant_id, memory_id)))
        if deleted:
            log_deletion(self, tenant_id, log.model_copy(update={"ids": deleted}))
        return deleted

    def _delete_chunk(self, tenant_id: str, chunk: Sequence[str]) -> list[str]:
        """Delete the memory items of ``chunk`` that still exist; the ids deleted."""
        actions = [
            {
                "Delete": {
                    "TableName": self.table,
                    "Key": memory_key(tenant_id, i),
                    "ConditionExpression": _EXISTS,
                }
            }
            for i in chunk
        ]
        try:
            self.transact(actions)
            return list(chunk)
        except self.client.exceptions.TransactionCanceledException:
            pass
        deleted: list[str] = []
        for memory_id in chunk:  # someone deleted one meanwhile: go one by one
            try:
                self.client.delete_item(
                    TableName=self.table, Key=memory_key(tenant_id, memory_id), ConditionExpression=_EXISTS
                )
                deleted.append(memory_id)
            except self.client.exceptions.ConditionalCheckFailedException:
                pass
        return deleted

    ACCESS_FLUSH_S = 30.0
    """How long recall's access counts wait inside invocations before one write per memory."""
    ACCESS_MAX_WAITING = 100
    """How many memories' counts may wait at most."""

    def accesses(self) -> WriteBehind:
        """The access counts waiting in this process (``write_behind``), by (tenant, memory)."""
        if self._accesses is None:
            self._accesses = WriteBehind(
                lambda k, v: self._write_access(k[0], k[1], *v),
                _access_merged,
                max_age_s=self.ACCESS_FLUSH_S,
                max_keys=self.ACCESS_MAX_WAITING,
            )
        return self._accesses

    def record_access(self, tenant_id: str, memory_ids: Sequence[str], at: datetime) -> None:
        """access_count + 1 and last_accessed_at = at for each id (atomic per item); inside an
        invocation the counts wait and each memory gets one write per interval (``write_behind``)."""
        for memory_id in dict.fromkeys(memory_ids):
            self.accesses().add((tenant_id, memory_id), (1, at))

    def _write_access(self, tenant_id: str, memory_id: str, count: int, at: datetime) -> None:
        # The version stays (it counts changes); ``update`` leaves these two alone. An id
        # forgotten meanwhile is skipped.
        self.update_existing(
            memory_key(tenant_id, memory_id),
            "SET last_accessed_at = :at ADD access_count :k",
            {":at": s(iso(at) or ""), ":k": n(count)},
        )
