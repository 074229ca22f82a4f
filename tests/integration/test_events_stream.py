"""The cloud's events out: the stream consumer fed from DynamoDB Local's own stream, publishing to
EventBridge through botocore's Stubber (what PutEvents receives is checked, and its answers,
partial failures included, are scripted), for the tenants whose ``events.publish`` is on (read
from the same table).

The writes go through the real engine and store (retain, PATCH, a supersede written as the
retain writes it, forget, the lifecycle's expiry, a job), so the stream items are exactly what the
table holds; they are handed to the handler in the JSON shape Lambda gives it (binary as base64).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import numpy as np
import pytest
from botocore.stub import ANY, Stubber
from store_support import created, record
from test_aws_faults import stream_records

from engram.adapters.dynamodb_events import stream_events
from engram.adapters.dynamodb_stream import memory_changes
from engram.adapters.eventbridge import EventBridgePublisher
from engram.adapters.memory_index import InMemoryIndex
from engram.engine import Engine
from engram.events.subscribers import PublishingTenants
from engram.identity import memory_id
from engram.models import ForgetRequest, HistoryEntry, Job, PatchRequest, RetainRequest, RetainResult
from engram.ports import WriteBatch
from engram.settings import AwsSettings, EventsSettings, Settings
from engram_http.loader import load_handler

SCOPE = "user:alice"
BUS = "engram-test-events"


@pytest.fixture
def engine(dynamodb_local: Any, tmp_path: Path) -> Iterator[Engine]:
    client = dynamodb_local.client()
    table = dynamodb_local.new_table(client)
    settings = Settings(
        backend="aws",
        data_dir=tmp_path,
        background_embedding=False,
        aws=AwsSettings(table=table, index="memory"),
    )
    engine = Engine.aws(settings, dynamodb=client)
    engine.create_tenant("acme")
    yield engine
    engine.close()
    client.delete_table(TableName=table)


def lambda_shaped(record: dict[str, Any]) -> dict[str, Any]:
    """A DynamoDB Streams record as a Lambda event carries it: JSON, binary attributes in base64."""

    def value(attribute: dict[str, Any]) -> dict[str, Any]:
        (kind, inner), *_ = attribute.items()
        if kind == "B":
            return {"B": base64.b64encode(inner).decode()}
        if kind == "M":
            return {"M": {k: value(v) for k, v in inner.items()}}
        if kind == "L":
            return {"L": [value(v) for v in inner]}
        return {kind: inner}

    data = dict(record["dynamodb"])
    data["ApproximateCreationDateTime"] = int(data["ApproximateCreationDateTime"].timestamp())
    for image in ("Keys", "NewImage", "OldImage"):
        if image in data:
            data[image] = {k: value(v) for k, v in data[image].items()}
    shaped = {**record, "dynamodb": data, "eventSource": "aws:dynamodb", "awsRegion": "us-east-1"}
    return json.loads(json.dumps(shaped))


class Bus:
    """A stubbed EventBridge client that keeps every PutEvents request it was given."""

    def __init__(self) -> None:
        self.client = boto3.client(
            "events", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
        )
        self.calls: list[list[dict[str, Any]]] = []
        self.client.meta.events.register(
            "provide-client-params.events.PutEvents", lambda params, **_: self.calls.append(params["Entries"])
        )
        self.stubber = Stubber(self.client)

    def answer(self, count: int, failed: tuple[int, ...] = ()) -> None:
        entries = [
            {"ErrorCode": "ThrottlingException", "ErrorMessage": "slow down"}
            if i in failed
            else {"EventId": f"e{i}"}
            for i in range(count)
        ]
        self.stubber.add_response(
            "put_events", {"FailedEntryCount": len(failed), "Entries": entries}, {"Entries": ANY}
        )


def run_handler(
    records: list[dict[str, Any]],
    bus: Bus,
    engine: Engine,
    *,
    publishing: Any = None,
    index: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """The stream consumer on ``records``: the engine's index and table, ``bus`` for the events;
    ``publishing``: which tenants publish (by default every one: the stage's ``events.publish``
    on, read from the table as the stack reads it)."""
    handler = load_handler("stream")
    chooser = publishing or PublishingTenants(
        Settings(events=EventsSettings(publish=True)), engine.store.tenants.overrides_of
    )
    handler.use(
        index=index or engine.deps.index,
        vectors=engine.store.records.get_vectors,
        publisher=EventBridgePublisher(BUS, client=bus.client, backoff_s=0.0, **options).publish,
        publishing=chooser,
    )
    try:
        with bus.stubber:
            answer: dict[str, Any] = handler.handler({"Records": records}, None)
            bus.stubber.assert_no_pending_responses()
    finally:
        handler.use(index=None, vectors=None, publisher=None, publishing=None)
    return answer


def write_everything(engine: Engine) -> dict[str, str]:
    """A retain, a PATCH, a supersede, a forget, an expiry and a finished job; the ids involved."""
    now = engine.deps.clock.now()
    kept = engine.retain("acme", RetainRequest(scope=SCOPE, text="I prefer dark mode", mode="raw")).results[0]
    engine.patch("acme", kept.id, PatchRequest(tags=["ui"]))
    old = engine.store.records.get("acme", kept.id)
    assert old is not None
    new_id = memory_id("acme", SCOPE, "I prefer light mode")
    new = old.model_copy(
        update={"id": new_id, "content": "I prefer light mode", "supersedes": old.id, "version": 1}
    )
    replaced = old.model_copy(
        update={"status": "superseded", "superseded_by": new_id, "version": old.version + 1}
    )
    engine.store.records.write(
        "acme",
        WriteBatch(
            records=[replaced, new],
            vectors=[None, None],
            history=[
                HistoryEntry(
                    memory_id=old.id,
                    version=replaced.version,
                    event="superseded",
                    at=now,
                    content=old.content,
                ),
                HistoryEntry(memory_id=new_id, version=1, event="created", at=now, content=new.content),
            ],
        ),
    )
    doomed = engine.retain(
        "acme", RetainRequest(scope=SCOPE, text="My locker code is 4711", mode="raw")
    ).results[0]
    receipt = engine.forget("acme", ForgetRequest(ids=[doomed.id])).receipt_id
    expiring = engine.retain(
        "acme",
        RetainRequest(scope=SCOPE, text="Parked on level 3", mode="raw", expires_at=now + timedelta(hours=1)),
    ).results[0]
    engine.run_lifecycle("acme", now=now + timedelta(hours=2))
    job = Job(job_id="job_1", status="running", scope=SCOPE, created_at=now, updated_at=now)
    engine.store.jobs.put_job("acme", job)
    done = [RetainResult(id=new_id, action="created")]
    engine.store.jobs.put_job("acme", job.model_copy(update={"status": "succeeded", "results": done}))
    return {
        "kept": kept.id,
        "new": new_id,
        "doomed": doomed.id,
        "receipt": receipt or "",
        "expiring": expiring.id,
    }


def test_every_write_path_reaches_the_bus_as_its_events(engine: Engine, dynamodb_local: Any) -> None:
    # Given the stream of a retain, a PATCH, a supersede, a forget, an expiry and a job
    ids = write_everything(engine)
    records = [lambda_shaped(r) for r in stream_records(engine, dynamodb_local)]
    bus = Bus()

    # When the stream consumer handles the batch (each PutEvents call accepted)
    answer = run_with_exact_answers(records, bus, engine)

    # Then nothing is reported failed, and the bus got each change's events, in stream order
    assert answer == {"batchItemFailures": []}
    entries = [e for call in bus.calls for e in call]
    assert all(len(call) <= 10 for call in bus.calls)
    assert {(e["Source"], e["EventBusName"]) for e in entries} == {("engram", BUS)}
    details = [json.loads(e["Detail"]) for e in entries]
    assert [e["DetailType"] for e in entries] == [d["type"] for d in details]
    by_subject: dict[str, list[str]] = {}
    for detail in details:
        by_subject.setdefault(detail["subject"], []).append(detail["type"])
    assert by_subject == {
        ids["kept"]: ["memory.created", "memory.updated", "memory.superseded"],
        ids["new"]: ["memory.created"],
        ids["doomed"]: ["memory.created", "memory.deleted"],
        ids["expiring"]: ["memory.created", "memory.expired"],
        "job_1": ["job.succeeded"],
    }
    deleted = next(d for d in details if d["type"] == "memory.deleted")
    assert deleted["data"]["receipt_id"] == ids["receipt"]
    assert "4711" not in json.dumps(deleted)
    assert all(d["tenant_id"] == "acme" and d["version"] == 1 for d in details)


def test_a_merge_is_told_from_an_edit_when_its_history_entry_is_in_another_batch(
    engine: Engine, dynamodb_local: Any
) -> None:
    # Given a memory merged with a new text: its record, then its history entry after it
    kept = engine.retain("acme", RetainRequest(scope=SCOPE, text="I prefer dark mode", mode="raw")).results[0]
    old = engine.store.records.get("acme", kept.id)
    assert old is not None
    merged = old.model_copy(
        update={"content": "I prefer dark mode in every editor", "version": old.version + 1}
    )
    entry = HistoryEntry(
        memory_id=old.id,
        version=merged.version,
        event="merged",
        at=engine.deps.clock.now(),
        content=merged.content,
    )
    engine.store.records.write("acme", WriteBatch(records=[merged], vectors=[None], history=[entry]))

    # When the events are read from a batch holding the memory's records alone
    records = [lambda_shaped(r) for r in stream_records(engine, dynamodb_local)]
    alone = [r for r in records if r["dynamodb"]["Keys"]["sk"]["S"] == "MEM"]
    # Then the change is still a merge: the item carries its cause
    assert [e.type for _, found in stream_events(alone) for e in found] == ["memory.created", "memory.merged"]


def run_with_exact_answers(records: list[dict[str, Any]], bus: Bus, engine: Engine) -> dict[str, Any]:
    """Run the handler, answering each PutEvents call with success for exactly its entries."""
    from engram.adapters.dynamodb_events import stream_events
    from engram.adapters.eventbridge import _batches

    publisher = EventBridgePublisher(BUS, client=bus.client)
    events = [e for _, found in stream_events(records) for e in found]
    entries = [publisher._entry(e) for e in events]
    for batch in _batches(entries, list(range(len(entries)))):
        bus.answer(len(batch))
    return run_handler(records, bus, engine)


def test_entries_the_bus_refuses_are_retried_and_reported_if_they_keep_failing(
    engine: Engine, dynamodb_local: Any
) -> None:
    # Given a batch with three memories created
    for text in ("I live in Porto", "I work at the harbour", "I cycle to work"):
        engine.retain("acme", RetainRequest(scope=SCOPE, text=text, mode="raw"))
    records = [lambda_shaped(r) for r in stream_records(engine, dynamodb_local)]
    mem_records = [r for r in records if r["dynamodb"]["Keys"]["sk"]["S"] == "MEM"]

    # When the bus refuses the second entry, then accepts it when sent again
    bus = Bus()
    bus.answer(3, failed=(1,))
    bus.answer(1)
    answer = run_handler(records, bus, engine)
    # Then nothing is reported, and the refused entry alone was sent again
    assert answer == {"batchItemFailures": []}
    assert [len(c) for c in bus.calls] == [3, 1]
    assert bus.calls[1][0]["Detail"] == bus.calls[0][1]["Detail"]

    # When the bus keeps refusing that entry
    bus = Bus()
    bus.answer(3, failed=(1,))
    bus.answer(1, failed=(0,))
    answer = run_handler(records, bus, engine, attempts=2)
    # Then the record it came from is reported, so Lambda retries the batch from there
    second = mem_records[1]["dynamodb"]["SequenceNumber"]
    assert answer == {"batchItemFailures": [{"itemIdentifier": second}]}


def test_the_sample_stream_event_puts_its_created_memory_on_the_bus(engine: Engine) -> None:
    # Given the real-shaped sample batch (an insert with its history entry, and a removal), of
    # 1,024 dimensions (the stack's Titan vectors)
    sample = json.loads((Path(__file__).resolve().parents[2] / "events" / "stream.batch.json").read_text())
    bus = Bus()
    bus.answer(1)
    # When handled
    answer = run_handler(sample["Records"], bus, engine, index=InMemoryIndex(engine.store, dimension=1024))
    # Then one memory.created goes to the bus; the removal (no deletion log entry) implies nothing
    assert answer == {"batchItemFailures": []}
    [[entry]] = bus.calls
    detail = json.loads(entry["Detail"])
    assert (entry["DetailType"], detail["subject"], detail["data"]["memory"]["content"]) == (
        "memory.created",
        "mem_0000000000000000000000000000000a",
        "I prefer dark mode",
    )
    assert datetime.fromisoformat(detail["occurred_at"]) == datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def test_only_the_tenants_that_turn_events_on_put_them_on_the_bus(
    engine: Engine, dynamodb_local: Any
) -> None:
    # Given a stage that publishes no tenant's events by default, and a tenant that retained one
    engine.create_tenant("globex")
    engine.retain("acme", RetainRequest(scope=SCOPE, text="I live in Porto", mode="raw"))
    engine.retain("globex", RetainRequest(scope=SCOPE, text="I live in Lyon", mode="raw"))
    records = [lambda_shaped(r) for r in stream_records(engine, dynamodb_local)]
    now = [0.0]
    chooser = PublishingTenants(Settings(), engine.store.tenants.overrides_of, clock=lambda: now[0])

    # When the stream consumer handles the batch (no PutEvents answer is scripted: a call fails)
    answer = run_handler(records, Bus(), engine, publishing=chooser)
    # Then the batch is done, and nothing went to the bus
    assert answer == {"batchItemFailures": []}
    assert chooser.reads == 1

    # When an operator turns events on for acme, and the cached answer has expired
    engine.configure_tenant("acme", {"events": {"publish": True}})
    now[0] += 61.0
    bus = Bus()
    bus.answer(1)
    answer = run_handler(records, bus, engine, publishing=chooser)
    # Then acme's memory.created is put on the bus, and globex's is not
    assert answer == {"batchItemFailures": []}
    [[entry]] = bus.calls
    assert (entry["DetailType"], json.loads(entry["Detail"])["tenant_id"]) == ("memory.created", "acme")
    # And the two tenants' settings were read once more, in one read
    assert chooser.reads == 2


def test_a_tenants_setting_is_read_once_a_minute(engine: Engine) -> None:
    # Given a chooser over the table, and a tenant that publishes
    engine.configure_tenant("acme", {"events": {"publish": True}})
    now = [0.0]
    chooser = PublishingTenants(Settings(), engine.store.tenants.overrides_of, clock=lambda: now[0])
    assert chooser({"acme"}) == {"acme"}
    # When the tenant turns events off, within the minute and after it
    engine.configure_tenant("acme", {})
    within = chooser({"acme"})
    now[0] += 60.0
    after = chooser({"acme"})
    # Then the cached answer holds for the minute, and the next read sees the change
    assert (within, after, chooser.reads) == ({"acme"}, set(), 2)


def test_the_stage_setting_publishes_every_tenant_unless_the_tenant_turns_it_off(engine: Engine) -> None:
    # Given a stage that publishes every tenant's events, and a tenant that turned them off
    engine.create_tenant("globex")
    engine.configure_tenant("globex", {"events": {"publish": False}})
    chooser = PublishingTenants(
        Settings(events=EventsSettings(publish=True)), engine.store.tenants.overrides_of
    )
    # When asked for both, and for a tenant the table does not hold (erased)
    chosen = chooser({"acme", "globex", "gone"})
    # Then the tenant's own setting wins; the others take the stage's
    assert chosen == {"acme", "gone"}


def test_the_stream_reads_a_compressed_vector_item_as_its_float16_vector(
    engine: Engine, dynamodb_local: Any
) -> None:
    # Given a memory written with a 1,024-dimension unit vector (the stack's Titan vectors), whose
    # vector item is compressed (z16)
    vector = np.random.default_rng(11).standard_normal(1024).astype(np.float32)
    vector /= np.linalg.norm(vector)
    written = record("acme", "I prefer dark mode")
    engine.store.records.write(
        "acme", WriteBatch(records=[written], vectors=[vector], history=[created(written)])
    )
    records = [lambda_shaped(r) for r in stream_records(engine, dynamodb_local)]
    [vec] = [r for r in records if r["dynamodb"]["Keys"]["sk"]["S"] == "VEC"]
    assert "z16" in vec["dynamodb"]["NewImage"] and "e16" not in vec["dynamodb"]["NewImage"]
    half = vector.astype(np.float16).astype(np.float32)
    # When the consumer reads the batch with the vector item (base64, as Lambda hands it over)
    [change] = [c for c in memory_changes(records) if c is not None]
    # Then the memory's change carries the vector bit for bit at half precision
    assert change.memory_id == written.id and np.array_equal(change.vector, half)
    # And a batch holding the memory item alone reads it from the table, the same
    alone = [r for r in records if r["dynamodb"]["Keys"]["sk"]["S"] == "MEM"]
    [read] = [c for c in memory_changes(alone, vectors=engine.store.records.get_vectors) if c is not None]
    assert np.array_equal(read.vector, half)
