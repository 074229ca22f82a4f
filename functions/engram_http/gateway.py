"""``engram serve``: a local stand-in for API Gateway that calls the very same Lambda handlers.

Each HTTP request becomes an API Gateway REST proxy event (the shape of ``events/*.json``); the
REQUEST authorizer runs first exactly as API Gateway runs it (its context lands in
``requestContext.authorizer``, a raised "Unauthorized" becomes one fixed 401 body), then the
route's handler is invoked with a Lambda-like context. A threading HTTP server, a body size limit
(413 before anything is read), and a graceful shutdown on SIGINT/SIGTERM that lets in-flight
requests finish.
"""

from __future__ import annotations

import base64
import logging
import re
import signal
import threading
import time
import uuid
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from engram_http.loader import load_handler
from engram_http.routes import ROUTES, Route
from engram_http.runtime import MAX_BODY_BYTES, error_body

logger = logging.getLogger(__name__)

STAGE = "local"
DRAIN_LIMIT = 8 * MAX_BODY_BYTES  # beyond this the connection is simply closed
UNAUTHORIZED = error_body("unauthorized", "invalid or missing API key")
_PARAM = re.compile(r"\{(\w+)\}")


@dataclass
class LocalContext:
    """The attributes of a Lambda context that handlers and Powertools read."""

    function_name: str
    aws_request_id: str
    memory_limit_in_mb: int = 1024
    function_version: str = "$LATEST"
    log_group_name: str = "/engram/local"
    log_stream_name: str = "local"
    deadline: float = 0.0

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:local:000000000000:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self.deadline - time.monotonic()) * 1000))


def _compile(route: Route) -> re.Pattern[str]:
    return re.compile("^" + _PARAM.sub(r"(?P<\1>[^/]+)", route.path) + "$")


COMPILED = [(route, _compile(route)) for route in ROUTES]


def match(method: str, path: str) -> tuple[Route | None, dict[str, str], bool]:
    """(route, path parameters, whether the path exists for another method)."""
    other_method = False
    for route, pattern in COMPILED:
        found = pattern.match(path)
        if found:
            if route.method == method:
                return route, {k: unquote(v) for k, v in found.groupdict().items()}, False
            other_method = True
    return None, {}, other_method


def build_event(
    route: Route,
    *,
    method: str,
    path: str,
    params: dict[str, str],
    query: str,
    headers: dict[str, str],
    body: bytes,
    source_ip: str,
) -> dict[str, Any]:
    """An API Gateway REST proxy event (payload v1.0), as API Gateway would send it."""
    multi_query = parse_qs(query, keep_blank_values=True)
    request_id = str(uuid.uuid4())
    try:
        text, b64 = body.decode("utf-8"), False
    except UnicodeDecodeError:
        text, b64 = base64.b64encode(body).decode(), True
    return {
        "resource": route.path,
        "path": path,
        "httpMethod": method,
        "headers": headers or None,
        "multiValueHeaders": {k: [v] for k, v in headers.items()} or None,
        "queryStringParameters": {k: v[-1] for k, v in multi_query.items()} or None,
        "multiValueQueryStringParameters": multi_query or None,
        "pathParameters": params or None,
        "stageVariables": None,
        "requestContext": {
            "resourcePath": route.path,
            "httpMethod": method,
            "path": path,
            "stage": STAGE,
            "requestId": request_id,
            "extendedRequestId": request_id,
            "protocol": "HTTP/1.1",
            "accountId": "000000000000",
            "apiId": "local",
            "resourceId": "local",
            "requestTimeEpoch": int(time.time() * 1000),
            "domainName": headers.get("host", "localhost"),
            "identity": {"sourceIp": source_ip, "userAgent": headers.get("user-agent")},
        },
        "body": text if body else None,
        "isBase64Encoded": b64,
    }


def authorizer_event(event: dict[str, Any]) -> dict[str, Any]:
    """The REQUEST authorizer's input for a proxy event."""
    ctx = event["requestContext"]
    return {
        "type": "REQUEST",
        "methodArn": f"arn:aws:execute-api:local:000000000000:{ctx['apiId']}/{STAGE}/{event['httpMethod']}"
        f"{event['path']}",
        **{
            k: event[k]
            for k in (
                "resource",
                "path",
                "httpMethod",
                "headers",
                "multiValueHeaders",
                "queryStringParameters",
                "multiValueQueryStringParameters",
                "pathParameters",
                "stageVariables",
                "requestContext",
            )
        },
    }


