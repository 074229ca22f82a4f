"""Faults on the AWS backend: an index outage loses no acknowledged retain, and the stream
consumer (fed from DynamoDB Local's own stream) makes it searchable once the index is back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engram.adapters import opensearch_index
from engram.adapters.dynamodb.items import record_of
from engram.adapters.dynamodb_stream import memory_changes
from engram.adapters.opensearch_index import OpenSearchIndex, external_version
from engram.engine import Engine
from engram.errors import ProviderError
from engram.indexing.indexer import apply_stream
from engram.models import RecallRequest, RetainRequest
from engram.settings import AwsSettings, RetainSettings, Settings

ROOT = Path(__file__).resolve().parents[2]
OUTAGE = (503, {"error": {"type": "unavailable", "reason": "no master"}, "status": 503})


@pytest.fixture
def fake() -> Iterator[Any]:
    from opensearch_fake import start

    server = start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opensearch_index.time, "sleep", lambda _s: None)


@pytest.fixture
def engine(dynamodb_local: Any, fake: Any, tmp_path: Path) -> Iterator[Engine]:
    client = dynamodb_local.client()
    table = dynamodb_local.new_table(client)
    settings = Settings(
        backend="aws",
        data_dir=tmp_path,
        background_embedding=False,
        retain=RetainSettings(defer_embedding=False),
        aws=AwsSettings(
            table=table,
            index="opensearch",
            opensearch_endpoint="https://opensearch.test",  # the client below is given
            opensearch_index="engram-memories",
        ),
    )
    engine = Engine.aws(settings, dynamodb=client, opensearch=fake.client())
    engine.create_tenant("acme")
    engine.create_tenant("globex")
    yield engine
    engine.close()
    client.delete_table(TableName=table)


def stream_records(engine: Engine, dynamodb_local: Any) -> list[dict[str, Any]]:
    """Every record of the table's stream so far, as DynamoDB Streams returns them."""
    import boto3

    store: Any = engine.store
    streams = boto3.client(
        "dynamodbstreams",
        region_name="us-east-1",
        endpoint_url=dynamodb_local.endpoint,
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    arn = store.records.client.describe_table(TableName=store.records.table)["Table"]["LatestStreamArn"]
    records: list[dict[str, Any]] = []
    for shard in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
        iterator = streams.get_shard_iterator(
            StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
        )["ShardIterator"]
        while iterator:
            page = streams.get_records(ShardIterator=iterator)
            records += page["Records"]
            if not page["Records"]:
                break
            iterator = page.get("NextShardIterator")
    return records


def bulk_ids(fake: Any) -> list[str]:
    return [
        line["index"]["_id"]
        for r in fake.requests
        if r.path == "/_bulk"
        for line in r.body
        if "index" in line
    ]


def test_a_retain_acked_during_an_index_outage_is_durable_and_indexed_from_the_stream(
    engine: Engine, fake: Any, dynamodb_local: Any
) -> None:
    # Given an index answering 503 to everything
    fake.fail_with = OUTAGE
    # When a memory is retained, it is acknowledged and durable in DynamoDB
    response = engine.retain("acme", RetainRequest(scope="user:alice", text="I prefer dark mode", mode="raw"))
    [result] = response.results
    assert result.action == "created"
    stored = engine.store.records.get("acme", result.id)
    assert stored is not None and stored.content == "I prefer dark mode"
    # and recall fails with a clear error instead of an empty answer
    with pytest.raises(ProviderError, match=r"search index is unavailable \(HTTP 503\)"):
        engine.recall("acme", RecallRequest(query="dark mode"))
    # When the index is back and the stream indexer processes the table's stream
    fake.fail_with = None
    fake.requests.clear()
    fake.answer((200, {"errors": False, "items": [{"index": {"_id": f"acme:{result.id}", "status": 201}}]}))
    outcome = apply_stream(
        memory_changes(stream_records(engine, dynamodb_local)), opensearch_index_of(engine)
    )
    # Then the memory is indexed, with its version as the external version
    assert outcome.failures == [] and outcome.upserted == 1
    [bulk] = [r for r in fake.requests if r.path == "/_bulk"]
    action, document = bulk.body
    assert action["index"]["_id"] == f"acme:{result.id}" and action["index"]["version_type"] == "external"
    assert document["content"] == "I prefer dark mode" and document["tenant_id"] == "acme"


def opensearch_index_of(engine: Engine) -> OpenSearchIndex:
    inner = engine.index.inner  # type: ignore[attr-defined]
    assert isinstance(inner, OpenSearchIndex)
    return inner


@pytest.mark.parametrize(
    "failure", [OUTAGE, (429, {"error": {"type": "rejected_execution_exception"}, "status": 429})]
)
def test_a_stream_batch_that_fails_midway_reports_the_first_failure_and_everything_after(
    engine: Engine, fake: Any, dynamodb_local: Any, failure: tuple[int, Any]
) -> None:
    # Given changes of acme, then of globex, in the stream
    engine.retain(
        "acme",
        RetainRequest(scope="user:alice", items=[{"text": "one fact"}, {"text": "two facts"}], mode="raw"),
    )
    engine.retain("globex", RetainRequest(scope="user:bob", text="globex fact", mode="raw"))
    # (the memory items alone: their vectors are read from the table's vector items)
    records = [r for r in stream_records(engine, dynamodb_local) if r["dynamodb"]["Keys"]["sk"]["S"] == "MEM"]
    assert len(records) == 3
    # When acme's bulk succeeds and globex's is refused (every retry)
    fake.requests.clear()
    fake.answer((200, {"errors": False, "items": [{"index": {"status": 201}}, {"index": {"status": 201}}]}))
    fake.answer(*[failure] * 10)
    outcome = apply_stream(
        memory_changes(records, vectors=engine.store.records.get_vectors), opensearch_index_of(engine)
    )
    # Then the globex record is reported so Lambda retries from it; acme's are done
    assert outcome.upserted == 2
    assert [f["itemIdentifier"] for f in outcome.response()["batchItemFailures"]] == [
        records[2]["dynamodb"]["SequenceNumber"]
    ]


def test_forgetting_removes_from_the_index_through_the_stream(
    engine: Engine, fake: Any, dynamodb_local: Any
) -> None:
    from engram.models import ForgetRequest

    fake.fail_with = OUTAGE
    kept = engine.retain("acme", RetainRequest(scope="user:alice", text="I prefer dark mode", mode="raw"))
    engine.forget("acme", ForgetRequest(ids=[kept.results[0].id]))
    fake.fail_with = None
    fake.requests.clear()
    fake.answer(
        (200, {"errors": False, "items": [{"index": {"status": 201}}]}),
        (200, {"errors": False, "items": [{"delete": {"status": 200}}]}),
    )
    outcome = apply_stream(
        memory_changes(stream_records(engine, dynamodb_local)), opensearch_index_of(engine)
    )
    assert outcome.failures == [] and outcome.removed == 1
    [action] = fake.requests[-1].body
    assert action["delete"]["_id"] == f"acme:{kept.results[0].id}" and action["delete"]["routing"] == "acme"
    # the stream's old image versions the delete one past the record's last state
    assert action["delete"]["version_type"] == "external"


def _stream_handler() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "stream_handler", ROOT / "functions" / "stream" / "handler.py"
    )
    assert spec is not None and spec.loader is not None
    handler = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(handler)
    return handler


