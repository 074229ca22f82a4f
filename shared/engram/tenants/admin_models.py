"""The operator routes' requests and answers (``/v1/admin/…``), shared by the handler, the CLI
and the Python SDK, so ``engram key create --json`` prints exactly what the HTTP API answers."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engram.auth.keys import MAX_KEY_DAYS
from engram.models import Request, Scope, TenantId
from engram.records import ApiKeyRecord
from engram.settings import TenantOverrides


class CreateTenant(Request):
    tenant_id: TenantId
    name: str | None = Field(default=None, max_length=200)


class TenantCreated(BaseModel):
    tenant_id: str
    name: str


class CreateKey(Request):
    scopes: list[Scope] = Field(default_factory=list, max_length=100)
    read_only: bool = False
    expires_in_days: float | None = Field(default=None, gt=0, le=MAX_KEY_DAYS)


class KeyCreated(BaseModel):
    tenant_id: str
    key_id: str
    api_key: str
    """The secret: shown only in this answer."""
    display_prefix: str
    scopes: list[str]
    read_only: bool
    expires_at: str | None

    @classmethod
    def of(cls, plaintext: str, record: ApiKeyRecord) -> KeyCreated:
        return cls(
            tenant_id=record.tenant_id,
            key_id=record.key_id,
            api_key=plaintext,
            display_prefix=record.display_prefix,
            scopes=list(record.scopes),
            read_only=record.read_only,
            expires_at=record.expires_at.isoformat() if record.expires_at else None,
        )


class ConfigureTenant(Request):
    """The body is ``{"settings": {...}}``: the overrides go inside ``settings``."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"settings": {"recall": {"min_score": 0.3, "fusion": "rrf"}}}]}
    )

    settings: TenantOverrides = Field(
        description='overrides of the "recall", "lifecycle", "retain", "limits" and "events" settings '
        '("events": {"publish": true} puts the tenant\'s changes on the cloud\'s EventBridge bus); '
        "{} restores the defaults"
    )


class TenantConfigured(BaseModel):
    tenant_id: str
    overrides: dict[str, dict[str, Any]]
    effective: dict[str, dict[str, Any]]


class KeyRevoked(BaseModel):
    key_id: str
    revoked: bool


class TenantSummary(BaseModel):
    tenant_id: str
    name: str
    created_at: datetime
    erasing: bool


class TenantList(BaseModel):
    tenants: list[TenantSummary]


class KeySummary(BaseModel):
    """A key as the operator sees it later: never its secret."""

    key_id: str
    display_prefix: str
    scopes: list[str]
    read_only: bool
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None


class TenantDetail(TenantSummary):
    overrides: dict[str, Any]
    total: int
    by_tier: dict[str, int]
    by_status: dict[str, int]
    storage_bytes: int
    usage: dict[str, int]
    keys: list[KeySummary]


class TenantErased(BaseModel):
    tenant_id: str
    status: Literal["erased", "erasing"]
    """``erasing`` (202): the erasure goes on in steps; the tenant answers nothing any more."""
    erased_memories: int | None = None
