"""An import, inline while it fits the call's deadline, else as a job that resumes where it stopped.

``import_text`` validates the whole file first (nothing is written if any line is wrong), then
writes it in batches. A file of more than ``INLINE_MAX`` memories is a job from the start; a
smaller one is written inline while the invocation's time left (``engram.deadline``) allows
another batch, and what remains when it does not becomes a job: the answer is then ``202`` with
the job's id, never a timeout with part of the file written and no one to finish it.

A job's file waits in object storage where there is one (the cloud: an upload, or the posted body
put there), else in the job itself; the job keeps its counts as ``progress`` (after each batch,
when the file is an object): run by the step worker in the cloud (``engram.tenants.steps``, a
continuation before its own timeout), by this process's job runner locally. Each batch skips the
ids the tenant holds, so a batch that ran twice writes once.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from datetime import timedelta

from engram import deadline
from engram.errors import EngramError, NotFoundError, PayloadTooLargeError, ProviderError, UnprocessableError
from engram.identity import job_id as new_job_id
from engram.imports.lines import Plan, read
from engram.memories.operations import write_imported
from engram.metering.counters import Meter, MeteredEmbedder
from engram.models import ImportProgress, ImportResponse, ImportUpload, Job, JobAccepted
from engram.ports import (
    BlobStore,
    Clock,
    Embedder,
    JobQueue,
    JobRunner,
    JobStore,
    MemoryStore,
    Ports,
    SearchIndex,
    StepQueue,
    TenantRegistry,
)
from engram.scopes import ScopeSet
from engram.settings import Settings
from engram.tenants import tenancy
from engram.tenants.tenancy import TenantContext

logger = logging.getLogger(__name__)

INLINE_MAX = 500
"""Memories an import writes inline at most; a larger file is a job from the start."""
BATCH = 200
"""Memories per write of a job (one store write and one index upsert each)."""
INLINE_BATCH = 50
"""Memories per write within a call: small, so the time a batch takes is known early (a batch of
texts to embed by a remote model may take seconds) and the deadline check acts before the call ends."""
MIN_LEFT_S = 2.0
"""An inline import starts another batch only with this much time left, plus twice its slowest."""
_NO_UPLOADS = "this server keeps no uploads (no object storage): POST the JSONL to /v1/import itself"
MAX_UPLOAD_BYTES = 100_000_000
"""The largest file ``POST /v1/import/upload`` takes (a step worker reads it whole)."""


def import_text(
    context: TenantContext,
    text: str,
    *,
    store: MemoryStore,
    index: SearchIndex,
    embedder: Embedder,
    meter: Meter,
    clock: Clock,
    blobs: BlobStore | None,
    steps: StepQueue | None,
    queue: JobQueue | None,
    runner: JobRunner | None,
) -> ImportResponse | JobAccepted:
    """Import an export posted whole: the counts, or the job that carries on (see the module)."""
    plan = _plan(context, text.splitlines(), embedder)
    progress = ImportProgress(total=len(plan.items), skipped=plan.repeated)

    def to_job() -> JobAccepted:
        return submit(
            context,
            text=text,
            progress=progress,
            jobs=store,
            clock=clock,
            blobs=blobs,
            steps=steps,
            queue=queue,
            runner=runner,
        )

    def inline(should_stop: Callable[[float], bool], batch: int = BATCH) -> None:
        write(
            context.tenant_id,
            plan,
            progress,
            should_stop=should_stop,
            batch=batch,
            store=store,
            index=index,
            embedder=embedder,
            meter=meter,
            clock=clock,
        )

    if len(plan.items) > INLINE_MAX:
        return to_job()
    inline(_deadline_near, INLINE_BATCH)
    if progress.done < progress.total:
        try:
            return to_job()
        except PayloadTooLargeError:  # no room for the body (no object storage): finish here
            logger.warning("import past its deadline finished inline: the job store cannot hold it")
            inline(lambda _: False)
    return ImportResponse(imported=progress.imported, skipped=progress.skipped)


def import_lines(
    context: TenantContext,
    lines: list[str],
    progress: Callable[[int, int], None] | None = None,
    *,
    store: MemoryStore,
    index: SearchIndex,
    embedder: Embedder,
    meter: Meter,
    clock: Clock,
) -> ImportResponse:
    """Import an export to the end, here (the CLI: no deadline); ``progress(done, total)`` per batch."""
    plan = _plan(context, lines, embedder)
    counts = ImportProgress(total=len(plan.items), skipped=plan.repeated)
    write(
        context.tenant_id,
        plan,
        counts,
        should_stop=lambda _: False,
        on_batch=progress,
        store=store,
        index=index,
        embedder=embedder,
        meter=meter,
        clock=clock,
    )
    return ImportResponse(imported=counts.imported, skipped=counts.skipped)


def write(
    tenant_id: str,
    plan: Plan,
    progress: ImportProgress,
    *,
    should_stop: Callable[[float], bool],
    on_batch: Callable[[int, int], None] | None = None,
    batch: int = BATCH,
    store: MemoryStore,
    index: SearchIndex,
    embedder: Embedder,
    meter: Meter,
    clock: Clock,
) -> None:
    """Write the plan's memories from ``progress.done`` on, a batch at a time, until done or
    ``should_stop(slowest batch's seconds)``; ``progress`` counts as it goes."""
    slowest = 0.0
    now = clock.now()
    with meter.metered(tenant_id) as usage:
        ports = Ports(store, index, MeteredEmbedder(embedder, usage), clock)
        while progress.done < len(plan.items) and not should_stop(slowest):
            items = plan.items[progress.done : progress.done + batch]
            started = time.monotonic()
            written = write_imported(tenant_id, items, ports, now=now, batch_size=batch)
            slowest = max(slowest, time.monotonic() - started)
            progress.done += len(items)
            progress.imported += len(written)
            progress.skipped += len(items) - len(written)
            if on_batch is not None:
                on_batch(progress.done, progress.total)


def _deadline_near(slowest_s: float) -> bool:
    return deadline.left(math.inf) < MIN_LEFT_S + 2 * slowest_s


def _plan(context: TenantContext, lines: list[str], embedder: Embedder) -> Plan:
    return read(
        context.tenant_id,
        lines,
        scopes=context.scopes,
        model_id=embedder.model_id,
        dimension=embedder.dimension,
    )


# -- jobs --------------------------------------------------------------------------------------


def submit(
    context: TenantContext,
    *,
    text: str | None = None,
    progress: ImportProgress | None = None,
    job_id: str | None = None,
    jobs: JobStore,
    clock: Clock,
    blobs: BlobStore | None,
    steps: StepQueue | None,
    queue: JobQueue | None,
    runner: JobRunner | None,
) -> JobAccepted:
    """Store an import job (durable before this returns) and hand it to whoever runs jobs. The
    file is ``text``, kept as an object where there is object storage (so that saving progress
    after each batch costs one small write) and in the job otherwise; without ``text``, the
    upload of ``job_id``."""
    now = clock.now()
    job_id = job_id or new_job_id()
    key = upload_key(context.tenant_id, job_id)
    request = {"object": key}
    if text is not None:
        if blobs is None:
            request = {"body": text}
        else:
            blobs.put(key, text.encode())
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
        if steps is not None:  # the cloud: the step worker, in resumable steps
            steps.send({"kind": "import", "tenant_id": context.tenant_id, "job_id": job.job_id})
        elif queue is not None:
            queue.enqueue(context.tenant_id, job.job_id)
        elif runner is not None:  # locally: this process's job runner
            runner.submit(context.tenant_id, job)
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
    tenant_id: str,
    job_id: str,
    *,
    should_stop: Callable[[], bool] = lambda: False,
    store: MemoryStore,
    tenants: TenantRegistry,
    index: SearchIndex,
    embedder: Embedder,
    meter: Meter,
    clock: Clock,
    blobs: BlobStore | None,
    settings: Settings,
) -> Job | None:
    """Run (or resume) an import job until it ends or ``should_stop``; the job as it is then."""
    job = store.get_job(tenant_id, job_id)
    if job is None or job.status in ("succeeded", "failed") or job.request is None:
        return job
    return execute(
        tenant_id,
        job,
        should_stop=should_stop,
        store=store,
        tenants=tenants,
        index=index,
        embedder=embedder,
        meter=meter,
        clock=clock,
        blobs=blobs,
        settings=settings,
    )


