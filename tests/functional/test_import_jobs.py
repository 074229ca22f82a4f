"""An import larger than one call becomes a job; what cannot be stored or read is a clear 4xx.

Over real HTTP against ``engram serve`` (its job runner runs the jobs), and on the engine of each
backend for the deadline: an import that would outlast its call hands the rest to a job instead
of timing out with part of the file written.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from blob_support import MemoryBlobs
from conftest import BACKENDS, build_engine
from serve_support import Server, call, new_key, new_tenant, running_server

from engram import deadline, imports
from engram.adapters.local_embedder import shared_embedder
from engram.engine import Engine
from engram.models import ImportResponse, JobAccepted, RetainRequest
from engram.settings import Settings
from engram.tenants import tenancy

HEADER = json.dumps({"format": "engram.export.v1", "tenant_id": "elsewhere"})
NOW = "2026-01-05T10:00:00Z"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("import-jobs"), "--no-lifecycle") as running:
        yield running


def memory(i: int, *, scope: str = "global", **fields: Any) -> dict[str, Any]:
    text = f"Imported note {i}: the team meets on floor {i % 7} about project {i}"
    return {
        "id": f"mem_{i:032x}",
        "scope": scope,
        "content": text,
        "created_at": NOW,
        "updated_at": NOW,
        "content_hash": "x",
        **fields,
    }


def export_file(count: int, *, scope: str = "global", vectors: bool = True) -> str:
    """An export of ``count`` memories, with vectors of the bundled model (no embedding needed)."""
    embedder = shared_embedder()
    rng = np.random.default_rng(7)
    lines = [HEADER]
    for i in range(count):
        vector = rng.standard_normal(embedder.dimension).astype(np.float32)
        vector /= np.linalg.norm(vector)
        fields = {"embedding_model": embedder.model_id} if vectors else {}
        line = {
            "memory": memory(i, scope=scope, **fields),
            "history": [],
            "embedding": base64.b64encode(vector.tobytes()).decode() if vectors else None,
        }
        lines.append(json.dumps(line))
    return "\n".join(lines) + "\n"


def wait_job(server: Server, key: str, job_id: str) -> dict[str, Any]:
    for _ in range(600):
        job = call(server, "GET", f"/v1/jobs/{job_id}", key=key).body
        if job["status"] in ("succeeded", "failed"):
            return dict(job)
        time.sleep(0.1)
    raise AssertionError("the import job did not end")


def test_an_import_over_the_inline_limit_is_a_job_that_imports_everything(server: Server) -> None:
    # Given a tenant and an export of more memories than one call writes
    tenant = new_tenant(server)
    key = new_key(server, tenant)
    body = export_file(imports.INLINE_MAX + 1).encode()
    # When it is posted
    accepted = call(server, "POST", "/v1/import", raw=body, key=key)
    # Then the answer is 202 with a job, which imports every memory
    assert accepted.status == 202, accepted.body
    assert accepted.body["status"] == "queued" and accepted.body["job_id"].startswith("job_")
    job = wait_job(server, key, accepted.body["job_id"])
    assert job["kind"] == "import" and job["status"] == "succeeded", job
    total = imports.INLINE_MAX + 1
    assert job["progress"] == {"total": total, "done": total, "imported": total, "skipped": 0}
    assert call(server, "GET", "/v1/stats", key=key).body["total"] == total
    # And the same file again is a job that skips every memory
    again = wait_job(server, key, call(server, "POST", "/v1/import", raw=body, key=key).body["job_id"])
    assert again["progress"] == {"total": total, "done": total, "imported": 0, "skipped": total}


def test_a_scoped_keys_import_job_is_seen_by_its_scopes_only(server: Server) -> None:
    # Given an import job made by a key limited to alice's scope
    tenant = new_tenant(server)
    alice = new_key(server, tenant, scopes=["user:alice"])
    bob = new_key(server, tenant, scopes=["user:bob"])
    body = export_file(imports.INLINE_MAX + 1, scope="user:alice", vectors=False).encode()
    accepted = call(server, "POST", "/v1/import", raw=body, key=alice)
    assert accepted.status == 202, accepted.body
    job = wait_job(server, alice, accepted.body["job_id"])
    # When bob's key and the full key ask for it
    seen_by_bob = call(server, "GET", f"/v1/jobs/{job['job_id']}", key=bob)
    seen_by_full = call(server, "GET", f"/v1/jobs/{job['job_id']}", key=new_key(server, tenant))
    # Then alice's key saw it succeed, the full key sees it, bob's key is told it does not exist
    assert job["status"] == "succeeded" and job["scopes"] == ["user:alice"]
    assert seen_by_full.status == 200 and seen_by_bob.status == 404


def test_a_memory_too_large_to_store_is_a_413_naming_the_line_and_field(server: Server) -> None:
    # Given an export whose second memory carries 400 KB of metadata (over DynamoDB's item limit)
    key = new_key(server, new_tenant(server))
    big = {"memory": memory(2, metadata={"notes": "x" * 400_000}), "history": [], "embedding": None}
    small = {"memory": memory(1), "history": [], "embedding": None}
    body = "\n".join([HEADER, json.dumps(small), json.dumps(big)]).encode()
    # When it is imported
    reply = call(server, "POST", "/v1/import", raw=body, key=key)
    # Then it is a 413 naming line 3 and memory.metadata, and nothing was written
    assert reply.status == 413, reply.body
    error = reply.body["error"]
    assert error["code"] == "payload_too_large"
    assert error["message"].startswith("line 3: memory.metadata ")
    assert error["details"][0]["field"] == "memory.metadata"
    assert call(server, "GET", "/v1/stats", key=key).body["total"] == 0


@pytest.mark.parametrize(
    ("change", "wanted"),
    [
        ({"created_at": "yesterday"}, "line 2: memory.created_at: should be a valid datetime"),
        ({"scope": None}, "line 2: memory.scope: should be a valid string"),
        ({"colour": "red"}, "line 2: memory.colour: is not a field of an export"),
        ({"id": "../../etc"}, "line 2: memory.id should be mem_ and 32 hexadecimal digits"),
    ],
)
def test_an_invalid_line_is_told_in_words_naming_line_and_field(
    server: Server, change: dict[str, Any], wanted: str
) -> None:
    # Given an export line with one wrong field
    key = new_key(server, new_tenant(server))
    line = {"memory": {**memory(1), **change}, "history": [], "embedding": None}
    # When it is imported
    reply = call(server, "POST", "/v1/import", raw=f"{HEADER}\n{json.dumps(line)}\n".encode(), key=key)
    # Then the message names the line and the field in words, without pydantic's own report
    message = reply.body["error"]["message"]
    assert reply.status == 400 and message.startswith(wanted), message
    assert "pydantic" not in message and "validation error for" not in message and "type=" not in message


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_import_that_reaches_its_deadline_hands_the_rest_to_a_job(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    # Given an engine and an export of 400 memories to embed (a batch of 50 takes well over 0.1 s)
    engine = build_engine(backend, tmp_path, request)
    if backend == "dynamodb":  # as in the stack, large job bodies wait in object storage
        store: Any = engine.store
        store.jobs.blobs = MemoryBlobs()
    engine.create_tenant("acme")
    context = engine.deps.call(tenancy.of_tenant, "acme")
    text = export_file(400, vectors=False)
    # When it is imported with little time left in the call (enough for one batch, not for two)
    with deadline.within(imports.service.MIN_LEFT_S + 0.2):
        answer = engine.deps.call(imports.import_text, context, text)
    # Then the answer is a job, which holds how far the call got (one batch, written whole)
    assert isinstance(answer, JobAccepted)
    job = engine.deps.store.jobs.get_job("acme", answer.job_id)
    assert job is not None and job.progress is not None
    first = imports.service.INLINE_BATCH
    assert (job.progress.done, job.progress.imported) == (first, first)
    assert engine.stats("acme").total == first
    # And the job, run, imports the rest: every memory once
    done = engine.deps.call(imports.run_job, "acme", answer.job_id)
    assert done is not None and done.status == "succeeded" and done.progress is not None
    assert (done.progress.done, done.progress.imported, done.progress.skipped) == (400, 400, 0)
    assert engine.stats("acme").total == 400
    # And a small import within the same time is answered inline
    with deadline.within(imports.service.MIN_LEFT_S + 0.5):
        small = engine.deps.call(imports.import_text, context, export_file(3))
    assert small == ImportResponse(imported=0, skipped=3)
    engine.close()
    if backend == "dynamodb":
        store.records.client.delete_table(TableName=store.records.table)


def test_the_embedded_server_keeps_no_uploads_and_says_where_to_post(server: Server) -> None:
    # Given the embedded server (no object storage)
    key = new_key(server, new_tenant(server))
    # When a key asks for an upload URL, or to start an upload
    asked = call(server, "POST", "/v1/import/upload", key=key)
    started = call(server, "POST", "/v1/import?upload=job_" + "0" * 32, key=key)
    # Then both are a 404 saying to post the file itself
    for reply in (asked, started):
        assert reply.status == 404 and "POST the JSONL to /v1/import" in reply.body["error"]["message"]


def test_a_long_import_job_lets_the_jobs_queued_behind_it_run(tmp_path: Path) -> None:
    # Given a local engine whose job runner runs, and an import job of 1,200 texts to embed
    engine = Engine.local(Settings(data_dir=tmp_path, background_embedding=False))
    engine.create_tenant("acme")
    engine.create_tenant("globex")
    engine.resume_jobs()
    context = engine.deps.call(tenancy.of_tenant, "acme")
    started = engine.deps.call(imports.import_text, context, export_file(1200, vectors=False))
    assert isinstance(started, JobAccepted)
    # When another tenant's asynchronous retain is queued behind it
    body = {"scope": "user:bob", "text": "Bob prefers window seats", "mode": "raw", "async": True}
    retain = engine.submit_retain("globex", RetainRequest.model_validate(body))
    # Then the retain ends while the import is still under way (the import yields between slices)
    for _ in range(600):
        job = engine.deps.store.jobs.get_job("globex", retain.job_id)
        if job is not None and job.status == "succeeded":
            break
        time.sleep(0.05)
    imported = engine.deps.store.jobs.get_job("acme", started.job_id)
    assert job is not None and job.status == "succeeded"
    assert imported is not None and imported.status in ("queued", "running"), imported
    # And the import still ends with every memory written once
    for _ in range(1200):
        imported = engine.deps.store.jobs.get_job("acme", started.job_id)
        if imported is not None and imported.status == "succeeded":
            break
        time.sleep(0.05)
    assert imported is not None and imported.progress is not None
    assert (imported.status, imported.progress.imported, imported.progress.skipped) == ("succeeded", 1200, 0)
    engine.close()
