"""Webhooks end to end: a real ``engram serve`` sends signed events to a real HTTP receiver.

The server runs with the scripted OpenAI-compatible LLM (smart retains, so a changed preference
supersedes the old one) and with short retry waits. The receiver is a threading HTTP server in
this process; each test gets its own paths on it, so what one test receives never mixes with
another's.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from scripted_llm import ScriptedLLM
from serve_support import Server, call, new_key, new_tenant, running_server

from engram.webhooks.endpoints import SIGNATURE_HEADER, verify

SCOPE = "user:alice"


class Receiver:
    """A real HTTP server that records every POST by path; a path may answer a script of statuses
    first (``fail("/flaky", 500, 500)``) or hold its requests until released (``hold``)."""

    def __init__(self) -> None:
        self.received: dict[str, list[dict[str, Any]]] = {}
        self.scripts: dict[str, list[int]] = {}
        self.held: dict[str, threading.Event] = {}
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                gate = receiver.held.get(self.path)
                with receiver.arrived:
                    receiver.received.setdefault(self.path, []).append(
                        {"headers": dict(self.headers), "body": body, "event": json.loads(body)}
                    )
                    script = receiver.scripts.get(self.path) or []
                    status = script.pop(0) if script else 200
                    receiver.arrived.notify_all()
                if gate is not None:
                    gate.wait(30)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def fail(self, path: str, *statuses: int) -> None:
        self.scripts[path] = list(statuses)

    def hold(self, path: str) -> threading.Event:
        self.held[path] = threading.Event()
        return self.held[path]

    def events(self, path: str) -> list[dict[str, Any]]:
        with self.arrived:
            return [r["event"] for r in self.received.get(path, [])]

    def wait_for(self, path: str, done: Callable[[list[dict[str, Any]]], bool], timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        with self.arrived:
            while not done([r["event"] for r in self.received.get(path, [])]):
                left = deadline - time.monotonic()
                assert left > 0, f"{path} got {[e['type'] for e in self.events_unlocked(path)]}"
                self.arrived.wait(left)

    def events_unlocked(self, path: str) -> list[dict[str, Any]]:
        return [r["event"] for r in self.received.get(path, [])]

    def stop(self) -> None:
        for gate in self.held.values():
            gate.set()
        self.server.shutdown()


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory, scripted_llm_server: ScriptedLLM) -> Iterator[Server]:
    env = {
        "ENGRAM_LLM_PROVIDER": "openai",
        "ENGRAM_LLM_BASE_URL": scripted_llm_server.url,
        "ENGRAM_LLM_MODEL": "scripted-model",
        "ENGRAM_LLM_API_KEY": "sk-test",
        "ENGRAM_WEBHOOK_POLL_S": "0.05",
        "ENGRAM_WEBHOOK_BACKOFF_S": "0.2",
        "ENGRAM_WEBHOOK_TIMEOUT_S": "3",
        "ENGRAM_WEBHOOK_MAX_ATTEMPTS": "3",
        "ENGRAM_WEBHOOK_ALLOW_PRIVATE": "true",  # the receivers are on loopback
    }
    with running_server(tmp_path_factory.mktemp("webhooks-serve"), "--no-lifecycle", env=env) as running:
        yield running


def subscribe(serve: Server, tenant: str, url: str, events: list[str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"url": url} if events is None else {"url": url, "events": events}
    reply = call(serve, "POST", f"/v1/admin/tenants/{tenant}/webhooks", body, key=serve.operator_token)
    assert reply.status == 201, reply.body
    return dict(reply.body)


def retain(serve: Server, key: str, text: str, **extra: Any) -> dict[str, Any]:
    reply = call(
        serve, "POST", "/v1/memories", {"scope": SCOPE, "text": text, "mode": "raw", **extra}, key=key
    )
    assert reply.status == 200, reply.body
    return dict(reply.body["results"][0])


def smart(serve: Serve, key: str, text: str) -> dict[str, Any]:
    body = {"scope": SCOPE, "messages": [{"role": "user", "content": text}], "mode": "smart"}
    reply = call(serve, "POST", "/v1/memories", body, key=key)
    assert reply.status == 202, reply.body
    deadline = time.monotonic() + 60
    while True:
        job = call(serve, "GET", f"/v1/jobs/{reply.body['job_id']}", key=key).body
        if job["status"] in ("succeeded", "failed"):
            assert job["status"] == "succeeded", job
            return {"job_id": job["job_id"], **job["results"][0]}
        assert time.monotonic() < deadline, job
        time.sleep(0.05)


Serve = Server


def deliveries(serve: Server, tenant: str, webhook_id: str) -> list[dict[str, Any]]:
    reply = call(
        serve, "GET", f"/v1/admin/tenants/{tenant}/webhooks/{webhook_id}/deliveries", key=serve.operator_token
    )
    assert reply.status == 200, reply.body
    return list(reply.body["deliveries"])


def by_subject(events: list[dict[str, Any]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for event in events:
        out.setdefault(event["subject"], []).append(event["type"])
    return out


def test_retain_supersede_forget_and_expiry_arrive_signed_once_in_order_per_memory(
    serve: Server, receiver: Receiver, scripted_llm: ScriptedLLM
) -> None:
    # Given two tenants, each with a webhook on its own receiver path
    tenant, other = new_tenant(serve), new_tenant(serve)
    key, other_key = new_key(serve, tenant), new_key(serve, other)
    hook = subscribe(serve, tenant, receiver.url + "/main")
    subscribe(serve, other, receiver.url + "/other")

    # When the tenant retains, changes a preference, forgets, and lets a memory expire
    expiring = retain(
        serve,
        key,
        "The spare key is under the blue flower pot",
        expires_at=(datetime.now(UTC) + timedelta(hours=1)).isoformat(),
    )
    dark = smart(serve, key, "I prefer dark mode")
    light = smart(serve, key, "Actually I switched to light mode last week")
    assert (dark["action"], light["action"]) == ("created", "superseded")
    forgot = call(serve, "POST", "/v1/forget", {"ids": [light["id"]]}, key=key)
    assert forgot.status == 200, forgot.body
    later = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    lifecycle = subprocess.run(
        [
            sys.executable,
            "-m",
            "engram_cli",
            "--data-dir",
            str(serve.data_dir),
            "lifecycle",
            "run",
            "--tenant",
            tenant,
            "--now",
            later,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # another process writes the expiry: the outbox catches every writer
    assert lifecycle.returncode == 0, lifecycle.stderr
    # And the other tenant retains one memory of its own
    mine = retain(serve, other_key, "The other tenant's own note about lunch")

    # Then the receiver gets each memory's events, in order, each exactly once
    expected = {
        expiring["id"]: ["memory.created", "memory.expired"],
        dark["id"]: ["memory.created", "memory.superseded"],
        light["id"]: ["memory.created", "memory.deleted"],
        dark["job_id"]: ["job.succeeded"],
        light["job_id"]: ["job.succeeded"],
    }
    receiver.wait_for("/main", lambda got: by_subject(got) == expected or len(got) > 8)
    time.sleep(0.5)  # nothing more (no duplicate) comes after a moment
    events = receiver.events("/main")
    assert by_subject(events) == expected
    assert len({e["id"] for e in events}) == len(events)
    assert all(e["version"] == 1 and e["tenant_id"] == tenant for e in events)
    # And every delivery is signed with the endpoint's secret over the exact body, recently
    for raw in receiver.received["/main"]:
        assert verify(hook["secret"], raw["headers"][SIGNATURE_HEADER], raw["body"])
        assert not verify(hook["secret"] + "x", raw["headers"][SIGNATURE_HEADER], raw["body"])
        assert raw["headers"]["Engram-Event-Id"] == raw["event"]["id"]
    # And the supersede names both sides, the deletion carries its receipt and no content
    kinds = {(e["subject"], e["type"]): e for e in events}
    assert kinds[(light["id"], "memory.created")]["data"]["supersedes"] == dark["id"]
    assert kinds[(dark["id"], "memory.superseded")]["data"]["superseded_by"] == light["id"]
    deleted = kinds[(light["id"], "memory.deleted")]
    assert deleted["data"]["receipt_id"] == forgot.body["receipt_id"]
    assert set(deleted["data"]) == {"memory_id", "receipt_id", "reason", "deleted_at"}
    assert "light" not in json.dumps(deleted).lower()
    assert kinds[(expiring["id"], "memory.expired")]["data"]["reason"] == "expired"
    # And the other tenant got only its own memory's event, never one of the first tenant
    receiver.wait_for("/other", lambda got: len(got) >= 1)
    assert [(e["tenant_id"], e["subject"], e["type"]) for e in receiver.events("/other")] == [
        (other, mine["id"], "memory.created")
    ]
    # And the delivery log shows one successful attempt per event
    log = deliveries(serve, tenant, hook["id"])
    assert len(log) == len(events)
    assert {(d["status"], d["attempts"], d["log"][0]["status_code"]) for d in log} == {("delivered", 1, 200)}


def test_a_receiver_that_fails_twice_gets_retries_until_it_answers(serve: Server, receiver: Receiver) -> None:
    # Given a webhook whose receiver answers 500 twice, then 200
    tenant = new_tenant(serve)
    key = new_key(serve, tenant)
    receiver.fail("/flaky", 500, 503)
    hook = subscribe(serve, tenant, receiver.url + "/flaky", ["memory.created"])
    # When a memory is retained
    created = retain(serve, key, "The boiler service is due in March")
    # Then the same event arrives three times, the last accepted, with the attempt number counting up
    receiver.wait_for("/flaky", lambda got: len(got) >= 3)
    raws = receiver.received["/flaky"]
    assert [r["event"]["subject"] for r in raws] == [created["id"]] * 3
    assert len({r["event"]["id"] for r in raws}) == 1
    assert [r["headers"]["Engram-Delivery-Attempt"] for r in raws] == ["1", "2", "3"]
    # And the delivery log shows each attempt with its answer
    deadline = time.monotonic() + 10
    while (log := deliveries(serve, tenant, hook["id"]))[0]["status"] == "pending":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    [delivery] = log
    assert (delivery["status"], delivery["attempts"]) == ("delivered", 3)
    assert [a["status_code"] for a in delivery["log"]] == [500, 503, 200]
    assert delivery["log"][0]["error"] == "HTTP 500"


def test_a_receiver_that_is_down_or_hangs_never_holds_up_a_retain(serve: Server, receiver: Receiver) -> None:
    # Given one webhook to a port where nothing listens, and one whose receiver hangs
    tenant = new_tenant(serve)
    key = new_key(serve, tenant)
    dead = subscribe(serve, tenant, "http://127.0.0.1:9/never", ["memory.created"])
    gate = receiver.hold("/hang")
    subscribe(serve, tenant, receiver.url + "/hang", ["memory.created"])
    first = retain(serve, key, "The piano tuner comes on Thursdays")
    receiver.wait_for("/hang", lambda got: len(got) >= 1)  # the dispatcher is now stuck on it
    # When more memories are retained while the receiver still holds that request
    later = [retain(serve, key, f"Reminder number {n} about the piano recital") for n in range(3)]
    # Then every retain answered while the delivery was still in the receiver's hands
    assert all(r["action"] == "created" for r in [first, *later])
    assert not gate.is_set()
    gate.set()
    # And the endpoint that is down is retried, then marked failed, with each refusal logged
    deadline = time.monotonic() + 30
    log = deliveries(serve, tenant, dead["id"])
    while len(log) < 4 or any(d["status"] != "failed" for d in log):
        assert time.monotonic() < deadline, log
        time.sleep(0.1)
        log = deliveries(serve, tenant, dead["id"])
    assert all(d["attempts"] == 3 and d["last_status_code"] is None for d in log)
    assert all("could not connect" in a["error"] for d in log for a in d["log"])


def test_webhooks_are_listed_without_secrets_and_deleted(serve: Server, receiver: Receiver) -> None:
    tenant = new_tenant(serve)
    hook = subscribe(serve, tenant, receiver.url + "/listed", ["memory.deleted", "job.failed"])
    assert hook["secret"].startswith("whsec_")
    listed = call(serve, "GET", f"/v1/admin/tenants/{tenant}/webhooks", key=serve.operator_token)
    assert listed.status == 200
    assert listed.body["webhooks"] == [
        {
            "id": hook["id"],
            "url": hook["url"],
            "events": ["memory.deleted", "job.failed"],
            "created_at": hook["created_at"],
        }
    ]
    gone = call(
        serve, "DELETE", f"/v1/admin/tenants/{tenant}/webhooks/{hook['id']}", key=serve.operator_token
    )
    assert (gone.status, gone.body) == (200, {"id": hook["id"], "deleted": True})
    again = call(
        serve, "DELETE", f"/v1/admin/tenants/{tenant}/webhooks/{hook['id']}", key=serve.operator_token
    )
    assert again.status == 404
    assert call(serve, "GET", f"/v1/admin/tenants/{tenant}/webhooks", key=serve.operator_token).body == {
        "webhooks": []
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "ftp://example.com/hook"}, "url"),
        ({"url": "not a url"}, "url"),
        ({"url": "https://example.com/hook", "events": ["memory.created", "memory.exploded"]}, "events"),
        ({"url": "https://example.com/hook", "secret": "mine"}, "secret"),
    ],
    ids=["scheme", "no-host", "unknown-event", "unknown-field"],
)
def test_a_bad_subscription_is_a_422_naming_the_field(
    serve: Server, body: dict[str, Any], field: str
) -> None:
    tenant = new_tenant(serve)
    reply = call(serve, "POST", f"/v1/admin/tenants/{tenant}/webhooks", body, key=serve.operator_token)
    assert reply.status == 422, reply.body
    assert field in [d["field"] for d in reply.body["error"]["details"]]
    assert call(serve, "GET", f"/v1/admin/tenants/{tenant}/webhooks", key=serve.operator_token).body == {
        "webhooks": []
    }


def test_webhook_routes_need_the_operator_and_a_real_tenant(serve: Server) -> None:
    tenant = new_tenant(serve)
    key = new_key(serve, tenant)
    body = {"url": "https://example.com/hook"}
    assert call(serve, "POST", f"/v1/admin/tenants/{tenant}/webhooks", body, key=key).status in (401, 403)
    assert (
        call(
            serve, "POST", "/v1/admin/tenants/no-such-tenant/webhooks", body, key=serve.operator_token
        ).status
        == 404
    )


def test_the_openapi_document_publishes_every_event_schema(serve: Server) -> None:
    document = call(serve, "GET", "/v1/openapi.json").body
    assert document["openapi"].startswith("3.1")
    assert {"memory.created", "memory.deleted", "memory.expired", "job.failed"} <= set(document["webhooks"])
    deleted = document["components"]["schemas"]["DeletionEventData"]
    assert "content" not in deleted["properties"]


@pytest.mark.filterwarnings("ignore:No application metrics to publish")
def test_the_webhook_samples_work_on_their_handler(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given the handler on a real local engine, as Lambda would invoke it (the samples name acme)
    from test_events import invoke, load_event, with_path_parameter

    from engram.engine import Engine
    from engram.settings import Settings

    for name, value in (("TRACE_DISABLED", "true"), ("METRICS_DISABLED", "true"), ("LOG_LEVEL", "WARNING")):
        monkeypatch.setenv(f"POWERTOOLS_{name}", value)
    from engram_http.runtime import use_engine

    engine = Engine.local(Settings(data_dir=tmp_path / "data", background_embedding=False))
    engine.create_tenant("acme")
    use_engine(engine)
    try:
        # When each sample is invoked in turn
        created = json.loads(invoke("webhooks", load_event("webhooks.create"))["body"])
        listed = json.loads(invoke("webhooks", load_event("webhooks.list"))["body"])
        log = invoke(
            "webhooks", with_path_parameter(load_event("webhooks.deliveries"), "webhook_id", created["id"])
        )
        gone = invoke(
            "webhooks", with_path_parameter(load_event("webhooks.delete"), "webhook_id", created["id"])
        )
        missing = invoke("webhooks", load_event("webhooks.delete"))  # the sample's placeholder id
    finally:
        use_engine(None)
        engine.close()
    # Then they create, list, show the (empty) log and delete; an unknown id is a 404
    assert created["events"] == ["memory.created", "memory.deleted"]
    assert [w["id"] for w in listed["webhooks"]] == [created["id"]]
    assert (log["statusCode"], json.loads(log["body"])) == (200, {"deliveries": []})
    assert gone["statusCode"] == 200
    assert missing["statusCode"] == 404
