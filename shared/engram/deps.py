"""``Deps``: the ports one process works with, built once by ``engram.app`` and then never changed.

A service function takes ``deps`` (and the caller's ``TenantContext``) and uses the ports it
needs from it; which adapter stands behind each port is the composition root's choice. The only
state ``Deps`` carries is the embedding backlog's coordination (``Backlog``: one lock per tenant
and the signal that wakes a background embedder, if one runs).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from engram.metering.counters import MeteredEmbedder
from engram.models import Job
from engram.ports import (
    LLM,
    BlobStore,
    Clock,
    Embedder,
    Extractor,
    JobQueue,
    MemoryStore,
    Ports,
    Reranker,
    SearchIndex,
    StepQueue,
    UsageLedger,
    UsagePlanRegistry,
)
from engram.settings import Settings

if TYPE_CHECKING:
    from engram.auth import KeyService
    from engram.webhooks.dispatch import DispatchStore


class JobRunner(Protocol):
    """Runs accepted jobs in this process (locally: ``engram.background.jobs``), when there is
    no job queue."""

    def submit(self, tenant_id: str, job: Job) -> None: ...


class Backlog:
    """What the memories stored without a vector need across calls: one lock per tenant (one
    caller embeds a tenant's backlog at a time, and a recall of one tenant never waits for
    another's), and the event that tells a background embedder there is work."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self.wake = threading.Event()

    def lock(self, tenant_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(tenant_id, threading.Lock())


@dataclass(frozen=True)
class Deps:
    """Everything a service may use; built by ``engram.app.build_local`` / ``build_aws``."""

    settings: Settings
    store: MemoryStore
    index: SearchIndex
    embedder: Embedder
    extractor: Extractor
    clock: Clock
    """The one clock: the stores, the key service and every service read this one."""
    llm: LLM | None = None
    reranker: Reranker | None = None
    ledger: UsageLedger | None = None
    """Where each tenant's daily usage counters go; None meters nothing."""
    keys: KeyService | None = None
    queue: JobQueue | None = None
    """Where accepted jobs go (SQS in the cloud); None: ``runner`` runs them in this process."""
    runner: JobRunner | None = None
    steps: StepQueue | None = None
    """Where tenant-wide work goes in resumable steps (SQS in the cloud); None does it inline."""
    blobs: BlobStore | None = None
    """Object storage for exports (and, in the store, large job bodies); None answers inline."""
    usage_plans: UsagePlanRegistry | None = None
    operator_token: str | Callable[[], str | None] | None = field(default=None, repr=False)
    """The admin routes' credential, or a function reading it (from Secrets Manager) on first use."""
    webhooks: DispatchStore | None = None
    """The tenants' webhook endpoints, outbox and delivery log (embedded default; the cloud puts
    events on EventBridge instead)."""
    backlog: Backlog = field(default_factory=Backlog, repr=False, compare=False)

    @property
    def ports(self) -> Ports:
        """The store, index, embedder and clock, for an operation that is not metered."""
        return Ports(self.store, self.index, self.embedder, self.clock)

    def operator_credential(self) -> str | None:
        """The operator token, read (once, by its reader) when first needed."""
        return self.operator_token() if callable(self.operator_token) else self.operator_token


def metered_ports(deps: Deps, usage: Counter[str]) -> Ports:
    """``deps``' ports for one operation, its embedder counting into ``usage``."""
    return Ports(deps.store, deps.index, MeteredEmbedder(deps.embedder, usage), deps.clock)
