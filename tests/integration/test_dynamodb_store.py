"""What is DynamoDB's own in its adapters (transactions, batch and page limits, the TTL attribute,
retries, consumed capacity), over real HTTP against DynamoDB Local. What every store must do is
in ``tests/contract/`` (one suite per port, run against this backend too)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import numpy as np
import pytest
from store_support import T0, created, key_record, put, record, vector

from engram.adapters.clock import FixedClock, SystemClock
from engram.adapters.dynamodb.deletion_log import log_deletion
from engram.adapters.dynamodb.items import memory_key, vector_key
from engram.adapters.dynamodb.keys import DynamoKeyStore
from engram.adapters.dynamodb.store import DynamoStore
from engram.adapters.dynamodb.usage import DynamoUsage
from engram.adapters.memory_index import InMemoryIndex
from engram.errors import EngramError, PayloadTooLargeError
from engram.memories.usefulness import feedback
from engram.models import DeletionLogEntry, FeedbackRequest, HistoryEntry, MemoryRecord, Tenant
from engram.ports import Conditions, WriteBatch
from engram.scopes import EVERY_SCOPE
from engram.scoring.lifecycle import feedback_ema
from engram.settings import Settings


@pytest.fixture
def client(dynamodb_local: Any) -> Any:
    return dynamodb_local.client()


@pytest.fixture
def store(dynamodb_local: Any, client: Any) -> Iterator[DynamoStore]:
    table = dynamodb_local.new_table(client)
    store = DynamoStore(client, table)
    for tenant in ("acme", "globex"):
        store.tenants.create_tenant(Tenant(tenant_id=tenant, name=tenant, created_at=T0))
    yield store
    client.delete_table(TableName=table)


# -- conditional writes ----------------------------------------------------------------------------


def test_twenty_concurrent_feedback_updates_lose_nothing(store: DynamoStore) -> None:
    # Given one memory
    original = record("acme", "I prefer dark mode")
    put(store, original)
    barrier = threading.Barrier(20)
    errors: list[BaseException] = []

    def send() -> None:
        try:
            barrier.wait()
            feedback(
                "acme",
                original.id,
                FeedbackRequest(signal="used"),
                records=store.records,
                index=InMemoryIndex(store.records, dimension=4),
                clock=SystemClock(),
                settings=Settings(),
                scopes=EVERY_SCOPE,
            )
        except BaseException as exc:  # collected so the test fails with it
            errors.append(exc)

    # When twenty threads each send "used" at once
    threads = [threading.Thread(target=send) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Then the weight equals twenty sequential EMA steps and every step is in the history
    assert errors == []
    expected = 0.5
    for _ in range(20):
        expected = round(feedback_ema(expected, "used"), 6)  # stored as answered: six places
    stored = store.records.get("acme", original.id)
    assert stored is not None and abs(stored.feedback_weight - expected) < 1e-12
    assert stored.version == 21
    assert len([h for h in store.history.history("acme", original.id) if h.event == "feedback"]) == 20


# -- transactions ----------------------------------------------------------------------------------


def test_a_write_that_dynamodb_rejects_leaves_nothing_behind(store: DynamoStore) -> None:
    # Given a batch whose last record is over DynamoDB's 400 KB item limit
    small = [record("acme", f"fact number {i}") for i in range(3)]
    huge = record("acme", "x" * 450_000)
    # When it is written, DynamoDB rejects the transaction: a 413, not a raw boto error
    with pytest.raises(PayloadTooLargeError, match="item size limit"):
        put(store, *small, huge)
    # Then none of the batch (records, history) was stored
    assert store.records.get_many("acme", [r.id for r in small]) == {}
    assert all(store.history.history("acme", r.id) == [] for r in small)


def test_a_batch_larger_than_one_transaction_is_written_whole(store: DynamoStore) -> None:
    records = [record("acme", f"fact number {i}", minute=i) for i in range(130)]
    store.records.write(
        "acme",
        WriteBatch(
            records=records,
            vectors=[vector(i) for i in range(130)],
            history=[created(r) for r in records],
            idempotency=("key-1", "fingerprint", [{"id": r.id} for r in records]),
        ),
    )
    assert len(store.records.get_many("acme", [r.id for r in records])) == 130
    assert store.history.history("acme", records[-1].id)[0].event == "created"
    assert store.idempotency.idempotent_result("acme", "key-1") == (
        "fingerprint",
        [{"id": r.id} for r in records],
    )


# -- GSI queries with pagination -------------------------------------------------------------------


def test_reading_more_than_one_megabyte_follows_last_evaluated_key(store: DynamoStore) -> None:
    # 140 memories of ~8 KB each (x2 with the document): several 1 MB query pages
    records = [record("acme", f"{i} " + "lorem ipsum " * 700, minute=i) for i in range(140)]
    for start in range(0, 140, 20):
        put(store, *records[start : start + 20])
    assert [r.id for r, _ in store.records.iter_records("acme")] == [r.id for r in records]
    assert store.records.stats("acme").total == 140


# -- TTL -------------------------------------------------------------------------------------------


def test_idempotency_items_carry_a_ttl_and_expired_ones_count_as_gone(
    store: DynamoStore, client: Any
) -> None:
    ttl = client.describe_time_to_live(TableName=store.records.table)["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "ttl"}
    store.records.write("acme", WriteBatch(idempotency=("k", "fp", [])))
    item = client.get_item(
        TableName=store.records.table, Key={"pk": {"S": "TENANT#acme#IDEM#k"}, "sk": {"S": "IDEM"}}
    )
    expires = int(item["Item"]["ttl"]["N"])
    assert abs(expires - (time.time() + 24 * 3600)) < 120
    assert store.idempotency.idempotent_result("acme", "k") == ("fp", [])
    # DynamoDB deletes expired items lazily (up to days later): reads must ignore them
    client.update_item(
        TableName=store.records.table,
        Key={"pk": {"S": "TENANT#acme#IDEM#k"}, "sk": {"S": "IDEM"}},
        UpdateExpression="SET #t = :past",
        ExpressionAttributeNames={"#t": "ttl"},
        ExpressionAttributeValues={":past": {"N": str(int(time.time()) - 1)}},
    )
    assert store.idempotency.idempotent_result("acme", "k") is None


# -- batch limits ----------------------------------------------------------------------------------


class _Unprocessing:
    """The real client, except that each batch write first leaves its last third unprocessed."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.calls: list[int] = []
        self.exceptions = client.exceptions

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def batch_write_item(self, RequestItems: dict[str, list[Any]]) -> dict[str, Any]:
        [(table, requests)] = RequestItems.items()
        assert len(requests) <= 25, "BatchWriteItem takes at most 25 requests"
        self.calls.append(len(requests))
        keep = len(requests) - len(requests) // 3 if len(requests) > 1 else len(requests)
        self._client.batch_write_item(RequestItems={table: requests[:keep]})
        rest = requests[keep:]
        return {"UnprocessedItems": {table: rest} if rest else {}}


