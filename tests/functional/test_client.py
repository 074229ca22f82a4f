"""The Python SDK (``engram.client``) against a real ``engram serve``, and its retries against a
real HTTP server that answers as scripted (429, 503, 500, 400 — what ``engram serve`` cannot be
made to answer on cue)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from serve_support import Server, new_key, new_tenant, running_server

from engram.client import (
    AsyncEngram,
    BadRequest,
    ConnectionFailed,
    Engram,
    Forbidden,
    NotFound,
    RateLimited,
    RetryPolicy,
    ServerError,
    Unauthorized,
    Unprocessable,
)
from engram.errors import NotFoundError, UnprocessableError, ValidationFailedError
from engram.models import MemoryView, RecallResponse


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("client"), "--quiet") as running:
        yield running


@pytest.fixture
def memory(server: Server) -> Iterator[Engram]:
    with Engram(server.url, new_key(server, new_tenant(server))) as client:
        yield client


def test_retain_recall_feedback_and_forget_are_typed_with_the_apis_models(memory: Engram) -> None:
    # Given a client with a tenant's key
    # When a preference is retained and then recalled in other words
    kept = memory.retain("user:alice", "I prefer dark mode", mode="raw", tags=["ui"])
    found = memory.recall("what theme do I like?", scope="user:alice", context=True)
    # Then the answers are the API's models, the context block included
    assert isinstance(found, RecallResponse) and found.memories[0].id == kept.results[0].id
    assert found.context and "I prefer dark mode" in found.context
    # And feedback and forget work on it by id
    assert memory.feedback(kept.results[0].id, "used").feedback_weight == 0.65
    dry = memory.forget(ids=[kept.results[0].id], dry_run=True)
    assert (dry.deleted, dry.would_delete) == ([], [kept.results[0].id])
    assert memory.forget(ids=[kept.results[0].id]).deleted == [kept.results[0].id]
    with pytest.raises(NotFound) as gone:
        memory.get(kept.results[0].id)
    assert gone.value.status == 404 and gone.value.code == "not_found"
    assert isinstance(gone.value, NotFoundError)


def test_every_memory_route_answers_through_the_client(memory: Engram) -> None:
    # Given a memory
    memory_id = memory.retain("user:alice", "My cat is called Miso", mode="raw").results[0].id
    # When each route is called
    patched = memory.update(memory_id, tags=["pets"], pinned=True)
    got = memory.get(memory_id, history=True)
    stats = memory.stats()
    exported = memory.export()
    # Then each answer is read into its model
    assert isinstance(patched, MemoryView) and patched.pinned and patched.tags == ["pets"]
    assert got.history is not None and [h.version for h in got.history] == [1, 2]
    assert stats.total == 1 and stats.usage["retain_calls"] == 1 and stats.last_lifecycle_run is None
    assert exported.count("\n") == 2 and memory_id in exported
    assert memory.restore(memory_id).tier == "peripheral"  # not archived: returned unchanged
    assert memory.delete(memory_id).deleted == [memory_id]
    assert memory.health().status == "ok" and "/v1/recall" in memory.openapi()["paths"]


def test_iter_memories_walks_every_page(memory: Engram) -> None:
    # Given 12 memories
    items = [{"text": f"note number {i} about the garden"} for i in range(12)]
    memory.retain("project:garden", items=items, mode="raw")
    # When they are iterated 5 at a time
    seen = [m.content for m in memory.iter_memories(scope="project:garden", limit=5)]
    # Then all 12 come back once, in order
    assert seen == [f"note number {i} about the garden" for i in range(12)]


def test_a_retain_submitted_as_a_job_is_followed_to_its_results(memory: Engram) -> None:
    # Given a retain sent as a job
    accepted = memory.submit_retain("user:alice", "I live in Lisbon", mode="raw")
    # When the job is waited for
    job = memory.wait_for_job(accepted.job_id)
    # Then it succeeded with the stored memory
    assert job.status == "succeeded" and job.results and job.results[0].action == "created"


def test_the_servers_errors_are_typed_exceptions_with_code_and_details(
    server: Server, memory: Engram
) -> None:
    # Given a read-only key and a bad key
    tenant = new_tenant(server)
    reader = Engram(server.url, new_key(server, tenant, read_only=True))
    # When a read-only key writes
    with reader, pytest.raises(Forbidden) as denied:
        reader.retain("user:alice", "I prefer tea", mode="raw")
    with Engram(server.url, "egk_nope") as stranger, pytest.raises(Unauthorized):
        stranger.stats()
    # Then the envelope's code comes with the exception
    assert denied.value.code == "forbidden" and denied.value.status == 403
    # And a field the request model does not know is refused before any request, with details
    with pytest.raises(ValidationFailedError) as local:
        memory.recall("tea", limit=0)
    assert local.value.details[0]["field"] == "limit"


def test_the_operator_routes_create_a_tenant_and_a_key_that_works(server: Server) -> None:
    # Given the operator token
    with Engram(server.url, server.operator_token) as operator:
        # When a tenant, its settings and a key are made
        operator.create_tenant("sdk-acme")
        configured = operator.configure_tenant("sdk-acme", {"recall": {"min_score": 0.3}})
        created = operator.create_key("sdk-acme", scopes=["user:alice"])
        reader = operator.create_key("sdk-acme", read_only=True, expires_in_days=1)
        # Then the key works, and a wrong settings body is a typed 422
        with Engram(server.url, created.api_key) as memory:
            assert memory.retain("user:alice", "I prefer tea", mode="raw").results[0].action == "created"
        # And the second key has the limits it was made with
        assert (created.read_only, created.expires_at, created.scopes) == (False, None, ["user:alice"])
        assert reader.read_only and reader.expires_at is not None and reader.scopes == []
        with Engram(server.url, reader.api_key) as memory, pytest.raises(Forbidden):
            memory.retain("user:alice", "I prefer coffee", mode="raw")
        with pytest.raises(UnprocessableError):  # checked before sending, as the server would
            operator.configure_tenant("sdk-acme", {"recall": {"min_scor": 0.3}})
        assert configured.effective["recall"]["min_score"] == 0.3
        assert operator.revoke_key(created.key_id).revoked
        assert operator.erase_tenant("sdk-acme").status == "erased"


def test_the_async_client_does_the_same_calls(server: Server) -> None:
    # Given an async client
    key = new_key(server, new_tenant(server))

    async def scenario() -> tuple[str, list[str], int]:
        async with AsyncEngram(server.url, key) as memory:
            kept = await memory.retain("user:alice", "I prefer dark mode", mode="raw")
            await memory.retain(
                "user:alice", items=[{"text": f"fact {i} about tea"} for i in range(7)], mode="raw"
            )
            found = await memory.recall("what theme do I like?", scope="user:alice")
            listed = [m.id async for m in memory.iter_memories(limit=3)]
            try:
                await memory.feedback("mem_" + "0" * 32, "used")
            except NotFound as exc:
                return found.memories[0].id, listed, exc.status
            return kept.results[0].id, listed, 0

    # When it retains, recalls, pages and meets a 404
    first, listed, status = asyncio.run(scenario())
    # Then it behaves as the blocking client
    assert len(listed) == 8 and first in listed and status == 404


# -- retries, against a scripted HTTP server ---------------------------------------------------


class Scripted(ThreadingHTTPServer):
    """Answers each request with the next (status, headers, body) of its script; records requests."""

    def __init__(self, script: list[tuple[int, dict[str, str], Any]]) -> None:
        super().__init__(("127.0.0.1", 0), _ScriptedHandler)
        self.script = list(script)
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _ScriptedHandler(BaseHTTPRequestHandler):
    server: Scripted

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.seen.append({"path": self.path, "headers": dict(self.headers), "body": body})
        status, headers, payload = self.server.script.pop(0)
        if status == HANG_UP[0]:
            self.close_connection = True
            return
        data = json.dumps(payload).encode()
        self.send_response(status)
        for name, value in {"Content-Type": "application/json", **headers}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: Any) -> None:
        pass


RETAINED = {"results": [{"id": "mem_" + "a" * 32, "action": "created", "memory": None, "reason": None}]}
BUSY = {"error": {"code": "quota_exceeded", "message": "slow down"}}
HANG_UP: tuple[int, dict[str, str], Any] = (0, {}, None)
"""A script's step that closes the connection without answering."""