def test_the_stream_handler_indexes_the_sample_stream_event(fake: Any) -> None:
    handler = _stream_handler()
    event = json.loads((ROOT / "events" / "stream.batch.json").read_text())
    # the sample carries what the stack stores: Titan V2 vectors of 1024 dimensions
    index = OpenSearchIndex(
        fake.client(), "engram-memories", dimension=1024, model_id="amazon.titan-embed-text-v2:0@1024"
    )
    handler.use(index=index, publishing=lambda tenants: set())  # no tenant publishes events
    fake.answer(
        (200, {"errors": False, "items": [{"index": {"status": 201}}]}),
        (200, {"errors": False, "items": [{"delete": {"status": 200}}]}),
    )
    assert handler.handler(event, None) == {"batchItemFailures": []}
    upsert, delete = (r.body for r in fake.requests)
    assert len(upsert[1]["embedding"]) == 1024
    assert upsert[1]["embedding_model"] == "amazon.titan-embed-text-v2:0@1024"
    # the removed memory's old image orders its delete after its last state (version 2)
    [removed] = [r for r in event["Records"] if r["eventName"] == "REMOVE"]
    gone = record_of(removed["dynamodb"]["OldImage"])
    [action] = delete
    assert action == {
        "delete": {
            "_index": "engram-memories",
            "_id": "acme:mem_0000000000000000000000000000000b",
            "routing": "acme",
            "version": external_version(gone) + 1,
            "version_type": "external",
        }
    }
    fake.fail_with = OUTAGE
    failed = handler.handler(event, None)
    assert failed == {
        "batchItemFailures": [
            {"itemIdentifier": "100000000000000000001"},
            {"itemIdentifier": "100000000000000000003"},
        ]
    }


