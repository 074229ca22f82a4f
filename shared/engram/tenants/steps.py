"""Tenant-wide work in resumable steps: an erasure, the scheduled lifecycle run of every tenant,
and an import job (``engram.imports``).

One invocation cannot be trusted with a whole large tenant (an API call has 29 s, a function 15
minutes) or with every tenant in turn (the last ones would starve). So each step does what fits
in the time it is given, then names the steps that carry on; the step worker (``tenant_work``)
sends them to the step queue, which delivers each to a fresh invocation. Every step is
idempotent: an erasure deletes what is still there, a lifecycle run resumes from the cursor its
report stored, a fan-out queues the tenants after the last one it queued.

>>> Step(kind="erase", tenant_id="acme").message()
{'kind': 'erase', 'tenant_id': 'acme'}
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from engram.lifecycle.sweep import RuleSet
from engram.models import TenantId

if TYPE_CHECKING:
    from engram.deps import Deps


class Step(BaseModel):
    """One message on the step queue."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["erase", "lifecycle", "lifecycle_all", "import"]
    tenant_id: TenantId | None = None
    job_id: str | None = None
    """``import``: the job, which keeps how far it got."""
    rules: RuleSet = "all"
    time: datetime | None = None
    """The lifecycle run's instant (the schedule's time): a resumed run keeps it."""
    dry_run: bool = False
    after: str | None = None
    """``lifecycle_all``: tenants up to this id are queued already."""

    def message(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_defaults=True)


def run(step: Step, *, deps: Deps, should_stop: Callable[[], bool]) -> list[Step]:
    """Do one step; returns the steps that carry on (empty when this work is done)."""
    import engram.lifecycle.service
    from engram.tenants import admin

    if step.kind == "erase":
        assert step.tenant_id is not None
        done = admin.finish_erase(deps, step.tenant_id, should_stop=should_stop)
        return [] if done else [step]
    if step.kind == "lifecycle":
        assert step.tenant_id is not None
        report = engram.lifecycle.service.run_lifecycle(
            deps,
            step.tenant_id,
            now=step.time,
            dry_run=step.dry_run,
            rules=step.rules,
            should_stop=should_stop,
        )
        return [] if report.status == "completed" else [step]
    if step.kind == "import":
        from engram.imports import run_job

        assert step.tenant_id is not None and step.job_id is not None
        job = deps.call(run_job, step.tenant_id, step.job_id, should_stop=should_stop)
        return [step] if job is not None and job.status in ("queued", "running") else []
    return fan_out(step, deps=deps, should_stop=should_stop)


def fan_out(step: Step, *, deps: Deps, should_stop: Callable[[], bool]) -> list[Step]:
    """Queue a lifecycle step per tenant (in id order, after ``step.after``); if time runs out
    first, the remaining tenants are a continuation of this step."""
    assert deps.steps is not None
    tenants = sorted(t.tenant_id for t in deps.store.list_tenants() if not t.erasing)
    for tenant_id in tenants:
        if step.after is not None and tenant_id <= step.after:
            continue
        if should_stop():
            return [step.model_copy(update={"after": step.after})]
        deps.steps.send(
            Step(
                kind="lifecycle", tenant_id=tenant_id, rules=step.rules, time=step.time, dry_run=step.dry_run
            ).message()
        )
        step = step.model_copy(update={"after": tenant_id})
    return []
