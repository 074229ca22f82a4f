"""``Engine``: a thin, typed façade over ``Deps`` and the services, for scripts, tests and tools.

It adds nothing of its own: ``engine.recall(tenant_id, request, allowed_scopes=[...])`` resolves
the tenant (``engram.tenants.tenancy.of_tenant``, with the credential's scopes, every scope when
None) and calls ``deps.call(engram.recall.run, context, request)``, which passes the service the
ports it names; each method says which service it calls. The local job runner starts with the
first job submitted (no thread before one is needed); ``resume_jobs``/``close`` start and stop
the rest of the local background work (``engram.background``). The HTTP handlers and the deployed
functions do not use it: they call the services through ``deps().call``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypedDict, TypeVar, Unpack

import engram.forget.service
import engram.lifecycle.service
import engram.memories.service
from engram import app, imports, models, recall, retain
from engram.background import Background
from engram.deps import Deps, Swapped
from engram.imports import transfer
from engram.imports.peers import PeerFormat
from engram.lifecycle.sweep import LifecycleOptions
from engram.ports import Clock, Embedder, SearchIndex, Store
from engram.retain import jobs
from engram.scopes import EVERY_SCOPE, ScopeSet
from engram.settings import Settings
from engram.tenants import admin, tenancy

R = TypeVar("R")
Scopes = Sequence[str] | None
"""A credential's scopes (None: every scope)."""


class PeerImport(TypedDict, total=False):
    default_scope: str
    dry_run: bool
    skip_invalid: bool
    progress: Callable[[int, int], None] | None


