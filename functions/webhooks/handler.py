"""Operator routes for a tenant's webhooks (embedded default): create (the secret is shown once),
list, delete, and each endpoint's delivery log. Every route answers the operator only. In the cloud,
events go to the stack's EventBridge bus instead, and these routes are not deployed."""

# No `from __future__ import annotations`: Powertools reads these annotations at run time.

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from engram.webhooks.endpoints import (
    CreateWebhook,
    DeliveryList,
    WebhookCreated,
    WebhookDeleted,
    WebhookList,
    create_webhook,
    delete_webhook,
    list_webhooks,
    webhook_deliveries,
)
from engram_http.runtime import TenantPath, deps, documented, entry_point, json_response, resolver

app = resolver(operator=True)
WebhookIdPath = Annotated[str, Path(pattern=r"^wh_[0-9a-f]{24}$")]


@app.post(
    "/v1/admin/tenants/<tenant>/webhooks",
    responses=documented(
        WebhookCreated,
        "the endpoint; its secret is shown only now",
        status=201,
        errors=(400, 401, 403, 404, 409, 422),
    ),
)
def create(tenant: TenantPath, request: Annotated[CreateWebhook, Body()]) -> Response[str]:
    created = deps().call(create_webhook, tenant, request)
    return json_response(created, status=201)


@app.get(
    "/v1/admin/tenants/<tenant>/webhooks",
    responses=documented(WebhookList, "the tenant's endpoints (no secrets)", errors=(400, 401, 403, 404)),
)
def list_all(tenant: TenantPath) -> Response[str]:
    return json_response(deps().call(list_webhooks, tenant))


@app.delete(
    "/v1/admin/tenants/<tenant>/webhooks/<webhook_id>",
    responses=documented(
        WebhookDeleted, "the endpoint and its delivery log are gone", errors=(400, 401, 403, 404)
    ),
)
def delete(tenant: TenantPath, webhook_id: WebhookIdPath) -> Response[str]:
    deps().call(delete_webhook, tenant, webhook_id)
    return json_response(WebhookDeleted(id=webhook_id))


@app.get(
    "/v1/admin/tenants/<tenant>/webhooks/<webhook_id>/deliveries",
    responses=documented(
        DeliveryList, "the delivery log, newest first, with every attempt", errors=(400, 401, 403, 404)
    ),
)
def deliveries(
    tenant: TenantPath, webhook_id: WebhookIdPath, limit: Annotated[int, Query(ge=1, le=1000)] = 100
) -> Response[str]:
    return json_response(deps().call(webhook_deliveries, tenant, webhook_id, limit=limit))


lambda_handler = entry_point(app)
