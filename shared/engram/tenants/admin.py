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
from engram.auth.keys import KeyService
from engram.errors import NotFoundError, ValidationFailedError
from engram.metering import counters
from engram.models import NewTenant, Tenant, UsageReport, parse
from engram.ports import (
    BlobStore,
    Clock,
    KeyStore,
    LifecycleReports,
    MemoryRecords,
    SearchIndex,
    StepQueue,
    TenantRegistry,
    UsageLedger,
    UsagePlanRegistry,
)
from engram.records import ApiKeyRecord
from engram.settings import Settings, TenantOverrides
from engram.tenants import tenancy
from engram.tenants.admin_models import KeySummary, TenantDetail, TenantSummary


def create_tenant(
    tenant_id: str,
    name: str | None = None,
    *,
    tenants: TenantRegistry,
    clock: Clock,
    usage_plans: UsagePlanRegistry | None,
) -> Tenant:
    """A new tenant; its id must be canonical (``^[a-z0-9][a-z0-9-]{2,62}$``)."""
    request = parse(NewTenant, {"tenant_id": tenant_id, "name": name or tenant_id})
    tenant = Tenant(tenant_id=request.tenant_id, name=request.name, created_at=clock.now())
    tenants.create_tenant(tenant)
    if usage_plans is not None:
        try:
            usage_plans.enroll(tenant.tenant_id)
        except Exception:
            tenants.erase_tenant(tenant.tenant_id)  # no tenant that API Gateway would refuse
            raise
    return tenant


def configure_tenant(
    tenant_id: str, overrides: dict[str, Any], *, tenants: TenantRegistry, settings: Settings
) -> Settings:
    """Set a tenant's setting overrides (validated first); the settings now in effect for it."""
    parse(TenantOverrides, overrides)  # a misspelt or invalid setting: the error's details name it
    try:
        effective = settings.for_tenant(overrides)
    except (ValueError, TypeError) as exc:
        raise ValidationFailedError(f"invalid settings: {exc}") from None
    if not tenants.set_tenant_settings(tenant_id, overrides):
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    return effective


def list_tenants(*, tenants: TenantRegistry) -> list[Tenant]:
    """Every tenant (those being erased too), by id."""
    return sorted(tenants.list_tenants(), key=lambda t: t.tenant_id)


def detail(
    tenant_id: str,
    *,
    tenants: TenantRegistry,
    records: MemoryRecords,
    reports: LifecycleReports,
    ledger: UsageLedger | None,
    keys: KeyService | None,
    clock: Clock,
    settings: Settings,
) -> TenantDetail:
    """The operator's view of a tenant: counts, usage (from the metering ledger) and keys."""
    found = tenants.get_tenant(tenant_id)
    if found is None or found.erasing:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    context = tenancy.TenantContext(
        tenant_id, tenancy.settings_for(tenant_id, tenants=tenants, settings=settings)
    )
    stats = engram.memories.service.stats(
        context, records=records, reports=reports, ledger=ledger, clock=clock
    )
    listed = sorted(list_keys(tenant_id, keys=keys), key=lambda k: k.created_at)
    return TenantDetail(
        **TenantSummary.model_validate(found, from_attributes=True).model_dump(),
        **stats.model_dump(include={"total", "by_tier", "by_status", "storage_bytes", "usage"}),
        overrides=found.settings_overrides,
        keys=[KeySummary.model_validate(k, from_attributes=True) for k in listed],
    )


def usage(
    tenant_id: str,
    *,
    tenants: TenantRegistry,
    records: MemoryRecords,
    ledger: UsageLedger | None,
    clock: Clock,
    since: str | None = None,
    until: str | None = None,
) -> UsageReport:
    """The tenant's counters per day from ``since`` to ``until`` (default: this month so far;
    none when ``since`` is later), their totals, and what it stores now."""
    if tenants.get_tenant(tenant_id) is None:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    until = until or counters.day_of(clock.now())
    since = since or counters.month_start(until)
    days = ledger.days(tenant_id, since=since, until=until) if ledger is not None else {}
    stored = records.stats(tenant_id)
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
    tenant_id: str,
    *,
    tenants: TenantRegistry,
    keys: KeyService | None,
    scopes: Sequence[str] = (),
    read_only: bool = False,
    expires_in_days: float | None = None,
) -> tuple[str, ApiKeyRecord]:
    """A new key of an existing tenant: (the plaintext key, shown only now; its record)."""
    if tenants.get_tenant(tenant_id) is None or keys is None:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    return keys.create(tenant_id, scopes=scopes, read_only=read_only, expires_in_days=expires_in_days)


def revoke_key(key_id: str, *, keys: KeyService | None) -> None:
    """Revoke a key at once (``NotFoundError`` if there is no such key)."""
    if keys is None:
        raise NotFoundError(f"API key '{key_id}' not found")
    keys.revoke(key_id)


def list_keys(tenant_id: str, *, keys: KeyService | None) -> list[ApiKeyRecord]:
    """Every key of a tenant (records only; secrets are never retrievable)."""
    return keys.list(tenant_id) if keys is not None else []


# -- erasure -------------------------------------------------------------------------------------


def erase_tenant(
    tenant_id: str,
    *,
    tenants: TenantRegistry,
    key_store: KeyStore | None,
    usage_plans: UsagePlanRegistry | None,
    steps: StepQueue | None,
    ledger: UsageLedger | None,
    index: SearchIndex,
    blobs: BlobStore | None,
) -> int | None:
    """Erase a tenant: its keys stop working at once. Inline (locally) everything goes now and
    the count of memories is returned; with a step queue (the cloud) the tenant is marked
    erasing, its erasure goes on in steps (``finish_erase``) and None is returned. Calling
    again while it is erasing queues the erasure again (harmless: each step is idempotent)."""
    if tenants.get_tenant(tenant_id) is None:
        raise NotFoundError(f"tenant '{tenant_id}' not found")
    if key_store is not None:
        key_store.delete_tenant_keys(tenant_id)
    if usage_plans is not None:
        usage_plans.withdraw(tenant_id)
    if steps is None:
        removed = tenants.erase_tenant(tenant_id)
        _forget_tenant_elsewhere(tenant_id, ledger=ledger, index=index, blobs=blobs)
        return removed
    from engram.tenants.steps import Step

    tenants.erase_tenant(tenant_id, should_stop=lambda: True)  # marks it: nothing is served now
    steps.send(Step(kind="erase", tenant_id=tenant_id).message())
    return None


def finish_erase(
    tenant_id: str,
    *,
    tenants: TenantRegistry,
    ledger: UsageLedger | None,
    index: SearchIndex,
    blobs: BlobStore | None,
    should_stop: Callable[[], bool],
) -> bool:
    """One step of an erasure; True once the tenant is gone from the store, the index and
    object storage, False if time ran out first (call again)."""
    tenants.erase_tenant(tenant_id, should_stop=should_stop)
    if tenants.get_tenant(tenant_id) is not None:
        return False
    _forget_tenant_elsewhere(tenant_id, ledger=ledger, index=index, blobs=blobs)
    return True


def _forget_tenant_elsewhere(
    tenant_id: str, *, ledger: UsageLedger | None, index: SearchIndex, blobs: BlobStore | None
) -> None:
    if ledger is not None:
        ledger.forget_tenant(tenant_id)
    index.forget_tenant(tenant_id)
    if blobs is not None:
        blobs.delete_prefix(f"tenants/{tenant_id}/")
