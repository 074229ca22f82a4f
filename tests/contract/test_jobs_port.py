"""``JobStore``: asynchronous retains with their bodies; open jobs listed for a restart, finished
ones readable for ``FINISHED_JOB_TTL``; a job is its tenant's own."""

from __future__ import annotations

from datetime import timedelta

from store_support import T0, Backend

from engram.adapters.store_policy import FINISHED_JOB_TTL
from engram.models import Job


def test_a_finished_job_is_readable_for_its_ttl_an_open_one_always(backend: Backend) -> None:
    store, clock = backend.store, backend.clock
    store.jobs.put_job("acme", Job(job_id="job_done", status="succeeded", created_at=T0, updated_at=T0))
    store.jobs.put_job("acme", Job(job_id="job_open", status="queued", created_at=T0, updated_at=T0))
    clock.set(T0 + FINISHED_JOB_TTL - timedelta(hours=1))
    assert store.jobs.get_job("acme", "job_done") is not None
    clock.set(T0 + FINISHED_JOB_TTL + timedelta(hours=1))
    assert store.jobs.get_job("acme", "job_done") is None
    assert store.jobs.get_job("acme", "job_open") is not None


def test_open_jobs_of_every_tenant_are_listed_with_their_bodies_until_they_finish(backend: Backend) -> None:
    store = backend.store
    queued = Job(job_id="job_1", status="queued", created_at=T0, updated_at=T0, request={"scope": "global"})
    store.jobs.put_job("acme", queued)
    later = T0 + timedelta(seconds=1)
    running = queued.model_copy(update={"job_id": "job_2", "status": "running", "created_at": later})
    store.jobs.put_job("globex", running)
    assert [(t, j.job_id, j.request) for t, j in store.jobs.pending_jobs()] == [
        ("acme", "job_1", {"scope": "global"}),
        ("globex", "job_2", {"scope": "global"}),
    ]
    store.jobs.put_job("acme", queued.model_copy(update={"status": "succeeded", "request": None}))
    assert [j.job_id for _, j in store.jobs.pending_jobs()] == ["job_2"]
    done = store.jobs.get_job("acme", "job_1")
    assert done is not None and done.status == "succeeded"


def test_a_job_is_read_by_its_own_tenant_only(backend: Backend) -> None:
    store = backend.store
    store.jobs.put_job("acme", Job(job_id="job_1", status="queued", created_at=T0, updated_at=T0))
    assert store.jobs.get_job("globex", "job_1") is None
    store.jobs.put_job("globex", Job(job_id="job_1", status="failed", created_at=T0, updated_at=T0))
    mine = store.jobs.get_job("acme", "job_1")
    assert mine is not None and mine.status == "queued"
