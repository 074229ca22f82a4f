"""Imports in the cloud's shape: on DynamoDB Local with a step queue and object storage.

A file too large for a request is uploaded to a presigned URL and imported by the step worker in
steps that each stop before their time runs out and resume from the job's progress; a posted body
too large for one call waits in object storage as the job's body. The queue and the bucket are
the in-memory fakes of their ports; the presigned URL itself is tried against moto's S3 server
over real HTTP.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from blob_support import MemoryBlobs

from engram import imports
from engram.adapters.s3_blobs import S3Blobs
from engram.engine import Engine
from engram.errors import NotFoundError, ProviderError
from engram.models import JobAccepted
from engram.settings import AwsSettings, Settings
from engram.tenants import steps, tenancy, work

HEADER = json.dumps({"format": "engram.export.v1", "tenant_id": "elsewhere"})


class StepQueue:
    """The ``StepQueue`` port, kept in a list; ``drain`` runs it as the step worker would."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, step: dict[str, Any]) -> None:
        self.sent.append(step)

    def drain(self, engine: Engine, should_stop: Callable[[], bool], budget: int = 50) -> int:
        runs = 0
        while self.sent and runs < budget:
            step = steps.Step.model_validate(self.sent.pop(0))
            for following in work.run(step, call=engine.deps.call, should_stop=should_stop):
                self.send(following.message())
            runs += 1
        return runs


def after_one_batch() -> Callable[[], bool]:
    """A step's clock that runs out after each step's first batch."""
    calls = [0]

    def should_stop() -> bool:
        calls[0] += 1
        return calls[0] % 2 == 0

    return should_stop


@pytest.fixture
def cloud(dynamodb_local: Any, tmp_path: Path) -> Iterator[tuple[Engine, StepQueue, MemoryBlobs]]:
    client = dynamodb_local.client()
    table = dynamodb_local.new_table(client)
    settings = Settings(
        backend="aws",
        data_dir=tmp_path,
        aws=AwsSettings(table=table, index="memory", key_pepper="p-" + table),
    )
    engine = Engine.aws(settings, dynamodb=client)
    queue, blobs = StepQueue(), MemoryBlobs()
    store: Any = engine.store
    store.jobs.blobs = blobs
    engine = engine.with_ports(steps=queue, blobs=blobs)
    engine.create_tenant("acme")
    yield engine, queue, blobs
    engine.close()
    client.delete_table(TableName=table)


def export_file(count: int) -> str:
    lines = [HEADER]
    for i in range(count):
        text = f"Uploaded note {i} about the quarterly plan"
        memory = {"id": f"mem_{i:032x}", "scope": "user:alice", "content": text, "content_hash": "x"}
        memory |= {"created_at": "2026-01-05T10:00:00Z", "updated_at": "2026-01-05T10:00:00Z"}
        lines.append(json.dumps({"memory": memory, "history": [], "embedding": None}))
    return "\n".join(lines) + "\n"


def test_an_uploaded_file_is_imported_by_steps_that_resume(
    cloud: tuple[Engine, StepQueue, MemoryBlobs],
) -> None:
    engine, queue, blobs = cloud
    context = engine.deps.call(tenancy.of_tenant, "acme")
    # Given an upload URL, and the file PUT there (under the tenant's prefix)
    upload = engine.deps.call(imports.new_upload, context)
    key = f"tenants/acme/imports/{upload.job_id}.jsonl"
    assert key in upload.upload_url and upload.method == "PUT"
    blobs.put(key, export_file(450).encode())
    # When the import of the upload is started (twice: a retried call)
    accepted = engine.deps.call(imports.start_upload, context, upload.job_id)
    again = engine.deps.call(imports.start_upload, context, upload.job_id)
    # Then one job waits, as one step on the step queue
    assert accepted == again == JobAccepted(job_id=upload.job_id)
    assert queue.sent == [{"kind": "import", "tenant_id": "acme", "job_id": upload.job_id}]
    # And a step that runs out of time after one batch leaves the job running with its progress
    queue.drain(engine, after_one_batch(), budget=1)
    job = engine.deps.store.jobs.get_job("acme", upload.job_id)
    assert job is not None and job.status == "running" and job.progress is not None
    assert (job.progress.done, job.progress.total) == (200, 450) and len(queue.sent) == 1
    # And the steps that carry on finish it: every memory once, and the upload is removed
    assert queue.drain(engine, after_one_batch()) == 2
    job = engine.deps.store.jobs.get_job("acme", upload.job_id)
    assert job is not None and job.status == "succeeded" and job.progress is not None
    assert (job.progress.imported, job.progress.skipped) == (450, 0)
    assert engine.stats("acme").total == 450 and key not in blobs.objects


