"""Work a local server does besides answering requests, each on a thread of its own: the
embedding backlog (``embedder``), asynchronous retains (``jobs``) and the lifecycle schedule
(``schedule``). ``engram serve`` starts them (``Background.start``) and stops them on exit;
nothing deployed to Lambda starts a thread (there, SQS and EventBridge do this work).
"""

from __future__ import annotations

from engram.background.embedder import EmbeddingWorker
from engram.background.jobs import LocalJobRunner
from engram.background.schedule import LifecycleSchedule
from engram.deps import Deps


class Background:
    """The local server's background work over one ``Deps``."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.embedder = EmbeddingWorker(deps)
        self.schedule: LifecycleSchedule | None = None

    @property
    def runner(self) -> LocalJobRunner | None:
        runner = self.deps.runner
        return runner if isinstance(runner, LocalJobRunner) else None

    def start(self, *, lifecycle_interval_s: float | None = None) -> int:
        """Start the workers; jobs a stopped process left queued or running run again. Returns
        how many were resumed."""
        if self.deps.settings.background_embedding:
            self.embedder.start()
        resumed = 0
        if self.runner is not None:
            self.runner.start()
            resumed = self.runner.resume()
        if lifecycle_interval_s is not None:
            self.start_lifecycle(lifecycle_interval_s)
        return resumed

    def start_lifecycle(self, interval_s: float) -> None:
        if self.schedule is None:
            self.schedule = LifecycleSchedule(self.deps, interval_s)
            self.schedule.start()

    def close(self) -> None:
        """Finish queued jobs, stop the workers and embed whatever is still pending."""
        if self.schedule is not None:
            self.schedule.stop()  # a run stops after its current page and resumes next time
            self.schedule = None
        if self.runner is not None:
            self.runner.stop()
        self.embedder.stop()
        self.deps.backfill.run_all()
