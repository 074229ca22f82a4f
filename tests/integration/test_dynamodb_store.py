"""The DynamoDB adapters over real HTTP against DynamoDB Local (the real engine)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from engram.adapters.dynamodb.keys import DynamoKeyStore
from engram.adapters.dynamodb.store import DynamoStore
from engram.adapters.dynamodb.usage import DynamoUsage
from engram.auth import ApiKeyRecord
from engram.errors import ConflictError, ValidationFailedError
from engram.feedback import feedback
from engram.identity import content_hash, memory_id, receipt_id
from engram.models import DeletionLogEntry, FeedbackRequest, HistoryEntry, MemoryRecord, Tenant
from engram.ports import ALL_SCOPES, Conditions, WriteBatch
from engram.scoring.lifecycle import feedback_ema
from engram.settings import Settings

T0 = datetime(2026, 3, 1, tzinfo=UTC)


class _Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


def record(
    tenant: str, text: str, scope: str = "user:alice", *, minute: int = 0, **fields: Any
) -> MemoryRecord:
    at = T0 + timedelta(minutes=minute)
    return MemoryRecord(
        tenant_id=tenant,
        id=memory_id(tenant, scope, text),
        scope=scope,
        content=text,
        content_hash=content_hash(text),
        created_at=at,
        updated_at=at,
        **fields,
    )


def vector(seed: int) -> Any:
    v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
    return v / np.linalg.norm(v)


def created(r: MemoryRecord) -> HistoryEntry:
    return HistoryEntry(memory_id=r.id, version=1, event="created", at=r.created_at, content=r.content)


@pytest.fixture
def client(dynamodb_local: Any) -> Any:
    return dynamodb_local.client()


@pytest.fixture
def store(dynamodb_local: Any, client: Any) -> Iterator[DynamoStore]:
    table = dynamodb_local.new_table(client)
    store = DynamoStore(client, table)
    for tenant in ("acme", "globex"):
        store.create_tenant(Tenant(tenant_id=tenant, name=tenant, created_at=T0))
    yield store
    client.delete_table(TableName=table)


def put(store: DynamoStore, *records: MemoryRecord, embed: bool = True) -> None:
    store.write(
        records[0].tenant_id,
        WriteBatch(
            records=list(records),
            vectors=[vector(i) if embed else None for i in range(len(records))],
            history=[created(r) for r in records],
        ),
    )


# -- conditional writes ----------------------------------------------------------------------------


def test_creating_a_tenant_twice_is_a_conflict(store: DynamoStore) -> None:
    with pytest.raises(ConflictError):
        store.create_tenant(Tenant(tenant_id="acme", name="again", created_at=T0))
    tenant = store.get_tenant("acme")
    assert tenant is not None and tenant.name == "acme"


def test_an_update_with_a_stale_version_changes_nothing(store: DynamoStore) -> None:
    original = record("acme", "I prefer dark mode")
    put(store, original)
    first = original.model_copy(update={"feedback_weight": 0.65, "version": 2})
    stale = original.model_copy(update={"feedback_weight": 0.1, "version": 2})
    assert store.update("acme", first, expected_version=1)
    assert not store.update("acme", stale, expected_version=1)
    stored = store.get("acme", original.id)
    assert stored is not None and stored.feedback_weight == 0.65 and stored.version == 2


def test_an_update_keeps_the_stored_vector_unless_given_one(store: DynamoStore) -> None:
    original = record("acme", "I prefer dark mode")
    put(store, original)
    store.update("acme", original.model_copy(update={"version": 2, "tags": ["ui"]}), expected_version=1)
    [(_, kept)] = list(store.iter_records("acme"))
    assert kept is not None and np.allclose(kept, vector(0))


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
                store=store,
                clock=_Clock(),
                settings=Settings(),
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
    stored = store.get("acme", original.id)
    assert stored is not None and abs(stored.feedback_weight - expected) < 1e-12
    assert stored.version == 21
    assert len([h for h in store.history("acme", original.id) if h.event == "feedback"]) == 20


# -- transactions ----------------------------------------------------------------------------------


def test_a_write_that_dynamodb_rejects_leaves_nothing_behind(store: DynamoStore) -> None:
    # Given a batch whose last record is over DynamoDB's 400 KB item limit
    small = [record("acme", f"fact number {i}") for i in range(3)]
    huge = record("acme", "x" * 450_000)
    # When it is written, DynamoDB rejects the transaction
    with pytest.raises(Exception, match="size"):
        put(store, *small, huge)
    # Then none of the batch (records, history) was stored
    assert store.get_many("acme", [r.id for r in small]) == {}
    assert all(store.history("acme", r.id) == [] for r in small)


def test_a_batch_larger_than_one_transaction_is_written_whole(store: DynamoStore) -> None:
    records = [record("acme", f"fact number {i}", minute=i) for i in range(130)]
    store.write(
        "acme",
        WriteBatch(
            records=records,
            vectors=[vector(i) for i in range(130)],
            history=[created(r) for r in records],
            idempotency=("key-1", "fingerprint", [{"id": r.id} for r in records]),
        ),
    )
    assert len(store.get_many("acme", [r.id for r in records])) == 130
    assert store.history("acme", records[-1].id)[0].event == "created"
    assert store.idempotent_result("acme", "key-1") == ("fingerprint", [{"id": r.id} for r in records])


# -- GSI queries with pagination -------------------------------------------------------------------


def test_listing_pages_through_every_memory_in_order(store: DynamoStore) -> None:
    records = [
        record("acme", f"fact number {i}", scope="user:alice" if i % 3 else "user:bob", minute=i)
        for i in range(70)
    ]
    put(store, *records)
    for scopes, expected in (
        (ALL_SCOPES, records),
        (("user:bob",), [r for r in records if r.scope == "user:bob"]),
        (("user:alice", "user:bob"), records),
    ):
        seen: list[str] = []
        cursor = None
        pages = 0
        while True:
            page = store.list_page("acme", Conditions(scopes=scopes), cursor=cursor, limit=10)
            seen += [r.id for r in page.records]
            pages += 1
            cursor = page.next_cursor
            if cursor is None:
                break
        assert seen == [r.id for r in expected]
        assert pages == -(-len(expected) // 10)


def test_a_tier_listing_uses_only_that_tier(store: DynamoStore) -> None:
    put(store, record("acme", "core fact", tier="core"), record("acme", "loose fact", minute=1))
    ids = store.select_ids("acme", Conditions(scopes=ALL_SCOPES, tiers=("core",)))
    assert ids == [memory_id("acme", "user:alice", "core fact")]


def test_reading_more_than_one_megabyte_follows_last_evaluated_key(store: DynamoStore) -> None:
    # 140 memories of ~8 KB each (x2 with the document): several 1 MB query pages
    records = [record("acme", f"{i} " + "lorem ipsum " * 700, minute=i) for i in range(140)]
    for start in range(0, 140, 20):
        put(store, *records[start : start + 20])
    assert [r.id for r, _ in store.iter_records("acme")] == [r.id for r in records]
    assert store.stats("acme").total == 140


def test_a_cursor_that_was_not_issued_is_a_validation_error(store: DynamoStore) -> None:
    with pytest.raises(ValidationFailedError):
        store.list_page("acme", Conditions(scopes=ALL_SCOPES), cursor="bm90IGEgY3Vyc29y", limit=5)


def test_find_by_hash_finds_an_active_memory_of_the_scope(store: DynamoStore) -> None:
    r = record("acme", "I prefer dark mode")
    put(store, r)
    found = store.find_by_hash("acme", "user:alice", r.content_hash)
    assert found is not None and found.id == r.id
    assert store.find_by_hash("acme", "user:bob", r.content_hash) is None
    assert store.find_by_hash("globex", "user:alice", r.content_hash) is None


# -- TTL -------------------------------------------------------------------------------------------


def test_idempotency_items_carry_a_ttl_and_expired_ones_count_as_gone(
    store: DynamoStore, client: Any
) -> None:
    ttl = client.describe_time_to_live(TableName=store.table)["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "ttl"}
    store.write("acme", WriteBatch(idempotency=("k", "fp", [])))
    item = client.get_item(
        TableName=store.table, Key={"pk": {"S": "TENANT#acme#IDEM#k"}, "sk": {"S": "IDEM"}}
    )
    expires = int(item["Item"]["ttl"]["N"])
    assert abs(expires - (time.time() + 24 * 3600)) < 120
    assert store.idempotent_result("acme", "k") == ("fp", [])
    # DynamoDB deletes expired items lazily (up to days later): reads must ignore them
    client.update_item(
        TableName=store.table,
        Key={"pk": {"S": "TENANT#acme#IDEM#k"}, "sk": {"S": "IDEM"}},
        UpdateExpression="SET #t = :past",
        ExpressionAttributeNames={"#t": "ttl"},
        ExpressionAttributeValues={":past": {"N": str(int(time.time()) - 1)}},
    )
    assert store.idempotent_result("acme", "k") is None


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
    DynamoUsage(client, store.table).add("acme", "2026-12-01", {"retain_calls": 3})
    keys = DynamoKeyStore(client, store.table)
    keys.put_key(key_record("aaaaaaaaaaaa", "acme"))
    keys.put_key(key_record("bbbbbbbbbbbb", "globex"))
    wrapped = DynamoStore(_Unprocessing(client), store.table)
    # When acme is erased through a client that leaves a third of every batch unprocessed
    assert wrapped.erase_tenant("acme") == 60
    # Then every batch held at most 25 writes, the leftovers were retried, and nothing of acme remains
    calls = wrapped.client.calls
    assert max(calls) <= 25 and len(calls) > 120 / 25
    left = client.scan(TableName=store.table)["Items"]
    assert not [i for i in left if i["pk"]["S"].startswith("TENANT#acme")]
    assert store.get_tenant("acme") is None and keys.get_key("aaaaaaaaaaaa") is None
    assert store.stats("globex").total == 1 and keys.get_key("bbbbbbbbbbbb") is not None


# -- deferred embedding -----------------------------------------------------------------------------


def test_pending_embeddings_are_listed_oldest_first_and_guarded_by_hash(store: DynamoStore) -> None:
    a, b = record("acme", "first text"), record("acme", "second text", minute=1)
    put(store, a, b, embed=False)
    assert store.tenants_with_pending() == ["acme"]
    assert store.pending_embedding("acme", 10) == [
        (a.id, a.content, a.content_hash),
        (b.id, b.content, b.content_hash),
    ]
    done = store.set_embeddings(
        "acme", [(a.id, a.content_hash, vector(1)), (b.id, "stale-hash", vector(2))], "m"
    )
    assert done == [a.id]
    assert store.pending_embedding("acme", 10) == [(b.id, b.content, b.content_hash)]
    store.set_embeddings("acme", [(b.id, b.content_hash, vector(2))], "m")
    assert store.tenants_with_pending() == []
    # the record now names the model of its vector, and a later update does not forget it
    stored = store.get("acme", a.id)
    assert stored is not None and stored.embedding_model == "m"
    assert store.update("acme", a.model_copy(update={"version": 2, "tags": ["x"]}), expected_version=1)
    again = store.get("acme", a.id)
    assert again is not None and again.embedding_model == "m" and again.tags == ["x"]


# -- tenant isolation -------------------------------------------------------------------------------


def test_one_tenant_never_sees_changes_or_counts_anothers_memories(store: DynamoStore) -> None:
    mine = record("acme", "acme's secret plan")
    put(store, mine)
    put(store, record("globex", "globex note"))
    # globex cannot read it by id, list it, find it, count it or access it
    assert store.get("globex", mine.id) is None
    assert store.get_many("globex", [mine.id]) == {}
    assert store.select_ids("globex", Conditions(scopes=ALL_SCOPES)) == [
        memory_id("globex", "user:alice", "globex note")
    ]
    assert store.stats("globex").total == 1
    assert store.history("globex", mine.id) == []
    store.record_access("globex", [mine.id], T0)
    # nor change or delete it
    forged = mine.model_copy(update={"tenant_id": "globex", "feedback_weight": 0.0, "version": 2})
    assert not store.update("globex", forged, expected_version=1)
    log = DeletionLogEntry(receipt_id=receipt_id(), tenant_id="globex", at=T0, ids=[], reason="test")
    assert store.delete("globex", [mine.id], log) == []
    with pytest.raises(ValidationFailedError):
        store.update("globex", mine.model_copy(update={"version": 2}), expected_version=1)
    stored = store.get("acme", mine.id)
    assert stored is not None and stored.feedback_weight == 0.5 and stored.access_count == 0
    assert store.deletion_log("globex") == []


def test_delete_removes_memory_and_history_and_logs_the_ids(store: DynamoStore) -> None:
    a, b = record("acme", "first text"), record("acme", "second text", minute=1)
    put(store, a, b)
    log = DeletionLogEntry(receipt_id=receipt_id(), tenant_id="acme", at=T0, ids=[], reason="forget")
    assert store.delete("acme", [a.id, "mem_" + "0" * 32], log) == [a.id]
    assert store.get("acme", a.id) is None and store.history("acme", a.id) == []
    [entry] = store.deletion_log("acme")
    assert entry.ids == [a.id] and entry.receipt_id == log.receipt_id


def test_record_access_counts_and_keeps_the_version(store: DynamoStore) -> None:
    r = record("acme", "first text")
    put(store, r)
    store.record_access("acme", [r.id, r.id], T0 + timedelta(days=1))
    stored = store.get("acme", r.id)
    assert stored is not None
    assert (stored.access_count, stored.version, stored.last_accessed_at) == (1, 1, T0 + timedelta(days=1))


# -- API keys --------------------------------------------------------------------------------------


def key_record(key_id: str, tenant: str, minute: int = 0) -> ApiKeyRecord:
    return ApiKeyRecord(
        key_id=key_id,
        tenant_id=tenant,
        display_prefix=f"egk_{key_id}_",
        secret_hash="ab" * 32,
        scopes=("user:alice",),
        read_only=False,
        created_at=T0 + timedelta(minutes=minute),
        expires_at=None,
        revoked_at=None,
        last_used_at=None,
    )


def test_api_keys_are_found_by_id_listed_per_tenant_revoked_and_touched(
    store: DynamoStore, client: Any
) -> None:
    keys = DynamoKeyStore(client, store.table)
    keys.put_key(key_record("aaaaaaaaaaaa", "acme"))
    keys.put_key(key_record("bbbbbbbbbbbb", "acme", 1))
    keys.put_key(key_record("cccccccccccc", "globex"))
    with pytest.raises(ConflictError):
        keys.put_key(key_record("aaaaaaaaaaaa", "globex"))
    got = keys.get_key("aaaaaaaaaaaa")
    assert got == key_record("aaaaaaaaaaaa", "acme")
    assert [k.key_id for k in keys.list_keys("acme")] == ["aaaaaaaaaaaa", "bbbbbbbbbbbb"]
    assert keys.revoke_key("aaaaaaaaaaaa", T0 + timedelta(days=1))
    assert keys.revoke_key("aaaaaaaaaaaa", T0 + timedelta(days=2))
    assert not keys.revoke_key("zzzzzzzzzzzz", T0)
    revoked = keys.get_key("aaaaaaaaaaaa")
    assert revoked is not None and revoked.revoked_at == T0 + timedelta(days=1)
    keys.touch_key("bbbbbbbbbbbb", T0 + timedelta(hours=2))
    keys.touch_key("bbbbbbbbbbbb", T0 + timedelta(hours=1))
    touched = keys.get_key("bbbbbbbbbbbb")
    assert touched is not None and touched.last_used_at == T0 + timedelta(hours=2)
    assert keys.delete_tenant_keys("acme") == 2
    assert keys.list_keys("acme") == [] and keys.get_key("cccccccccccc") is not None


# -- jobs and client configuration ------------------------------------------------------------------


def test_open_jobs_are_listed_for_the_scheduler_and_finished_ones_expire(
    store: DynamoStore, client: Any
) -> None:
    from engram.models import Job

    queued = Job(job_id="job_1", status="queued", created_at=T0, updated_at=T0, request={"scope": "global"})
    store.put_job("acme", queued)
    store.put_job("globex", queued.model_copy(update={"job_id": "job_2", "status": "running"}))
    assert [(t, j.job_id, j.request) for t, j in store.pending_jobs()] == [
        ("acme", "job_1", {"scope": "global"}),
        ("globex", "job_2", {"scope": "global"}),
    ]
    store.put_job("acme", queued.model_copy(update={"status": "succeeded", "request": None}))
    assert [j.job_id for _, j in store.pending_jobs()] == ["job_2"]
    done = store.get_job("acme", "job_1")
    assert done is not None and done.status == "succeeded"
    assert store.get_job("globex", "job_1") is None
    item = client.get_item(
        TableName=store.table, Key={"pk": {"S": "TENANT#acme#JOB#job_1"}, "sk": {"S": "JOB"}}
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

    METERED = ("put_item", "update_item", "transact_write_items", "get_item", "batch_get_item", "query")

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
    # Given memories of ~200 characters with 1,024-dimension vectors (Titan V2's default)
    meter = _Meter(client)
    metered = DynamoStore(meter, store.table)
    text = "I moved to Lisbon last spring and now work remotely for a design studio in Berlin, mostly on UI work."
    big = np.full(1024, 1 / 32, dtype=np.float32)
    first = record("acme", text)
    # When one is written with its history, it costs 12 + 2 WRU in the transaction, and each
    # listing index gets a small item (no vector): 2 WRU at the transactional rate
    metered.write("acme", WriteBatch(records=[first], vectors=[big], history=[created(first)]))
    assert meter.units == {"table": 14.0, "g1-index": 4.0, "g2-index": 4.0, "g3-index": 4.0, "g4-index": 2.0}
    # When recall's access tracking touches five memories, only the base items are written
    others = [record("acme", f"{text} {i}", minute=i) for i in range(1, 6)]
    store.write("acme", WriteBatch(records=others, vectors=[big] * 5, history=[created(r) for r in others]))
    meter.units = {}
    metered.record_access("acme", [r.id for r in others], T0)
    assert meter.units == {"table": 30.0}
    # And fetching them by id reads 2 RRU each (strongly consistent, ~5.7 KB)
    meter.units = {}
    metered.get_many("acme", [r.id for r in others])
    assert meter.units == {"table": 10.0}


# -- session neighbours and stored vectors ----------------------------------------------------------


def test_session_neighbours_come_in_retain_order_within_scope_session_and_conditions(
    store: DynamoStore,
) -> None:
    from engram.models import Source

    def turn(i: int, session: str | None = "s1", scope: str = "user:alice", **fields: Any) -> MemoryRecord:
        return record(
            "acme", f"turn {i} of {session}", scope, minute=i, source=Source(session_id=session), **fields
        )

    turns = [turn(i) for i in range(6)]
    put(
        store,
        *turns,
        turn(10, session="s2"),
        turn(11, scope="user:bob"),
        turn(12, session=None),
        turn(13, status="superseded"),
    )
    seed = turns[2]
    found = store.neighbours("acme", [seed.id], Conditions(scopes=ALL_SCOPES), 2)
    assert found == {seed.id: [turns[0].id, turns[1].id, turns[3].id, turns[4].id]}
    # a memory without a session has no neighbours; the superseded turn is filtered out
    assert (
        store.neighbours(
            "acme", [memory_id("acme", "user:alice", "turn 12 of None")], Conditions(scopes=ALL_SCOPES), 2
        )
        == {}
    )
    last = store.neighbours("acme", [turns[5].id], Conditions(scopes=ALL_SCOPES), 3)
    assert last == {turns[5].id: [turns[2].id, turns[3].id, turns[4].id]}
    assert store.neighbours("globex", [seed.id], Conditions(scopes=ALL_SCOPES), 2) == {}


def test_stored_vectors_come_back_by_id_for_this_tenant_only(store: DynamoStore) -> None:
    a, b = record("acme", "first text"), record("acme", "second text", minute=1)
    put(store, a)
    put(store, b, embed=False)
    vectors = store.get_vectors("acme", [a.id, b.id, "mem_" + "0" * 32])
    assert list(vectors) == [a.id] and np.allclose(vectors[a.id], vector(0))
    assert store.get_vectors("globex", [a.id]) == {}