def test_the_stream_handler_publishes_a_batch_whose_index_is_down_and_reports_both_failures(
    fake: Any,
) -> None:
    # Given the sample batch, a tenant that publishes its events and a search index that is down
    handler = _stream_handler()
    event = json.loads((ROOT / "events" / "stream.batch.json").read_text())
    index = OpenSearchIndex(
        fake.client(), "engram-memories", dimension=1024, model_id="amazon.titan-embed-text-v2:0@1024"
    )
    put: list[Any] = []

    def bus(events: Any) -> list[int]:  # refuses the last event of the batch
        put.extend(events)
        return [len(events) - 1]

    handler.use(index=index, publishing=lambda tenants: set(tenants), publisher=bus)
    fake.fail_with = OUTAGE
    try:
        # When the consumer handles it
        answer = handler.handler(event, None)
    finally:
        handler.use(index=None, publishing=None, publisher=None)
    # Then the batch's event was put all the same (events never wait for the index; a memory
    # item's REMOVE is no event: a forget's is its deletion-log entry)
    assert [e.type for e in put] == ["memory.created"]
    # And the batch is retried from the first record either part failed, in stream order
    assert answer == {
        "batchItemFailures": [
            {"itemIdentifier": "100000000000000000001"},
            {"itemIdentifier": "100000000000000000003"},
        ]
    }


def test_reindex_rebuilds_a_tenant_from_the_store(engine: Engine, fake: Any) -> None:
    fake.fail_with = OUTAGE
    items = [{"text": f"fact number {i}"} for i in range(5)]
    engine.retain("acme", RetainRequest(scope="user:alice", items=items, mode="raw"))
    engine.retain("globex", RetainRequest(scope="user:bob", text="globex fact", mode="raw"))
    fake.fail_with = None
    fake.requests.clear()
    stray = {"_id": "acme:mem_forgotten_long_ago", "_score": None, "sort": ["mem_forgotten_long_ago"]}
    fake.answer(
        (200, {"acknowledged": True}),
        (404, {}),
        (200, {"acknowledged": True, "index": "engram-memories"}),
        (200, {"errors": False, "items": [{"index": {"status": 201}}] * 5}),
        (200, {"responses": [{"hits": {"hits": [stray]}, "status": 200}]}),
        (200, {"errors": False, "items": [{"delete": {"status": 200}}]}),
    )
    progress: list[int] = []
    assert engine.reindex(["acme"], clean=True, progress=progress.append) == {"acme": 5}
    template, exists, create, bulk, listing, strays = fake.requests
    assert [(r.method, r.path) for r in (template, exists, create)] == [
        ("PUT", "/_index_template/engram-memories"),
        ("HEAD", "/engram-memories"),
        ("PUT", "/engram-memories"),
    ]
    # the rewrite comes first: a clean never leaves tombstones that would outrank it
    assert bulk.path == "/_bulk" and not any("_delete_by_query" in r.path for r in fake.requests)
    assert listing.path == "/_msearch" and listing.body[1]["sort"] == [{"memory_id": "asc"}]
    assert strays.body == [
        {"delete": {"_index": "engram-memories", "_id": "acme:mem_forgotten_long_ago", "routing": "acme"}}
    ]
    assert len([i for i in bulk_ids(fake) if i != "acme:mem_forgotten_long_ago"]) == 5
    assert progress == [5]


def test_access_counting_by_recall_sends_nothing_to_the_index(
    engine: Engine, fake: Any, dynamodb_local: Any
) -> None:
    fake.fail_with = OUTAGE
    kept = engine.retain("acme", RetainRequest(scope="user:alice", text="I prefer dark mode", mode="raw"))
    store: Any = engine.store
    store.records.record_access(
        "acme", [kept.results[0].id], store.records.get("acme", kept.results[0].id).created_at
    )
    fake.fail_with = None
    fake.requests.clear()
    fake.answer((200, {"errors": False, "items": [{"index": {"status": 201}}]}))
    records = [r for r in stream_records(engine, dynamodb_local) if r["dynamodb"]["Keys"]["sk"]["S"] == "MEM"]
    assert [r["eventName"] for r in records] == ["INSERT", "MODIFY"]
    outcome = apply_stream(
        memory_changes(records, vectors=engine.store.records.get_vectors), opensearch_index_of(engine)
    )
    assert (outcome.upserted, outcome.skipped, len(fake.requests)) == (1, 1, 1)
