"""Work on whole tenants: the lifecycle job (``engram.lifecycle.sweep``) and rebuilding the search index."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Unpack

from engram.embedding.backlog import Backfill
from engram.lifecycle import sweep
from engram.lifecycle.ports import LifecyclePorts
from engram.lifecycle.sweep import LifecycleOptions
from engram.models import LifecycleReport
from engram.ports import LifecycleReports, MemoryRecords, SearchIndex, TenantRegistry
from engram.settings import Settings
from engram.tenants import tenancy

logger = logging.getLogger(__name__)


def run_lifecycle(
    tenant_id: str, *, lifecycle_ports: LifecyclePorts, **options: Unpack[LifecycleOptions]
) -> LifecycleReport:
    """Run (or resume) the lifecycle job on one tenant, with the tenant's lifecycle settings."""
    ports = lifecycle_ports
    tenant_settings = tenancy.settings_for(tenant_id, tenants=ports.tenants, settings=ports.settings)
    return sweep.run(tenant_id, replace(ports, settings=tenant_settings), **options)


def run_lifecycle_all(
    *, lifecycle_ports: LifecyclePorts, **options: Unpack[LifecycleOptions]
) -> list[LifecycleReport]:
    """The job on every tenant in turn (one tenant's failure is logged and the others still run)."""
    should_stop = options.get("should_stop")
    reports: list[LifecycleReport] = []
    for tenant in lifecycle_ports.tenants.list_tenants():
        if reports and should_stop is not None and should_stop():  # each call does at least a page
            break
        try:
            reports.append(run_lifecycle(tenant.tenant_id, lifecycle_ports=lifecycle_ports, **options))
        except Exception:  # keep going: every tenant gets its run
            logger.exception("lifecycle run failed for a tenant")
    return reports


def reindex(
    tenant_ids: Sequence[str],
    *,
    records: MemoryRecords,
    tenants: TenantRegistry,
    index: SearchIndex,
    backfill: Backfill,
    settings: Settings,
    clean: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, int]:
    """Rebuild the search index of these tenants from the system of record (``engram reindex``)."""
    from engram.indexing.indexer import reindex as rebuild

    for tenant_id in tenant_ids:
        tenancy.settings_for(tenant_id, tenants=tenants, settings=settings)
        backfill.run(tenant_id)
    target = index.rebuild_target()  # set up, and failures show rather than deferred
    return rebuild(tenant_ids, records=records.iter_records, index=target, clean=clean, progress=progress)


def lifecycle_reports(
    tenant_id: str, limit: int, *, tenants: TenantRegistry, reports: LifecycleReports, settings: Settings
) -> list[LifecycleReport]:
    """The tenant's last lifecycle runs, newest first (``NotFoundError`` for an unknown tenant)."""
    tenancy.settings_for(tenant_id, tenants=tenants, settings=settings)
    return reports.lifecycle_reports(tenant_id, limit)
