"""``engram serve``: a local stand-in for API Gateway that calls the very same Lambda handlers.

The HTTP side lives here; what API Gateway does with a request (route, event, authorizer,
invocation) is in ``apigw``, and the invocations run in worker processes (``workers``). The server bounds what a client can hold: at most
``max_connections`` connections (one thread each; beyond that a 503 and close), a read timeout
on every connection (an idle kept-alive connection is closed after ``idle_timeout`` seconds (30), a
body that stops arriving gets a 408), headers up to 10 KiB (API Gateway's limit for a REST API;
431 beyond), a ``Content-Length`` that must be one non-negative integer (or a chunked body) and
bodies up to 6 MiB (413 before anything is parsed). Every answer, errors of the HTTP layer
included, is JSON in the API's error envelope. SIGINT/SIGTERM stop accepting, close idle
kept-alive connections at once and let in-flight requests finish.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from engram_http.apigw import JSON_HEADERS, Invoke, dispatch
from engram_http.runtime import MAX_BODY_BYTES, error_body

logger = logging.getLogger(__name__)

DRAIN_LIMIT = 8 * MAX_BODY_BYTES  # beyond this the connection is simply closed
MAX_HEADER_BYTES = 10 * 1024  # API Gateway (REST): request line and headers together
LINGER_S = 1.0  # how long a closing connection still reads what the client sends
BODY_DEADLINE_S = 60.0  # a whole body must arrive within this, however slowly it trickles
_CODES = {
    400: "bad_request",
    408: "request_timeout",
    413: "payload_too_large",
    414: "uri_too_long",
    431: "headers_too_large",
    501: "not_implemented",
    503: "unavailable",
    505: "http_version_not_supported",
}


class BadRequest(Exception):
    """A request the HTTP layer refuses; ``status`` and the message become the answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _error(status: int, message: str) -> bytes:
    return error_body(_CODES.get(status, "bad_request"), message).encode()


