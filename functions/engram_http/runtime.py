"""What every handler shares: observability, the dependencies, the caller's identity, error responses.

Nothing here builds anything at import time: ``deps()`` builds the process's ``Deps`` on first
use from the environment (once per Lambda container, ``engram.app.build``), or returns the ones
the local gateway installed with ``use_deps``. The tenant comes only from the authorizer context
of the event, never from the body, query or headers: ``tenant()`` is the caller's
``TenantContext`` (``engram.tenants.tenancy.resolve``) that a handler hands its one service function.
"""

from __future__ import annotations

import base64
import contextlib
import contextvars
import functools
import json
import os
import threading
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.params import Path
from pydantic import BaseModel

from engram import deadline, strict_json
from engram.errors import (
    ConfigurationError,
    EngramError,
    ForbiddenError,
    UnauthorizedError,
    ValidationFailedError,
    envelope,
    from_validation,
)
from engram.models import JOB_ID, MEMORY_ID, TENANT_ID, dump
from engram.scopes import ScopeSet
from engram.strict_json import StrictJsonError
from engram_http.errors import http_status

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler.middlewares import NextMiddleware

    from engram.deps import Deps
    from engram.engine import Engine
    from engram.tenants.tenancy import TenantContext

# A handler that records no metric on a request is normal here, not worth a warning per request.
warnings.filterwarnings("ignore", message="No application metrics to publish")


class LazyTracer:
    """Powertools' Tracer, created on the first traced call instead of at import.

    Building a Tracer imports the X-Ray SDK (~180 ms here), which would more than double every
    handler's import time. Tracing runs only inside Lambda with tracing not disabled
    (``POWERTOOLS_TRACE_DISABLED``), so the local gateway never pays for it and a traced
    function pays once, on its first invocation.
    """

    def __init__(self, service: str) -> None:
        self.service = service
        self._tracer: Tracer | None = None
        self._lock = threading.Lock()

    @staticmethod
    def enabled() -> bool:
        disabled = os.environ.get("POWERTOOLS_TRACE_DISABLED", "false").lower() in ("1", "true", "yes")
        return bool(os.environ.get("AWS_LAMBDA_FUNCTION_NAME")) and not disabled

    def get(self) -> Tracer | None:
        if not self.enabled():
            return None
        with self._lock:
            if self._tracer is None:
                self._tracer = Tracer(service=self.service)
        return self._tracer

    def _lazy(self, fn: F, decorate: Callable[[Tracer, F], F]) -> F:
        wrapped: list[F] = []

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            if not wrapped:
                real = self.get()
                wrapped.append(decorate(real, fn) if real is not None else fn)
            return wrapped[0](*args, **kwargs)

        return cast(F, call)

    def capture_lambda_handler(self, fn: F) -> F:
        return self._lazy(fn, lambda t, f: cast(F, t.capture_lambda_handler(f)))

    def capture_method(self, fn: F) -> F:
        return self._lazy(fn, lambda t, f: t.capture_method(f))


logger = Logger(service="engram")
tracer = LazyTracer(service="engram")
metrics = Metrics(namespace="Engram", service="engram")

MAX_BODY_BYTES = 6 * 1024 * 1024  # Lambda's synchronous payload limit
ANSWER_MARGIN_S = 1.5
"""Time kept back from every internal deadline to log and answer before the function times out."""
MemoryIdPath = Annotated[str, Path(pattern=MEMORY_ID)]
"""A ``{id}`` path parameter naming a memory: anything else is a 400 naming ``id``."""
JobIdPath = Annotated[str, Path(pattern=JOB_ID)]
TenantPath = Annotated[str, Path(pattern=TENANT_ID)]
"""A ``{tenant}`` path parameter of the operator's routes."""
JSON = "application/json"

F = TypeVar("F", bound=Callable[..., Any])
_current_event: contextvars.ContextVar[Mapping[str, Any] | None] = contextvars.ContextVar(
    "event", default=None
)
_current_request: contextvars.ContextVar[str] = contextvars.ContextVar("request", default="")
_deps: Deps | None = None
_engine: Engine | None = None
_lock = threading.Lock()


def count(name: str, value: float) -> None:
    """Record a count metric. Skipped when metrics are disabled: Powertools then never flushes the
    set, which would grow until it prints at 100 entries."""
    from aws_lambda_powertools.metrics.functions import is_metrics_disabled

    if not is_metrics_disabled():
        metrics.add_metric(name=name, unit="Count", value=value)


