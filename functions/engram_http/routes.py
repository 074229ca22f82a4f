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


ROUTES: tuple[Route, ...] = (
    Route("POST", "/v1/memories", "retain", "key"),
    Route("POST", "/v1/recall", "recall", "key"),
    Route("POST", "/v1/forget", "forget", "key"),
    Route("POST", "/v1/memories/{id}/feedback", "feedback", "key"),
    Route("GET", "/v1/memories", "memories", "key"),
    Route("GET", "/v1/memories/{id}", "memories", "key"),
    Route("PATCH", "/v1/memories/{id}", "memories", "key"),
    Route("DELETE", "/v1/memories/{id}", "memories", "key"),
    Route("POST", "/v1/memories/{id}/restore", "memories", "key"),
    Route("POST", "/v1/memories/{id}/release", "memories", "key"),
    Route("GET", "/v1/stats", "memories", "key"),
    Route("GET", "/v1/jobs/{id}", "memories", "key"),
    Route("POST", "/v1/export", "memories", "key"),
    Route("POST", "/v1/import", "memories", "key"),
    Route("POST", "/v1/admin/tenants", "admin", "operator"),
    Route("GET", "/v1/admin/tenants", "admin", "operator"),
    Route("GET", "/v1/admin/tenants/{tenant}", "admin", "operator"),
    Route("POST", "/v1/admin/tenants/{tenant}/keys", "admin", "operator"),
    Route("PUT", "/v1/admin/tenants/{tenant}/settings", "admin", "operator"),
    Route("DELETE", "/v1/admin/keys/{key_id}", "admin", "operator"),
    Route("DELETE", "/v1/admin/tenants/{tenant}", "admin", "operator"),
    Route("GET", "/v1/openapi.json", "docs", "none"),
    Route("GET", "/v1/docs", "docs", "none"),
    Route("GET", "/v1/health", "docs", "none"),
    Route("GET", "/ui", "docs", "none"),
    Route("GET", "/ui/{name}", "docs", "none"),
)

FUNCTIONS: tuple[str, ...] = tuple(dict.fromkeys(r.function for r in ROUTES))
