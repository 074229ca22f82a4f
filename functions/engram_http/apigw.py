"""What API Gateway does for a request, done locally: route, build the event, authorize, invoke.

Each HTTP request becomes an API Gateway REST proxy event (payload v1.0, the shape of
``events/*.json``); the REQUEST authorizer runs first exactly as API Gateway runs it (its context
lands in ``requestContext.authorizer``, a raised "Unauthorized" becomes one fixed 401 body), then
the route's handler is invoked with a Lambda-like context.

**Execution environments.** A Lambda container serves one event at a time, and the handlers
rely on it: Powertools' resolvers keep the current event on the ``BaseRouter`` class (shared by
every resolver in a process) and its Logger and Metrics keep per-invocation keys and metrics.
So ``dispatch`` never runs a handler in the server's own threads: it hands each invocation
(authorizer and handler alike) to ``invoke``, which in ``engram serve`` is a pool of worker
processes (``engram_http.workers``), each running one invocation at a time, as Lambda runs
concurrent invocations in separate environments. ``invoke`` runs one in this process: a
worker calls it, and so may a single-threaded script or test.

**Timeouts.** Each function has its configured timeout (``routes.timeout_s``, the stack's); an
invocation that runs past it is ended and answered 504 in the error envelope, as API Gateway
answers a Lambda that timed out.
"""

from __future__ import annotations

import base64
import logging
import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from engram_http.loader import load_handler
from engram_http.ratelimit import FailedAuthLimiter, Limits, RateLimiter
from engram_http.routes import ROUTES, Route, timeout_s
from engram_http.runtime import error_body

logger = logging.getLogger(__name__)

STAGE = "local"
JSON_HEADERS = {"Content-Type": "application/json"}
UNAUTHORIZED = error_body("unauthorized", "invalid or missing API key")
_PARAM = re.compile(r"\{(\w+)\}")

Answer = tuple[int, dict[str, str], bytes]
Invoke = Callable[[str, dict[str, Any], float], Any]
"""``invoke(function, event, timeout_s)``: the function's answer; raises what the function raised
(its message kept), or ``FunctionTimeout`` past the timeout."""


class FunctionTimeout(Exception):
    """The function did not answer within its timeout (``seconds``)."""

    def __init__(self, function: str, seconds: float) -> None:
        super().__init__(f"{function} timed out after {seconds:g} s")
        self.function = function
        self.seconds = seconds


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


def match(method: str, path: str) -> tuple[Route | None, dict[str, str], list[str]]:
    """(route, path parameters, the methods the path has when ``method`` is not one of them)."""
    allowed: list[str] = []
    for route, pattern in COMPILED:
        found = pattern.match(path)
        if found:
            if route.method == method:
                return route, {k: unquote(v) for k, v in found.groupdict().items()}, []
            allowed.append(route.method)
    return None, {}, allowed


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


def invoke(function: str, event: dict[str, Any], timeout_s: float = 30.0) -> Any:
    """Run one function's ``lambda_handler`` on ``event`` in this process (a worker's one
    invocation at a time; never from two threads at once, see the module doc)."""
    module = load_handler(function)
    context = LocalContext(
        function_name=f"engram-{function}",
        aws_request_id=str(uuid.uuid4()),
        deadline=time.monotonic() + timeout_s,
    )
    return module.lambda_handler(event, context)


def timed_out(exc: FunctionTimeout) -> Answer:
    """API Gateway's answer to a function that ran past its timeout, in the error envelope."""
    message = f"the request did not finish within {exc.seconds:g} s (the {exc.function} function's timeout)"
    return 504, dict(JSON_HEADERS), error_body("timeout", message).encode()


def _allowed(policy: dict[str, Any]) -> bool:
    statements = (policy.get("policyDocument") or {}).get("Statement") or []
    return any(s.get("Effect") == "Allow" for s in statements) and not any(
        s.get("Effect") == "Deny" for s in statements
    )


def _authorize(event: dict[str, Any], invoke: Invoke) -> Answer | None:
    """Run the authorizer; put its context in the event, or answer as API Gateway would."""
    try:
        policy = invoke("authorizer", authorizer_event(event), timeout_s("authorizer"))
    except FunctionTimeout as exc:
        return timed_out(exc)
    except Exception as exc:  # API Gateway answers 401 for "Unauthorized", 500 for anything else
        if str(exc) == "Unauthorized":
            return 401, dict(JSON_HEADERS), UNAUTHORIZED.encode()
        logger.exception("authorizer failed")
        return 500, dict(JSON_HEADERS), error_body("internal", "authorizer error").encode()
    if not _allowed(policy):
        return 403, dict(JSON_HEADERS), error_body("forbidden", "access denied").encode()
    event["requestContext"]["authorizer"] = {
        "principalId": policy.get("principalId"),
        **(policy.get("context") or {}),
    }
    return None


