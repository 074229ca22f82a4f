"""``Engine``: no thread until a job needs one, and an engine over other ports is a new engine."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

import pytest

from engram.deps import Deps, Swapped
from engram.engine import Engine
from engram.models import RetainRequest
from engram.settings import Settings

ALREADY = set[threading.Thread]()


def job_threads() -> list[str]:
    """The job threads started since the test began (another test's engine may have left one)."""
    return [t.name for t in threading.enumerate() if t.name.startswith("engram-jobs") and t not in ALREADY]


class QueueOfRecord:
    """A JobQueue that keeps what it is given."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def enqueue(self, tenant_id: str, job_id: str) -> None:
        self.sent.append((tenant_id, job_id))


def wait_until_done(engine: Engine, tenant_id: str, job_id: str) -> str:
    deadline = time.monotonic() + 30
    status = engine.get_job(tenant_id, job_id).status
    while status in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.05)
        status = engine.get_job(tenant_id, job_id).status
    return status


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    ALREADY.clear()
    ALREADY.update(threading.enumerate())
    engine = Engine.local(Settings(data_dir=tmp_path, background_embedding=False))
    engine.create_tenant("acme")
    return engine


def test_an_engine_starts_its_job_thread_with_the_first_job_not_before(engine: Engine) -> None:
    # Given a new engine that has served synchronous calls only
    engine.retain("acme", RetainRequest(scope="user:a", text="I live in Porto", mode="raw"))
    assert job_threads() == []
    # When a job is submitted, then it runs on the engine's job thread, which close stops
    accepted = engine.submit_retain("acme", RetainRequest(scope="user:a", text="I work in Braga"))
    assert wait_until_done(engine, "acme", accepted.job_id) == "succeeded"
    assert len(job_threads()) == 1
    engine.close()
    assert job_threads() == []


def test_an_engine_with_other_ports_uses_them_and_leaves_the_first_one_as_it_was(engine: Engine) -> None:
    # Given an engine over a queue of its own
    queue = QueueOfRecord()
    queued = engine.with_ports(queue=queue)
    # When a job is submitted to each, then the first runs it here and the second sends it
    here = engine.submit_retain("acme", RetainRequest(scope="user:a", text="I live in Porto"))
    sent = queued.submit_retain("acme", RetainRequest(scope="user:a", text="I work in Braga"))
    assert queue.sent == [("acme", sent.job_id)]
    assert engine.deps.queue is None and queued.deps.queue is queue
    assert wait_until_done(queued, "acme", here.job_id) == "succeeded"
    assert queued.get_job("acme", sent.job_id).status == "queued"
    # And closing the new one stops the work they share
    queued.close()
    assert job_threads() == []


def test_the_clock_is_not_swapped(engine: Engine) -> None:
    with pytest.raises(TypeError, match="clock"):
        engine.with_ports(clock=engine.deps.clock)  # type: ignore[call-arg]
    engine.close()


def test_with_ports_takes_every_port_of_deps_but_the_clock_and_the_backlog() -> None:
    # Swapped types with_ports' keywords: a port added to Deps is added there too
    assert set(Swapped.__annotations__) == {f.name for f in dataclasses.fields(Deps)} - {"clock", "backlog"}