def test_erasing_a_tenant_batches_by_25_and_retries_unprocessed_items(
    store: DynamoStore, client: Any
) -> None:
    # Given 60 memories of acme (120 items with their history), an API key, and one of globex
    put(store, *[record("acme", f"fact number {i}", minute=i) for i in range(60)])
    put(store, record("globex", "globex keeps this"))
    DynamoUsage(client, store.records.table).add("acme", "2026-12-01", {"retain_calls": 3})
    keys = DynamoKeyStore(client, store.records.table)
    keys.put_key(key_record("aaaaaaaaaaaa", "acme"))
    keys.put_key(key_record("bbbbbbbbbbbb", "globex"))
    wrapped = DynamoStore(_Unprocessing(client), store.records.table)
    # When acme is erased through a client that leaves a third of every batch unprocessed
    assert wrapped.tenants.erase_tenant("acme") == 60
    # Then every batch held at most 25 writes, the leftovers were retried, and nothing of acme remains
    calls = wrapped.records.client.calls
    assert max(calls) <= 25 and len(calls) > 120 / 25
    left = client.scan(TableName=store.records.table)["Items"]
    assert not [i for i in left if i["pk"]["S"].startswith("TENANT#acme")]
    assert store.tenants.get_tenant("acme") is None and keys.get_key("aaaaaaaaaaaa") is None
    assert store.records.stats("globex").total == 1 and keys.get_key("bbbbbbbbbbbb") is not None


