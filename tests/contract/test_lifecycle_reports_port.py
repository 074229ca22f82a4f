"""``LifecycleReports``: newest run first, a rewritten run counts as the latest, a completed run
keeps the newest ``LIFECYCLE_REPORTS_KEPT`` (one policy on every backend), per tenant."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_support import T0, Backend, put, record

from engram.adapters.store_policy import LIFECYCLE_REPORTS_KEPT
from engram.errors import ValidationFailedError
from engram.models import LifecycleReport
from engram.ports import ConditionalUpdate


def _report(run: str, tenant: str = "acme", *, hours: int = 0, status: str = "completed") -> LifecycleReport:
    started = T0 + timedelta(hours=hours)
    return LifecycleReport(run_id=run, tenant_id=tenant, now=started, started_at=started, status=status)


def test_a_completed_run_keeps_the_newest_reports_only(backend: Backend) -> None:
    store = backend.store
    for i in range(LIFECYCLE_REPORTS_KEPT + 3):
        store.reports.put_lifecycle_report("acme", _report(f"run-{i:04d}", hours=i))
    kept = store.reports.lifecycle_reports("acme", limit=1_000)
    assert len(kept) == LIFECYCLE_REPORTS_KEPT
    assert kept[0].run_id == f"run-{LIFECYCLE_REPORTS_KEPT + 2:04d}" and kept[-1].run_id == "run-0003"


def test_a_rewritten_report_of_a_run_counts_as_its_latest(backend: Backend) -> None:
    store = backend.store
    store.reports.put_lifecycle_report("acme", _report("run-a", status="running"))
    store.reports.put_lifecycle_report("acme", _report("run-b", status="running"))
    store.reports.put_lifecycle_report("acme", _report("run-a"))
    assert [(r.run_id, r.status) for r in store.reports.lifecycle_reports("acme")] == [
        ("run-a", "completed"),
        ("run-b", "running"),
    ]
    assert [r.run_id for r in store.reports.lifecycle_reports("acme", limit=1)] == ["run-a"]


def test_a_batch_of_lifecycle_updates_stores_its_report_with_it(backend: Backend) -> None:
    store = backend.store
    r = record("acme", "fact")
    put(store, r)
    moved = ConditionalUpdate(r.model_copy(update={"tier": "working", "version": 2}), expected_version=1)
    assert store.records.update_many("acme", [moved], report=_report("run-1", status="running")) == [r.id]
    assert [x.run_id for x in store.reports.lifecycle_reports("acme")] == ["run-1"]


def test_reports_are_the_tenants_own(backend: Backend) -> None:
    store = backend.store
    store.reports.put_lifecycle_report("acme", _report("run-1"))
    assert store.reports.lifecycle_reports("globex") == []
    with pytest.raises(ValidationFailedError):
        store.reports.put_lifecycle_report("globex", _report("run-2", tenant="acme"))
    assert [x.run_id for x in store.reports.lifecycle_reports("acme")] == ["run-1"]
