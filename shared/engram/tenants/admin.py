"""Tenant and key administration: what the operator's routes (``functions/admin``), the
authorizer and ``engram tenant|key|usage`` all call.

A tenant is created (and, in the cloud, enrolled in a usage plan), configured (its overrides of
the ``recall``, ``lifecycle``, ``retain`` and ``limits`` settings, validated first), looked at
(counts, usage, keys) and erased: its keys stop working at once, then everything it stored goes,
inline locally, in resumable steps (``engram.tenants.steps``) with a step queue.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import engram.memories.service
from engram.deps import Deps
from engram.errors import NotFoundError, ValidationFailedError
from engram.metering import counters
from engram.models import NewTenant, Tenant, UsageReport, parse
from engram.records import ApiKeyRecord
from engram.settings import Settings, TenantOverrides
from engram.tenants import tenancy
from engram.tenants.admin_models import KeySummary, TenantDetail, TenantSummary


def create_tenant(deps: Deps, tenant_id: str, name: str | None = None) -> Tenant:
    """A new tenant; its id must be canonical (``^[a-z0-9][a-z0-9-]{2,62}$``)."""
    request = parse(NewTenant, {"tenant_id": tenant_id, "name": name or tenant_id})
    tenant = Tenant(tenant_id=request.tenant_id, name=request.name, created_at=deps.clock.now())
    deps.store.create_tenant(tenant)
    if deps.usage_plans is not None:
        try:
            deps.usage_plans.enroll(tenant.tenant_id)
        except Exception:
            deps.store.erase_tenant(tenant.tenant_id)  # no tenant that API Gateway would refuse
            raise
    return tenant


def configure_tenant(deps: Deps, tenant_id: str, overrides: dict[str, Any]) -> Settings:
    """Set a tenant's setting overrides (validated first); the settings now in effect for it."""
    parse(TenantOverrides, overrides)  # a misspelt or invalid setting: the error's details name it
    try:
        effective = deps.settings.for_tenant(overrides)
    except (ValueError, TypeError) as exc:
        raise ValidationFailedError(f"invalid settings: {exc}") from None
    if not deps.store.set_tenant_settings(tenant_id, overrides):
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    return effective


def list_tenants(deps: Deps) -> list[Tenant]:
    """Every tenant (those being erased too), by id."""
    return sorted(deps.store.list_tenants(), key=lambda t: t.tenant_id)


def detail(deps: Deps, tenant_id: str) -> TenantDetail:
    """The operator's view of a tenant: counts, usage (from the metering ledger) and keys."""
    found = deps.store.get_tenant(tenant_id)
    if found is None or found.erasing:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    stats = engram.memories.service.stats(
        deps, tenancy.TenantContext(tenant_id, deps.call(tenancy.settings_for, tenant_id))
    )
    keys = sorted(list_keys(deps, tenant_id), key=lambda k: k.created_at)
    return TenantDetail(
        **TenantSummary.model_validate(found, from_attributes=True).model_dump(),
        **stats.model_dump(include={"total", "by_tier", "by_status", "storage_bytes", "usage"}),
        overrides=found.settings_overrides,
        keys=[KeySummary.model_validate(k, from_attributes=True) for k in keys],
    )


def usage(deps: Deps, tenant_id: str, *, since: str | None = None, until: str | None = None) -> UsageReport:
    """The tenant's counters per day from ``since`` to ``until`` (default: this month so far;
    none when ``since`` is later), their totals, and what it stores now."""
    if deps.store.get_tenant(tenant_id) is None:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    until = until or counters.day_of(deps.clock.now())
    since = since or counters.month_start(until)
    days = deps.ledger.days(tenant_id, since=since, until=until) if deps.ledger is not None else {}
    stored = deps.store.stats(tenant_id)
    return UsageReport(
        tenant_id=tenant_id,
        since=since,
        until=until,
        days=days,
        totals=counters.totals(days),
        stored_memories=stored.total,
        stored_bytes=stored.storage_bytes,
    )


# -- keys ----------------------------------------------------------------------------------------


def create_key(
    deps: Deps,
    tenant_id: str,
    *,
    scopes: Sequence[str] = (),
    read_only: bool = False,
    expires_in_days: float | None = None,
) -> tuple[str, ApiKeyRecord]:
    """A new key of an existing tenant: (the plaintext key, shown only now; its record)."""
    if deps.store.get_tenant(tenant_id) is None or deps.keys is None:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    return deps.keys.create(tenant_id, scopes=scopes, read_only=read_only, expires_in_days=expires_in_days)


def revoke_key(deps: Deps, key_id: str) -> None:
    """Revoke a key at once (``NotFoundError`` if there is no such key)."""
    if deps.keys is None:
        raise NotFoundError(f"API key '{key_id}' not found")
    deps.keys.revoke(key_id)


def list_keys(deps: Deps, tenant_id: str) -> list[ApiKeyRecord]:
    """Every key of a tenant (records only; secrets are never retrievable)."""
    return deps.keys.list(tenant_id) if deps.keys is not None else []


# -- erasure -------------------------------------------------------------------------------------


def erase_tenant(deps: Deps, tenant_id: str) -> int | None:
    """Erase a tenant: its keys stop working at once. Inline (locally) everything goes now and
    the count of memories is returned; with a step queue (the cloud) the tenant is marked
    erasing, its erasure goes on in steps (``finish_erase``) and None is returned. Calling
    again while it is erasing queues the erasure again (harmless: each step is idempotent)."""
    if deps.store.get_tenant(tenant_id) is None:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    if deps.keys is not None:
        deps.keys.store.delete_tenant_keys(tenant_id)
    if deps.usage_plans is not None:
        deps.usage_plans.withdraw(tenant_id)
    if deps.steps is None:
        removed = deps.store.erase_tenant(tenant_id)
        _forget_tenant_elsewhere(deps, tenant_id)
        return removed
    from engram.tenants.steps import Step

    deps.store.erase_tenant(tenant_id, should_stop=lambda: True)  # marks it: nothing is served now
    deps.steps.send(Step(kind="erase", tenant_id=tenant_id).message())
    return None


def finish_erase(deps: Deps, tenant_id: str, *, should_stop: Callable[[], bool]) -> bool:
    """One step of an erasure; True once the tenant is gone from the store, the index and
    object storage, False if time ran out first (call again)."""
    deps.store.erase_tenant(tenant_id, should_stop=should_stop)
    if deps.store.get_tenant(tenant_id) is not None:
        return False
    _forget_tenant_elsewhere(deps, tenant_id)
    return True


def _forget_tenant_elsewhere(deps: Deps, tenant_id: str) -> None:
    if deps.ledger is not None:
        deps.ledger.forget_tenant(tenant_id)
    deps.index.forget_tenant(tenant_id)
    if deps.blobs is not None:
        deps.blobs.delete_prefix(f"tenants/{tenant_id}/")