class Killed(BaseException):
    """The step's process ends between two batches (a timeout, an out-of-memory kill)."""


def test_a_step_killed_between_batches_resumes_from_the_last_batch_it_wrote(
    cloud: tuple[Engine, StepQueue, MemoryBlobs],
) -> None:
    engine, queue, _ = cloud
    context = engine.deps.call(tenancy.of_tenant, "acme")
    accepted = engine.deps.call(imports.import_text, context, export_file(imports.INLINE_MAX + 50))
    assert isinstance(accepted, JobAccepted)
    calls = [0]

    def killed_after_two_batches() -> bool:
        calls[0] += 1
        if calls[0] == 3:
            raise Killed
        return False

    # When the step's process is killed after writing two batches (its message comes back)
    message = queue.sent[0]
    with pytest.raises(Killed):
        queue.drain(engine, killed_after_two_batches)
    job = engine.deps.store.jobs.get_job("acme", accepted.job_id)
    assert job is not None and job.status == "running" and job.progress is not None
    assert job.progress.done == 400
    # Then the redelivered step carries on from there: every memory imported once, none counted twice
    queue.send(message)
    queue.drain(engine, lambda: False)
    job = engine.deps.store.jobs.get_job("acme", accepted.job_id)
    assert job is not None and job.status == "succeeded" and job.progress is not None
    assert (job.progress.imported, job.progress.skipped) == (imports.INLINE_MAX + 50, 0)


def test_an_upload_never_put_is_not_found(cloud: tuple[Engine, StepQueue, MemoryBlobs]) -> None:
    engine, queue, _ = cloud
    context = engine.deps.call(tenancy.of_tenant, "acme")
    upload = engine.deps.call(imports.new_upload, context)
    with pytest.raises(NotFoundError, match="PUT the file"):
        engine.deps.call(imports.start_upload, context, upload.job_id)
    assert queue.sent == []


def test_a_posted_body_over_the_inline_limit_waits_in_object_storage(
    cloud: tuple[Engine, StepQueue, MemoryBlobs],
) -> None:
    engine, queue, blobs = cloud
    context = engine.deps.call(tenancy.of_tenant, "acme")
    # When a body of more memories than one call writes is posted
    answer = engine.deps.call(imports.import_text, context, export_file(imports.INLINE_MAX + 1))
    # Then it is a job whose body waits in object storage, run by the step worker
    assert isinstance(answer, JobAccepted)
    assert list(blobs.objects) == [f"tenants/acme/imports/{answer.job_id}.jsonl"]
    queue.drain(engine, lambda: False)
    job = engine.deps.store.jobs.get_job("acme", answer.job_id)
    assert job is not None and job.status == "succeeded" and job.progress is not None
    assert job.progress.imported == imports.INLINE_MAX + 1 and blobs.objects == {}


@pytest.fixture
def s3() -> Iterator[Any]:
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    client = boto3.client(
        "s3",
        endpoint_url=f"http://{host}:{port}",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    client.create_bucket(Bucket="engram-imports")
    yield client
    server.stop()


def test_a_presigned_upload_url_takes_a_put_without_credentials(s3: Any) -> None:
    # Given S3 behind the blob store
    blobs = S3Blobs("engram-imports", client=s3)
    key = "tenants/acme/imports/job_0.jsonl"
    assert blobs.size(key) is None
    # When the file is PUT to the presigned URL by a client holding no credentials
    body = export_file(3).encode()
    request = urllib.request.Request(
        blobs.presigned_put(key, 60),
        data=body,
        method="PUT",
        headers={"Content-Type": "application/x-ndjson"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    # Then the object is there, whole
    assert blobs.size(key) == len(body) and blobs.get(key) == body


class RefusingQueue:
    """A step queue that is down."""

    def send(self, step: dict[str, Any]) -> None:
        raise ConnectionError("the queue is unreachable")


def test_an_import_job_the_step_queue_refuses_is_a_provider_error_saying_what_is_written(
    cloud: tuple[Engine, StepQueue, MemoryBlobs],
) -> None:
    engine, _, _ = cloud
    engine = engine.with_ports(steps=RefusingQueue())
    context = engine.deps.call(tenancy.of_tenant, "acme")
    # When a file too large for one call is posted while the step queue is down
    with pytest.raises(ProviderError, match="did not accept the import; 0 memories of the file are written"):
        engine.deps.call(imports.import_text, context, export_file(imports.INLINE_MAX + 1))
    # Then nothing was written
    assert engine.stats("acme").total == 0
