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

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engram.lifecycle.sweep import RuleSet
from engram.models import TenantId
from engram.ports import StepQueue, TenantRegistry


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


def fan_out(
    step: Step, *, tenants: TenantRegistry, steps: StepQueue | None, should_stop: Callable[[], bool]
) -> list[Step]:
    """Queue a lifecycle step per tenant (in id order, after ``step.after``); if time runs out
    first, the remaining tenants are a continuation of this step."""
    assert steps is not None
    listed = sorted(t.tenant_id for t in tenants.list_tenants() if not t.erasing)
    for tenant_id in listed:
        if step.after is not None and tenant_id <= step.after:
            continue
        if should_stop():
            return [step.model_copy(update={"after": step.after})]
        steps.send(
            Step(
                kind="lifecycle", tenant_id=tenant_id, rules=step.rules, time=step.time, dry_run=step.dry_run
            ).message()
        )
        step = step.model_copy(update={"after": tenant_id})
    return []


def send(following: Sequence[Step], *, steps: StepQueue | None) -> None:
    """Queue the steps that carry on (before the message that asked for them is acknowledged)."""
    for step in following:
        assert steps is not None
        steps.send(step.message())


def queue_lifecycle_all(
    rules: RuleSet,
    now: datetime | None,
    *,
    tenants: TenantRegistry,
    steps: StepQueue | None,
    should_stop: Callable[[], bool],
) -> list[Step] | None:
    """With a step queue, every tenant's lifecycle run as a step of its own (``fan_out``, what
    is left of the fan-out queued as a step too); the steps left. None without a step queue:
    the caller runs every tenant in turn."""
    if steps is None:
        return None
    left = fan_out(
        Step(kind="lifecycle_all", rules=rules, time=now),
        tenants=tenants,
        steps=steps,
        should_stop=should_stop,
    )
    send(left, steps=steps)
    return left
