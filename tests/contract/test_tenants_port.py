"""``TenantRegistry``: tenants with their settings, and an erasure that removes every row of one
tenant (memories, history, logs, jobs, idempotency, reports, usage) and nothing of another."""

from __future__ import annotations

import pytest
from store_support import EVERY_SCOPE, T0, Backend, log, put, record

from engram.errors import ConflictError
from engram.models import Job, LifecycleReport, Tenant
from engram.ports import WriteBatch


def test_creating_a_tenant_twice_is_a_conflict(backend: Backend) -> None:
    store = backend.store
    with pytest.raises(ConflictError):
        store.tenants.create_tenant(Tenant(tenant_id="acme", name="again", created_at=T0))
    tenant = store.tenants.get_tenant("acme")
    assert tenant is not None and tenant.name == "acme" and not tenant.erasing
    assert [t.tenant_id for t in store.tenants.list_tenants()] == ["acme", "globex"]


def test_settings_overrides_are_replaced_per_tenant(backend: Backend) -> None:
    store = backend.store
    assert store.tenants.set_tenant_settings("acme", {"recall": {"limit": 5}})
    assert store.tenants.set_tenant_settings("acme", {"retain": {"mode": "raw"}})
    assert not store.tenants.set_tenant_settings("initech", {"recall": {"limit": 5}})
    acme, globex = store.tenants.get_tenant("acme"), store.tenants.get_tenant("globex")
    assert acme is not None and acme.settings_overrides == {"retain": {"mode": "raw"}}
    assert globex is not None and globex.settings_overrides == {}
    assert store.tenants.get_tenant("initech") is None


def _fill(backend: Backend, tenant: str) -> None:
    store = backend.store
    a, b = record(tenant, f"{tenant} one"), record(tenant, f"{tenant} two", minute=1)
    put(store, a, b)
    store.records.delete(tenant, [b.id], log(tenant))
    store.records.write(tenant, WriteBatch(idempotency=("key", "fp", [])))
    store.jobs.put_job(tenant, Job(job_id="job_1", status="queued", created_at=T0, updated_at=T0))
    report = LifecycleReport(run_id="run-1", tenant_id=tenant, now=T0, started_at=T0, status="completed")
    store.reports.put_lifecycle_report(tenant, report)
    backend.usage.add(tenant, "2026-12-01", {"retain_calls": 2})


def test_erasing_a_tenant_removes_all_of_it_and_nothing_of_another(backend: Backend) -> None:
    store = backend.store
    _fill(backend, "acme")
    _fill(backend, "globex")
    assert store.tenants.erase_tenant("acme") == 1
    assert store.tenants.get_tenant("acme") is None and [
        t.tenant_id for t in store.tenants.list_tenants()
    ] == ["globex"]
    assert (
        store.records.select_ids("acme", EVERY_SCOPE) == [] and store.deletion_log.deletion_log("acme") == []
    )
    assert (
        store.idempotency.idempotent_result("acme", "key") is None
        and store.jobs.get_job("acme", "job_1") is None
    )
    assert store.reports.lifecycle_reports("acme") == [] and backend.usage.totals("acme") == {}
    assert [t for t, _ in store.jobs.pending_jobs()] == ["globex"]
    # globex keeps everything
    assert (
        len(store.records.select_ids("globex", EVERY_SCOPE)) == 1
        and len(store.deletion_log.deletion_log("globex")) == 1
    )
    assert (
        store.idempotency.idempotent_result("globex", "key") == ("fp", [])
        and store.jobs.get_job("globex", "job_1") is not None
    )
    assert len(store.reports.lifecycle_reports("globex")) == 1 and backend.usage.totals("globex") == {
        "retain_calls": 2
    }
    # erasing again finds nothing, and the id can be taken anew
    assert store.tenants.erase_tenant("acme") == 0
    store.tenants.create_tenant(Tenant(tenant_id="acme", name="acme", created_at=T0))
    assert store.records.select_ids("acme", EVERY_SCOPE) == []


def test_an_erasure_told_to_stop_leaves_the_tenant_erasing_or_gone_and_resumes(backend: Backend) -> None:
    store = backend.store
    put(store, *[record("acme", f"fact {i}", minute=i) for i in range(3)])
    removed = store.tenants.erase_tenant("acme", should_stop=lambda: True)
    left = store.tenants.get_tenant("acme")
    # a backend that erases in steps stops at once and marks the tenant; one that erases in one
    # transaction is done already
    assert (left is not None and left.erasing and removed == 0) or (left is None and removed == 3)
    assert removed + store.tenants.erase_tenant("acme") == 3
    assert store.tenants.get_tenant("acme") is None
