"""A tenant-wide step's work (the tenant_work function's): each kind of ``engram.tenants.steps.Step``
handed to the service that does it, through ``call`` (``Deps.call``: the service gets the ports
it names)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from engram.tenants import steps

R = TypeVar("R")


class Call(Protocol):
    """Runs a service with the ports it names (the composition's ``call``): a step is the work
    of another room (an erasure, a lifecycle run, an import), so ``run`` names no port itself."""

    def __call__(self, service: Callable[..., R], /, *args: Any, **given: Any) -> R: ...


def run(step: steps.Step, *, call: Call, should_stop: Callable[[], bool]) -> list[steps.Step]:
    """Do one step; returns the steps that carry on (empty when this work is done)."""
    import engram.lifecycle.service
    from engram.tenants import admin

    if step.kind == "erase":
        assert step.tenant_id is not None
        done = call(admin.finish_erase, step.tenant_id, should_stop=should_stop)
        return [] if done else [step]
    if step.kind == "lifecycle":
        assert step.tenant_id is not None
        report = call(
            engram.lifecycle.service.run_lifecycle,
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
        job = call(run_job, step.tenant_id, step.job_id, should_stop=should_stop)
        return [step] if job is not None and job.status in ("queued", "running") else []
    return call(steps.fan_out, step, should_stop=should_stop)
