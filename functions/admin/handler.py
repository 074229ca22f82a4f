"""Operator routes: tenants (list, look at one: usage and keys), keys (the secret is shown once),
revocation and tenant erasure. Every route answers the operator only (``resolver(operator=True)``)."""

# No `from __future__ import annotations`: Powertools reads these annotations at run time.

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from engram.auth.keys import KEY_ID_PATTERN
from engram.models import UsageReport
from engram.settings import TENANT_SECTIONS
from engram.tenants import admin
from engram.tenants.admin_models import (
    ConfigureTenant,
    CreateKey,
    CreateTenant,
    KeyCreated,
    KeyRevoked,
    TenantConfigured,
    TenantCreated,
    TenantDetail,
    TenantErased,
    TenantList,
    TenantSummary,
)
from engram_http.runtime import TenantPath, deps, documented, entry_point, json_response, resolver

app = resolver(operator=True)
KeyIdPath = Annotated[str, Path(pattern=KEY_ID_PATTERN)]
DAY = r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$"
"""A UTC day, ``YYYY-MM-DD``."""


@app.post(
    "/v1/admin/tenants",
    responses=documented(TenantCreated, "the new tenant", status=201, errors=(400, 401, 403, 409, 422)),
)
def create_tenant(request: Annotated[CreateTenant, Body()]) -> Response[str]:
    tenant = deps().call(admin.create_tenant, request.tenant_id, request.name)
    return json_response(TenantCreated(tenant_id=tenant.tenant_id, name=tenant.name), status=201)


@app.get("/v1/admin/tenants", responses=documented(TenantList, "every tenant", errors=(401, 403)))
def list_tenants() -> Response[str]:
    every = deps().call(admin.list_tenants)
    return json_response(
        TenantList(tenants=[TenantSummary.model_validate(t, from_attributes=True) for t in every])
    )


@app.get(
    "/v1/admin/tenants/<tenant>",
    responses=documented(TenantDetail, "the tenant: counts, usage and keys", errors=(400, 401, 403, 404)),
)
def get_tenant(tenant: TenantPath) -> Response[str]:
    return json_response(deps().call(admin.detail, tenant))


@app.post(
    "/v1/admin/tenants/<tenant>/keys",
    responses=documented(
        KeyCreated, "the key; its secret is shown only now", status=201, errors=(400, 401, 403, 404, 422)
    ),
)
def create_key(tenant: TenantPath, request: Annotated[CreateKey, Body()]) -> Response[str]:
    plaintext, record = deps().call(
        admin.create_key,
        tenant,
        scopes=request.scopes,
        read_only=request.read_only,
        expires_in_days=request.expires_in_days,
    )
    return json_response(KeyCreated.of(plaintext, record), status=201)


@app.put(
    "/v1/admin/tenants/<tenant>/settings",
    responses=documented(
        TenantConfigured,
        "the tenant's overrides and the settings now in effect",
        errors=(400, 401, 403, 404, 422),
    ),
)
def configure_tenant(tenant: TenantPath, request: Annotated[ConfigureTenant, Body()]) -> Response[str]:
    overrides = request.settings.model_dump(exclude_unset=True, exclude_none=True)  # null: no override
    effective = deps().call(admin.configure_tenant, tenant, overrides)
    return json_response(
        TenantConfigured(
            tenant_id=tenant,
            overrides=overrides,
            effective=effective.model_dump(mode="json", include=set(TENANT_SECTIONS)),
        )
    )


@app.get(
    "/v1/admin/tenants/<tenant>/usage",
    responses=documented(UsageReport, "the tenant's usage per UTC day", errors=(400, 401, 403, 404, 422)),
)
def tenant_usage(
    tenant: TenantPath,
    since: Annotated[str | None, Query(pattern=DAY)] = None,
    until: Annotated[str | None, Query(pattern=DAY)] = None,
) -> Response[str]:
    return json_response(deps().call(admin.usage, tenant, since=since, until=until))


@app.delete(
    "/v1/admin/keys/<key_id>",
    responses=documented(KeyRevoked, "the key is revoked", errors=(400, 401, 403, 404)),
)
def revoke_key(key_id: KeyIdPath) -> Response[str]:
    deps().call(admin.revoke_key, key_id)
    return json_response(KeyRevoked(key_id=key_id, revoked=True))


@app.delete(
    "/v1/admin/tenants/<tenant>",
    responses={
        **documented(TenantErased, "everything of the tenant is gone", errors=(400, 401, 403, 404)),
        202: {
            "description": "the erasure goes on in steps; repeat the call until it answers 404",
            "content": {"application/json": {"model": TenantErased}},
        },
    },
)
def erase_tenant(tenant: TenantPath) -> Response[str]:
    removed = deps().call(admin.erase_tenant, tenant)
    if removed is None:
        return json_response(TenantErased(tenant_id=tenant, status="erasing"), status=202)
    return json_response(TenantErased(tenant_id=tenant, status="erased", erased_memories=removed))


lambda_handler = entry_point(app)
