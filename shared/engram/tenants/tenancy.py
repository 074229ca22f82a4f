"""Who a call acts for: ``resolve(caller, tenants=…, settings=…)`` -> the ``TenantContext`` every service takes.

The tenant is read once per call: an unknown tenant, or one being erased, is a 404 before any
work; its setting overrides are applied to the service's settings; the scopes are the caller's
credential's (``ScopeSet``), which each service narrows to what the request names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engram.errors import NotFoundError
from engram.ports import TenantRegistry
from engram.scopes import EVERY_SCOPE, ScopeSet
from engram.settings import Settings


class Caller(Protocol):
    """Who is calling, as the authorizer (or the CLI, for the whole tenant) established it."""

    @property
    def tenant_id(self) -> str: ...

    @property
    def key_id(self) -> str: ...

    @property
    def scopes(self) -> ScopeSet: ...

    @property
    def can_write(self) -> bool: ...


@dataclass(frozen=True)
class TenantContext:
    """One call's tenant, the settings in effect for it and the scopes its credential allows."""

    tenant_id: str
    settings: Settings
    scopes: ScopeSet = EVERY_SCOPE
    key_id: str = ""
    can_write: bool = True


def resolve(caller: Caller, *, tenants: TenantRegistry, settings: Settings) -> TenantContext:
    """The caller's tenant context; ``NotFoundError`` for an unknown or erasing tenant."""
    return TenantContext(
        tenant_id=caller.tenant_id,
        settings=settings_for(caller.tenant_id, tenants=tenants, settings=settings),
        scopes=caller.scopes,
        key_id=caller.key_id,
        can_write=caller.can_write,
    )


def of_tenant(
    tenant_id: str, scopes: ScopeSet = EVERY_SCOPE, *, tenants: TenantRegistry, settings: Settings
) -> TenantContext:
    """The context of work done for a whole tenant (the CLI, a job, a lifecycle run)."""
    effective = settings_for(tenant_id, tenants=tenants, settings=settings)
    return TenantContext(tenant_id=tenant_id, settings=effective, scopes=scopes)


def settings_for(tenant_id: str, *, tenants: TenantRegistry, settings: Settings) -> Settings:
    """The settings in effect for a tenant: the service's, with the tenant's overrides."""
    tenant = tenants.get_tenant(tenant_id)
    if tenant is None or tenant.erasing:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    return settings.for_tenant(tenant.settings_overrides)
