"""An import as a job: the file kept (in object storage where there is one, else in the job), run
by whoever runs jobs and resumed where its progress says (``engram.imports.service`` makes them,
``engram.imports.uploads`` starts them from an upload)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from engram.embedding.backlog import ImportPorts
from engram.errors import EngramError, NotFoundError, ProviderError, UnprocessableError
from engram.identity import job_id as new_job_id
from engram.imports.formats import PeerFile
from engram.imports.writing import read_file, write
from engram.models import ImportProgress, Job, JobAccepted
from engram.ports import (
    BlobStore,
)
from engram.scopes import ScopeSet
from engram.tenants import tenancy
from engram.tenants.tenancy import TenantContext

logger = logging.getLogger(__name__)

NO_UPLOADS = "this server keeps no uploads (no object storage): POST the JSONL to /v1/import itself"
MAX_UPLOAD_BYTES = 100_000_000
"""The largest file ``POST /v1/import/upload`` takes (a step worker reads it whole)."""


def submit(
    context: TenantContext,
    *,
    text: str | None = None,
    peer: PeerFile | None = None,
    progress: ImportProgress | None = None,
    job_id: str | None = None,
    import_ports: ImportPorts,
) -> JobAccepted:
    """Store an import job (durable before this returns) and hand it to whoever runs jobs. The
    file is ``text``, kept as an object where there is object storage (so that saving progress
    after each batch costs one small write) and in the job otherwise; without ``text``, the
    upload of ``job_id``; ``peer`` says how to read another service's export."""
    p = import_ports
    jobs, blobs, now = p.jobs, p.blobs, p.clock.now()
    job_id = job_id or new_job_id()
    key = upload_key(context.tenant_id, job_id)
    request = {"object": key}
    if text is not None:
        if blobs is None:
            request = {"body": text}
        else:
            blobs.put(key, text.encode())
    if peer is not None:
        request.update(peer.as_request())
    job = Job(
        job_id=job_id,
        kind="import",
        status="queued",
        scopes=None if context.scopes.is_every else list(context.scopes.names),
        created_at=now,
        updated_at=now,
        progress=progress,
        request=request,
    )
    jobs.put_job(context.tenant_id, job)
    try:
        if p.steps is not None:  # the cloud: the step worker, in resumable steps
            p.steps.send({"kind": "import", "tenant_id": context.tenant_id, "job_id": job.job_id})
        elif p.queue is not None:
            p.queue.enqueue(context.tenant_id, job.job_id)
        elif p.runner is not None:  # locally: this process's job runner
            p.runner.submit(context.tenant_id, job)
    except Exception as exc:
        written = progress.done if progress is not None else 0
        failed = job.model_copy(update={"status": "failed", "error": "could not enqueue", "request": None})
        jobs.put_job(context.tenant_id, failed)
        raise ProviderError(
            f"the job queue did not accept the import; {written} memories of the file are written"
            " (importing it again skips them): retry"
        ) from exc
    return JobAccepted(job_id=job.job_id)


def visible(job: Job, scopes: ScopeSet) -> bool:
    """Whether a key of ``scopes`` sees the job: an import only if it may touch all its scopes."""
    if job.kind != "import":
        return scopes.allows(job.scope or "")
    if job.scopes is None:
        return scopes.is_every
    return all(scopes.allows(s) for s in job.scopes)


def run_job(
    tenant_id: str, job_id: str, *, should_stop: Callable[[], bool] = lambda: False, import_ports: ImportPorts
) -> Job | None:
    """Run (or resume) an import job until it ends or ``should_stop``; the job as it is then."""
    job = import_ports.jobs.get_job(tenant_id, job_id)
    if job is None or job.status in ("succeeded", "failed") or job.request is None:
        return job
    return execute(tenant_id, job, should_stop=should_stop, import_ports=import_ports)


def execute(
    tenant_id: str, job: Job, *, should_stop: Callable[[], bool] = lambda: False, import_ports: ImportPorts
) -> Job:
    """Run an import job from where its progress says; the job as stored at the end.
    ``settings`` are the service's (the job runs with the tenant's)."""
    p = import_ports
    jobs, clock = p.jobs, p.clock
    request = job.request or {}
    running = job.model_copy(update={"status": "running", "updated_at": clock.now()})
    jobs.put_job(tenant_id, running)
    try:
        scopes = ScopeSet.every() if job.scopes is None else ScopeSet.of(job.scopes)
        context = tenancy.of_tenant(tenant_id, scopes, tenants=p.tenants, settings=p.settings)
        peer = PeerFile.of_request(request)
        plan = read_file(context, _body(request, p.blobs), peer, embedder=p.embedder, clock=clock)
        progress = job.progress or ImportProgress(skipped=plan.repeated)
        progress = progress.model_copy(update={"total": len(plan.items)})
        saved = "object" in request  # the job is small: its progress is kept after each batch

        def keep(_done: int, _total: int) -> None:
            jobs.put_job(tenant_id, running.model_copy(update={"progress": progress}))

        write(
            tenant_id,
            plan,
            progress,
            should_stop=lambda _: should_stop(),
            on_batch=keep if saved else None,
            ports=p.writing,
            meter=p.meter,
        )
    except Exception as exc:  # the job reports any failure; the process goes on
        if not isinstance(exc, EngramError):
            logger.exception("import job failed")
        error = exc.message if isinstance(exc, EngramError) else "the import stopped on an internal error"
        ended = running.model_copy(update={"status": "failed", "error": error, "request": None})
        return _finish(tenant_id, ended, request, p)
    if progress.done < progress.total:  # stopped at the deadline: a step resumes it
        paused = running.model_copy(update={"progress": progress, "updated_at": clock.now()})
        jobs.put_job(tenant_id, paused)
        return paused
    done = running.model_copy(update={"status": "succeeded", "progress": progress, "request": None})
    return _finish(tenant_id, done, request, p)


def _finish(tenant_id: str, job: Job, request: dict[str, str], ports: ImportPorts) -> Job:
    ended = job.model_copy(update={"updated_at": ports.clock.now()})
    ports.jobs.put_job(tenant_id, ended)
    if "object" in request and ports.blobs is not None:  # the uploaded file is not kept
        ports.blobs.delete(request["object"])
    return ended


def _body(request: dict[str, str], blobs: BlobStore | None) -> str:
    if "body" in request:
        return request["body"]
    data = blobs.get(request["object"]) if blobs is not None else None
    if data is None:
        raise NotFoundError("the uploaded file is not there (its upload URL may have expired unused)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnprocessableError(f"the uploaded file is not UTF-8 (byte {exc.start})") from None


def upload_key(tenant_id: str, job_id: str) -> str:
    """Where an upload waits: under the tenant's prefix, named by the job it becomes."""
    return f"tenants/{tenant_id}/imports/{job_id}.jsonl"
