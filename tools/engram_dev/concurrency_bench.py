"""``engram bench-concurrency``: many clients and a noisy tenant against one ``engram serve``.

One run, one server (a subprocess on a throwaway data dir), two tables side by side:

1. recall throughput at 1, 4, 16 and 32 clients (each a thread with a kept-alive connection,
   recalling for ``--seconds``), and each level's ratio to one client;
2. a quiet tenant's recall p50/p95/max alone, then while another tenant imports a multi-MB
   JSONL (an export of a seeded tenant) and exports it back.

The machine may be shared: the load average is printed before and after, and the figures that
matter are the ratios within this run (16 clients ÷ 1; quiet p95 beside the import ÷ alone).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engram_dev.gateway_bench import WORDS, _percentile

LEVELS = (1, 4, 16, 32)
NO_LIFE = ("--no-lifecycle",)


@dataclass
class Served:
    host: str
    port: int
    operator: str
    process: subprocess.Popen[str]


@contextmanager
def served(data_dir: Path, workers: int | None) -> Iterator[Served]:
    """``engram serve`` on a free port until the block ends."""
    extra = ["--workers", str(workers)] if workers else []
    code = "import sys\nfrom engram_cli.main import main\nsys.exit(main(sys.argv[1:]))"
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "--data-dir",
            str(data_dir),
            "serve",
            "--port",
            "0",
            "--quiet",
            *NO_LIFE,
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    if not first.startswith("Engram listening on "):
        raise RuntimeError(first + process.stdout.read())
    threading.Thread(target=lambda: list(iter(process.stdout.readline, "")), daemon=True).start()  # type: ignore[union-attr]
    host, port = first.split()[3].removeprefix("http://").rsplit(":", 1)
    try:
        yield Served(host, int(port), (data_dir / "operator-token").read_text().strip(), process)
    finally:
        process.terminate()  # the server embeds what is still pending before it ends
        process.wait(timeout=600)


class Client:
    """One kept-alive connection with one key."""

    def __init__(self, server: Served, key: str) -> None:
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=120)
        self.key = key

    def call(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes, float]:
        started = time.perf_counter()
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
        self.conn.request(method, path, body=body, headers=headers)
        reply = self.conn.getresponse()
        payload = reply.read()
        return reply.status, payload, (time.perf_counter() - started) * 1000

    def json(self, method: str, path: str, body: Any) -> Any:
        status, payload, _ = self.call(method, path, None if body is None else json.dumps(body).encode())
        if status >= 300:
            raise RuntimeError(f"{method} {path}: {status} {payload[:300]!r}")
        return json.loads(payload)

    def close(self) -> None:
        self.conn.close()


def _tenant(server: Served, name: str) -> str:
    admin = Client(server, server.operator)
    admin.json("POST", "/v1/admin/tenants", {"tenant_id": name})
    key = str(admin.json("POST", f"/v1/admin/tenants/{name}/keys", {})["api_key"])
    admin.close()
    return key


def _seed(server: Served, key: str, count: int, rng: random.Random) -> None:
    client = Client(server, key)
    for start in range(0, count, 100):
        items = [
            {"text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 40)))}
            for _ in range(min(100, count - start))
        ]
        client.json("POST", "/v1/memories", {"scope": "user:u1", "items": items, "mode": "raw"})
    client.close()


def _drained(server: Served, key: str, timeout_s: float = 600.0) -> None:
    """Wait until the background embedder has embedded the tenant's backlog."""
    client, ends = Client(server, key), time.monotonic() + timeout_s
    while client.json("GET", "/v1/stats", None)["pending_embedding"] and time.monotonic() < ends:
        time.sleep(0.5)
    client.close()


def _recall_body(rng: random.Random) -> bytes:
    query = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))
    return json.dumps({"query": query, "limit": 5, "scopes": ["user:u1"]}).encode()