def execute(
    tenant_id: str,
    job: Job,
    *,
    should_stop: Callable[[], bool] = lambda: False,
    store: MemoryStore,
    tenants: TenantRegistry,
    index: SearchIndex,
    embedder: Embedder,
    meter: Meter,
    clock: Clock,
    blobs: BlobStore | None,
    settings: Settings,
) -> Job:
    """Run an import job from where its progress says; the job as stored at the end.
    ``settings`` are the service's (the job runs with the tenant's)."""
    request = job.request or {}
    running = job.model_copy(update={"status": "running", "updated_at": clock.now()})
    store.put_job(tenant_id, running)
    try:
        scopes = ScopeSet.every() if job.scopes is None else ScopeSet.of(job.scopes)
        context = tenancy.of_tenant(tenant_id, scopes, tenants=tenants, settings=settings)
        plan = _plan(context, _body(request, blobs).splitlines(), embedder)
        progress = job.progress or ImportProgress(skipped=plan.repeated)
        progress = progress.model_copy(update={"total": len(plan.items)})
        saved = "object" in request  # the job is small: its progress is kept after each batch

        def keep(_done: int, _total: int) -> None:
            store.put_job(tenant_id, running.model_copy(update={"progress": progress}))

        write(
            tenant_id,
            plan,
            progress,
            should_stop=lambda _: should_stop(),
            on_batch=keep if saved else None,
            store=store,
            index=index,
            embedder=embedder,
            meter=meter,
            clock=clock,
        )
    except Exception as exc:  # the job reports any failure; the process goes on
        if not isinstance(exc, EngramError):
            logger.exception("import job failed")
        error = exc.message if isinstance(exc, EngramError) else "the import stopped on an internal error"
        ended = running.model_copy(update={"status": "failed", "error": error, "request": None})
        return _finish(tenant_id, ended, request, jobs=store, clock=clock, blobs=blobs)
    if progress.done < progress.total:  # stopped at the deadline: a step resumes it
        paused = running.model_copy(update={"progress": progress, "updated_at": clock.now()})
        store.put_job(tenant_id, paused)
        return paused
    done = running.model_copy(update={"status": "succeeded", "progress": progress, "request": None})
    return _finish(tenant_id, done, request, jobs=store, clock=clock, blobs=blobs)