# -- API key records (the erasure above deletes them too) ----------------------------------------


# -- jobs and client configuration ------------------------------------------------------------------


def test_a_finished_job_carries_a_ttl_attribute(store: DynamoStore, client: Any) -> None:
    from engram.models import Job

    store.jobs.put_job("acme", Job(job_id="job_1", status="succeeded", created_at=T0, updated_at=T0))
    item = client.get_item(
        TableName=store.records.table, Key={"pk": {"S": "TENANT#acme#JOB#job_1"}, "sk": {"S": "JOB"}}
    )
    assert int(item["Item"]["ttl"]["N"]) > time.time() + 29 * 24 * 3600


def test_the_client_uses_the_standard_retry_mode_with_bounded_attempts(dynamodb_local: Any) -> None:
    client = dynamodb_local.client(max_attempts=3)
    # botocore keeps total_max_attempts (first call included) and derives max_attempts (retries)
    assert client.meta.config.retries["mode"] == "standard"
    assert client.meta.config.retries["total_max_attempts"] == 3
    assert (client.meta.config.connect_timeout, client.meta.config.read_timeout) == (2, 5)


# -- consumed capacity (what the README's cost note counts) -----------------------------------------


class _Meter:
    """The real client, asking DynamoDB for the capacity each call consumed, per table and index."""

    METERED = (
        "put_item", "update_item", "transact_write_items", "batch_write_item", "get_item", "batch_get_item", "query",
    )  # fmt: skip

    def __init__(self, client: Any) -> None:
        self._client = client
        self.exceptions = client.exceptions
        self.units: dict[str, float] = {}

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._client, name)
        if name not in self.METERED:
            return call

        def metered(**kwargs: Any) -> Any:
            response = call(ReturnConsumedCapacity="INDEXES", **kwargs)
            consumed = response.get("ConsumedCapacity") or []
            for entry in consumed if isinstance(consumed, list) else [consumed]:
                self.units["table"] = self.units.get("table", 0) + entry.get("Table", {}).get(
                    "CapacityUnits", 0
                )
                for index, used in entry.get("GlobalSecondaryIndexes", {}).items():
                    self.units[index] = self.units.get(index, 0) + used["CapacityUnits"]
            return response

        return metered


