"""A tenant's memories out and in: JSONL export (inline, or to object storage with a link),
and JSONL import here (the CLI; the API's imports are ``engram.imports.service``'s, inline or as
a job, and the CLI's of another service's export ``import_peer_file``)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator
from datetime import timedelta

from engram.embedding.backlog import Backfill, ImportPorts
from engram.identity import job_id
from engram.memories import operations as pipeline
from engram.models import ExportLink
from engram.ports import BlobStore, Clock, MemoryHistory, MemoryRecords
from engram.settings import Settings
from engram.tenants.tenancy import TenantContext


def export_lines(
    context: TenantContext, *, records: MemoryRecords, history: MemoryHistory, backfill: Backfill
) -> Iterator[str]:
    """The export as lines: a header, then one memory of the caller's scopes per line."""
    backfill.run(context.tenant_id)  # an export carries every vector
    return pipeline.export_lines(context.tenant_id, records=records, history=history, scopes=context.scopes)


def export_link(
    context: TenantContext,
    *,
    blobs: BlobStore | None,
    records: MemoryRecords,
    history: MemoryHistory,
    backfill: Backfill,
    clock: Clock,
    settings: Settings,
) -> ExportLink | None:
    """With object storage (the cloud), the export is written there and this is where to
    fetch it (a response could not carry a large tenant: Lambda answers at most 6 MB);
    None without it: the caller streams ``export_lines`` itself."""
    if blobs is None:
        return None
    lines = export_lines(context, records=records, history=history, backfill=backfill)
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
    import_ports: ImportPorts,
) -> dict[str, int]:
    """Import an export's lines to the end, here (the CLI); a key limited to some scopes imports
    only memories of those (``engram.imports``). ``progress`` is told (done, total) per batch."""
    from engram import imports

    answer = imports.import_lines(context, list(lines), progress=progress, import_ports=import_ports)
    return {"imported": answer.imported, "skipped": answer.skipped}