def test_a_429_is_retried_after_retry_after_with_the_same_idempotency_key() -> None:
    # Given a server that answers 429 (Retry-After: 0), then 503, then the retain's answer
    scripted = Scripted(
        [(429, {"Retry-After": "0"}, BUSY), (503, {"Retry-After": "0"}, BUSY), (200, {}, RETAINED)]
    )
    # When a retain is sent
    with Engram(scripted.url, "egk_k") as memory:
        answer = memory.retain("user:alice", "I prefer dark mode")
    scripted.shutdown()
    # Then it was sent three times with one Idempotency-Key, and the third answer is returned
    keys = {seen["headers"]["Idempotency-Key"] for seen in scripted.seen}
    assert len(scripted.seen) == 3 and len(keys) == 1 and keys.pop().startswith("sdk-")
    assert answer.results[0].action == "created"


def test_a_retry_waits_the_seconds_retry_after_names() -> None:
    # Given a server that answers 503 with Retry-After: 1, then the answer
    scripted = Scripted([(503, {"Retry-After": "1"}, BUSY), (200, {}, RETAINED)])
    # When a retain is sent
    began = time.monotonic()
    with Engram(scripted.url, "egk_k") as memory:
        memory.retain("user:alice", "I prefer dark mode")
    waited = time.monotonic() - began
    scripted.shutdown()
    # Then the second attempt came after the second the server asked for
    assert len(scripted.seen) == 2 and waited >= 0.95


