"""The AWS engine on DynamoDB Local with a step queue and object storage: large job bodies, an
erasure in steps, the lifecycle of every tenant one step per tenant, and exports by link.

The queue and the bucket are small in-memory fakes of their ports (what the engine sends to them is
asserted); the Lambda-layout test runs the same paths against S3 and SQS stand-ins.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from blob_support import MemoryBlobs

from engram.engine import Engine
from engram.errors import NotFoundError, PayloadTooLargeError
from engram.models import RetainRequest
from engram.settings import AwsSettings, Settings
from engram.tenants import steps, work


class Queue:
    """The ``StepQueue`` port, kept in a list."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, step: dict[str, Any]) -> None:
        self.sent.append(step)

    def drain(self, engine: Engine, *, budget: int = 1_000) -> int:
        """Run every queued step (and what they queue) as the step worker would; returns how many."""
        done = 0
        while self.sent and done < budget:
            step = steps.Step.model_validate(self.sent.pop(0))
            for following in work.run(step, call=engine.deps.call, should_stop=lambda: False):
                self.send(following.message())
            done += 1
        return done


@pytest.fixture
def cloud(dynamodb_local: Any, tmp_path: Path) -> Iterator[tuple[Engine, Queue, MemoryBlobs]]:
    client = dynamodb_local.client()
    table = dynamodb_local.new_table(client)
    settings = Settings(
        backend="aws",
        data_dir=tmp_path,
        aws=AwsSettings(table=table, index="memory", key_pepper="pepper-" + table),
    )
    engine = Engine.aws(settings, dynamodb=client)
    queue, blobs = Queue(), MemoryBlobs()
    store: Any = engine.store
    store.jobs.blobs = blobs
    engine = engine.with_ports(steps=queue, blobs=blobs)
    engine.create_tenant("acme")
    engine.create_tenant("globex")
    yield engine, queue, blobs
    engine.close()
    client.delete_table(TableName=table)


def test_an_async_retain_body_over_400_kb_waits_in_object_storage_and_runs(
    cloud: tuple[Engine, Queue, MemoryBlobs],
) -> None:
    engine, _, blobs = cloud
    # Given a 465,549-byte conversation (DynamoDB refuses items over 400 KB)
    turn = "I moved to Lisbon last spring and I prefer dark mode in every editor. "
    messages = [{"role": "user", "content": turn * 60} for _ in range(108)]
    request = RetainRequest.model_validate({"scope": "user:alice", "messages": messages, "async": True})
    assert len(json.dumps(request.model_dump(mode="json", by_alias=True))) > 400_000
    # When it is accepted as a job
    accepted = engine.submit_retain("acme", request)
    # Then the body is in object storage under the tenant, and the job reads it back to run
    [key] = blobs.objects
    assert key == f"tenants/acme/jobs/{accepted.job_id}.json"
    job = engine.run_job("acme", accepted.job_id)
    assert job is not None and job.status == "succeeded"
    # And once it has run, the body is gone
    assert blobs.objects == {}


def test_without_object_storage_an_oversized_job_is_a_clear_413(
    cloud: tuple[Engine, Queue, MemoryBlobs],
) -> None:
    engine, _, _ = cloud
    store: Any = engine.store
    store.jobs.blobs = None
    messages = [{"role": "user", "content": "x" * 9_000} for _ in range(50)]
    request = RetainRequest.model_validate({"scope": "user:alice", "messages": messages, "async": True})
    with pytest.raises(PayloadTooLargeError, match="KB"):
        engine.submit_retain("acme", request)


def test_an_erasure_answers_at_once_and_finishes_in_steps(cloud: tuple[Engine, Queue, MemoryBlobs]) -> None:
    engine, queue, blobs = cloud
    # Given a tenant with memories, a key and an object
    items = [{"text": f"acme fact number {i}"} for i in range(30)]
    engine.retain("acme", RetainRequest(scope="user:alice", items=items, mode="raw"))
    assert engine.deps.keys is not None
    key, _ = engine.deps.keys.create("acme")
    blobs.put("tenants/acme/exports/old.jsonl", b"{}")
    # When it is erased
    assert engine.erase_tenant("acme") is None
    # Then its key stops working and it answers nothing, while the erasure is queued
    with pytest.raises(Exception, match="invalid"):
        engine.deps.keys.verify(key)
    with pytest.raises(NotFoundError):
        engine.stats("acme")
    assert queue.sent == [{"kind": "erase", "tenant_id": "acme"}]
    # And a step that runs out of time leaves it erasing, to be carried on
    step = steps.Step.model_validate(queue.sent.pop())
    stops = iter([False, False, True])
    assert work.run(step, call=engine.deps.call, should_stop=lambda: next(stops, True)) == [step]
    assert engine.store.tenants.get_tenant("acme") is not None
    # And the next steps finish it: store, index and objects; the other tenant is untouched
    queue.send(step.message())
    assert queue.drain(engine) >= 1
    assert engine.store.tenants.get_tenant("acme") is None and blobs.objects == {}
    with pytest.raises(NotFoundError):
        engine.erase_tenant("acme")
    assert engine.stats("globex").total == 0


def test_the_lifecycle_of_every_tenant_is_one_step_per_tenant_resumed_until_complete(
    cloud: tuple[Engine, Queue, MemoryBlobs],
) -> None:
    engine, queue, _ = cloud
    for tenant in ("acme", "globex"):
        items = [{"text": f"{tenant} fact number {i}"} for i in range(5)]
        engine.retain(tenant, RetainRequest(scope="user:alice", items=items, mode="raw"))
    now = datetime(2026, 6, 1, tzinfo=UTC)
    # When the schedule fans out and time runs out after the first tenant
    budget = iter([False, True])
    left = engine.deps.call(
        steps.fan_out,
        steps.Step(kind="lifecycle_all", rules="decay", time=now),
        should_stop=lambda: next(budget),
    )
    # Then acme is queued and the fan-out continues after it
    assert [s["tenant_id"] for s in queue.sent] == ["acme"]
    assert [s.message() for s in left] == [
        {"kind": "lifecycle_all", "rules": "decay", "time": "2026-06-01T00:00:00Z", "after": "acme"}
    ]
    queue.send(left[0].message())
    # And a tenant's run that stops early is queued again until its report is complete
    acme = steps.Step.model_validate(queue.sent.pop(0))
    engine = engine.with_ports(settings=engine.settings.for_tenant({"lifecycle": {"job_page_size": 2}}))
    assert work.run(acme, call=engine.deps.call, should_stop=lambda: True) == [acme]
    queue.send(acme.message())
    queue.drain(engine)
    for tenant in ("acme", "globex"):
        [report] = engine.store.reports.lifecycle_reports(tenant, 1)
        assert report.status == "completed" and report.scanned == 5


def test_an_export_with_object_storage_is_a_link_to_the_whole_file(
    cloud: tuple[Engine, Queue, MemoryBlobs],
) -> None:
    engine, _, blobs = cloud
    engine.retain(
        "acme", RetainRequest(scope="user:alice", items=[{"text": "I prefer dark mode"}], mode="raw")
    )
    link = engine.export_link("acme")
    assert link is not None and link.memories == 1
    [key] = blobs.objects
    assert key.startswith("tenants/acme/exports/") and link.url.endswith("X-Amz-Expires=900")
    lines = blobs.objects[key].decode().splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["memory"]["content"] == "I prefer dark mode"
    assert link.bytes == len(blobs.objects[key])
