"""An import, inline while it fits the call's deadline, else as a job that resumes where it stopped.

``import_text`` (an Engram export, or another service's read by ``engram.imports.formats``)
validates the whole file first (nothing is written if any line is wrong), then writes it in
batches. A file of more than ``INLINE_MAX`` memories is a job from the start; a smaller one is written inline while the invocation's time left (``engram.deadline``) allows
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
from collections.abc import Callable

from engram import deadline
from engram.embedding.backlog import ImportPorts
from engram.errors import PayloadTooLargeError
from engram.imports import formats, peers
from engram.imports.formats import PeerFile
from engram.imports.jobs import submit
from engram.imports.lines import Plan
from engram.imports.writing import BATCH, read_export, read_file, write
from engram.models import ImportProgress, ImportReport, ImportResponse, JobAccepted
from engram.tenants.tenancy import TenantContext

logger = logging.getLogger(__name__)

INLINE_MAX = 500
"""Memories an import writes inline at most; a larger file is a job from the start."""
INLINE_BATCH = 50
"""Memories per write within a call: small, so the time a batch takes is known early (a batch of
texts to embed by a remote model may take seconds) and the deadline check acts before the call ends."""
MIN_LEFT_S = 2.0
"""An inline import starts another batch only with this much time left, plus twice its slowest."""


def import_text(
    context: TenantContext,
    text: str,
    peer: PeerFile | None = None,
    *,
    dry_run: bool = False,
    import_ports: ImportPorts,
) -> ImportResponse | ImportReport | JobAccepted:
    """Import a file posted whole: an Engram export (the counts), or with ``peer`` another
    service's (``engram.imports.formats``: the report of every record; with ``dry_run``, of what
    the import would do, nothing written); or the job that carries on (see the module)."""
    p = import_ports
    if peer is None:
        plan = read_file(context, text, None, embedder=p.embedder, clock=p.clock)
        done = _inline_or_job(context, plan, text, None, p)
        return (
            done
            if isinstance(done, JobAccepted)
            else ImportResponse(imported=done.imported, skipped=done.skipped)
        )
    found, present = _peer_plan(context, peer, text, p)
    if dry_run:
        return formats.report(found, present, dry_run=True)
    done = _inline_or_job(context, formats.items(found, context.scopes), text, peer, p)
    if isinstance(done, JobAccepted):
        return done
    return formats.report(found, present, dry_run=False, imported=done.imported)


def import_lines(
    context: TenantContext,
    lines: list[str],
    progress: Callable[[int, int], None] | None = None,
    *,
    import_ports: ImportPorts,
) -> ImportResponse:
    """Import an export to the end, here (the CLI: no deadline); ``progress(done, total)`` per batch."""
    done = _here(context, read_export(context, lines, import_ports.embedder), progress, import_ports)
    return ImportResponse(imported=done.imported, skipped=done.skipped)


def import_peer_file(
    context: TenantContext,
    peer: PeerFile,
    text: str,
    progress: Callable[[int, int], None] | None = None,
    *,
    dry_run: bool = False,
    import_ports: ImportPorts,
) -> ImportReport:
    """Import another service's export to the end, here (the CLI); the report of every record."""
    plan, present = _peer_plan(context, peer, text, import_ports)
    if dry_run:
        return formats.report(plan, present, dry_run=True)
    done = _here(context, formats.items(plan, context.scopes), progress, import_ports)
    return formats.report(plan, present, dry_run=False, imported=done.imported)


def _peer_plan(
    context: TenantContext, peer: PeerFile, text: str, ports: ImportPorts
) -> tuple[peers.Plan, set[str]]:
    """Another service's file read and checked against the key, and which of its memories the tenant holds."""
    now = ports.clock.now()
    plan = formats.read(peer, text, tenant_id=context.tenant_id, scopes=context.scopes, now=now)
    return plan, formats.existing(context.tenant_id, plan, ports.records)


def _here(
    context: TenantContext, plan: Plan, on_batch: Callable[[int, int], None] | None, ports: ImportPorts
) -> ImportProgress:
    counts = ImportProgress(total=len(plan.items), skipped=plan.repeated)
    write(
        context.tenant_id,
        plan,
        counts,
        should_stop=lambda _: False,
        on_batch=on_batch,
        ports=ports.writing,
        meter=ports.meter,
    )
    return counts


def _inline_or_job(
    context: TenantContext, plan: Plan, text: str, peer: PeerFile | None, ports: ImportPorts
) -> ImportProgress | JobAccepted:
    """Write ``plan`` here while the call's deadline allows, else hand the rest to a job."""
    progress = ImportProgress(total=len(plan.items), skipped=plan.repeated)

    def to_job() -> JobAccepted:
        return submit(context, text=text, peer=peer, progress=progress, import_ports=ports)

    def inline(should_stop: Callable[[float], bool], batch: int = BATCH) -> None:
        write(
            context.tenant_id,
            plan,
            progress,
            should_stop=should_stop,
            batch=batch,
            ports=ports.writing,
            meter=ports.meter,
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
    return progress


def _deadline_near(slowest_s: float) -> bool:
    return deadline.left(math.inf) < MIN_LEFT_S + 2 * slowest_s