_LIMITER: RateLimiter | None = None
_LIMITER_LOCK = threading.Lock()
FAILURES = FailedAuthLimiter()
"""This process's failed authentications per source address."""


def _tenant_limits(tenant_id: str) -> Limits:
    from engram.errors import NotFoundError
    from engram.tenants import tenancy
    from engram_http.runtime import deps

    try:
        limits = deps().call(tenancy.settings_for, tenant_id).limits
    except NotFoundError:
        return None, None  # the handler answers 404
    return limits.requests_per_second, limits.burst


def _limiter() -> RateLimiter:
    """The process's limiter (made on first use); its limits are the tenants' settings."""
    global _LIMITER
    with _LIMITER_LOCK:
        if _LIMITER is None:
            _LIMITER = RateLimiter(_tenant_limits)
        return _LIMITER


def _credential(headers: dict[str, str]) -> str:
    """A digest of the presented key (the authorizer reads ``Authorization`` or ``x-api-key``)."""
    import hashlib

    presented = [v for k, v in headers.items() if k.lower() in ("authorization", "x-api-key")]
    return hashlib.sha256("\n".join(sorted(presented)).encode()).hexdigest()


def _rate_limited(wait: int, message: str | None = None) -> Answer:
    message = message or f"over the tenant's request rate; retry in {wait} s"
    return 429, {**JSON_HEADERS, "Retry-After": str(wait)}, error_body("rate_limited", message).encode()


def dispatch(
    method: str,
    target: str,
    headers: dict[str, str],
    body: bytes,
    source_ip: str = "127.0.0.1",
    seen: dict[str, str] | None = None,
    *,
    invoke: Invoke,
) -> Answer:
    """One request through authorizer and handler, as API Gateway does it, each invocation run
    by ``invoke``; ``seen`` (for the access log) gets the matched route template and the
    caller's tenant, when known."""
    split = urlsplit(target)
    route, params, allowed = match(method, split.path)
    if route is None and split.path.endswith("/") and len(split.path) > 1:
        # API Gateway matches "/ui/" to the resource "/ui" (the event keeps the path as sent).
        route, params, allowed = match(method, split.path.rstrip("/"))
    if seen is not None and route is not None:
        seen["route"] = route.path
    if route is None:
        if allowed:
            names = ", ".join(sorted(set(allowed)))
            message = f"{method} is not allowed here (allowed: {names})"
            return 405, {**JSON_HEADERS, "Allow": names}, error_body("method_not_allowed", message).encode()
        return 404, dict(JSON_HEADERS), error_body("not_found", "no such route").encode()
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
    credential = _credential(headers)
    known = _limiter().tenant_of(credential) if route.auth == "key" else None
    if known is not None and (wait := _limiter().retry_after(known)) is not None:
        # A credential this process has verified before names its tenant: a request over the
        # tenant's rate is refused before the authorizer runs, so a flood costs the others little.
        return _rate_limited(wait)
    if route.auth != "none":
        # A source that failed to authenticate too often is refused before the authorizer runs,
        # unless it presents a credential verified before (its other clients keep working).
        if not FAILURES.verified(credential) and (wait := FAILURES.retry_after(source_ip)) is not None:
            message = f"too many failed authentications from this address; retry in {wait} s"
            return _rate_limited(wait, message)
        refused = _authorize(event, invoke)
        if refused is not None:
            if refused[0] == 401:
                FAILURES.failed(source_ip, credential)
                _limiter().forget(credential)
            return refused
        FAILURES.vouch(credential)
        tenant = event["requestContext"]["authorizer"].get("tenant_id")
        if seen is not None:
            seen["tenant"] = str(tenant or event["requestContext"]["authorizer"].get("role") or "-")
        if route.auth == "key" and tenant:
            _limiter().remember(credential, str(tenant))
            if known is None and (wait := _limiter().retry_after(str(tenant))) is not None:
                return _rate_limited(wait)
    try:
        response = invoke(route.function, event, timeout_s(route.function))
    except FunctionTimeout as exc:
        return timed_out(exc)
    out_headers = {k: str(v) for k, v in (response.get("headers") or {}).items()}
    for key, values in (response.get("multiValueHeaders") or {}).items():
        out_headers[key] = ", ".join(str(v) for v in values)
    raw = response.get("body") or ""
    payload = base64.b64decode(raw) if response.get("isBase64Encoded") else raw.encode()
    return int(response.get("statusCode", 200)), out_headers, payload
