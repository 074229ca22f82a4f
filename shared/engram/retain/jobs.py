"""Asynchronous retains: accept a job (durable before the answer), run it, report its status.

A job waits on the job queue (SQS in the cloud, ``queue``) or, with none, runs on this
process's job runner (``runner``, ``engram.background.jobs``). Running a job is a retain
under the job's own idempotency key, so a redelivered or retried job replays what a first attempt
committed instead of writing twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engram.embedding.backlog import Backlog, ImportPorts
from engram.errors import ConflictError, NotFoundError, ProviderError
from engram.identity import job_id, scoped_key
from engram.models import Job, JobAccepted, RetainRequest, check_expiry
from engram.ports import (
    LLM,
    Clock,
    Extractor,
    IdempotencyRecords,
    JobQueue,
    JobRunner,
    JobStore,
)
from engram.retain import metered, service
from engram.tenants import tenancy
from engram.tenants.tenancy import TenantContext

logger = logging.getLogger(__name__)


def submit_retain(
    context: TenantContext,
    request: RetainRequest,
    *,
    jobs: JobStore,
    idempotency: IdempotencyRecords,
    clock: Clock,
    queue: JobQueue | None,
    runner: JobRunner | None,
) -> JobAccepted:
    """Accept a retain to run in the background; the job (with its body) is durable before this returns."""
    tenant_id = context.tenant_id
    context.scopes.narrow([request.scope])
    now = clock.now()
    check_expiry(request.expires_at, now)  # refused now, not when the job runs
    if request.idempotency_key is not None:
        earlier = _keyed_job(tenant_id, request, jobs=jobs, idempotency=idempotency)
        if earlier is not None:
            return earlier
    job = Job(
        job_id=job_id(tenant_id, _scoped(request)),
        status="queued",
        scope=request.scope,
        created_at=now,
        updated_at=now,
        request=request.model_dump(mode="json", by_alias=True, exclude_none=True),
    )
    jobs.put_job(tenant_id, job)
    if queue is None:
        if runner is not None:  # without one the job stays queued until a server resumes it
            runner.submit(tenant_id, job)
        return JobAccepted(job_id=job.job_id)
    try:
        queue.enqueue(tenant_id, job.job_id)
    except Exception as exc:
        failed = job.model_copy(update={"status": "failed", "error": "could not enqueue", "request": None})
        jobs.put_job(tenant_id, failed)
        raise ProviderError("the job queue did not accept the retain; retry") from exc
    return JobAccepted(job_id=job.job_id)


def _keyed_job(
    tenant_id: str, request: RetainRequest, *, jobs: JobStore, idempotency: IdempotencyRecords
) -> JobAccepted | None:
    """The job an earlier submit with this ``Idempotency-Key`` made (same body), or None to make
    one; the key used for another body is a 409 now, not a failed job later."""
    assert request.idempotency_key is not None
    # The job runs the retain with async false: that is the body the key stands for.
    wanted = service.fingerprint(request.model_copy(update={"async_": False}))
    key = scoped_key(request.scope, request.idempotency_key)
    previous = idempotency.idempotent_result(tenant_id, key)
    if previous is not None and previous[0] != wanted:
        raise ConflictError("this Idempotency-Key was used for a different request")
    job = jobs.get_job(tenant_id, job_id(tenant_id, key))
    if job is None or (job.status == "failed" and job.request is None):
        return None  # a new job (its retain replays what the key already stored, if anything)
    if job.request is not None and service.fingerprint(job_request(job)) != wanted:
        raise ConflictError("this Idempotency-Key was used for a different request")
    return JobAccepted(job_id=job.job_id)


def _scoped(request: RetainRequest) -> str | None:
    key = request.idempotency_key
    return None if key is None else scoped_key(request.scope, key)


def get_job(context: TenantContext, job_id_: str, *, jobs: JobStore) -> Job:
    from engram.imports import visible

    job = jobs.get_job(context.tenant_id, job_id_)
    if job is None or not visible(job, context.scopes):
        raise NotFoundError(f"job '{job_id_}' not found")
    return job


@dataclass(frozen=True, kw_only=True)
class JobPorts(ImportPorts):
    """The ports running a job takes (a ``Deps.call`` bundle): an import's (``engram.imports``)
    and what a retain adds."""

    idempotency: IdempotencyRecords
    extractor: Extractor
    llm: LLM | None
    backlog: Backlog


def run_job(tenant_id: str, job_id_: str, *, job_ports: JobPorts) -> Job | None:
    """Run one queued job (the extract worker's entry). A succeeded or unknown job is left
    alone, so a redelivered message is a no-op; a failed one runs again (its retain carries
    the job's idempotency key, so what a first attempt committed is replayed, not rewritten).
    Returns the job as it ends, None if it does not exist."""
    jobs = job_ports.jobs
    job = jobs.get_job(tenant_id, job_id_)
    if job is None or job.status == "succeeded":
        return job
    if job.request is None:  # a failed job whose body was dropped cannot run again
        return job
    execute(tenant_id, job, job_ports=job_ports)
    return jobs.get_job(tenant_id, job_id_)


def execute(tenant_id: str, job: Job, *, job_ports: JobPorts) -> None:
    """Run a job's retain (or import, ``engram.imports``) and store how it ended (any failure is
    the job's, not the caller's). ``settings`` are the service's (the job runs with the tenant's)."""
    p = job_ports
    if job.kind == "import":
        from engram import imports

        def run_import(should_stop: Callable[[], bool]) -> Job:
            return imports.execute(tenant_id, job, should_stop=should_stop, import_ports=p)

        _import_slice(tenant_id, run_import, runner=p.runner)
        return
    running = job.model_copy(update={"status": "running", "updated_at": p.clock.now()})
    p.jobs.put_job(tenant_id, running)
    try:
        response = metered.run(
            tenancy.of_tenant(tenant_id, tenants=p.tenants, settings=p.settings),
            job_request(job),
            records=p.records,
            idempotency=p.idempotency,
            index=p.index,
            embedder=p.embedder,
            extractor=p.extractor,
            llm=p.llm,
            meter=p.meter,
            clock=p.clock,
            backlog=p.backlog,
        )
        results = [r.model_copy(update={"memory": None}) for r in response.results]  # ids only
        update: dict[str, Any] = {
            "status": "succeeded",
            "results": results,
            "extraction": response.extraction,
            "fallback": response.fallback,
            "request": None,
        }
    except Exception as exc:  # the job reports any failure; the process goes on
        logger.exception("retain job failed")
        # Queued jobs keep their body so a redelivery can run them again.
        update = {
            "status": "failed",
            "error": str(exc),
            "request": job.request if p.queue is not None else None,
        }
    p.jobs.put_job(tenant_id, running.model_copy(update={**update, "updated_at": p.clock.now()}))


IMPORT_SLICE_BATCHES = 5
"""Batches an import job writes on this process's job runner before it yields to the jobs queued
behind it (one runner thread serves every tenant: a long import must not hold their retains)."""


def _import_slice(
    tenant_id: str, run: Callable[[Callable[[], bool]], Job], *, runner: JobRunner | None
) -> None:
    """Run an import job (``run(should_stop)``); on the job runner, a few batches at a time,
    then back in the queue."""
    if runner is None:  # a worker of the job queue runs it to the end
        run(lambda: False)
        return
    calls = [0]

    def slice_done() -> bool:
        calls[0] += 1
        return calls[0] > IMPORT_SLICE_BATCHES

    ended = run(slice_done)
    if ended.status == "running":  # it resumes from its progress after the jobs queued meanwhile
        runner.submit(tenant_id, ended)


def job_request(job: Job) -> RetainRequest:
    """The retain a job runs: its stored body, synchronously, under the request's key or the job's
    own (so a retried job replays what a first attempt committed instead of writing twice).
    Unset fields are dropped: null is not "not given" for text, messages or items."""
    body = {k: v for k, v in (job.request or {}).items() if v is not None} | {"async": False}
    body["idempotency_key"] = body.get("idempotency_key") or f"job:{job.job_id}"
    return RetainRequest.model_validate(body)
