"""The API's routes: one table for the local gateway, the CDK app and the tests.

Each row is (method, path template as API Gateway writes it, function folder under ``functions/``,
authorization: ``key`` for tenant API keys, ``operator`` for admin routes, ``none`` for public ones).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

Auth = Literal["key", "operator", "none"]


class Route(NamedTuple):
    method: str
    path: str
    function: str
    auth: Auth
    tag: str = "docs"
    """The resource the OpenAPI document files the operation under."""
    summary: str = ""
    """What the operation does, in a few words (the OpenAPI summary)."""


# One route a line, as a table (the formatter would fold the long rows over several).
# fmt: off
ROUTES: tuple[Route, ...] = (
    Route("POST",   "/v1/memories",                                                "retain",   "key",      "memories", "Retain texts, messages or a batch of items"),
    Route("POST",   "/v1/recall",                                                  "recall",   "key",      "recall",   "Recall the memories that matter for a query"),
    Route("POST",   "/v1/forget",                                                  "forget",   "key",      "forget",   "Forget by ids, by query or by filter"),
    Route("POST",   "/v1/memories/{id}/feedback",                                  "feedback", "key",      "feedback", "Say whether a memory helped"),
    Route("GET",    "/v1/memories",                                                "memories", "key",      "memories", "List memories, a page at a time"),
    Route("GET",    "/v1/memories/{id}",                                           "memories", "key",      "memories", "Get one memory (and its history)"),
    Route("PATCH",  "/v1/memories/{id}",                                           "memories", "key",      "memories", "Change a memory's content, tags or pin"),
    Route("DELETE", "/v1/memories/{id}",                                           "memories", "key",      "memories", "Delete one memory"),
    Route("POST",   "/v1/memories/{id}/restore",                                   "memories", "key",      "memories", "Bring an archived memory back"),
    Route("POST",   "/v1/memories/{id}/release",                                   "memories", "key",      "memories", "Release a quarantined memory"),
    Route("GET",    "/v1/stats",                                                   "memories", "key",      "tenant",   "Counts, storage, usage and the last lifecycle run"),
    Route("GET",    "/v1/jobs/{id}",                                               "memories", "key",      "memories", "An asynchronous retain's or import's status"),
    Route("POST",   "/v1/export",                                                  "memories", "key",      "tenant",   "Export every memory as JSONL"),
    Route("POST",   "/v1/import",                                                  "memories", "key",      "tenant",   "Import an export's JSONL"),
    Route("POST",   "/v1/import/upload",                                           "memories", "key",      "tenant",   "Where to upload a large import (cloud)"),
    Route("POST",   "/v1/admin/tenants",                                           "admin",    "operator", "admin",    "Create a tenant"),
    Route("GET",    "/v1/admin/tenants",                                           "admin",    "operator", "admin",    "List the tenants"),
    Route("GET",    "/v1/admin/tenants/{tenant}",                                  "admin",    "operator", "admin",    "A tenant's counts, usage and keys"),
    Route("POST",   "/v1/admin/tenants/{tenant}/keys",                             "admin",    "operator", "admin",    "Create an API key"),
    Route("PUT",    "/v1/admin/tenants/{tenant}/settings",                         "admin",    "operator", "admin",    "Set a tenant's settings"),
    Route("GET",    "/v1/admin/tenants/{tenant}/usage",                            "admin",    "operator", "admin",    "A tenant's usage per day"),
    Route("DELETE", "/v1/admin/keys/{key_id}",                                     "admin",    "operator", "admin",    "Revoke an API key"),
    Route("POST",   "/v1/admin/tenants/{tenant}/webhooks",                         "webhooks", "operator", "admin",    "Subscribe a URL to events"),
    Route("GET",    "/v1/admin/tenants/{tenant}/webhooks",                         "webhooks", "operator", "admin",    "List the webhooks"),
    Route("DELETE", "/v1/admin/tenants/{tenant}/webhooks/{webhook_id}",            "webhooks", "operator", "admin",    "Remove a webhook"),
    Route("GET",    "/v1/admin/tenants/{tenant}/webhooks/{webhook_id}/deliveries", "webhooks", "operator", "admin",    "A webhook's delivery log"),
    Route("DELETE", "/v1/admin/tenants/{tenant}",                                  "admin",    "operator", "admin",    "Erase a tenant and all it holds"),
    Route("GET",    "/v1/openapi.json",                                            "docs",     "none",     "docs",     "This OpenAPI document"),
    Route("GET",    "/v1/docs",                                                    "docs",     "none",     "docs",     "Swagger UI"),
    Route("GET",    "/v1/health",                                                  "docs",     "none",     "docs",     "Liveness (no key needed)"),
    Route("GET",    "/ui",                                                         "docs",     "none",     "docs",     "The memory inspector (a web page)"),
    Route("GET",    "/ui/{name}",                                                  "docs",     "none",     "docs",     "The memory inspector's files"),
)
# fmt: on

TAGS: tuple[tuple[str, str], ...] = (
    ("memories", "Retain, read, change and delete memories"),
    ("recall", "Find what to remember before answering"),
    ("forget", "Hard deletes with a receipt"),
    ("feedback", "Which recalled memories helped"),
    ("tenant", "The tenant's counts, export and import"),
    ("admin", "Operator only: tenants, keys, settings, erasure, webhooks (embedded server)"),
    ("docs", "This document, Swagger UI and liveness"),
)
"""The OpenAPI tags, in the order Swagger UI shows them."""

FUNCTIONS: tuple[str, ...] = tuple(dict.fromkeys(r.function for r in ROUTES))
TIMEOUT_S: dict[str, float] = {"authorizer": 10, "feedback": 10, "docs": 10, "retain": 23}
"""Each function's timeout where it is not ``DEFAULT_TIMEOUT_S``: the stack's (``infra``
``API_FUNCTIONS``; a test holds the two together) and what ``engram serve`` enforces."""
DEFAULT_TIMEOUT_S = 26.0
"""Every other HTTP function's timeout: API Gateway's 29 s integration limit less what a cold
start may add (``infra`` ``COLD_START_S``)."""


def timeout_s(function: str) -> float:
    """How long one invocation of ``function`` may run before it is ended (504)."""
    return TIMEOUT_S.get(function, DEFAULT_TIMEOUT_S)


LOCAL_ONLY: tuple[str, ...] = ("webhooks",)
"""Functions only the embedded server has (the stack's events go to EventBridge instead)."""
CLOUD_ROUTES: tuple[Route, ...] = tuple(r for r in ROUTES if r.function not in LOCAL_ONLY)
"""The routes the stack deploys."""
