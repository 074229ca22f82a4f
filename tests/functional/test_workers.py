"""``engram serve`` runs each invocation in a worker process, as Lambda runs each in its own
execution environment: one tenant's long request holds one worker, never the others, and a
request that runs past its function's timeout is ended with a 504 in the error envelope.

The long request is real: with background embedding off, a tenant's deferred retains wait
unembedded, and an export embeds them all first (thousands of texts, seconds of CPU).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_support import Server, call, new_key, new_tenant, running_server

BACKLOG = 1000
NO_BACKGROUND = {"ENGRAM_BACKGROUND_EMBEDDING": "false"}


def _with_backlog(server: Server, n: int = BACKLOG) -> str:
    """A tenant whose ``n`` raw memories all wait for their embedding; its key."""
    key = new_key(server, new_tenant(server))
    for start in range(0, n, 100):
        items = [
            {"text": f"note {i}: the meeting about topic {i % 97} moved to room {i % 13}"}
            for i in range(start, start + 100)
        ]
        reply = call(
            server, "POST", "/v1/memories", {"scope": "user:u", "items": items, "mode": "raw"}, key=key
        )
        assert reply.status == 200, reply.body
    return key


def _quiet(server: Server) -> str:
    key = new_key(server, new_tenant(server))
    reply = call(
        server,
        "POST",
        "/v1/memories",
        {"scope": "user:q", "text": "I like green tea", "mode": "raw"},
        key=key,
    )
    assert reply.status == 200, reply.body
    assert (
        call(server, "GET", "/v1/memories?limit=5", key=key).status == 200
    )  # the key's first use is written
    return key


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[Server]:
    with running_server(tmp_path / "data", "--no-lifecycle", "--workers", "2", env=NO_BACKGROUND) as server:
        yield server


def test_one_tenants_long_request_leaves_another_tenants_request_answered_at_once(
    two_workers: Server,
) -> None:
    # Given a tenant with a large embedding backlog and another, quiet tenant
    busy, quiet = _with_backlog(two_workers), _quiet(two_workers)
    finished: dict[str, float] = {}

    def export() -> None:
        reply = call(two_workers, "POST", "/v1/export", {}, key=busy)
        finished["export"] = time.monotonic()
        finished["export_status"] = reply.status

    # When the busy tenant exports (embedding its backlog first) and the quiet one lists meanwhile
    thread = threading.Thread(target=export)
    began = time.monotonic()
    thread.start()
    time.sleep(0.3)
    reply = call(two_workers, "GET", "/v1/memories?limit=5", key=quiet)
    finished["list"] = time.monotonic()
    thread.join(timeout=120)
    print(
        f"\nexport {finished['export'] - began:.2f} s, quiet list answered after {finished['list'] - began - 0.3:.2f} s"
    )
    # Then the quiet tenant was answered while the export still ran, and the export completed
    assert reply.status == 200, reply.body
    assert finished["list"] < finished["export"]
    assert finished["export_status"] == 200


def test_a_request_past_its_timeout_is_ended_with_a_504_and_the_server_goes_on(tmp_path: Path) -> None:
    # Given a server that ends every request after 2 s, and a tenant whose export takes longer
    with running_server(
        tmp_path / "data", "--no-lifecycle", "--workers", "2", "--timeout", "2", env=NO_BACKGROUND
    ) as server:
        busy, quiet = _with_backlog(server), _quiet(server)
        # When the tenant exports
        began = time.monotonic()
        reply = call(server, "POST", "/v1/export", {}, key=busy)
        took = time.monotonic() - began
        # Then it is answered 504 in the error envelope at its deadline, not when the work ends
        assert reply.status == 504, reply.body
        assert reply.body["error"]["code"] == "timeout"
        assert "2 s" in reply.body["error"]["message"]
        assert took < 6.0, took
        # And the killed worker was replaced: both tenants are served, with every memory there
        for key, count in ((busy, BACKLOG), (quiet, 1)):
            listed = call(server, "GET", "/v1/stats", key=key)
            assert listed.status == 200, listed.body
            assert listed.body["total"] == count, listed.body


def _children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(p) for p in text.split()]


def _workers(server: Server) -> list[int]:
    """The server's worker processes: the fork server's children."""
    return [w for child in _children(server.process.pid) for w in _children(child)]


def test_a_worker_killed_while_idle_is_replaced_and_no_request_fails(two_workers: Server) -> None:
    # Given a served tenant and the server's two workers
    key = _quiet(two_workers)
    ends = time.monotonic() + 30
    while len(_workers(two_workers)) < 2 and time.monotonic() < ends:
        time.sleep(0.1)
    victims = _workers(two_workers)
    assert len(victims) == 2, victims
    # When one is killed (as the OOM killer would)
    os.kill(victims[0], signal.SIGKILL)
    time.sleep(0.2)
    # Then every request is still answered, and a fresh worker takes the dead one's place
    statuses = [call(two_workers, "GET", "/v1/memories?limit=5", key=key).status for _ in range(6)]
    assert statuses == [200] * 6
    ends = time.monotonic() + 30
    while (len(_workers(two_workers)) < 2 or victims[0] in _workers(two_workers)) and time.monotonic() < ends:
        time.sleep(0.1)
    assert len(_workers(two_workers)) == 2 and victims[0] not in _workers(two_workers)


def test_a_worker_that_dies_before_it_reads_a_request_hands_it_to_another(two_workers: Server) -> None:
    # Given a served tenant and a worker that is alive but cannot read (stopped), and dies soon
    key = _quiet(two_workers)
    ends = time.monotonic() + 30
    while len(_workers(two_workers)) < 2 and time.monotonic() < ends:
        time.sleep(0.1)
    victim = _workers(two_workers)[0]
    os.kill(victim, signal.SIGSTOP)
    threading.Timer(1.0, os.kill, (victim, signal.SIGKILL)).start()
    # When requests come in, one of which is handed to it before it dies
    statuses = [call(two_workers, "GET", "/v1/memories?limit=5", key=key).status for _ in range(3)]
    # Then each is answered by a live worker: the dead one never ran its request
    assert statuses == [200] * 3