def count_extraction(extraction: str | None, fallback: str | None) -> None:
    """One smart or auto retain's extraction, and whether it fell back to the rules: the
    ``extraction-fallbacks`` alarm watches their ratio."""
    if extraction is not None:
        count("Extractions", 1)
        count("ExtractionFallbacks", 1 if fallback else 0)


@contextlib.contextmanager
def invocation_budget(context: Any, margin_s: float = ANSWER_MARGIN_S) -> Iterator[None]:
    """Every deadline inside ends ``margin_s`` before this invocation would time out."""
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    seconds = remaining() / 1000 - margin_s if callable(remaining) else None
    with deadline.within(seconds):
        yield


def check_at_init(environ: Mapping[str, str] = os.environ) -> None:
    """Inside Lambda, a misconfigured function fails its init (the log says why) instead of
    answering requests as if they were wrong; API Gateway then answers a generic 5xx."""
    if not environ.get("AWS_LAMBDA_FUNCTION_NAME"):
        return
    from engram.settings import Settings

    try:
        Settings.from_env(environ)  # every rule is a validator of Settings
    except Exception:
        logger.exception("the function's configuration is invalid; it cannot start")
        raise


def use_deps(deps: Deps | None) -> None:
    """Install the dependencies every handler of this process uses (the local gateway does this)."""
    global _deps
    _deps = deps


def use_engine(engine: Engine | None) -> None:
    """Install an ``Engine`` (scripts and tests that hold one): the handlers read its ``deps``
    (an engine ``with_ports`` other ports is installed again)."""
    global _engine
    _engine = engine


def deps() -> Deps:
    """The process's dependencies, built on first use from ``ENGRAM_*`` settings."""
    global _deps
    if _engine is not None:
        return _engine.deps
    if _deps is None:
        with _lock:
            if _deps is None:
                from engram.app import build
                from engram.settings import Settings

                _deps = build(Settings.from_env(os.environ))
    return _deps


@dataclass(frozen=True)
class Caller:
    """Who is calling, as the authorizer established it."""

    tenant_id: str
    key_id: str
    scopes: ScopeSet
    can_write: bool


