"""The local lifecycle schedule: the job over every tenant now, then every ``interval_s`` seconds."""

from __future__ import annotations

import threading

from engram.deps import Deps
from engram.lifecycle.service import run_lifecycle_all


class LifecycleSchedule:
    def __init__(self, deps: Deps, interval_s: float) -> None:
        self.deps = deps
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="engram-lifecycle", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop after the current page of a run (the next run resumes it)."""
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join()
        self._thread = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.deps.call(run_lifecycle_all, should_stop=self._stop.is_set)
            self._stop.wait(self.interval_s)
