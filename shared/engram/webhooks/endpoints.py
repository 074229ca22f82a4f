"""Per-tenant webhooks (the embedded default's events out): endpoints, signatures, the delivery log.

An endpoint is a URL and the event types it wants; its signing secret is shown once, when it is
created. Every delivery is a POST of one event envelope (``engram.events.changes.Event``) with

    Engram-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<body>" with the secret>
    Engram-Event-Id, Engram-Event-Type, Engram-Delivery-Attempt

A receiver checks the signature over the raw body and refuses a timestamp older than a few
minutes (:func:`verify`), so a captured delivery cannot be replayed later. The dispatcher
(``engram.webhooks.dispatch``) sends; this module holds what the admin routes call.

Example::

    >>> hook = CreateWebhook(url="https://example.com/hook")
    >>> created = create_webhook("acme", hook, webhooks=w, tenants=t, clock=c, settings=s)
    >>> created.secret.startswith("whsec_")
    True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from datetime import datetime
from typing import Any, Protocol

from pydantic import BaseModel, Field

from engram.errors import ConflictError, NotFoundError, UnprocessableError
from engram.events.changes import EVENT_TYPES
from engram.models import Request
from engram.ports import Clock, TenantRegistry
from engram.settings import Settings
from engram.tenants import tenancy
from engram.webhooks.urls import check_url

SIGNATURE_HEADER = "Engram-Signature"
TOLERANCE_S = 300
"""How old a signature's timestamp may be before :func:`verify` refuses it (replays)."""
URL_PATTERN = r"^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[!-~]*)?$"
MAX_ENDPOINTS = 20
"""Per tenant: each endpoint gets every event it subscribes to, so a few are plenty."""


class WebhookStore(Protocol):
    """Where endpoints and their delivery log live (the tenant is mandatory on every call)."""

    def create_endpoint(self, tenant_id: str, endpoint: dict[str, Any]) -> None: ...

    def endpoints(self, tenant_id: str) -> list[dict[str, Any]]: ...

    def delete_endpoint(self, tenant_id: str, endpoint_id: str) -> bool: ...

    def deliveries(self, tenant_id: str, endpoint_id: str, *, limit: int = 100) -> list[dict[str, Any]]: ...


class CreateWebhook(Request):
    # The document states what is valid (a URL pattern, the known types); the service checks it
    # and answers 422 naming the field, as for any semantic error.
    url: str = Field(
        min_length=1,
        max_length=2048,
        examples=["https://example.com/engram-events"],
        json_schema_extra={"pattern": URL_PATTERN},
    )
    """Where the events go: an ``https`` URL of a public host (``engram.webhooks.urls``; ``http``
    and loopback/private addresses only with ``ENGRAM_WEBHOOK_ALLOW_PRIVATE`` for local development)."""
    events: list[str] = Field(
        default_factory=lambda: list(EVENT_TYPES),
        min_length=1,
        max_length=len(EVENT_TYPES),
        json_schema_extra={"items": {"type": "string", "enum": list(EVENT_TYPES)}},
    )
    """The event types to send (default: all of them)."""


class Webhook(BaseModel):
    id: str
    url: str
    events: list[str]
    created_at: datetime


class WebhookCreated(Webhook):
    secret: str
    """The signing secret: shown only in this answer."""


class WebhookDeleted(BaseModel):
    id: str
    deleted: bool = True


class WebhookList(BaseModel):
    webhooks: list[Webhook]


class DeliveryAttempt(BaseModel):
    attempt: int
    at: datetime
    status_code: int | None
    """The receiver's HTTP status; None when no answer came (refused, timed out)."""
    error: str | None
    duration_ms: float


class Delivery(BaseModel):
    id: str
    event_id: str
    event_type: str
    subject: str
    status: str
    """``pending`` (being tried), ``delivered`` (a 2xx answer) or ``failed`` (out of attempts)."""
    attempts: int
    created_at: datetime
    finished_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    log: list[DeliveryAttempt]


class DeliveryList(BaseModel):
    deliveries: list[Delivery]


