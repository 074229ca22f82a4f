"""Two tenants hammering one ``engram serve`` from many threads: nothing crosses between them.

The tenant ids are ``acme`` and ``acme-corp`` (one a prefix of the other). Each thread keeps
one kept-alive connection and mixes list, recall, retain and forget for a bounded time; every
answer is checked for the other tenant's marker, and afterwards each tenant's whole store is
listed. The second run switches interpreter threads every 10 µs (``sys.setswitchinterval``,
set inside the server process), which makes any shared per-request state collide quickly.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from serve_support import Server, new_key, new_tenant, running_server

THREADS = int(os.environ.get("RACE_THREADS", "16"))  # larger runs by hand: RACE_THREADS=32 RACE_SECONDS=60
SECONDS = float(os.environ.get("RACE_SECONDS", "8"))
TENANTS = ("acme", "acme-corp")
MARKERS = {"acme": "zebracorn", "acme-corp": "quokkafish"}
TOPICS = ["budget meeting", "flight to Lisbon", "dark mode", "coffee order", "deploy window"]


@dataclass
class Tally:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    foreign: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # a request that raised (reset, timeout)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int, leak: str | None) -> None:
        with self.lock:
            self.requests += 1
            self.statuses[status] += 1
            if leak:
                self.foreign.append(leak)


def _request(conn: http.client.HTTPConnection, key: str, method: str, path: str, body: Any = None) -> Any:
    payload = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=payload, headers={"Authorization": f"Bearer {key}"})
    response = conn.getresponse()
    return response.status, response.read().decode()


def _worker(server: Server, tenant: str, key: str, stop: float, tally: Tally, seed: int) -> None:
    try:
        _mix(server, tenant, key, stop, tally, seed)
    except Exception as exc:
        with tally.lock:
            tally.failures.append(f"{tenant} thread {seed}: {exc!r}")


def _mix(server: Server, tenant: str, key: str, stop: float, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    mine, theirs = MARKERS[tenant], next(m for t, m in MARKERS.items() if t != tenant)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    retained: list[str] = []
    n = 0
    while time.monotonic() < stop:
        op = rng.choice(["retain", "recall", "recall", "list", "forget" if retained else "recall"])
        topic = rng.choice(TOPICS)
        if op == "retain":
            n += 1
            text = f"{mine} note {seed}-{n}: the {topic} is on day {rng.randint(1, 28)}"
            status, text_out = _request(conn, key, "POST", "/v1/memories", {"scope": "user:u", "text": text})
            if status == 200:
                retained += [r["id"] for r in json.loads(text_out)["results"] if "id" in r]
        elif op == "recall":
            status, text_out = _request(conn, key, "POST", "/v1/recall", {"query": f"when is the {topic}?"})
        elif op == "list":
            status, text_out = _request(conn, key, "GET", "/v1/memories?limit=50")
        else:
            ids = [retained.pop(rng.randrange(len(retained)))]
            status, text_out = _request(conn, key, "POST", "/v1/forget", {"ids": ids})
        tally.add(status, f"{tenant} {op}: {text_out[:300]}" if theirs in text_out else None)
    conn.close()


def _run(server: Server) -> tuple[Tally, dict[str, str]]:
    keys = {tenant: new_key(server, new_tenant(server, tenant)) for tenant in TENANTS}
    tally = Tally()
    stop = time.monotonic() + SECONDS
    threads = [
        threading.Thread(target=_worker, args=(server, TENANTS[i % 2], keys[TENANTS[i % 2]], stop, tally, i))
        for i in range(THREADS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SECONDS + 120)
    return tally, keys


def _stored(server: Server, key: str) -> list[str]:
    """Every memory's content in the key's tenant, page by page."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    contents: list[str] = []
    cursor = ""
    while True:
        status, text = _request(conn, key, "GET", "/v1/memories?limit=500" + cursor)
        assert status == 200, text
        page = json.loads(text)
        contents += [m["content"] for m in page["memories"]]
        if not page.get("next_cursor"):
            return contents
        cursor = "&cursor=" + page["next_cursor"]


@pytest.mark.parametrize("switch_interval", [None, 1e-5], ids=["default-switching", "switch-every-10us"])
def test_two_tenants_racing_never_see_or_write_each_other(
    tmp_path: Path, switch_interval: float | None
) -> None:
    # Given one server and two tenants whose ids share a prefix
    prelude = f"import sys; sys.setswitchinterval({switch_interval})" if switch_interval else ""
    with running_server(tmp_path / "data", "--no-lifecycle", prelude=prelude) as server:
        # When 16 threads mix retain, recall, list and forget for both tenants at once
        tally, keys = _run(server)
        stored = {tenant: _stored(server, key) for tenant, key in keys.items()}
    foreign_writes = sum(MARKERS[tenant] not in c for tenant, contents in stored.items() for c in contents)
    print(
        f"\n{THREADS} threads x {SECONDS:g} s: {tally.requests} requests, {len(tally.foreign)} foreign results, "
        f"{foreign_writes} foreign writes, statuses {dict(tally.statuses)}"
    )
    # Then every answer was the caller's own, no request failed, and no write crossed over
    assert tally.requests >= 100, tally
    assert tally.foreign == [], tally.foreign[:5]
    assert tally.failures == [], (tally.failures, server.output()[-3000:])

    assert set(tally.statuses) == {200}, (tally.statuses, server.output()[-3000:])
    for tenant, contents in stored.items():
        assert contents and all(MARKERS[tenant] in c for c in contents), (tenant, contents[:5])