def _throughput(server: Served, key: str, clients: int, seconds: float) -> tuple[float, list[float], int]:
    """(recalls per second, latencies in ms, non-200 answers) of ``clients`` threads at once."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def loop(seed: int) -> None:
        rng, client = random.Random(seed), Client(server, key)
        while time.monotonic() < stop:
            status, _, ms = client.call("POST", "/v1/recall", _recall_body(rng))
            with lock:
                latencies.append(ms) if status == 200 else errors.__setitem__(0, errors[0] + 1)
        client.close()

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(clients)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(latencies) / (time.monotonic() - began), latencies, errors[0]


def _quiet_while(server: Served, key: str, busy: threading.Thread | None, seconds: float) -> list[float]:
    """The quiet tenant's recall latencies, for ``seconds`` or while ``busy`` runs."""
    rng, client, out = random.Random(99), Client(server, key), list[float]()
    stop = time.monotonic() + seconds
    if busy is not None:
        busy.start()
    while (busy.is_alive() if busy is not None else time.monotonic() < stop) or not out:
        status, _, ms = client.call("POST", "/v1/recall", _recall_body(rng))
        if status != 200:
            raise RuntimeError(f"quiet recall answered {status}")
        out.append(ms)
        time.sleep(0.02)
    client.close()
    return out


def _bulk(server: Served, key: str, jsonl: bytes, log: dict[str, Any]) -> threading.Thread:
    """A thread that imports ``jsonl`` into the bulk tenant, then exports it."""

    def work() -> None:
        client = Client(server, key)
        status, _, ms = client.call("POST", "/v1/import", jsonl)
        log["import"] = (status, ms)
        status, payload, ms = client.call("POST", "/v1/export", b"{}")
        log["export"] = (status, ms, len(payload))
        client.close()

    return threading.Thread(target=work)


def _at_most(jsonl: bytes, size: int) -> bytes:
    """The export's header and as many whole memory lines as fit in ``size`` bytes."""
    out, total = list[bytes](), 0
    for line in jsonl.splitlines(keepends=True):
        if out and total + len(line) > size:
            break
        out.append(line)
        total += len(line)
    return b"".join(out)


def _row(name: str, values: list[float]) -> str:
    return f"| {name} | {len(values)} | {_percentile(values, 0.5):.1f} | {_percentile(values, 0.95):.1f} | {max(values):.1f} |"


def run(args: argparse.Namespace) -> int:
    rng = random.Random(7)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder, served(Path(folder), args.workers) as server:
        quiet, source, bulk = (_tenant(server, n) for n in ("quiet", "source", "bulk"))
        _seed(server, quiet, args.memories, rng)
        _seed(server, source, args.import_memories, rng)
        _drained(server, quiet)
        _drained(server, source)
        status, jsonl, _ = Client(server, source).call("POST", "/v1/export", b"{}")
        if status != 200:
            raise RuntimeError(f"the seed export answered {status}")
        jsonl = _at_most(jsonl, int(args.import_mb * 1e6))
        _quiet_while(server, quiet, None, 2.0)  # warm every worker's index of the quiet tenant
        levels = {c: _throughput(server, quiet, c, args.seconds) for c in LEVELS}
        alone = _quiet_while(server, quiet, None, args.seconds)
        log: dict[str, Any] = {}
        beside = _quiet_while(server, quiet, _bulk(server, bulk, jsonl, log), 0)
    load_after = os.getloadavg()
    base = levels[1][0]
    print(f"recall over {args.memories} memories, limit 5; workers: {args.workers or os.cpu_count()}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} ({os.cpu_count()} cores)\n")
    print("| clients | recalls/s | × 1 client | p50 ms | p95 ms | errors |")
    print("|---:|---:|---:|---:|---:|---:|")
    for clients, (rate, latencies, errors) in levels.items():
        print(
            f"| {clients} | {rate:.1f} | {rate / base:.2f} | {_percentile(latencies, 0.5):.1f} | "
            f"{_percentile(latencies, 0.95):.1f} | {errors} |"
        )
    lines = jsonl.count(b"\n") - 1
    imported, exported = log.get("import", (0, 0.0)), log.get("export", (0, 0.0, 0))
    print(
        f"\nquiet tenant's recall while another tenant imports {len(jsonl) / 1e6:.1f} MB "
        f"({lines} memories: {imported[0]} in {imported[1] / 1000:.1f} s) and exports it "
        f"({exported[0]} in {exported[1] / 1000:.1f} s)\n"
    )
    print("| quiet tenant | recalls | p50 ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    print(_row("alone", alone))
    print(_row("beside import + export", beside))
    ratio = _percentile(beside, 0.95) / _percentile(alone, 0.95)
    print(f"\np95 beside ÷ alone: {ratio:.2f}; 16 clients ÷ 1 client: {levels[16][0] / base:.2f}")
    return 0
