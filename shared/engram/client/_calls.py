"""Every route of the API as a ``Call``: method, path, body, headers, how its answer is read,
and whether it may be retried after a failure that might have done it. The two clients only
send calls; this module is the one home of paths, bodies, models and the retry policy.

Bodies are built with the API's own request models (``engram.models``), so a wrong field fails
here, before any request, with the same ``details`` the server would give.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import Any, Generic, Literal, TypedDict, TypeVar
from urllib.parse import quote

from pydantic import BaseModel

from engram.client.errors import from_answer, refused
from engram.errors import EngramError
from engram.models import (
    FeedbackRequest,
    FeedbackResponse,
    ForgetRequest,
    ForgetResponse,
    HealthResponse,
    ImportResponse,
    Job,
    JobAccepted,
    ListRequest,
    ListResponse,
    MemoryView,
    PatchRequest,
    RecallRequest,
    RecallResponse,
    RestoreRequest,
    RetainRequest,
    RetainResponse,
    StatsResponse,
    parse,
)
from engram.tenants.admin_models import (
    ConfigureTenant,
    CreateKey,
    CreateTenant,
    KeyCreated,
    KeyRevoked,
    TenantConfigured,
    TenantCreated,
    TenantErased,
)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
Signal = Literal["used", "ignored", "corrected", "positive", "negative"]


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request and how to read its answer."""

    method: str
    path: str
    read: Callable[[int, Mapping[str, str], bytes], T]
    json: dict[str, Any] | None = None
    content: str | None = None
    params: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    retry_unsafe: bool = False
    """True when a request that may have reached the server must not be sent again (feedback,
    import, creations): then only answers that say nothing was done (429, 503) are retried."""


def _model(model: type[M], *ok: int) -> Callable[[int, Mapping[str, str], bytes], M]:
    def read(status: int, headers: Mapping[str, str], body: bytes) -> M:
        _raise_for(status, headers, body, ok or (200,))
        return model.model_validate_json(body)

    return read


def _text(status: int, headers: Mapping[str, str], body: bytes) -> str:
    _raise_for(status, headers, body, (200,))
    return body.decode("utf-8")


def _raise_for(status: int, headers: Mapping[str, str], body: bytes, ok: tuple[int, ...]) -> None:
    if status in ok:
        return
    try:
        parsed: Any = json.loads(body)
    except ValueError:
        parsed = body.decode("utf-8", "replace")
    raise from_answer(status, parsed, retry_after(headers))