def test_without_retry_after_the_backoff_is_jittered_and_doubles_up_to_its_cap() -> None:
    # Given the default policy
    policy = RetryPolicy(max_retries=10, base_s=0.5, cap_s=8.0)
    # When the delays after a 503 are drawn many times per attempt
    drawn = {n: [policy.delay(n, 503, {}, retry_unsafe=False) for _ in range(200)] for n in (0, 1, 2, 6)}
    # Then each lies within 0 and min(cap, base * 2^n), spread out rather than fixed
    for attempt, delays in drawn.items():
        bound = min(8.0, 0.5 * 2**attempt)
        assert all(d is not None and 0 <= d <= bound for d in delays)
        assert max(d for d in delays if d is not None) > bound / 2 and len(set(delays)) > 100
    # And a lost connection is retried, a 404 is not
    assert policy.delay(0, None, {}, retry_unsafe=False) is not None
    assert policy.delay(0, 404, {}, retry_unsafe=False) is None


def test_a_given_idempotency_key_is_the_header_and_the_other_keywords_the_body() -> None:
    # Given a server that answers one retain and one submitted retain
    scripted = Scripted([(200, {}, RETAINED), (202, {}, {"job_id": "job_1", "status": "queued"})])
    turns = [{"role": "user", "content": "I moved to Lisbon"}]
    # When both are sent with messages, a mode and a key of the caller's
    with Engram(scripted.url, "egk_k") as memory:
        memory.retain("user:alice", messages=turns, mode="raw", idempotency_key="mine-1")
        memory.submit_retain("user:alice", messages=turns, idempotency_key="mine-2")
    scripted.shutdown()
    # Then each key is the header, never the body, and the body holds the scope, turns and mode
    assert [seen["headers"]["Idempotency-Key"] for seen in scripted.seen] == ["mine-1", "mine-2"]
    bodies = [json.loads(seen["body"]) for seen in scripted.seen]
    assert bodies[0] == {"scope": "user:alice", "messages": turns, "mode": "raw", "async": False}
    assert bodies[1] == {"scope": "user:alice", "messages": turns, "async": True}


def test_two_retains_carry_two_idempotency_keys() -> None:
    # Given a server that answers two retains
    scripted = Scripted([(200, {}, RETAINED), (200, {}, RETAINED)])
    # When two retains are sent
    with Engram(scripted.url, "egk_k") as memory:
        memory.retain("user:alice", "one text")
        memory.retain("user:alice", "another text")
    scripted.shutdown()
    # Then each has its own key
    assert scripted.seen[0]["headers"]["Idempotency-Key"] != scripted.seen[1]["headers"]["Idempotency-Key"]