class Engine:
    """One process's services over ``deps``."""

    def __init__(self, deps: Deps, *, background: Background | None = None) -> None:
        self.deps = deps
        # The ports most read (every port is in ``deps``).
        self.settings: Settings = deps.settings
        self.store: Store = deps.store
        self.index: SearchIndex = deps.index
        self.embedder: Embedder = deps.embedder
        self.background = background or Background(deps)
        if self.background.runner is not None:
            self.background.runner.start_on_submit()  # a script's jobs run as the server's would

    @classmethod
    def local(
        cls, settings: Settings, *, clock: Clock | None = None, embedder: Embedder | None = None
    ) -> Engine:
        return cls(app.build_local(settings, clock=clock, embedder=embedder))

    @classmethod
    def aws(cls, settings: Settings, **given: Any) -> Engine:
        """``engram.app.build_aws``' clients may be given (``dynamodb=``, ``index=``, ``clock=`` …)."""
        return cls(app.build_aws(settings, **given))

    @classmethod
    def from_settings(cls, settings: Settings) -> Engine:
        return cls(app.build(settings))

    def with_ports(self, **ports: Unpack[Swapped]) -> Engine:
        """An engine over these ports in place of this one's (tests: a failing store, a recording
        queue); it takes over this engine's background work, so use it, not this one, from then on
        (closing either closes that work). The clock is the stores' too: give it to the builder."""
        if "clock" in ports:
            raise TypeError("the clock is the stores' too: pass it to Engine.local/Engine.aws")
        deps = dataclasses.replace(self.deps, **ports)
        if self.background.runner is not None:
            self.background.runner.bind(deps)
        self.background.deps = self.background.embedder.deps = deps
        return Engine(deps, background=self.background)

    # A tenant's operations: ``name(tenant_id, …, allowed_scopes=None)``.
    def _in_context(
        self, service: Callable[..., R], tenant_id: str, scopes: Scopes, *args: Any, **kw: Any
    ) -> R:
        context = self.deps.call(
            tenancy.of_tenant, tenant_id, EVERY_SCOPE if scopes is None else ScopeSet.of(scopes)
        )
        result = self.deps.call(service, context, *args, **kw)
        if self.deps.backlog.wake.is_set() and self.deps.settings.background_embedding:
            self.background.embedder.start()  # deferred memories embed as they would served
        return result

    def retain(
        self, tenant_id: str, request: models.RetainRequest, *, allowed_scopes: Scopes = None
    ) -> models.RetainResponse:
        return self._in_context(retain.run, tenant_id, allowed_scopes, request)

    def submit_retain(
        self, tenant_id: str, request: models.RetainRequest, *, allowed_scopes: Scopes = None
    ) -> models.JobAccepted:
        return self._in_context(jobs.submit_retain, tenant_id, allowed_scopes, request)

    def get_job(self, tenant_id: str, job_id: str, *, allowed_scopes: Scopes = None) -> models.Job:
        return self._in_context(jobs.get_job, tenant_id, allowed_scopes, job_id)

    def recall(
        self,
        tenant_id: str,
        request: models.RecallRequest,
        *,
        allowed_scopes: Scopes = None,
        with_timings: bool = False,
    ) -> models.RecallResponse:
        return self._in_context(recall.run, tenant_id, allowed_scopes, request, with_timings=with_timings)

    def forget(
        self, tenant_id: str, request: models.ForgetRequest, *, allowed_scopes: Scopes = None
    ) -> models.ForgetResponse:
        return self._in_context(engram.forget.service.forget, tenant_id, allowed_scopes, request)

    def delete(
        self, tenant_id: str, memory_id: str, *, allowed_scopes: Scopes = None
    ) -> models.ForgetResponse:
        return self._in_context(engram.forget.service.delete, tenant_id, allowed_scopes, memory_id)

    def feedback(
        self,
        tenant_id: str,
        memory_id: str,
        request: models.FeedbackRequest,
        *,
        allowed_scopes: Scopes = None,
    ) -> models.FeedbackResponse:
        return self._in_context(
            engram.memories.service.feedback, tenant_id, allowed_scopes, memory_id, request
        )

    def get(
        self, tenant_id: str, memory_id: str, *, allowed_scopes: Scopes = None, with_history: bool = False
    ) -> models.MemoryView:
        return self._in_context(
            engram.memories.service.get, tenant_id, allowed_scopes, memory_id, with_history=with_history
        )

    def list_memories(
        self, tenant_id: str, request: models.ListRequest, *, allowed_scopes: Scopes = None
    ) -> models.ListResponse:
        return self._in_context(engram.memories.service.list_memories, tenant_id, allowed_scopes, request)

    def patch(
        self, tenant_id: str, memory_id: str, request: models.PatchRequest, *, allowed_scopes: Scopes = None
    ) -> models.MemoryView:
        return self._in_context(engram.memories.service.patch, tenant_id, allowed_scopes, memory_id, request)

    def restore(
        self,
        tenant_id: str,
        memory_id: str,
        request: models.RestoreRequest | None = None,
        *,
        allowed_scopes: Scopes = None,
    ) -> models.MemoryView:
        return self._in_context(
            engram.memories.service.restore, tenant_id, allowed_scopes, memory_id, request
        )

    def release(
        self, tenant_id: str, memory_id: str, *, allowed_scopes: Scopes = None, released_by: str = ""
    ) -> models.MemoryView:
        return self._in_context(
            engram.memories.service.release, tenant_id, allowed_scopes, memory_id, released_by=released_by
        )

    def stats(self, tenant_id: str, *, allowed_scopes: Scopes = None) -> models.StatsResponse:
        return self._in_context(engram.memories.service.stats, tenant_id, allowed_scopes)

    def export_lines(self, tenant_id: str, *, allowed_scopes: Scopes = None) -> Iterator[str]:
        return self._in_context(transfer.export_lines, tenant_id, allowed_scopes)

    def export_link(self, tenant_id: str, *, allowed_scopes: Scopes = None) -> models.ExportLink | None:
        return self._in_context(transfer.export_link, tenant_id, allowed_scopes)

    def import_lines(
        self,
        tenant_id: str,
        lines: Iterable[str],
        progress: Callable[[int, int], None] | None = None,
        *,
        allowed_scopes: Scopes = None,
    ) -> dict[str, int]:
        return self._in_context(transfer.import_lines, tenant_id, allowed_scopes, lines, progress)

    def import_peer(
        self,
        tenant_id: str,
        fmt: PeerFormat,
        text: str,
        *,
        allowed_scopes: Scopes = None,
        **options: Unpack[PeerImport],
    ) -> models.ImportReport:
        peer = imports.PeerFile(
            fmt, options.get("default_scope", "global"), options.get("skip_invalid", False)
        )
        return self._in_context(
            imports.import_peer_file,
            tenant_id,
            allowed_scopes,
            peer,
            text,
            options.get("progress"),
            dry_run=options.get("dry_run", False),
        )

    # The operator's and the workers' operations.
    def run_job(self, tenant_id: str, job_id: str) -> models.Job | None:
        return self.deps.call(jobs.run_job, tenant_id, job_id)

    def create_tenant(self, tenant_id: str, name: str | None = None) -> models.Tenant:
        return self.deps.call(admin.create_tenant, tenant_id, name)

    def configure_tenant(self, tenant_id: str, overrides: dict[str, Any]) -> Settings:
        return self.deps.call(admin.configure_tenant, tenant_id, overrides)

    def erase_tenant(self, tenant_id: str) -> int | None:
        return self.deps.call(admin.erase_tenant, tenant_id)

    def usage(
        self, tenant_id: str, *, since: str | None = None, until: str | None = None
    ) -> models.UsageReport:
        return self.deps.call(admin.usage, tenant_id, since=since, until=until)

    def settings_for(self, tenant_id: str) -> Settings:
        return self.deps.call(tenancy.settings_for, tenant_id)

    def run_lifecycle(self, tenant_id: str, **options: Unpack[LifecycleOptions]) -> models.LifecycleReport:
        return self.deps.call(engram.lifecycle.service.run_lifecycle, tenant_id, **options)

    def run_lifecycle_all(self, **options: Unpack[LifecycleOptions]) -> list[models.LifecycleReport]:
        return self.deps.call(engram.lifecycle.service.run_lifecycle_all, **options)

    def reindex(
        self, tenant_ids: Sequence[str], *, clean: bool = False, progress: Callable[[int], None] | None = None
    ) -> dict[str, int]:
        return self.deps.call(engram.lifecycle.service.reindex, tenant_ids, clean=clean, progress=progress)

    def embed_pending(self, tenant_id: str, *, batch: int = 64, at_most: int | None = None) -> int:
        return self.deps.backfill.run(tenant_id, batch=batch, at_most=at_most)

    # This process's background work.
    def operator_credential(self) -> str | None:
        return self.deps.operator_credential()

    def resume_jobs(self) -> int:
        """Start the background work (``engram.background``); how many jobs were resumed."""
        return self.background.start()

    def start_lifecycle(self, interval_s: float) -> None:
        self.background.start_lifecycle(interval_s)

    def close(self) -> None:
        """Finish queued jobs, stop the workers and embed whatever is still pending."""
        self.background.close()
