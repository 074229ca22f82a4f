"""One execution environment of ``engram serve``: a process that runs one invocation at a time.

Like a Lambda execution environment it has its own handler modules, its own ``Deps`` (its own
SQLite connection and embedding session) and serves invocations one after another, so nothing
per-request (Powertools' current event, Logger keys, metrics) is ever shared between two
invocations running at once. It starts no background thread: what a handler hands to background
work (a deferred embedding, an accepted job) goes back to the server with the answer
(``Notes``), and the server's own background work picks it up.

The protocol on the pipe: the worker sends ``("ready", pid)`` once loaded, then acknowledges
each ``(function, event, timeout_s)`` with ``("started",)`` as soon as it has it (a worker that
dies before that never ran the request, so the server may give it to another) and answers with
``("ok", value, notes)`` or ``("error", (type name, message), notes)``; ``None`` (or the pipe
closing) ends it.
"""

from __future__ import annotations

import dataclasses
import os
import signal
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from engram.models import Job
    from engram.settings import Settings


@dataclass
class Notes:
    """What one invocation left for the server's background work."""

    wake_embedder: bool = False
    jobs: list[tuple[str, Job]] = field(default_factory=list)


class HandOff:
    """The worker's job runner: accepted jobs (already durable) go to the server, which runs them."""

    def __init__(self) -> None:
        self.jobs: list[tuple[str, Job]] = []

    def submit(self, tenant_id: str, job: Job) -> None:
        self.jobs.append((tenant_id, job))


def main(conn: Connection, settings: Settings) -> None:
    """The worker's life: load, say ready, then one invocation at a time until told to stop."""
    # Ctrl-C reaches the whole process group; the server decides when its workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from engram_http import apigw, runtime
    from engram_http.loader import load_handler
    from engram_http.routes import FUNCTIONS

    deps, hand_off = _deps(settings)
    runtime.use_deps(deps)
    for function in ("authorizer", *FUNCTIONS):
        load_handler(function)  # a warm environment: no import on the first request
    deps.embedder.embed(["warm up"])
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        function, event, timeout_s = message
        conn.send(("started",))
        try:
            reply: tuple[str, Any] = ("ok", apigw.invoke(function, event, timeout_s))
        except Exception as exc:  # the server answers as API Gateway would for a failed function
            reply = ("error", (type(exc).__name__, str(exc)))
        notes = Notes(wake_embedder=deps.backlog.wake.is_set(), jobs=hand_off.jobs)
        deps.backlog.wake.clear()
        hand_off.jobs = []
        conn.send((*reply, notes))


def _deps(settings: Settings) -> tuple[Any, HandOff]:
    """This environment's dependencies: the server's settings, one embedding session (a worker
    embeds queries and small batches; the server's background embedder does the bulk), and
    the hand-off runner."""
    from engram.app import build

    hand_off = HandOff()
    if settings.backend == "local" and settings.embedder == "local":
        from engram.adapters.local_embedder import LocalEmbedder
        from engram.app import build_local

        deps = build_local(settings, embedder=LocalEmbedder(threads=1, query_threads=1))
    else:
        deps = build(settings)
    if deps.runner is not None:
        deps = dataclasses.replace(deps, runner=hand_off)
    return deps, hand_off
