"""A tenant's memories out and in: JSONL export (inline, or to object storage with a link),
JSONL import, and imports of another service's export (``engram.imports.peers``)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator
from datetime import timedelta
from typing import Any

from engram.embedding.backlog import Backfill
from engram.identity import job_id
from engram.memories import operations as pipeline
from engram.metering.counters import Meter
from engram.models import ExportLink, ImportResponse, JobAccepted
from engram.ports import (
    BlobStore,
    Clock,
    Embedder,
    JobQueue,
    JobRunner,
    MemoryStore,
    Ports,
    SearchIndex,
    StepQueue,
)
from engram.settings import Settings
from engram.tenants.tenancy import TenantContext


def export_lines(context: TenantContext, *, store: MemoryStore, backfill: Backfill) -> Iterator[str]:
    """The export as lines: a header, then one memory of the caller's scopes per line."""
    backfill.run(context.tenant_id)  # an export carries every vector
    return pipeline.export_lines(context.tenant_id, store=store, scopes=context.scopes)


def export_link(
    context: TenantContext,
    *,
    blobs: BlobStore | None,
    store: MemoryStore,
    backfill: Backfill,
    clock: Clock,
    settings: Settings,
) -> ExportLink | None:
    """With object storage (the cloud), the export is written there and this is where to
    fetch it (a response could not carry a large tenant: Lambda answers at most 6 MB);
    None without it: the caller streams ``export_lines`` itself."""
    if blobs is None:
        return None
    lines = export_lines(context, store=store, backfill=backfill)
    count = size = 0
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8") as out:
        for line in lines:
            out.write(line + "\n")
            count += 1
            size += len(line.encode()) + 1
        out.flush()
        key = f"tenants/{context.tenant_id}/exports/{job_id()}.jsonl"
        blobs.upload_file(key, out.name)
    expiry = settings.aws.export_url_expiry_s
    return ExportLink(
        url=blobs.presigned_get(key, expiry),
        expires_at=clock.now() + timedelta(seconds=expiry),
        memories=max(0, count - 1),  # the first line is the header
        bytes=size,
    )


def import_lines(
    context: TenantContext,
    lines: Iterable[str],
    progress: Callable[[int, int], None] | None = None,
    *,
    store: MemoryStore,
    index: SearchIndex,
    embedder: Embedder,
    meter: Meter,
    clock: Clock,
) -> dict[str, int]:
    """Import an export's lines to the end, here (the CLI); a key limited to some scopes imports
    only memories of those (``engram.imports``). ``progress`` is told (done, total) per batch."""
    from engram import imports

    answer = imports.import_lines(
        context,
        list(lines),
        progress=progress,
        store=store,
        index=index,
        embedder=embedder,
        meter=meter,
        clock=clock,
    )
    return {"imported": answer.imported, "skipped": answer.skipped}


def import_body(
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
    """``POST /v1/import``: the counts, or the job an import too large for the call becomes."""
    from engram import imports

    return imports.import_text(
        context,
        text,
        store=store,
        index=index,
        embedder=embedder,
        meter=meter,
        clock=clock,
        blobs=blobs,
        steps=steps,
        queue=queue,
        runner=runner,
    )


def import_peer(
    context: TenantContext,
    fmt: str,
    text: str,
    *,
    default_scope: str = "global",
    dry_run: bool = False,
    skip_invalid: bool = False,
    progress: Callable[[int, int], None] | None = None,
    store: MemoryStore,
    index: SearchIndex,
    embedder: Embedder,
    clock: Clock,
) -> dict[str, Any]:
    """Import another service's export (``engram.imports.peers``): the report of what was (or,
    with ``dry_run``, would be) imported and skipped."""
    from engram.imports import lancedb_pro, peers

    now = clock.now()
    if fmt == lancedb_pro.FORMAT:
        plan = lancedb_pro.parse(text, tenant_id=context.tenant_id, now=now)
    else:
        plan = peers.parse(fmt, text, tenant_id=context.tenant_id, now=now, default_scope=default_scope)
    return peers.run(
        context.tenant_id,
        plan,
        Ports(store, index, embedder, clock),
        now=now,
        dry_run=dry_run,
        skip_invalid=skip_invalid,
        progress=progress,
    )
