"""The background embedder: embeds memories stored without a vector, woken by each deferred retain."""

from __future__ import annotations

import logging
import threading

from engram.deps import Deps

logger = logging.getLogger(__name__)
POLL_S = 5.0
"""How long the worker sleeps between looks at the backlog when nothing wakes it."""


class EmbeddingWorker:
    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> None:
        """Start the thread (once; again after ``stop``)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stopping.clear()
        self._thread = threading.Thread(target=self._loop, name="engram-embedder", daemon=True)
        self._thread.start()
        if self.deps.store.pending.tenants_with_pending():
            self.deps.backlog.wake.set()

    def stop(self) -> None:
        if self._thread is None:
            return
        self._stopping.set()
        self.deps.backlog.wake.set()
        self._thread.join()
        self._thread = None

    def _loop(self) -> None:
        wake = self.deps.backlog.wake
        while not self._stopping.is_set():
            wake.wait(timeout=POLL_S)
            wake.clear()
            for tenant_id in self.deps.store.pending.tenants_with_pending():
                if self._stopping.is_set():
                    return
                try:
                    self.deps.backfill.run(tenant_id)
                except Exception:  # keep the worker alive; reads embed what it could not
                    logger.exception("background embedding failed")
