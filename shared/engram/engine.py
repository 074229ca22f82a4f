"""``Engine``: a thin façade over ``Deps`` and the services, for scripts, tests and tools.

It adds nothing of its own: ``engine.recall(tenant_id, request, allowed_scopes=[...])`` resolves
the tenant (``engram.tenants.tenancy.of_tenant``, with the credential's scopes, None for every scope)
and calls ``engram.recall.metered.recall(deps, context, request)``; the tables below say which
service each name calls. ``resume_jobs``/``close`` start and stop the local background work
(``engram.background``). The HTTP handlers and the deployed functions do not use it: they call
the services directly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import engram.forget.service
import engram.lifecycle.service
import engram.memories.service
from engram import app, recall, retain
from engram.background import Background
from engram.deps import Deps
from engram.embedding import backlog
from engram.imports import transfer
from engram.retain import jobs
from engram.scopes import EVERY_SCOPE, ScopeSet
from engram.settings import Settings
from engram.tenants import admin, tenancy

IN_CONTEXT: dict[str, Callable[..., Any]] = {
    "retain": retain.run,
    "submit_retain": jobs.submit_retain,
    "get_job": jobs.get_job,
    "recall": recall.run,
    "forget": engram.forget.service.forget,
    "delete": engram.forget.service.delete,
    "feedback": engram.memories.service.feedback,
    "get": engram.memories.service.get,
    "list_memories": engram.memories.service.list_memories,
    "patch": engram.memories.service.patch,
    "restore": engram.memories.service.restore,
    "release": engram.memories.service.release,
    "stats": engram.memories.service.stats,
    "export_lines": transfer.export_lines,
    "export_link": transfer.export_link,
    "import_lines": transfer.import_lines,
    "import_peer": transfer.import_peer,
}
"""``name(tenant_id, *args, allowed_scopes=None, **options)`` -> ``service(deps, context, *args, **options)``."""

WITH_DEPS: dict[str, Callable[..., Any]] = {
    "run_job": jobs.run_job,
    "create_tenant": admin.create_tenant,
    "configure_tenant": admin.configure_tenant,
    "erase_tenant": admin.erase_tenant,
    "finish_erase": admin.finish_erase,
    "usage": admin.usage,
    "settings_for": tenancy.settings_for,
    "run_lifecycle": engram.lifecycle.service.run_lifecycle,
    "run_lifecycle_all": engram.lifecycle.service.run_lifecycle_all,
    "reindex": engram.lifecycle.service.reindex,
    "embed_pending": backlog.embed_pending,
    "recall_waits": backlog.recall_waits,
}
"""``name(*args, **options)`` -> ``service(deps, *args, **options)``."""

_FIELDS = {f.name for f in dataclasses.fields(Deps)}


class Engine:
    """One process's services over ``deps``; ``engine.store`` etc. read ``deps``."""

    deps: Deps
    background: Background

    def __init__(self, deps: Deps) -> None:
        object.__setattr__(self, "deps", deps)
        object.__setattr__(self, "background", Background(deps))
        if self.background.runner is not None:
            self.background.runner.start()  # a script's jobs run as the server's would

    @classmethod
    def local(cls, settings: Settings, **given: Any) -> Engine:
        return cls(app.build_local(settings, **given))

    @classmethod
    def aws(cls, settings: Settings, **given: Any) -> Engine:
        return cls(app.build_aws(settings, **given))

    @classmethod
    def from_settings(cls, settings: Settings) -> Engine:
        return cls(app.build(settings))

    def __getattr__(self, name: str) -> Any:
        if name in IN_CONTEXT:
            return self._in_context(IN_CONTEXT[name])
        if name in WITH_DEPS:
            service = WITH_DEPS[name]
            return lambda *args, **options: self.deps.call(service, *args, **options)
        if name in _FIELDS:
            return getattr(self.deps, name)
        raise AttributeError(name)

    def _in_context(self, service: Callable[..., Any]) -> Callable[..., Any]:
        def call(
            tenant_id: str, *args: Any, allowed_scopes: Sequence[str] | None = None, **options: Any
        ) -> Any:
            scopes = EVERY_SCOPE if allowed_scopes is None else ScopeSet.of(allowed_scopes)
            context = self.deps.call(tenancy.of_tenant, tenant_id, scopes)
            result = self.deps.call(service, context, *args, **options)
            if self.deps.backlog.wake.is_set() and self.deps.settings.background_embedding:
                self.background.embedder.start()  # deferred memories embed as they would served
            return result

        return call

    def __setattr__(self, name: str, value: Any) -> None:
        """Swap one dependency (tests): the façade then works over a copy of ``deps`` with it.
        The clock is not swapped: it is the stores' too, so it is given to the builder."""
        if name not in _FIELDS or name == "clock":
            raise AttributeError(f"cannot set {name!r} (pass it to engram.app.build_local/build_aws)")
        deps = dataclasses.replace(self.deps, **{name: value})
        if self.background.runner is not None:
            self.background.runner.bind(deps)
        object.__setattr__(self, "deps", deps)
        self.background.deps = self.background.embedder.deps = deps

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
