"""Hostile and slow webhook receivers against a real ``engram serve``: each attempt has a total
deadline and reads a capped answer, one endpoint's slow receiver never holds another tenant's
delivery, registration refuses what it must, and signing secrets are sealed at rest."""

from __future__ import annotations

import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from serve_support import Server, call, new_key, new_tenant, running_server

TIMEOUT_S = 2.0


class RawReceiver:
    """A TCP server whose every connection is answered by ``answer(conn)`` (then closed)."""

    def __init__(self, answer: Callable[[socket.socket], None]) -> None:
        self.answer = answer
        self.connections = 0
        self.sent = 0
        self.closed_early = threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        try:
            conn.recv(65536)  # the request (small)
            self.answer(conn)
        except OSError:
            self.closed_early.set()
        finally:
            conn.close()

    def stop(self) -> None:
        self.sock.close()


def trickle(receiver: RawReceiver) -> Callable[[socket.socket], None]:
    """One byte every 0.2 s: every read is short, the whole answer takes ~8 s."""

    def answer(conn: socket.socket) -> None:
        for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n":
            conn.sendall(bytes([byte]))
            receiver.sent += 1
            time.sleep(0.2)

    return answer


def huge(receiver: RawReceiver) -> Callable[[socket.socket], None]:
    """200 OK with a 200 MB body, sent as fast as the client reads."""

    def answer(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 200000000\r\n\r\n")
        chunk = b"\0" * 65536
        while receiver.sent < 200_000_000:
            conn.sendall(chunk)
            receiver.sent += len(chunk)

    return answer


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {
        "ENGRAM_WEBHOOK_POLL_S": "0.05",
        "ENGRAM_WEBHOOK_TIMEOUT_S": str(TIMEOUT_S),
        "ENGRAM_WEBHOOK_BACKOFF_S": "30",
        "ENGRAM_WEBHOOK_ALLOW_PRIVATE": "true",  # the receivers are on loopback
    }
    with running_server(tmp_path_factory.mktemp("delivery"), "--no-lifecycle", env=env) as server:
        yield server


def _subscribe(serve: Server, url: str) -> tuple[str, str, dict[str, Any]]:
    tenant = new_tenant(serve)
    key = new_key(serve, tenant)
    reply = call(
        serve, "POST", f"/v1/admin/tenants/{tenant}/webhooks", {"url": url}, key=serve.operator_token
    )
    assert reply.status == 201, reply.body
    return tenant, key, dict(reply.body)


def _retain(serve: Server, key: str, text: str) -> None:
    reply = call(serve, "POST", "/v1/memories", {"scope": "user:a", "text": text, "mode": "raw"}, key=key)
    assert reply.status == 200, reply.body


def _first_attempt(serve: Server, tenant: str, webhook_id: str, timeout: float = 30) -> dict[str, Any]:
    ends = time.monotonic() + timeout
    path = f"/v1/admin/tenants/{tenant}/webhooks/{webhook_id}/deliveries"
    while time.monotonic() < ends:
        found = call(serve, "GET", path, key=serve.operator_token).body["deliveries"]
        if found and found[-1]["log"]:
            return dict(found[-1])
        time.sleep(0.1)
    raise AssertionError("no attempt was logged")


def test_a_receiver_trickling_its_answer_is_cut_off_at_the_attempt_deadline(serve: Server) -> None:
    # Given a receiver that answers one byte every 0.2 s (each read is short, the answer ~8 s)
    receiver = RawReceiver(lambda conn: None)
    receiver.answer = trickle(receiver)
    tenant, key, hook = _subscribe(serve, receiver.url)
    # When a memory is retained and its event sent
    _retain(serve, key, "I prefer dark mode")
    delivery = _first_attempt(serve, tenant, hook["id"], timeout=TIMEOUT_S + 20)
    receiver.stop()
    # Then the attempt ended at its total deadline, as a failure to retry, not "delivered"
    attempt = delivery["log"][0]
    assert delivery["status"] == "pending", delivery
    assert attempt["status_code"] is None and "within" in attempt["error"], attempt
    assert attempt["duration_ms"] < (TIMEOUT_S + 1.0) * 1000, attempt


def test_a_receiver_answering_200_mb_is_read_only_up_to_the_cap(serve: Server) -> None:
    # Given a receiver whose 200 OK carries a 200 MB body
    receiver = RawReceiver(lambda conn: None)
    receiver.answer = huge(receiver)
    tenant, key, hook = _subscribe(serve, receiver.url)
    # When an event is sent to it
    _retain(serve, key, "My sister lives in Porto")
    delivery = _first_attempt(serve, tenant, hook["id"])
    assert receiver.closed_early.wait(10)
    receiver.stop()
    # Then it is delivered (a 2xx), and the client stopped reading long before the end
    assert delivery["status"] == "delivered", delivery
    assert receiver.sent < 20_000_000, receiver.sent


def test_a_slow_receiver_never_holds_another_tenants_delivery(serve: Server) -> None:
    # Given tenant A's receiver, which hangs, and tenant B's, which answers at once
    hang = threading.Event()
    got: list[float] = []

    def hangs(conn: socket.socket) -> None:
        hang.wait(TIMEOUT_S + 5)

    def answers(conn: socket.socket) -> None:
        got.append(time.monotonic())
        conn.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")

    slow, fast = RawReceiver(hangs), RawReceiver(answers)
    _, key_a, _ = _subscribe(serve, slow.url)
    _, key_b, _ = _subscribe(serve, fast.url)
    # When A's event is being sent (and hangs) and then B retains
    _retain(serve, key_a, "the budget meeting moved to Friday")
    ends = time.monotonic() + 10
    while slow.connections == 0 and time.monotonic() < ends:
        time.sleep(0.02)
    assert slow.connections == 1
    began = time.monotonic()
    _retain(serve, key_b, "the deploy window is on Tuesday")
    ends = began + TIMEOUT_S + 5
    while not got and time.monotonic() < ends:
        time.sleep(0.02)
    hang.set()
    slow.stop()
    fast.stop()
    # Then B's event arrived while A's attempt was still hanging (well before its deadline)
    assert got, "B's event never arrived"
    assert got[0] - began < TIMEOUT_S * 0.75, got[0] - began


@pytest.mark.parametrize(
    "url", ["http://169.254.169.254/latest/meta-data/", "http://2130706433/", "http://u:p@127.0.0.1/"]
)
def test_registration_refuses_metadata_numeric_and_credential_urls_even_for_local_development(
    serve: Server, url: str
) -> None:
    tenant = new_tenant(serve)
    reply = call(
        serve, "POST", f"/v1/admin/tenants/{tenant}/webhooks", {"url": url}, key=serve.operator_token
    )
    assert reply.status == 422, reply.body
    assert reply.body["error"]["details"][0]["field"] == "url"


def test_the_default_refuses_loopback_and_plain_http(tmp_path: Any) -> None:
    with running_server(tmp_path / "data", "--no-lifecycle", "--workers", "1") as server:
        tenant = new_tenant(server)
        for url in ("http://127.0.0.1:9/hook", "https://127.0.0.1/hook", "https://169.254.169.254/"):
            body = {"url": url}
            reply = call(
                server, "POST", f"/v1/admin/tenants/{tenant}/webhooks", body, key=server.operator_token
            )
            assert reply.status == 422, (url, reply.body)
            assert reply.body["error"]["details"][0]["field"] == "url"


def test_signing_secrets_are_sealed_in_the_database(serve: Server) -> None:
    # Given a webhook whose secret was shown once
    _, _, hook = _subscribe(serve, "http://127.0.0.1:9/never")
    # When the database file is read directly
    with sqlite3.connect(serve.data_dir / "engram.db") as db:
        stored = [
            row[0] for row in db.execute("SELECT secret FROM webhook_endpoints WHERE id=?", (hook["id"],))
        ]
    # Then the secret is not there, only its sealed form
    assert stored and stored[0].startswith("sealed:v1:")
    assert hook["secret"] not in stored[0]
