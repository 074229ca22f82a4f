"""The local job runner: asynchronous retains on one thread of this process (no job queue).

A job is durable in the store before it is submitted here; one submitted before ``start`` waits
there, queued, and ``resume`` (at the server's start) runs every job a stopped process left
queued or running. A script's runner (``engram.engine.Engine``) starts with its first job
instead (``start_on_submit``): no thread before one is needed.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from engram.deps import Deps
from engram.models import Job
from engram.retain.jobs import execute


class LocalJobRunner:
    """``deps.runner`` of a local composition (``JobRunner``); ``bind`` gives it the ``Deps``
    it belongs to."""

    def __init__(self) -> None:
        self._deps: Deps | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._start_on_submit = False
        self._starting = threading.Lock()

    def bind(self, deps: Deps) -> None:
        self._deps = deps

    def start(self) -> None:
        with self._starting:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-jobs")

    def start_on_submit(self) -> None:
        """Start with the first job submitted, not before (until ``stop``)."""
        self._start_on_submit = True

    def submit(self, tenant_id: str, job: Job) -> None:
        if self._pool is None and self._start_on_submit:
            self.start()
        if self._pool is not None and self._deps is not None:
            self._pool.submit(self._deps.call, execute, tenant_id, job)

    def resume(self) -> int:
        """Run again the jobs a stopped process left queued or running; returns how many."""
        if self._deps is None:
            return 0
        pending = self._deps.store.jobs.pending_jobs()
        for tenant_id, job in pending:
            self.submit(tenant_id, job)
        return len(pending)

    def stop(self) -> None:
        """Finish the submitted jobs, then stop the thread."""
        self._start_on_submit = False
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