def test_a_4xx_is_never_retried() -> None:
    # Given a server that answers 400 with details
    envelope = {"error": {"code": "validation_error", "message": "bad", "details": [{"field": "query"}]}}
    scripted = Scripted([(400, {}, envelope), (200, {}, {"memories": []})])
    # When a recall is sent
    with Engram(scripted.url, "egk_k") as memory, pytest.raises(BadRequest) as refused:
        memory.recall("tea")
    scripted.shutdown()
    # Then it went once and the exception carries the envelope
    assert len(scripted.seen) == 1
    assert refused.value.details == [{"field": "query"}] and refused.value.code == "validation_error"


def test_retries_stop_after_max_retries_with_the_last_error() -> None:
    # Given a server that is always over quota
    scripted = Scripted([(429, {"Retry-After": "0"}, BUSY)] * 3)
    # When a call is made with two retries allowed
    with Engram(scripted.url, "egk_k", max_retries=2) as memory, pytest.raises(RateLimited) as limited:
        memory.stats()
    scripted.shutdown()
    # Then it tried three times and raised the 429 with its Retry-After
    assert len(scripted.seen) == 3 and limited.value.retry_after == 0


def test_feedback_is_not_repeated_after_a_500_that_may_have_applied_it() -> None:
    # Given a server that fails with a 500
    scripted = Scripted([(500, {}, {"error": {"code": "internal", "message": "x"}}), (200, {}, {})])
    # When feedback is sent
    with Engram(scripted.url, "egk_k") as memory, pytest.raises(ServerError):
        memory.feedback("mem_" + "a" * 32, "used")
    scripted.shutdown()
    # Then it was sent once: a second signal would count twice
    assert len(scripted.seen) == 1


def test_an_unknown_field_answered_by_the_server_is_unprocessable() -> None:
    # Given a server answering 422
    envelope = {
        "error": {"code": "unprocessable", "message": "unknown field(s): x", "details": [{"field": "x"}]}
    }
    scripted = Scripted([(422, {}, envelope)])
    # When a call gets it
    with Engram(scripted.url, "egk_k") as memory, pytest.raises(Unprocessable) as refused:
        memory.stats()
    scripted.shutdown()
    # Then it is the typed 422
    assert refused.value.status == 422 and refused.value.details == [{"field": "x"}]


def test_a_lost_connection_is_retried_then_raised_as_connection_failed() -> None:
    # Given a server that hangs up on every request
    scripted = Scripted([HANG_UP] * 2)
    # When a call is made with one retry allowed
    with Engram(scripted.url, "egk_k", max_retries=1) as memory, pytest.raises(ConnectionFailed) as lost:
        memory.stats()
    scripted.shutdown()
    # Then it was sent twice, and the error names the call
    assert len(scripted.seen) == 2 and "GET /v1/stats" in str(lost.value)


def test_the_async_client_retries_as_the_blocking_one_does() -> None:
    # Given a server that hangs up, then answers 429, then the retain's answer
    scripted = Scripted([HANG_UP, (429, {"Retry-After": "0"}, BUSY), (200, {}, RETAINED)])

    async def scenario() -> str:
        async with AsyncEngram(scripted.url, "egk_k") as memory:
            return (await memory.retain("user:alice", "I prefer dark mode")).results[0].action

    # When the async client sends a retain
    action = asyncio.run(scenario())
    scripted.shutdown()
    # Then it was sent three times with one Idempotency-Key, and the third answer is returned
    keys = {seen["headers"]["Idempotency-Key"] for seen in scripted.seen}
    assert len(scripted.seen) == 3 and len(keys) == 1 and action == "created"


def test_waiting_for_a_job_past_its_timeout_raises_timeout_error() -> None:
    # Given a server whose job is always running
    job = {"job_id": "job_1", "status": "running", "created_at": "2026-01-01T00:00:00Z"}
    scripted = Scripted([(200, {}, {**job, "updated_at": job["created_at"]})] * 3)
    # When a client waits for it with no time to spare
    with Engram(scripted.url, "egk_k") as memory, pytest.raises(TimeoutError) as late:
        memory.wait_for_job("job_1", timeout=0.0)
    scripted.shutdown()
    # Then it polled once and names the job and its status
    assert len(scripted.seen) == 1 and str(late.value) == "job job_1 is still running"