def test_the_capacity_a_memory_write_and_access_tracking_consume(store: DynamoStore, client: Any) -> None:
    # Given memories of ~200 characters with 512-dimension vectors (the stack's Titan V2 size)
    meter = _Meter(client)
    metered = DynamoStore(meter, store.records.table)
    text = "I moved to Lisbon last spring and now work remotely for a design studio in Berlin, mostly on UI work."
    rng = np.random.default_rng(28)
    big, bigger = (rng.standard_normal(d).astype(np.float32) for d in (512, 1024))
    big /= np.linalg.norm(big)  # a unit vector's spread (a constant one would compress away)
    bigger /= np.linalg.norm(bigger)
    first = record("acme", text)
    # When one is written with its history, nothing is written at the transactional rate: the
    # vector is an item of its own at half precision, compressed (0.9 KB: 1 WRU), the memory item (0.8 KB: no
    # vector, no field twice: 1) is one UpdateItem carrying its creation's history entry, and each listing
    # index gets its filter fields alone (no record): 1 WRU; a peripheral memory has no entry in
    # g3, nor one whose id its text derives in g4 (both sparse)
    metered.records.write("acme", WriteBatch(records=[first], vectors=[big], history=[created(first)]))
    assert meter.units == {"table": 2.0, "g1-index": 1.0, "g2-index": 1.0}
    item = client.get_item(TableName=store.records.table, Key=memory_key("acme", first.id))["Item"]
    assert "embedding" not in item and item["dim"] == {"N": "512"}
    stored = client.get_item(TableName=store.records.table, Key=vector_key("acme", first.id))["Item"]
    assert set(stored) == {"pk", "sk", "z16"}  # the key names the tenant: nothing repeats it
    half = big.astype(np.float16).astype(np.float32)  # read back bit for bit at half precision
    assert np.array_equal(store.records.get_vectors("acme", [first.id])[first.id], half)
    # (a stage made with 1,024 dimensions: its vector item is 1.9 KB, 2 WRU)
    meter.units = {}
    second = record("acme", f"{text} again", minute=9)
    metered.records.write("acme", WriteBatch(records=[second], vectors=[bigger], history=[created(second)]))
    assert meter.units == {"table": 3.0, "g1-index": 1.0, "g2-index": 1.0}
    # When recall's access tracking touches five memories, only the base items are written, one
    # unit each
    others = [record("acme", f"{text} {i}", minute=i) for i in range(1, 6)]
    store.records.write(
        "acme", WriteBatch(records=others, vectors=[big] * 5, history=[created(r) for r in others])
    )
    meter.units = {}
    metered.records.record_access("acme", [r.id for r in others], T0)
    assert meter.units == {"table": 5.0}
    # And fetching them by id reads 1 RRU each (strongly consistent, under 4 KB: no vector)
    meter.units = {}
    metered.records.get_many("acme", [r.id for r in others])
    assert meter.units == {"table": 5.0}
    # And half that where the store reads eventually consistent (the recall function's)
    meter.units = {}
    DynamoStore(meter, store.records.table, memory_reads="eventual").records.get_many(
        "acme", [r.id for r in others]
    )
    assert meter.units == {"table": 2.5}


def test_vectors_are_stored_halved_and_those_stored_before_in_single_precision_still_read(
    store: DynamoStore, client: Any
) -> None:
    # Given a memory written now, and two written before: one whose vector item holds single
    # precision, one whose vector is still in its memory item
    new, older, oldest = (record("acme", f"text {i}", minute=i) for i in range(3))
    put(store, new, older, oldest)
    full = vector(7)
    client.put_item(
        TableName=store.records.table,
        Item={
            **vector_key("acme", older.id),
            "tenant_id": {"S": "acme"},
            "id": {"S": older.id},
            "embedding": {"B": full.tobytes()},
        },
    )
    client.delete_item(TableName=store.records.table, Key=vector_key("acme", oldest.id))
    client.update_item(
        TableName=store.records.table,
        Key=memory_key("acme", oldest.id),
        UpdateExpression="SET embedding = :e",
        ExpressionAttributeValues={":e": {"B": full.tobytes()}},
    )
    # Then the new vector item is 2 bytes a component, within 2^-11 of each, and a cosine moves
    # by less than 1e-4
    item = client.get_item(TableName=store.records.table, Key=vector_key("acme", new.id))["Item"]
    assert "embedding" not in item and len(item["e16"]["B"]) == 2 * 384
    vectors = store.records.get_vectors("acme", [new.id, older.id, oldest.id])
    assert np.allclose(vectors[new.id], vector(0), rtol=2**-11, atol=1e-7)
    assert abs(float(vectors[new.id] @ full) - float(vector(0) @ full)) < 1e-4
    # And the single-precision ones come back exactly, from the vector item or the memory item
    assert np.array_equal(vectors[older.id], full) and np.array_equal(vectors[oldest.id], full)
    assert [v is not None for _, v in store.records.iter_records("acme")] == [True, True, True]