def authorizer(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """What the authorizer established about the caller of an API Gateway event (``{}``: nothing)."""
    return cast("Mapping[str, Any]", (event.get("requestContext") or {}).get("authorizer") or {})


def caller(app: APIGatewayRestResolver, *, write: bool = False) -> Caller:
    """The caller from the authorizer context; ``write`` demands a read-write key."""
    context = authorizer(app.current_event.raw_event)
    tenant_id = context.get("tenant_id")
    if not tenant_id:
        raise UnauthorizedError("invalid or missing API key")
    who = Caller(
        tenant_id=str(tenant_id),
        key_id=str(context.get("key_id", "")),
        scopes=ScopeSet.decode(context.get("scopes")),
        can_write=str(context.get("permission", "read")) == "read-write",
    )
    logger.append_keys(tenant_id=who.tenant_id, key_id=who.key_id)
    if write and not who.can_write:
        raise ForbiddenError("this API key is read-only")
    return who


def tenant(app: APIGatewayRestResolver, *, write: bool = False) -> TenantContext:
    """The caller's tenant context (``caller``, then ``engram.tenants.tenancy.resolve``: an unknown or
    erasing tenant is a 404 before any work)."""
    from engram.tenants import tenancy  # the store's ports (and numpy): not for the authorizer

    return deps().call(tenancy.resolve, caller(app, write=write))


def operator_only(app: APIGatewayRestResolver, next_middleware: NextMiddleware) -> Response[str]:
    """Middleware of the operator's routes: any other caller is a 403 (once the request is valid)."""
    if authorizer(app.current_event.raw_event).get("role") != "operator":
        raise ForbiddenError("admin routes need the operator credential")
    return next_middleware(app)


def error_body(code: str, message: str, details: list[dict[str, Any]] | None = None) -> str:
    """The error envelope (``engram.errors.envelope``) as the text of a response body."""
    return json.dumps(envelope(code, message, details))


def _from_validation(exc: RequestValidationError) -> Response[str]:
    errors = exc.errors()
    if any(err.get("type") == "json_invalid" for err in errors):
        return Response(400, JSON, error_body("malformed_json", "the body is not valid JSON"))
    return _from_engram(from_validation(errors, outer=("body", "path", "query")))


def request_id(event: Mapping[str, Any] | None = None) -> str:
    """The API Gateway request id of the event (what its access log and the caller see), else
    the Lambda invocation's; empty outside both."""
    event = event if event is not None else _current_event.get()
    context = (event or {}).get("requestContext") or {}
    return str(context.get("requestId") or _current_request.get() or "")


def internal_error(event: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The envelope of a failure the caller cannot act on: ``internal_error`` and the request id
    to quote (the log line of the failure carries the same id)."""
    rid = request_id(event)
    body = envelope("internal_error", f"internal error (request {rid})" if rid else "internal error")
    if rid:
        body["error"]["request_id"] = rid
    return body


def _from_engram(exc: EngramError) -> Response[str]:
    if isinstance(exc, ConfigurationError):  # the operator's fault: the details are in the log
        return Response(500, JSON, json.dumps(internal_error()))
    headers = {}
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    body = exc.to_dict()
    if http_status(exc) >= 500 and request_id():
        body["error"]["request_id"] = request_id()
    return Response(http_status(exc), JSON, json.dumps(body), headers=headers or None)


def _from_unhandled(exc: Exception) -> Response[str]:
    """Any other exception of a route: logged with its traceback, answered in the envelope."""
    from aws_lambda_powertools.event_handler.exceptions import ServiceError

    if isinstance(exc, ServiceError):  # Powertools' own (a 405, a 400 it raised): keep its status
        code = "not_found" if exc.status_code == 404 else "invalid_request"
        return Response(exc.status_code, JSON, error_body(code, str(exc.msg)))
    logger.exception("unhandled error", extra={"request_id": request_id()})
    return Response(500, JSON, json.dumps(internal_error()))


class EngramResolver(APIGatewayRestResolver):
    """Bodies are UTF-8, and strict JSON (``engram.strict_json``) whatever the Content-Type says
    (curl -d sends a form type by default); a route in ``text_bodies`` (JSONL) checks its own
    lines. A body that fails is a 400 before any route code runs. Every route's code is traced
    (``tracer.capture_method``)."""

    def __init__(self, *, text_bodies: tuple[str, ...] = (), **options: Any) -> None:
        super().__init__(**options)
        self.text_bodies = text_bodies

    def route(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        register = super().route(*args, **kwargs)
        return lambda fn: register(tracer.capture_method(fn))

    def resolve(self, event: Mapping[str, Any], context: Any) -> dict[str, Any]:
        if event.get("body"):
            try:
                text = self._checked_body(event)
            except StrictJsonError as exc:
                return _refused(error_body("malformed_json", str(exc)))
            except ValidationFailedError as exc:
                return _refused(json.dumps(exc.to_dict()))
            headers = {k: v for k, v in (event.get("headers") or {}).items() if k.lower() != "content-type"}
            multi = {
                k: v for k, v in (event.get("multiValueHeaders") or {}).items() if k.lower() != "content-type"
            }
            event = {
                **event,
                "body": text,
                "isBase64Encoded": False,
                "headers": {**headers, "content-type": JSON},
                "multiValueHeaders": {**multi, "content-type": [JSON]},
            }
        return super().resolve(event, context)

    def _checked_body(self, event: Mapping[str, Any]) -> str:
        """The body as text: UTF-8, and strict JSON unless the route reads its own format."""
        body = str(event["body"])
        raw = (
            base64.b64decode(body) if event.get("isBase64Encoded") else body.encode("utf-8", "surrogatepass")
        )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StrictJsonError(f"the body is not UTF-8 (byte {exc.start})") from None
        if event.get("resource") in self.text_bodies:
            return text
        document = strict_json.loads(text)
        if document is not None and not isinstance(document, dict):  # Powertools reads a list as no body
            problem = {"field": "(body)", "problem": "must be a JSON object", "type": "model_type"}
            raise ValidationFailedError("invalid request: the body must be a JSON object", details=[problem])
        # What the routes parse is the checked document, integral numbers (57.0) as integers.
        return json.dumps(document)


def _refused(body: str) -> dict[str, Any]:
    """A 400 answered before any route code runs (the body did not pass ``_checked_body``)."""
    return {"statusCode": 400, "headers": {"Content-Type": JSON}, "body": body, "isBase64Encoded": False}


def resolver(*, text_bodies: tuple[str, ...] = (), operator: bool = False) -> APIGatewayRestResolver:
    """A REST resolver with OpenAPI validation and Engram's error format for every failure;
    ``text_bodies``: routes whose body is not one JSON document (it is still UTF-8); ``operator``:
    every route answers the operator only (``operator_only``)."""
    app = EngramResolver(enable_validation=True, text_bodies=text_bodies)
    if operator:
        app.use(middlewares=[operator_only])

    @app.exception_handler(RequestValidationError)
    def _validation(exc: RequestValidationError) -> Response[str]:
        return _from_validation(exc)

    @app.exception_handler(EngramError)
    def _engram(exc: EngramError) -> Response[str]:
        if http_status(exc) >= 500:
            logger.exception("request failed")
        return _from_engram(exc)

    @app.exception_handler(Exception)
    def _unhandled(exc: Exception) -> Response[str]:
        return _from_unhandled(exc)

    @app.not_found
    def _not_found(_: Exception) -> Response[str]:
        return Response(404, JSON, error_body("not_found", "no such route"))

    return app


def entry_point(app: APIGatewayRestResolver) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    """The Lambda entry point of a resolver: Powertools logging context, tracing and metrics."""

    @logger.inject_lambda_context(clear_state=True)  # no keys of the last invocation (its tenant) carry over
    @tracer.capture_lambda_handler
    @metrics.log_metrics
    def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        events = _current_event.set(event)
        requests = _current_request.set(str(getattr(context, "aws_request_id", "") or ""))
        from engram.app import invocation

        try:
            with invocation_budget(context), invocation():  # counters: one write each
                response = app.resolve(event, context)
                _meter_request(event)
            return response
        except Exception:  # outside any route (metering, the resolver itself): still the envelope
            logger.exception("unhandled error", extra={"request_id": request_id(event)})
            return {
                "statusCode": 500,
                "headers": {"Content-Type": JSON},
                "body": json.dumps(internal_error(event)),
                "isBase64Encoded": False,
            }
        finally:
            _current_event.reset(events)
            _current_request.reset(requests)

    return lambda_handler


def _meter_request(event: Mapping[str, Any]) -> None:
    """Count a tenant's request under its route (``requests:POST /v1/recall``); operator and
    public routes have no tenant and are not counted."""
    tenant_id = authorizer(event).get("tenant_id")
    if tenant_id:
        route = f"requests:{event.get('httpMethod', '')} {event.get('resource', '')}"
        deps().meter.add(str(tenant_id), {"requests": 1, route: 1})


def json_response(payload: Any, status: int = 200) -> Response[str]:
    """A JSON response; pydantic models are dumped in the API's shape (the CLI's ``--json`` too)."""
    if isinstance(payload, BaseModel):
        payload = dump(payload)
    # UTF-8 as it is: a \u escape makes a CJK character 6 bytes instead of 3 (Lambda answers <= 6 MB)
    return Response(status, JSON, json.dumps(payload, default=str, ensure_ascii=False))


class ErrorDetail(BaseModel):
    code: str
    message: str
    details: list[dict[str, Any]] | None = None


class ErrorBody(BaseModel):
    """Every error: ``{"error": {"code", "message", "details"?}}``."""

    error: ErrorDetail


_ERRORS = {
    400: "invalid request",
    401: "missing, unknown, revoked or expired API key",
    403: "scope or permission not allowed",
    404: "not found, or not yours",
    409: "conflict",
    413: "body too large",
    422: "unknown fields or unprocessable",
    429: "quota exceeded (see Retry-After)",
}


def documented(
    model: type[BaseModel],
    description: str,
    *,
    status: int = 200,
    errors: tuple[int, ...] = (400, 401, 403, 404, 413, 422, 429),
) -> dict[int, Any]:
    """OpenAPI ``responses`` for a route: its success model and Engram's error body."""
    success = {status: {"description": description, "content": {JSON: {"model": model}}}}
    return {**success, **error_responses(errors)}


def error_responses(errors: tuple[int, ...]) -> dict[int, Any]:
    """OpenAPI ``responses`` for Engram's error body under each status in ``errors``."""
    return {code: {"description": _ERRORS[code], "content": {JSON: {"model": ErrorBody}}} for code in errors}


check_at_init()