def create_webhook(
    tenant_id: str,
    request: CreateWebhook,
    *,
    webhooks: WebhookStore | None,
    tenants: TenantRegistry,
    clock: Clock,
    settings: Settings,
) -> WebhookCreated:
    """A new endpoint with a fresh secret; a URL Engram will not call (``engram.webhooks.urls``;
    a private address only with ``settings.webhook.allow_private``) or an unknown event type is
    a 422."""
    store = _store(tenant_id, webhooks=webhooks, tenants=tenants, settings=settings)
    check_url(request.url, allow_private=settings.webhook.allow_private)
    unknown = [t for t in request.events if t not in EVENT_TYPES]
    if unknown:
        problem = f"unknown event type(s) {', '.join(unknown)}; known: {', '.join(EVENT_TYPES)}"
        raise UnprocessableError(
            f"events: {problem}", details=[{"field": "events", "problem": problem, "type": "enum"}]
        )
    if len(store.endpoints(tenant_id)) >= MAX_ENDPOINTS:
        raise ConflictError(f"a tenant has at most {MAX_ENDPOINTS} webhooks; delete one first")
    created = WebhookCreated(
        id="wh_" + secrets.token_hex(12),
        url=request.url,
        events=list(dict.fromkeys(request.events)),
        created_at=clock.now(),
        secret="whsec_" + secrets.token_urlsafe(32),
    )
    store.create_endpoint(tenant_id, {**created.model_dump(mode="json")})
    return created


def list_webhooks(
    tenant_id: str, *, webhooks: WebhookStore | None, tenants: TenantRegistry, settings: Settings
) -> WebhookList:
    """The tenant's endpoints, without their secrets."""
    store = _store(tenant_id, webhooks=webhooks, tenants=tenants, settings=settings)
    return WebhookList(webhooks=[Webhook.model_validate(e) for e in store.endpoints(tenant_id)])


def delete_webhook(
    tenant_id: str,
    webhook_id: str,
    *,
    webhooks: WebhookStore | None,
    tenants: TenantRegistry,
    settings: Settings,
) -> None:
    store = _store(tenant_id, webhooks=webhooks, tenants=tenants, settings=settings)
    if not store.delete_endpoint(tenant_id, webhook_id):
        raise NotFoundError(f"webhook '{webhook_id}' not found")


def webhook_deliveries(
    tenant_id: str,
    webhook_id: str,
    *,
    webhooks: WebhookStore | None,
    tenants: TenantRegistry,
    settings: Settings,
    limit: int = 100,
) -> DeliveryList:
    """The endpoint's delivery log, newest first, each delivery with its attempts."""
    store = _store(tenant_id, webhooks=webhooks, tenants=tenants, settings=settings)
    if webhook_id not in {e["id"] for e in store.endpoints(tenant_id)}:
        raise NotFoundError(f"webhook '{webhook_id}' not found")
    rows = store.deliveries(tenant_id, webhook_id, limit=limit)
    return DeliveryList(deliveries=[Delivery.model_validate(r) for r in rows])


def _store(
    tenant_id: str, *, webhooks: WebhookStore | None, tenants: TenantRegistry, settings: Settings
) -> WebhookStore:
    """The webhook store, for a tenant that exists: an unknown or erasing tenant is a 404, and
    so is every tenant where there is no webhook store (events go to EventBridge instead)."""
    tenancy.settings_for(tenant_id, tenants=tenants, settings=settings)
    if webhooks is None:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    return webhooks


def sign(secret: str, body: bytes, *, timestamp: int | None = None) -> str:
    """The ``Engram-Signature`` header value for ``body``: ``t=<unix>,v1=<hex>``."""
    stamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={stamp},v1={digest}"


def verify(
    secret: str, header: str, body: bytes, *, tolerance_s: int = TOLERANCE_S, now: float | None = None
) -> bool:
    """Whether ``header`` signs ``body`` with ``secret`` within ``tolerance_s`` of ``now``."""
    fields: dict[str, list[str]] = {}
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        fields.setdefault(name, []).append(value)
    try:
        stamp = int(fields["t"][0])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - stamp) > tolerance_s:
        return False
    expected = sign(secret, body, timestamp=stamp).split("v1=", 1)[1]
    return any(hmac.compare_digest(expected, given) for given in fields.get("v1", []))
