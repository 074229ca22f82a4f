"""Work on whole tenants: the lifecycle job (``engram.lifecycle.sweep``) and rebuilding the search index."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime

from engram.deps import Deps
from engram.embedding.backlog import embed_pending
from engram.lifecycle import sweep
from engram.models import LifecycleReport
from engram.tenants import tenancy

logger = logging.getLogger(__name__)


def run_lifecycle(
    deps: Deps,
    tenant_id: str,
    *,
    now: datetime | None = None,
    dry_run: bool = False,
    rules: sweep.RuleSet = "all",
    should_stop: Callable[[], bool] | None = None,
) -> LifecycleReport:
    """Run (or resume) the lifecycle job on one tenant, with the tenant's lifecycle settings."""
    return sweep.run(
        tenant_id,
        deps.ports,
        settings=deps.call(tenancy.settings_for, tenant_id),
        now=now,
        dry_run=dry_run,
        rules=rules,
        should_stop=should_stop,
    )


def run_lifecycle_all(
    deps: Deps,
    *,
    now: datetime | None = None,
    dry_run: bool = False,
    rules: sweep.RuleSet = "all",
    should_stop: Callable[[], bool] | None = None,
) -> list[LifecycleReport]:
    """The job on every tenant in turn (one tenant's failure is logged and the others still run)."""
    reports: list[LifecycleReport] = []
    for tenant in deps.store.list_tenants():
        if reports and should_stop is not None and should_stop():  # each call does at least a page
            break
        try:
            reports.append(
                run_lifecycle(
                    deps, tenant.tenant_id, now=now, dry_run=dry_run, rules=rules, should_stop=should_stop
                )
            )
        except Exception:  # keep going: every tenant gets its run
            logger.exception("lifecycle run failed for a tenant")
    return reports


def reindex(
    deps: Deps,
    tenant_ids: Sequence[str],
    *,
    clean: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, int]:
    """Rebuild the search index of these tenants from the system of record (``engram reindex``)."""
    from engram.indexing.indexer import reindex as rebuild

    for tenant_id in tenant_ids:
        deps.call(tenancy.settings_for, tenant_id)
        deps.call(embed_pending, tenant_id)
    target = deps.index.rebuild_target()  # set up, and failures show rather than deferred
    return rebuild(tenant_ids, records=deps.store.iter_records, index=target, clean=clean, progress=progress)


def lifecycle_reports(deps: Deps, tenant_id: str, limit: int) -> list[LifecycleReport]:
    """The tenant's last lifecycle runs, newest first (``NotFoundError`` for an unknown tenant)."""
    deps.call(tenancy.settings_for, tenant_id)
    return deps.store.lifecycle_reports(tenant_id, limit)
