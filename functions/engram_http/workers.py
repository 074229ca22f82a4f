"""The execution environments of ``engram serve``: a pool of worker processes (``engram_http.worker``).

Lambda runs concurrent invocations in separate execution environments and each runs one event
at a time; so does this pool. An invocation takes an idle worker (waiting for one while all are
busy, at most the function's timeout), sends it the event and waits at most the function's
timeout for the answer. A worker that does not answer in time is killed, as Lambda ends a timed
out invocation: its open SQLite transaction dies with it (nothing half-written), and a fresh
worker takes its place. Workers are forked from a clean server process (``forkserver``) that has
already imported the handlers, so starting or replacing one costs its own ``Deps`` and embedding
session (~0.3 s), not a Python start.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engram_http.apigw import FunctionTimeout
from engram_http.worker import Notes

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from engram.settings import Settings

logger = logging.getLogger(__name__)

PRELOAD = ["engram_http.preload"]
"""Imported once in the fork server, so every worker starts with the handlers' imports done."""
START_TIMEOUT_S = 120.0
"""A worker that is not ready within this is given up on (and replaced)."""
QUEUE_WAIT_S = 29.0
"""How long an invocation waits for a free worker (API Gateway's integration limit); the wait
is not part of the function's timeout, as a cold start is not on Lambda."""


class FunctionCrashed(Exception):
    """The worker died during the invocation (it is replaced)."""


class FunctionFailed(Exception):
    """The handler raised: ``kind`` is the exception's type name, the message its text."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    pid: int = 0


class WorkerPool:
    """``size`` worker processes; ``invoke`` runs one function on one of them.

    ``on_notes`` gets what each invocation left for the background work (``worker.Notes``).
    """

    def __init__(
        self, size: int, settings: Settings, *, on_notes: Callable[[Notes], None] | None = None
    ) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.size = size
        self.settings = settings
        self.on_notes = on_notes
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(PRELOAD)
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._stopping = False

    def start(self, *, wait: bool = False) -> None:
        """Start every worker (each joins the idle queue when ready); ``wait`` blocks until one is."""
        for _ in range(self.size):
            self._start_one()
        if wait:
            first = self._idle.get(timeout=START_TIMEOUT_S)
            self._idle.put(first)

    def _start_one(self) -> None:
        threading.Thread(target=self._spawn, name="engram-worker-start", daemon=True).start()

    def _spawn(self) -> None:
        from engram_http import worker

        ours, theirs = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(target=worker.main, args=(theirs, self.settings), daemon=True)
        process.start()
        theirs.close()
        entry = _Worker(process, ours)
        with self._lock:
            if self._stopping:
                self._kill(entry)
                return
            self._all.add(entry)
        try:
            if not ours.poll(START_TIMEOUT_S):
                raise TimeoutError("the worker did not start in time")
            _, pid = ours.recv()
        except (EOFError, OSError, TimeoutError):
            logger.exception("an engram worker failed to start")
            self._retire(entry)
            return
        entry.pid = int(pid)
        self._idle.put(entry)

    def pids(self) -> list[int]:
        """The workers' process ids (for measurements: memory per worker)."""
        with self._lock:
            return [w.process.pid for w in self._all]

    def invoke(self, function: str, event: dict[str, Any], timeout_s: float) -> Any:
        """The function's answer to ``event`` from one worker within ``timeout_s`` of its start
        there; ``FunctionTimeout`` past it, or when no worker was free within ``QUEUE_WAIT_S``.
        A worker that dies before it acknowledges the request (killed while idle) never ran it:
        the request goes to the next free one."""
        ends = time.monotonic() + QUEUE_WAIT_S
        while True:
            entry = self._free_worker(function, timeout_s, ends)
            try:
                entry.conn.send((function, event, timeout_s))
                limit = time.monotonic() + timeout_s
                started = entry.conn.recv() if entry.conn.poll(timeout_s) else None
            except (EOFError, OSError):
                self._replace(entry)  # it died before it had the request: take another
                continue
            if started is None:
                self._replace(entry)
                raise FunctionTimeout(function, timeout_s)
            break
        try:
            if not entry.conn.poll(max(0.0, limit - time.monotonic())):
                self._replace(entry)
                raise FunctionTimeout(function, timeout_s)
            status, value, notes = entry.conn.recv()
        except (EOFError, OSError) as exc:
            self._replace(entry)
            raise FunctionCrashed(function) from exc
        self._idle.put(entry)
        if self.on_notes is not None and (notes.wake_embedder or notes.jobs):
            self.on_notes(notes)
        if status == "error":
            raise FunctionFailed(*value)
        return value

    def _free_worker(self, function: str, timeout_s: float, ends: float) -> _Worker:
        """The next idle worker still alive, waiting until ``ends`` for one."""
        while True:
            try:
                entry = self._idle.get(timeout=max(0.0, ends - time.monotonic()))
            except queue.Empty:
                raise FunctionTimeout(function, timeout_s) from None
            if entry.process.is_alive():
                return entry
            self._replace(entry)  # died while idle (the OOM killer, a kill -9): take another

    def _replace(self, entry: _Worker) -> None:
        """Kill a worker (timed out or broken) and start a fresh one in its place."""
        self._retire(entry)
        with self._lock:
            if self._stopping:
                return
        self._start_one()

    def _retire(self, entry: _Worker) -> None:
        with self._lock:
            self._all.discard(entry)
        self._kill(entry)

    @staticmethod
    def _kill(entry: _Worker) -> None:
        with contextlib.suppress(OSError, ValueError):
            if entry.process.pid is not None:
                os.kill(entry.process.pid, signal.SIGKILL)
        entry.process.join(timeout=5)
        entry.conn.close()

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stop every worker: idle ones at once, busy ones once their invocation ends (or after
        ``timeout_s``)."""
        with self._lock:
            self._stopping = True
            count = len(self._all)
        deadline = time.monotonic() + timeout_s
        for _ in range(count):
            try:
                entry = self._idle.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            with contextlib.suppress(OSError):
                entry.conn.send(None)
            entry.process.join(timeout=max(0.1, deadline - time.monotonic()))
            self._retire(entry)
        with self._lock:
            rest = list(self._all)
        for entry in rest:
            self._retire(entry)
