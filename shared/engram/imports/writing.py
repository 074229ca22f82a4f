"""Writing an import's memories, a batch at a time, whoever runs it (a call, a job, the CLI),
and reading the file a job was given (``engram.imports.lines`` or ``engram.imports.formats``)."""

from __future__ import annotations

import time
from collections.abc import Callable

from engram.imports import formats
from engram.imports.formats import PeerFile
from engram.imports.lines import Plan, read
from engram.memories.operations import write_imported
from engram.metering.counters import Meter, MeteredEmbedder
from engram.models import ImportProgress
from engram.ports import Clock, Embedder, Ports
from engram.tenants.tenancy import TenantContext

BATCH = 200
"""Memories per write of a job (one store write and one index upsert each)."""


def write(
    tenant_id: str,
    plan: Plan,
    progress: ImportProgress,
    *,
    should_stop: Callable[[float], bool],
    on_batch: Callable[[int, int], None] | None = None,
    batch: int = BATCH,
    ports: Ports,
    meter: Meter,
) -> None:
    """Write the plan's memories from ``progress.done`` on, a batch at a time, until done or
    ``should_stop(slowest batch's seconds)``; ``progress`` counts as it goes."""
    slowest = 0.0
    now = ports.clock.now()
    with meter.metered(tenant_id) as usage:
        metered = Ports(ports.records, ports.index, MeteredEmbedder(ports.embedder, usage), ports.clock)
        while progress.done < len(plan.items) and not should_stop(slowest):
            items = plan.items[progress.done : progress.done + batch]
            started = time.monotonic()
            written = write_imported(tenant_id, items, metered, now=now, batch_size=batch)
            slowest = max(slowest, time.monotonic() - started)
            progress.done += len(items)
            progress.imported += len(written)
            progress.skipped += len(items) - len(written)
            if on_batch is not None:
                on_batch(progress.done, progress.total)


def read_file(
    context: TenantContext, text: str, peer: PeerFile | None, *, embedder: Embedder, clock: Clock
) -> Plan:
    """The memories to write from a whole file: an Engram export, else another service's."""
    if peer is None:
        return read_export(context, text.splitlines(), embedder)
    plan = formats.read(peer, text, tenant_id=context.tenant_id, scopes=context.scopes, now=clock.now())
    return formats.items(plan, context.scopes)


def read_export(context: TenantContext, lines: list[str], embedder: Embedder) -> Plan:
    """An Engram export's lines, validated whole (``engram.imports.lines``)."""
    return read(
        context.tenant_id,
        lines,
        scopes=context.scopes,
        model_id=embedder.model_id,
        dimension=embedder.dimension,
    )