def _finish(
    tenant_id: str,
    job: Job,
    request: dict[str, str],
    *,
    jobs: JobStore,
    clock: Clock,
    blobs: BlobStore | None,
) -> Job:
    ended = job.model_copy(update={"updated_at": clock.now()})
    jobs.put_job(tenant_id, ended)
    if "object" in request and blobs is not None:  # the uploaded file is not kept
        blobs.delete(request["object"])
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


# -- uploads (the cloud) ----------------------------------------------------------------------


def upload_key(tenant_id: str, job_id: str) -> str:
    """Where an upload waits: under the tenant's prefix, named by the job it becomes."""
    return f"tenants/{tenant_id}/imports/{job_id}.jsonl"


def new_upload(
    context: TenantContext, *, blobs: BlobStore | None, clock: Clock, settings: Settings
) -> ImportUpload:
    """A presigned URL to ``PUT`` a file of any size up to ``MAX_UPLOAD_BYTES``; nothing is stored yet."""
    if blobs is None:
        raise NotFoundError(_NO_UPLOADS)
    job_id = new_job_id()
    expiry = settings.aws.export_url_expiry_s
    return ImportUpload(
        job_id=job_id,
        upload_url=blobs.presigned_put(upload_key(context.tenant_id, job_id), expiry),
        expires_at=clock.now() + timedelta(seconds=expiry),
        max_bytes=MAX_UPLOAD_BYTES,
    )


def start_upload(
    context: TenantContext,
    job_id: str,
    *,
    jobs: JobStore,
    clock: Clock,
    blobs: BlobStore | None,
    steps: StepQueue | None,
    queue: JobQueue | None,
    runner: JobRunner | None,
) -> JobAccepted:
    """The job of an uploaded file (the same one again if it was started already)."""
    if blobs is None:
        raise NotFoundError(_NO_UPLOADS)
    existing = jobs.get_job(context.tenant_id, job_id)
    if existing is not None:
        if not visible(existing, context.scopes):
            raise NotFoundError(f"upload '{job_id}' not found")
        return JobAccepted(job_id=existing.job_id, status="queued")
    key = upload_key(context.tenant_id, job_id)
    size = blobs.size(key)
    if size is None:
        raise NotFoundError(f"upload '{job_id}' not found (PUT the file to its upload_url first)")
    if size > MAX_UPLOAD_BYTES:
        blobs.delete(key)
        raise PayloadTooLargeError(
            f"the uploaded file is {size:,} bytes; an import takes at most {MAX_UPLOAD_BYTES:,}"
        )
    return submit(
        context, job_id=job_id, jobs=jobs, clock=clock, blobs=blobs, steps=steps, queue=queue, runner=runner
    )