def test_a_peripheral_memory_is_listed_by_its_tier_without_an_entry_in_the_tier_index(
    store: DynamoStore, client: Any
) -> None:
    # Given a peripheral memory (the default tier) and a working one
    quiet = record("acme", "I water the plants on Mondays")
    busy = record("acme", "I prefer dark mode", minute=1, tier="working")
    put(store, quiet, busy)

    def tier_of(memory: MemoryRecord) -> set[str]:
        return set(store.records.select_ids("acme", Conditions(scopes=EVERY_SCOPE, tiers=(memory.tier,))))

    def in_tier_index(memory_id: str) -> bool:
        return (
            "g3pk"
            in client.get_item(TableName=store.records.table, Key=memory_key("acme", memory_id))["Item"]
        )

    # Then each is listed by its own tier, and only the working one has a g3 entry
    assert tier_of(quiet) == {quiet.id} and tier_of(busy) == {busy.id}
    assert not in_tier_index(quiet.id) and in_tier_index(busy.id)
    # When the working one moves down to peripheral
    moved = busy.model_copy(update={"tier": "peripheral", "version": busy.version + 1})
    assert store.records.update("acme", moved, expected_version=busy.version)
    # Then it leaves the tier index and is listed with the other peripheral one
    assert not in_tier_index(busy.id)
    assert tier_of(moved) == {quiet.id, busy.id}
    assert store.records.select_ids("acme", Conditions(scopes=EVERY_SCOPE, tiers=("working",))) == []


def test_an_eventually_consistent_read_leaves_out_what_was_forgotten_in_the_last_minute(
    store: DynamoStore, client: Any
) -> None:
    # Given two memories, and a forget of one whose delete a replica has not applied yet: its
    # item is still there when read, its receipt is in the deletion log
    kept, forgotten = record("acme", "I prefer dark mode"), record("acme", "My locker code is 4711", minute=1)
    put(store, kept, forgotten)
    deleted_at = T0 + timedelta(minutes=5)
    log_deletion(
        store.deletion_log,
        "acme",
        DeletionLogEntry(
            receipt_id="rcpt_1", tenant_id="acme", at=deleted_at, ids=[forgotten.id], reason="forget"
        ),
    )
    ids = [kept.id, forgotten.id]

    def read(at: timedelta, memory_reads: Any = "eventual") -> set[str]:
        clock = FixedClock(deleted_at + at)
        return set(
            DynamoStore(client, store.records.table, clock=clock, memory_reads=memory_reads).records.get_many(
                "acme", ids
            )
        )

    # Then a recall's read leaves it out within the minute after the forget, and a consistent
    # read (which never meets a replica behind the delete) does not look
    assert read(timedelta(seconds=30)) == {kept.id}
    assert read(timedelta(seconds=30), "consistent") == {kept.id, forgotten.id}
    # And a minute on, replicas have long converged: the log is not asked
    assert read(timedelta(seconds=61)) == {kept.id, forgotten.id}
    # And the same text retained again after the forget (the same id, written later) is a new memory
    again = forgotten.model_copy(update={"updated_at": deleted_at + timedelta(seconds=10)})
    put(store, again)
    assert read(timedelta(seconds=30)) == {kept.id, forgotten.id}


