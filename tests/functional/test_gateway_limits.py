"""What a client can hold or break in ``engram serve``: connections, timeouts, framing, stopping.

Each test speaks raw HTTP over sockets to a real server started with small limits
(``--max-connections 8 --idle-timeout 1``), as a hostile or broken client would.
"""

from __future__ import annotations

import json
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_support import Server, call, new_key, new_tenant, running_server

LIMIT = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    args = ("--no-lifecycle", "--max-connections", str(LIMIT), "--idle-timeout", "1")
    with running_server(tmp_path_factory.mktemp("limits"), *args) as running:
        yield running


def _connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def _exchange(server: Server, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes, read one answer: (status, headers, body)."""
    with _connect(server) as sock:
        sock.sendall(raw)
        return _answer(sock, no_body=raw.startswith(b"HEAD "))


def _answer(sock: socket.socket, *, no_body: bool = False) -> tuple[int, dict[str, str], bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before an answer: {data!r}")
        data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    while not no_body and len(body) < int(headers.get("content-length", "0")):
        body += sock.recv(65536)
    return int(lines[0].split()[1]), headers, body


def _answer_or_close(sock: socket.socket) -> tuple[int, dict[str, str], bytes] | None:
    """The answer on a connection, or None if the server closed it without one."""
    try:
        return _answer(sock)
    except ConnectionError:
        return None


def _threads(server: Server) -> int:
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))


def _healthy(server: Server) -> bool:
    return call(server, "GET", "/v1/health").status == 200


def test_half_sent_requests_hold_no_more_than_the_connection_limit_and_expire(server: Server) -> None:
    # Given a server with 8 connection slots
    before = _threads(server)
    # When 60 clients each send half a request line and stop
    stalled = [_connect(server) for _ in range(60)]
    for sock in stalled:
        sock.sendall(b"POST /v1/recall HTTP/1.1\r\nHost: x\r\n")
    time.sleep(0.3)
    # Then the server runs at most 8 more threads, and every client beyond the limit got a 503
    assert _threads(server) <= before + LIMIT
    answers = [_answer_or_close(sock) for sock in stalled]
    refused = [a for a in answers if a is not None]
    assert len(refused) == 60 - LIMIT
    for status, headers, body in refused:
        assert status == 503 and headers.get("retry-after") == "1"
        assert json.loads(body)["error"]["code"] == "unavailable"
    # And once the idle timeout has passed, the stalled ones are dropped and the server serves again
    time.sleep(1.5)
    assert _healthy(server)
    for sock in stalled:
        sock.close()


@pytest.mark.parametrize(
    ("length", "status"),
    [("-1", 400), ("abc", 400), ("1e3", 400), ("12, 13", 400)],
)
def test_a_bad_content_length_is_a_400_in_the_envelope(server: Server, length: str, status: int) -> None:
    # Given a request whose Content-Length is not one non-negative integer
    raw = f"POST /v1/recall HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n{{}}".encode()
    # When it is sent
    got, headers, body = _exchange(server, raw)
    # Then it is refused at once with the API's JSON error
    assert got == status and headers["content-type"] == "application/json", (got, headers, body)
    assert json.loads(body)["error"]["code"] == "bad_request", (got, headers, body)


def test_a_body_shorter_than_its_content_length_times_out_with_a_408(server: Server) -> None:
    # Given a request announcing 100 bytes and sending 2
    raw = b"POST /v1/recall HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{}"
    # When the client then waits
    started = time.monotonic()
    status, _, body = _exchange(server, raw)
    # Then the server gives up after its idle timeout, not never
    assert status == 408 and json.loads(body)["error"]["code"] == "request_timeout"
    assert time.monotonic() - started < 10


def test_a_chunked_body_is_read_like_any_other(server: Server) -> None:
    # Given a tenant key and a recall body sent in two chunks
    key = new_key(server, new_tenant(server))
    payload = json.dumps({"query": "anything"}).encode()
    first, second = payload[:5], payload[5:]
    raw = (
        f"POST /v1/recall HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
        + f"{len(first):x}\r\n".encode()
        + first
        + f"\r\n{len(second):x}\r\n".encode()
        + second
        + b"\r\n0\r\n\r\n"
    )
    # When it is sent
    status, _, body = _exchange(server, raw)
    # Then the handler got the whole body
    assert status == 200 and json.loads(body)["memories"] == []


@pytest.mark.parametrize("method", ["TRACE", "OPTIONS", "HEAD", "PUT"])
def test_a_method_a_path_does_not_have_is_a_405_with_allow(server: Server, method: str) -> None:
    # Given a path that exists for POST only
    # When another method is used
    status, headers, body = _exchange(server, f"{method} /v1/recall HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    # Then the answer is 405 naming the allowed methods, JSON unless it is HEAD
    assert status == 405 and headers["allow"] == "POST"
    if method != "HEAD":
        assert json.loads(body)["error"]["code"] == "method_not_allowed"


def test_an_oversized_header_is_a_431_in_the_envelope(server: Server) -> None:
    # Given a 70 KB Authorization header, and another request with 12 KB of headers in all
    huge = b"GET /v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + b"a" * 70_000 + b"\r\n\r\n"
    many = b"GET /v1/health HTTP/1.1\r\nHost: x\r\n" + b"".join(
        f"X-Pad-{i}: {'b' * 1000}\r\n".encode() for i in range(12)
    )
    # When each is sent
    answers = [_exchange(server, huge), _exchange(server, many + b"\r\n")]
    # Then both are refused with the API's JSON error
    for status, headers, body in answers:
        assert status == 431 and headers["content-type"] == "application/json"
        assert json.loads(body)["error"]["code"] == "headers_too_large"


def test_sigterm_stops_the_server_at_once_despite_an_idle_kept_alive_connection(tmp_path: Path) -> None:
    # Given a server (long idle timeout) with a kept-alive connection that has had one answer
    with running_server(tmp_path / "data", "--no-lifecycle", "--idle-timeout", "120") as running:
        sock = _connect(running)
        sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _answer(sock)[0] == 200
        # When it is sent SIGTERM
        started = time.monotonic()
        running.process.send_signal(signal.SIGTERM)
        running.process.wait(timeout=30)
        # Then it stops within seconds, and the idle connection is closed
        assert time.monotonic() - started < 10
        assert running.process.returncode == 0
        assert sock.recv(10) == b""
        sock.close()