class _Handler(BaseHTTPRequestHandler):
    server: GatewayServer
    server_version = "engram-gateway"
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle on, a kept-alive client waits for the
    # delayed ACK (~40 ms) before it sees the body.
    disable_nagle_algorithm = True
    idle = True  # waiting for a request line: the server may close the connection to stop

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle_timeout)  # every read, idle ones too
        self.server.track(self, open_=True)

    def finish(self) -> None:
        self.server.track(self, open_=False)
        super().finish()

    def handle_one_request(self) -> None:
        self.idle = True
        if self.server.stopping.is_set():
            self.close_connection = True
            return
        super().handle_one_request()

    def parse_request(self) -> bool:
        self.idle = False
        if not super().parse_request():
            return False
        size = len(self.requestline) + sum(len(k) + len(v) + 4 for k, v in self.headers.items())
        if size > MAX_HEADER_BYTES:
            self.send_error(431, f"the request line and headers exceed {MAX_HEADER_BYTES} bytes")
            return False
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors of the HTTP layer in the API's JSON envelope (never http.server's HTML)."""
        self.close_connection = True
        text = message or HTTPStatus(code).phrase
        self._send(code, {**JSON_HEADERS, "Connection": "close"}, _error(code, text))

    def _serve(self) -> None:
        began = time.perf_counter()
        seen: dict[str, str] = {}
        try:
            body = self._body()
        except BadRequest as bad:
            self.send_error(bad.status, str(bad))
            self._access(bad.status, began, seen)
            return
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            status, out_headers, payload = dispatch(
                self.command,
                self.path,
                headers,
                body,
                self.client_address[0],
                seen,
                invoke=self.server.invoke,
            )
        except Exception:  # a handler crash is a 500 with the usual error shape, never a dropped connection
            logger.exception("request failed")
            status, out_headers = 500, dict(JSON_HEADERS)
            payload = error_body("internal", "internal error").encode()
        self._send(status, out_headers, payload)
        self._access(status, began, seen)

    def _access(self, status: int, began: float, seen: dict[str, str]) -> None:
        """One access-log line: method, route template (never the ids in the path, the query, the
        key or the body), status, milliseconds and the caller's tenant (``-`` when unknown)."""
        if self.server.access_log is not None:
            ms = (time.perf_counter() - began) * 1000
            route = seen.get("route", "(no route)")
            self.server.access_log(
                f"{self.command} {route} {status} {ms:.1f}ms tenant={seen.get('tenant', '-')}"
            )

    def _body(self) -> bytes:
        """The request body, read within the limits (``BadRequest`` otherwise)."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            return self._chunked()
        values = self.headers.get_all("Content-Length") or []
        if len(set(values)) > 1:
            raise BadRequest(400, "conflicting Content-Length headers")
        raw = values[0].strip() if values else "0"
        if not raw.isdigit():
            raise BadRequest(400, "Content-Length must be a non-negative integer")
        length = int(raw)
        if length > MAX_BODY_BYTES:
            self._drain(length)
            raise BadRequest(413, f"the body is larger than {MAX_BODY_BYTES} bytes")
        return self._read(length, time.monotonic() + BODY_DEADLINE_S)

    def _read(self, length: int, deadline: float) -> bytes:
        chunks: list[bytes] = []
        while length > 0:
            if time.monotonic() > deadline:
                raise BadRequest(408, "the body did not arrive in time")
            try:
                chunk = self.rfile.read1(min(length, 1 << 16))
            except TimeoutError:
                raise BadRequest(408, "the body did not arrive in time") from None
            if not chunk:
                raise BadRequest(400, "the body is shorter than its Content-Length")
            chunks.append(chunk)
            length -= len(chunk)
        return b"".join(chunks)

    def _chunked(self) -> bytes:
        """A ``Transfer-Encoding: chunked`` body, with the same size limit and deadline."""
        deadline, body = time.monotonic() + BODY_DEADLINE_S, bytearray()
        while True:
            try:
                line = self.rfile.readline(64).split(b";")[0].strip()
                size = int(line, 16)
            except TimeoutError:
                raise BadRequest(408, "the body did not arrive in time") from None
            except ValueError:
                raise BadRequest(400, "malformed chunked body") from None
            if size < 0 or len(body) + size > MAX_BODY_BYTES:
                raise BadRequest(413, f"the body is larger than {MAX_BODY_BYTES} bytes")
            if size == 0:
                while self.rfile.readline(1024).strip():  # trailers
                    pass
                return bytes(body)
            body += self._read(size, deadline)
            self._read(2, deadline)  # the CRLF after each chunk

    def _drain(self, length: int) -> None:
        """Read (and drop) an oversize body so the client gets the 413 instead of a broken pipe."""
        if length > DRAIN_LIMIT:
            return
        try:
            while length > 0:
                chunk = self.rfile.read(min(length, 1 << 16))
                if not chunk:
                    return
                length -= len(chunk)
        except TimeoutError:
            return

    def _send(self, status: int, headers: dict[str, str], payload: bytes) -> None:
        if self.server.stopping.is_set():
            self.close_connection = True
        self.send_response(status)
        for key, value in headers.items():
            if key.lower() not in ("content-length", "connection"):
                self.send_header(key, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        logger.info("%s %s", self.address_string(), format % args)

    def __getattr__(self, name: str) -> Any:
        """Every method (GET, QUERY, TRACE …) reaches the route table: a 405 with Allow, never a 501."""
        if name.startswith("do_"):
            return self._serve
        raise AttributeError(name)


class GatewayServer(ThreadingHTTPServer):
    """A threading HTTP server with a bound on connections and a stop that does not hang."""

    daemon_threads = False  # shutdown waits for in-flight requests
    block_on_close = True
    request_queue_size = 128  # the listen backlog: a burst of clients connecting at once

    def __init__(
        self,
        address: tuple[str, int],
        *,
        invoke: Invoke,
        max_connections: int = 64,
        idle_timeout: float = 30.0,
        access_log: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(address, _Handler)
        self.invoke = invoke
        self.idle_timeout = idle_timeout
        self.access_log = access_log
        self.stopping = threading.Event()
        self._slots = threading.BoundedSemaphore(max_connections)
        self._open: set[_Handler] = set()
        self._open_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            self._refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def _refuse(self, request: socket.socket) -> None:
        """Every connection slot is taken: a 503 at once, so the client can retry."""
        body = _error(503, "too many connections; retry shortly")
        head = (
            f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
            f"Connection: close\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        with contextlib.suppress(OSError):
            request.settimeout(1.0)
            request.sendall(head.encode() + body)
            request.shutdown(socket.SHUT_WR)
        self.close_request(request)  # no lingering read here: the accept loop must not wait

    def shutdown_request(self, request: Any) -> None:
        """Close gracefully: send FIN, then read what the client still sends (briefly).

        Closing a socket with unread input makes the kernel send a reset, which discards the
        client's copy of an answer it has not read yet (a 400 or 413 sent before the body).
        """
        with contextlib.suppress(OSError):
            request.shutdown(socket.SHUT_WR)
            request.settimeout(LINGER_S)
            deadline = time.monotonic() + LINGER_S
            while time.monotonic() < deadline and request.recv(1 << 16):
                pass
        self.close_request(request)

    def track(self, handler: _Handler, *, open_: bool) -> None:
        with self._open_lock:
            (self._open.add if open_ else self._open.discard)(handler)

    def stop(self) -> None:
        """Stop accepting, close idle kept-alive connections; in-flight requests finish."""
        self.stopping.set()
        self.shutdown()
        with self._open_lock:
            idle = [h for h in self._open if h.idle]
        for handler in idle:
            with contextlib.suppress(OSError):
                handler.connection.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up early is routine; anything else is logged with its traceback."""
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        logger.exception("connection from %s failed", client_address)


def serve(
    host: str,
    port: int,
    *,
    invoke: Invoke,
    ready: threading.Event | None = None,
    on_start: Any = None,
    max_connections: int = 64,
    idle_timeout: float = 30.0,
    access_log: Callable[[str], None] | None = None,
) -> GatewayServer:
    """Serve until SIGINT/SIGTERM (when run in the main thread), then finish in-flight requests;
    ``invoke`` runs each invocation (``workers.WorkerPool.invoke``); ``access_log`` gets one
    line per request."""
    server = GatewayServer(
        (host, port),
        invoke=invoke,
        max_connections=max_connections,
        idle_timeout=idle_timeout,
        access_log=access_log,
    )
    if on_start is not None:
        on_start(server)
    if threading.current_thread() is threading.main_thread():

        def stop(signum: int, _frame: Any) -> None:
            threading.Thread(target=server.stop, daemon=True).start()

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
    if ready is not None:
        ready.set()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
    return server
