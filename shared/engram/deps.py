"""``Deps``: the ports one process works with, built once by ``engram.app`` and then never changed.

No service takes ``Deps``: a service names the ports it uses as keyword-only parameters
(``records``, ``jobs``, ``index``, ``embedder``, ``meter``, ``clock`` …, each typed with the
narrowest port; a part of the store is ``deps.store.<part>``), and ``deps.call(service, *args)``
passes those the service names (cosmicpython's bootstrap does the same by parameter name). Which
adapter stands behind each port is the composition root's choice. The only state ``Deps`` carries
is the embedding backlog's coordination (``engram.embedding.backlog.Backlog``).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from engram.embedding.backlog import Backfill, Backlog, ImportPorts
from engram.lifecycle.ports import LifecyclePorts
from engram.metering.counters import Meter, MeteredPorts
from engram.ports import (
    LLM,
    BlobStore,
    Clock,
    Embedder,
    Extractor,
    JobQueue,
    JobRunner,
    KeyStore,
    Reranker,
    SearchIndex,
    StepQueue,
    Store,
    UsageLedger,
    UsagePlanRegistry,
)
from engram.retain.jobs import JobPorts
from engram.settings import Settings

if TYPE_CHECKING:
    from engram.auth.keys import KeyService
    from engram.webhooks.dispatch import DispatchStore

R = TypeVar("R")


@dataclass(frozen=True)
class Deps:
    """Everything a service may use; built by ``engram.app.build_local`` / ``build_aws``."""

    settings: Settings
    store: Store
    """The system of record, by part: a service is given the parts it names (``STORE_PARTS``)."""
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
    def key_store(self) -> KeyStore | None:
        return self.keys.store if self.keys is not None else None

    @property
    def meter(self) -> Meter:
        """The tenants' usage counters and budgets (``engram.metering``)."""
        return Meter(self.ledger, self.clock)

    @property
    def backfill(self) -> Backfill:
        """The embedding of what is stored without a vector (``engram.embedding.backlog``)."""
        return self.call(Backfill)

    def call(self, service: Callable[..., R], /, *args: Any, **given: Any) -> R:
        """``service(*args, **given)`` with the ports it names as keyword-only parameters and
        ``given`` does not: ``deps.call(engram.recall.run, context, request)``. A bundle of
        ports (``BUNDLES``) is built by the same rule from the ports its fields name."""
        for name in _injected(service):
            if name not in given:
                given[name] = self._port(name)
        return service(*args, **given)

    def _port(self, name: str) -> Any:
        if name in STORE_PARTS:
            return getattr(self.store, name)
        if name in BUNDLES:
            return self.call(BUNDLES[name])
        return getattr(self, name)

    def operator_credential(self) -> str | None:
        """The operator token, read (once, by its reader) when first needed."""
        return self.operator_token() if callable(self.operator_token) else self.operator_token


class Swapped(TypedDict, total=False):
    """The ports one may put in place of a ``Deps``' own (``engram.engine.Engine.with_ports``):
    every field but the clock (the stores' too) and the backlog (this process's)."""

    settings: Settings
    store: Store
    index: SearchIndex
    embedder: Embedder
    extractor: Extractor
    llm: LLM | None
    reranker: Reranker | None
    ledger: UsageLedger | None
    keys: KeyService | None
    queue: JobQueue | None
    runner: JobRunner | None
    steps: StepQueue | None
    blobs: BlobStore | None
    usage_plans: UsagePlanRegistry | None
    operator_token: str | Callable[[], str | None] | None
    webhooks: DispatchStore | None


STORE_PARTS = frozenset(
    {"tenants", "records", "history", "deletion_log", "idempotency", "jobs", "reports", "pending"}
)
"""The store's parts, each the name of its port (``records: MemoryRecords``, ``jobs: JobStore`` …):
a service naming one is given that part of the store (``deps.store.records``, ``engram.ports.Store``)."""

BUNDLES: dict[str, type[Any]] = {
    "metered_ports": MeteredPorts,
    "job_ports": JobPorts,
    "import_ports": ImportPorts,
    "lifecycle_ports": LifecyclePorts,
}
"""The bundles of ports a service may name, each a frozen dataclass of keyword-only fields
(``engram.metering``, ``engram.retain.jobs``, ``engram.imports``, ``engram.lifecycle``)."""

PORTS = frozenset(
    {f.name for f in fields(Deps)}
    | {n for n, v in vars(Deps).items() if isinstance(v, property)}
    | STORE_PARTS
    | set(BUNDLES)
)
"""Every name ``Deps.call`` can pass a service."""


@functools.cache
def _injected(service: Callable[..., Any]) -> tuple[str, ...]:
    """The ports ``service`` takes by name (its keyword-only parameters ``Deps`` has)."""
    parameters = inspect.signature(service).parameters.values()
    return tuple(p.name for p in parameters if p.kind is p.KEYWORD_ONLY and p.name in PORTS)