def _body(model: type[BaseModel], data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` checked by the API's request model, in the JSON the API reads; a refusal is the
    ``ApiError`` the server would answer (400 or 422, the same message and details)."""
    given = {k: v for k, v in data.items() if v is not None}
    try:
        checked = parse(model, given)
    except EngramError as exc:
        raise refused(exc) from None
    return checked.model_dump(mode="json", by_alias=True, exclude_unset=True)


def _id(value: str) -> str:
    return quote(value, safe="")


# -- options of the larger calls (typed keyword arguments, declared once) -------------------------


class RetainOptions(TypedDict, total=False):
    """What a retain takes besides its scope and text: ``messages`` or ``items`` instead of the text,
    and ``idempotency_key`` (sent as the header; one is generated when none is given)."""

    messages: list[dict[str, Any]] | None
    items: list[dict[str, Any]] | None
    idempotency_key: str | None
    mode: Literal["raw", "smart", "auto"]
    metadata: dict[str, Any]
    tags: list[str]
    occurred_at: datetime | str
    session_id: str
    expires_at: datetime | str


class RecallOptions(TypedDict, total=False):
    scope: str
    scopes: list[str]
    limit: int
    filters: dict[str, Any]
    min_score: float
    debug: bool
    context: bool
    fusion: Literal["weighted", "rrf", "bm25", "vector"]
    track_access: bool
    as_of: datetime | str


class ForgetOptions(TypedDict, total=False):
    ids: list[str]
    query: str
    filter: dict[str, Any]
    scopes: list[str]
    threshold: float
    limit: int
    dry_run: bool


class ListOptions(TypedDict, total=False):
    scope: str
    category: str
    tier: str
    tag: str
    status: str
    limit: int


class KeyOptions(TypedDict, total=False):
    """A new key's limits: ``scopes`` (none: every scope), ``read_only`` (default False) and
    ``expires_in_days`` (none: it never expires)."""

    scopes: list[str] | None
    read_only: bool
    expires_in_days: float | None


class PatchOptions(TypedDict, total=False):
    content: str
    tags: list[str]
    metadata: dict[str, Any]
    pinned: bool
    tier: Literal["peripheral", "working", "core", "archived"]
    expires_at: datetime | str | None


# -- the routes ---------------------------------------------------------------------------------


def _retain_call(
    read: Callable[[int, Mapping[str, str], bytes], T],
    scope: str,
    text: str | None,
    options: RetainOptions,
    run_async: bool,
) -> Call[T]:
    """A retain, with an ``Idempotency-Key`` of its own unless one is given: every retry of this
    call sends the same key, so the server stores the memories once."""
    fields = {k: v for k, v in options.items() if k != "idempotency_key"}
    body = _body(RetainRequest, {"scope": scope, "text": text, **fields, "async": run_async})
    key = options.get("idempotency_key") or "sdk-" + uuid.uuid4().hex
    return Call("POST", "/v1/memories", read, json=body, headers={"Idempotency-Key": key})


def retain(scope: str, text: str | None, options: RetainOptions) -> Call[RetainResponse]:
    """``text``, or ``messages`` or ``items`` in ``options``; answered when the memories are kept."""
    return _retain_call(_model(RetainResponse), scope, text, options, False)


def submit_retain(scope: str, text: str | None, options: RetainOptions) -> Call[JobAccepted]:
    """The same retain as a job (202)."""
    return _retain_call(_model(JobAccepted, 202), scope, text, options, True)


def recall(query: str, options: RecallOptions) -> Call[RecallResponse]:
    return Call(
        "POST", "/v1/recall", _model(RecallResponse), json=_body(RecallRequest, {"query": query, **options})
    )


def forget(options: ForgetOptions) -> Call[ForgetResponse]:
    return Call("POST", "/v1/forget", _model(ForgetResponse), json=_body(ForgetRequest, dict(options)))


def feedback(memory_id: str, signal: Signal) -> Call[FeedbackResponse]:
    body = _body(FeedbackRequest, {"signal": signal})
    path = f"/v1/memories/{_id(memory_id)}/feedback"
    return Call("POST", path, _model(FeedbackResponse), json=body, retry_unsafe=True)


def get(memory_id: str, history: bool) -> Call[MemoryView]:
    params = {"history": "true"} if history else None
    return Call("GET", f"/v1/memories/{_id(memory_id)}", _model(MemoryView), params=params)


def list_memories(cursor: str | None, options: ListOptions) -> Call[ListResponse]:
    query = _body(ListRequest, {**options, "cursor": cursor})
    return Call("GET", "/v1/memories", _model(ListResponse), params={k: str(v) for k, v in query.items()})


def patch(memory_id: str, options: PatchOptions) -> Call[MemoryView]:
    body = PatchRequest.model_validate(dict(options)).model_dump(mode="json", exclude_unset=True)
    return Call("PATCH", f"/v1/memories/{_id(memory_id)}", _model(MemoryView), json=body)


def delete(memory_id: str) -> Call[ForgetResponse]:
    return Call("DELETE", f"/v1/memories/{_id(memory_id)}", _model(ForgetResponse))


def restore(memory_id: str, tier: str) -> Call[MemoryView]:
    body = _body(RestoreRequest, {"tier": tier})
    return Call("POST", f"/v1/memories/{_id(memory_id)}/restore", _model(MemoryView), json=body)


def release(memory_id: str) -> Call[MemoryView]:
    return Call("POST", f"/v1/memories/{_id(memory_id)}/release", _model(MemoryView))


def stats() -> Call[StatsResponse]:
    return Call("GET", "/v1/stats", _model(StatsResponse))


def job(job_id: str) -> Call[Job]:
    return Call("GET", f"/v1/jobs/{_id(job_id)}", _model(Job))


def export() -> Call[str]:
    return Call("POST", "/v1/export", _text)


def import_jsonl(jsonl: str) -> Call[ImportResponse | JobAccepted]:
    """The counts (200), or the job an import too large for one call became (202)."""

    def read(status: int, headers: Mapping[str, str], body: bytes) -> ImportResponse | JobAccepted:
        _raise_for(status, headers, body, (200, 202))
        model = JobAccepted if status == 202 else ImportResponse
        return model.model_validate_json(body)

    headers = {"Content-Type": "application/x-ndjson"}
    return Call("POST", "/v1/import", read, content=jsonl, headers=headers, retry_unsafe=True)


def health() -> Call[HealthResponse]:
    return Call("GET", "/v1/health", _model(HealthResponse))


def openapi() -> Call[dict[str, Any]]:
    def read(status: int, headers: Mapping[str, str], body: bytes) -> dict[str, Any]:
        _raise_for(status, headers, body, (200,))
        return dict(json.loads(body))

    return Call("GET", "/v1/openapi.json", read)


def create_tenant(tenant_id: str, name: str | None) -> Call[TenantCreated]:
    body = _body(CreateTenant, {"tenant_id": tenant_id, "name": name})
    return Call("POST", "/v1/admin/tenants", _model(TenantCreated, 201), json=body, retry_unsafe=True)


def create_key(tenant_id: str, options: KeyOptions) -> Call[KeyCreated]:
    body = _body(CreateKey, dict(options))
    path = f"/v1/admin/tenants/{_id(tenant_id)}/keys"
    return Call("POST", path, _model(KeyCreated, 201), json=body, retry_unsafe=True)


def configure_tenant(tenant_id: str, settings: dict[str, Any]) -> Call[TenantConfigured]:
    body = _body(ConfigureTenant, {"settings": settings})
    return Call("PUT", f"/v1/admin/tenants/{_id(tenant_id)}/settings", _model(TenantConfigured), json=body)


def revoke_key(key_id: str) -> Call[KeyRevoked]:
    return Call("DELETE", f"/v1/admin/keys/{_id(key_id)}", _model(KeyRevoked))


def erase_tenant(tenant_id: str) -> Call[TenantErased]:
    return Call("DELETE", f"/v1/admin/tenants/{_id(tenant_id)}", _model(TenantErased, 200, 202))


# -- retries ------------------------------------------------------------------------------------

RETRIED = frozenset({429, 500, 502, 503, 504})
NOTHING_DONE = frozenset({429, 503})
"""Answers that say the request was not carried out, so even a non-idempotent one may go again."""


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter, honouring ``Retry-After``; never on a 4xx but 429.

    >>> policy = RetryPolicy(max_retries=2, base_s=0.5, cap_s=8.0)
    >>> policy.delay(0, 503, {"retry-after": "2"}, retry_unsafe=True)
    2.0
    >>> policy.delay(0, 404, {}, retry_unsafe=False) is None
    True
    >>> policy.delay(2, 503, {}, retry_unsafe=False) is None  # out of retries
    True
    """

    max_retries: int = 3
    base_s: float = 0.5
    cap_s: float = 8.0
    max_retry_after_s: float = 60.0

    def delay(
        self, attempt: int, status: int | None, headers: Mapping[str, str], *, retry_unsafe: bool
    ) -> float | None:
        """Seconds to wait before attempt ``attempt + 1``, or None to stop (``status`` None: the
        request failed in transit)."""
        if attempt >= self.max_retries:
            return None
        nothing_done = status is not None and status in NOTHING_DONE
        if not nothing_done and (retry_unsafe or (status is not None and status not in RETRIED)):
            return None
        after = retry_after(headers)
        if after is not None:
            return min(after, self.max_retry_after_s)
        return random.uniform(0, min(self.cap_s, self.base_s * 2**attempt))


def retry_after(headers: Mapping[str, str]) -> float | None:
    """``Retry-After`` in seconds (a number or an HTTP date), or None."""
    value = next((v for k, v in headers.items() if k.lower() == "retry-after"), None)
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(when.tzinfo)).total_seconds())
