"""A tenant's memories out and in: JSONL export (inline, or to object storage with a link),
JSONL import, and imports of another service's export (``engram.imports.peers``)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator
from datetime import timedelta
from typing import Any

from engram.deps import Deps
from engram.embedding.backlog import embed_pending
from engram.identity import job_id
from engram.memories import operations as pipeline
from engram.models import ExportLink, ImportResponse, JobAccepted
from engram.tenants.tenancy import TenantContext


def export_lines(deps: Deps, context: TenantContext) -> Iterator[str]:
    """The export as lines: a header, then one memory of the caller's scopes per line."""
    deps.call(embed_pending, context.tenant_id)  # an export carries every vector
    return pipeline.export_lines(context.tenant_id, store=deps.store, scopes=context.scopes)


def export_link(deps: Deps, context: TenantContext) -> ExportLink | None:
    """With object storage (the cloud), the export is written there and this is where to
    fetch it (a response could not carry a large tenant: Lambda answers at most 6 MB);
    None without it: the caller streams ``export_lines`` itself."""
    if deps.blobs is None:
        return None
    count = size = 0
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8") as out:
        for line in export_lines(deps, context):
            out.write(line + "\n")
            count += 1
            size += len(line.encode()) + 1
        out.flush()
        key = f"tenants/{context.tenant_id}/exports/{job_id()}.jsonl"
        deps.blobs.upload_file(key, out.name)
    expiry = deps.settings.aws.export_url_expiry_s
    return ExportLink(
        url=deps.blobs.presigned_get(key, expiry),
        expires_at=deps.clock.now() + timedelta(seconds=expiry),
        memories=max(0, count - 1),  # the first line is the header
        bytes=size,
    )


def import_lines(
    deps: Deps,
    context: TenantContext,
    lines: Iterable[str],
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, int]:
    """Import an export's lines to the end, here (the CLI); a key limited to some scopes imports
    only memories of those (``engram.imports``). ``progress`` is told (done, total) per batch."""
    from engram import imports

    answer = imports.import_lines(deps, context, list(lines), progress=progress)
    return {"imported": answer.imported, "skipped": answer.skipped}


def import_body(deps: Deps, context: TenantContext, text: str) -> ImportResponse | JobAccepted:
    """``POST /v1/import``: the counts, or the job an import too large for the call becomes."""
    from engram import imports

    return imports.import_text(deps, context, text)


def import_peer(
    deps: Deps,
    context: TenantContext,
    fmt: str,
    text: str,
    *,
    default_scope: str = "global",
    dry_run: bool = False,
    skip_invalid: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Import another service's export (``engram.imports.peers``): the report of what was (or,
    with ``dry_run``, would be) imported and skipped."""
    from engram.imports import peers

    now = deps.clock.now()
    plan = peers.parse(fmt, text, tenant_id=context.tenant_id, now=now, default_scope=default_scope)
    return peers.run(
        context.tenant_id,
        plan,
        deps.ports,
        now=now,
        dry_run=dry_run,
        skip_invalid=skip_invalid,
        progress=progress,
    )
