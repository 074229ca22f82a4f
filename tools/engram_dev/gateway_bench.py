"""``engram bench-gateway``: what the local gateway adds to a recall, measured side by side.

Seeds one tenant, then runs the same recalls alternately in-process (``Engine.recall``) and over
HTTP through ``engram serve``'s gateway (authorizer + handler + JSON on a kept-alive connection),
and prints p50/p95 of both and of the difference.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

WORDS = [
    "alice",
    "bob",
    "carol",
    "lisbon",
    "porto",
    "berlin",
    "flight",
    "hotel",
    "dinner",
    "meeting",
    "report",
    "deploy",
    "error",
    "cache",
    "billing",
    "coffee",
    "tea",
    "dark",
    "light",
    "mode",
    "theme",
    "cat",
    "dog",
    "garden",
    "piano",
    "tuesday",
    "friday",
    "march",
    "budget",
    "design",
    "review",
]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@contextmanager
def local_gateway(engine: Any) -> Iterator[tuple[str, int]]:
    """``engram serve``'s gateway on a free port in a thread, over ``engine``'s data with one
    worker process (as ``engram serve --workers 1``): yields (host, port)."""
    from engram_http import gateway, runtime
    from engram_http.workers import WorkerPool

    runtime.use_engine(engine)
    engine.resume_jobs()  # the background work engram serve starts beside its gateway
    pool = WorkerPool(1, engine.settings)
    pool.start(wait=True)
    servers: list[Any] = []
    ready = threading.Event()
    thread = threading.Thread(
        target=gateway.serve,
        args=("127.0.0.1", 0),
        kwargs={"ready": ready, "on_start": servers.append, "invoke": pool.invoke},
        daemon=True,
    )
    thread.start()
    try:
        if not ready.wait(10):
            raise RuntimeError("the local gateway did not start")
        host, port = servers[0].server_address[:2]
        yield str(host), int(port)
    finally:
        if servers:
            servers[0].shutdown()
        thread.join(10)
        pool.stop()
        runtime.use_engine(None)


class GatewayClient:
    """POST /v1/recall over one kept-alive connection; returns the wall time in ms."""

    def __init__(self, host: str, port: int, key: str) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=30)
        self.headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def recall(self, body: dict[str, Any]) -> float:
        started = time.perf_counter()
        self.connection.request("POST", "/v1/recall", json.dumps(body), self.headers)
        reply = self.connection.getresponse()
        reply.read()
        elapsed = (time.perf_counter() - started) * 1000
        if reply.status != 200:
            raise RuntimeError(f"gateway answered {reply.status}")
        return elapsed

    def close(self) -> None:
        self.connection.close()


def _alternate(
    engine: Any, host: str, port: int, key: str, rng: random.Random, count: int
) -> tuple[list[float], list[float]]:
    from engram.models import RecallRequest

    client = GatewayClient(host, port, key)
    queries = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))) for _ in range(count)]
    local, remote = [], []
    for i, query in enumerate([*queries[:20], *queries]):
        body = {"query": query, "limit": 5, "scopes": ["user:u1"]}
        started = time.perf_counter()
        engine.recall("bench", RecallRequest.model_validate(body))
        in_process = (time.perf_counter() - started) * 1000
        over_http = client.recall(body)
        if i >= 20:  # the first 20 warm both paths up
            local.append(in_process)
            remote.append(over_http)
    client.close()
    return local, remote


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    from engram.engine import Engine
    from engram.models import RetainItem, RetainRequest
    from engram.settings import Settings
    from engram.tenants import admin

    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        engine = Engine.local(Settings(data_dir=Path(folder)))
        engine.create_tenant("bench")
        texts = [
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(10, 30))) for _ in range(args.memories)
        ]
        for start in range(0, len(texts), 100):
            items = [RetainItem(text=t) for t in texts[start : start + 100]]
            engine.retain("bench", RetainRequest(scope="user:u1", items=items, mode="raw"))
        key, _ = engine.deps.call(admin.create_key, "bench")
        with local_gateway(engine) as (host, port):
            local, remote = _alternate(engine, host, port, key, rng, args.queries)
        engine.close()
    overhead = [r - loc for r, loc in zip(remote, local, strict=True)]
    rows = [
        ("in-process Engine.recall", local),
        ("HTTP via local gateway", remote),
        ("gateway overhead", overhead),
    ]
    print(f"recall over {args.memories} memories, {len(local)} queries, limit 5 (ms)")
    print("| path | p50 | p95 | mean |")
    print("|---|---:|---:|---:|")
    for name, values in rows:
        print(
            f"| {name} | {_percentile(values, 0.5):.2f} | {_percentile(values, 0.95):.2f} | "
            f"{statistics.fmean(values):.2f} |"
        )
    return 0