def _invoke(function: str, event: dict[str, Any], timeout_s: float = 30.0) -> Any:
    context = LocalContext(
        function_name=f"engram-{function}",
        aws_request_id=str(uuid.uuid4()),
        deadline=time.monotonic() + timeout_s,
    )
    return load_handler(function).lambda_handler(event, context)


def _allowed(policy: dict[str, Any]) -> bool:
    statements = (policy.get("policyDocument") or {}).get("Statement") or []
    return any(s.get("Effect") == "Allow" for s in statements) and not any(
        s.get("Effect") == "Deny" for s in statements
    )


def dispatch(
    method: str, target: str, headers: dict[str, str], body: bytes, source_ip: str = "127.0.0.1"
) -> tuple[int, dict[str, str], bytes]:
    """One request through authorizer and handler, as API Gateway does it."""
    split = urlsplit(target)
    route, params, other_method = match(method, split.path)
    if route is None:
        status = 405 if other_method else 404
        code = "method_not_allowed" if other_method else "not_found"
        return status, {"Content-Type": "application/json"}, error_body(code, "no such route").encode()
    event = build_event(
        route,
        method=method,
        path=split.path,
        params=params,
        query=split.query,
        headers=headers,
        body=body,
        source_ip=source_ip,
    )
    if route.auth != "none":
        try:
            policy = _invoke("authorizer", authorizer_event(event), timeout_s=10.0)
        except Exception as exc:  # API Gateway answers 401 for "Unauthorized", 500 for anything else
            if str(exc) == "Unauthorized":
                return 401, {"Content-Type": "application/json"}, UNAUTHORIZED.encode()
            logger.exception("authorizer failed")
            return (
                500,
                {"Content-Type": "application/json"},
                error_body("internal", "authorizer error").encode(),
            )
        if not _allowed(policy):
            return (
                403,
                {"Content-Type": "application/json"},
                error_body("forbidden", "access denied").encode(),
            )
        event["requestContext"]["authorizer"] = {
            "principalId": policy.get("principalId"),
            **(policy.get("context") or {}),
        }
    response = _invoke(route.function, event)
    out_headers = {k: str(v) for k, v in (response.get("headers") or {}).items()}
    for key, values in (response.get("multiValueHeaders") or {}).items():
        out_headers[key] = ", ".join(str(v) for v in values)
    raw = response.get("body") or ""
    payload = base64.b64decode(raw) if response.get("isBase64Encoded") else raw.encode()
    return int(response.get("statusCode", 200)), out_headers, payload


class _Handler(BaseHTTPRequestHandler):
    server_version = "engram-gateway"
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle on, a kept-alive client waits for the
    # delayed ACK (~40 ms) before it sees the body.
    disable_nagle_algorithm = True

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self._drain(length)
            self._send(
                413,
                {"Content-Type": "application/json", "Connection": "close"},
                error_body("payload_too_large", f"the body is larger than {MAX_BODY_BYTES} bytes").encode(),
            )
            self.close_connection = True
            return
        body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            status, out_headers, payload = dispatch(
                self.command, self.path, headers, body, self.client_address[0]
            )
        except Exception:  # a handler crash is a 500 with the usual error shape, never a dropped connection
            logger.exception("request failed")
            status, out_headers = 500, {"Content-Type": "application/json"}
            payload = error_body("internal", "internal error").encode()
        self._send(status, out_headers, payload)

    def _drain(self, length: int) -> None:
        """Read (and drop) an oversize body so the client gets the 413 instead of a broken pipe."""
        if length > DRAIN_LIMIT:
            return
        while length > 0:
            chunk = self.rfile.read(min(length, 1 << 16))
            if not chunk:
                return
            length -= len(chunk)

    def _send(self, status: int, headers: dict[str, str], payload: bytes) -> None:
        self.send_response(status)
        for key, value in headers.items():
            if key.lower() not in ("content-length", "connection"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _serve

    def log_message(self, format: str, *args: Any) -> None:
        logger.info("%s %s", self.address_string(), format % args)


class GatewayServer(ThreadingHTTPServer):
    daemon_threads = False  # shutdown waits for in-flight requests
    block_on_close = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up early is routine; anything else is logged with its traceback."""
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        logger.exception("connection from %s failed", client_address)


def serve(
    host: str, port: int, *, ready: threading.Event | None = None, on_start: Any = None
) -> GatewayServer:
    """Serve until SIGINT/SIGTERM (when run in the main thread), then finish in-flight requests."""
    server = GatewayServer((host, port), _Handler)
    if on_start is not None:
        on_start(server)
    if threading.current_thread() is threading.main_thread():

        def stop(signum: int, _frame: Any) -> None:
            threading.Thread(target=server.shutdown, daemon=True).start()

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
    if ready is not None:
        ready.set()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
    return server