class _FailingHistory:
    """The real client, whose first ``BatchWriteItem`` of history entries of an update fails (a
    throttle that outlasted the retries, or a crash between the two writes)."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.exceptions = client.exceptions
        self.failed = False

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._client, name)
        if name != "batch_write_item":
            return call

        def failing(**kwargs: Any) -> Any:
            items = [
                r["PutRequest"]["Item"]
                for rs in kwargs["RequestItems"].values()
                for r in rs
                if "PutRequest" in r
            ]
            if not self.failed and any("#updated#" in i["sk"]["S"] for i in items):
                self.failed = True
                error = {"Error": {"Code": "ProvisionedThroughputExceededException", "Message": "slow down"}}
                raise self._client.exceptions.ProvisionedThroughputExceededException(error, "BatchWriteItem")
            return call(**kwargs)

        return failing


def test_a_failed_history_write_leaves_whole_records_and_its_replay_adds_no_duplicate(
    store: DynamoStore, client: Any
) -> None:
    # Given two memories, and a store whose history write fails once, after the records were
    # written, when it writes their next versions (a creation's entry is on its item: no write)
    flaky = DynamoStore(_FailingHistory(client), store.records.table)
    first = [record("acme", "I prefer dark mode"), record("acme", "Mia is allergic to peanuts", minute=1)]
    put(store, *first)
    records = [r.model_copy(update={"version": 2, "tags": ["edited"]}) for r in first]

    def updated(r: MemoryRecord) -> HistoryEntry:
        return HistoryEntry(
            memory_id=r.id, version=2, event="updated", at=T0 + timedelta(minutes=9), content=r.content
        )

    batch = WriteBatch(
        records=records,
        vectors=[vector(0), vector(1)],
        history=[updated(r) for r in records],
        idempotency=("key-1", "fingerprint", [{"id": r.id} for r in records]),
    )
    # When the write is made, it fails, and no result is stored for the request
    with pytest.raises(EngramError):
        flaky.records.write("acme", batch)
    assert store.idempotency.idempotent_result("acme", "key-1") is None
    # Then the records are whole, only without their latest history entry yet
    assert {i: r.tags for i, r in store.records.get_many("acme", [r.id for r in records]).items()} == {
        r.id: ["edited"] for r in records
    }
    assert all([e.event for e in store.history.history("acme", r.id)] == ["created"] for r in records)
    # When the same batch is written again (the caller's retry, a job's redelivery), twice
    flaky.records.write("acme", batch)
    flaky.records.write(
        "acme",
        replace(
            batch,
            history=[updated(r).model_copy(update={"at": T0 + timedelta(minutes=10)}) for r in records],
        ),
    )
    # Then each record has its creation and one entry of the change, and the request its result
    assert [[e.event for e in store.history.history("acme", r.id)] for r in records] == [
        ["created", "updated"],
        ["created", "updated"],
    ]
    assert store.idempotency.idempotent_result("acme", "key-1") == (
        "fingerprint",
        [{"id": r.id} for r in records],
    )


def _history_items(client: Any, table: str, memory_id: str) -> list[str]:
    items = client.query(
        TableName=table,
        KeyConditionExpression="pk = :p AND begins_with(sk, :h)",
        ExpressionAttributeValues={":p": {"S": f"TENANT#acme#MEM#{memory_id}"}, ":h": {"S": "HIST#"}},
    )["Items"]
    return [i["sk"]["S"].split("#")[2] for i in items]


def test_a_creation_is_carried_by_its_item_until_the_first_change_writes_it_out(
    store: DynamoStore, client: Any
) -> None:
    # Given two new memories: their creations are on their items, no history item is written
    a, b = record("acme", "I prefer dark mode"), record("acme", "I water the plants", minute=1)
    put(store, a, b)
    assert (
        _history_items(client, store.records.table, a.id) == []
        and "born" in client.get_item(TableName=store.records.table, Key=memory_key("acme", a.id))["Item"]
    )
    assert store.history.history("acme", a.id) == [created(a)]
    # When one changes through a conditional update (a PATCH of its text) and the other through a
    # batch write (a merge)
    edited = a.model_copy(update={"content": "I prefer light mode", "version": 2})
    change = HistoryEntry(
        memory_id=a.id, version=2, event="updated", at=T0 + timedelta(hours=1), content=edited.content
    )
    assert store.records.update("acme", edited, expected_version=1, history=change)
    merged = b.model_copy(update={"content": "I water the plants on Mondays", "version": 2})
    merge = HistoryEntry(
        memory_id=b.id, version=2, event="merged", at=T0 + timedelta(hours=1), content=merged.content
    )
    store.records.write("acme", WriteBatch(records=[merged], vectors=[vector(1)], history=[merge]))
    # Then each creation is written out with its first text, before its change, and its item
    # carries it no more
    assert store.history.history("acme", a.id) == [created(a), change]
    assert store.history.history("acme", b.id) == [created(b), merge]
    for memory in (a, b):
        assert _history_items(client, store.records.table, memory.id) == [
            "created",
            change.event if memory is a else "merged",
        ]
        assert (
            "born"
            not in client.get_item(TableName=store.records.table, Key=memory_key("acme", memory.id))["Item"]
        )
    # And no other tenant reads it
    assert store.history.history("globex", a.id) == []
