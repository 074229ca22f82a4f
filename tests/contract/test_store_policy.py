"""One policy, two stores: the same checks against the SQLite store and the DynamoDB store
(DynamoDB Local over HTTP). What is kept, for how long, and how a page position travels are
``engram.adapters.store_policy``'s; a backend that drifts from it fails here."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engram.adapters.clock import FixedClock
from engram.adapters.store_policy import FINISHED_JOB_TTL, IDEMPOTENCY_TTL, LIFECYCLE_REPORTS_KEPT
from engram.errors import ValidationFailedError
from engram.identity import content_hash
from engram.models import Job, LifecycleReport, MemoryRecord, Tenant
from engram.ports import Conditions, MemoryStore, WriteBatch

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "dynamodb"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[MemoryStore, FixedClock]]:
    clock = FixedClock(T0)
    built: Any
    if request.param == "sqlite":
        from engram.adapters.sqlite.database import SqliteDatabase
        from engram.adapters.sqlite.store import SqliteStore

        built = SqliteStore(SqliteDatabase(tmp_path / "engram.db"), clock=clock)
    else:
        from engram.adapters.dynamodb.store import DynamoStore

        server = request.getfixturevalue("dynamodb_local")
        client = server.client()
        built = DynamoStore(client, server.new_table(client), clock=clock)
    built.create_tenant(Tenant(tenant_id="acme", name="acme", created_at=T0))
    yield built, clock
    if request.param == "dynamodb":
        built.client.delete_table(TableName=built.table)


def _record(i: int) -> MemoryRecord:
    text = f"policy memory {i}"
    at = T0 + timedelta(seconds=i)
    return MemoryRecord(
        tenant_id="acme",
        id=f"mem_{i:08d}",
        scope="user:a",
        content=text,
        content_hash=content_hash(text),
        created_at=at,
        updated_at=at,
    )


def test_an_idempotency_record_answers_for_its_ttl_then_is_gone(
    store: tuple[MemoryStore, FixedClock],
) -> None:
    memories, clock = store
    results = [{"id": "mem_00000001", "status": "created"}]
    memories.write("acme", WriteBatch(records=[_record(1)], idempotency=("key-1", "fp", results)))
    # Just before the TTL runs out the same answer comes back
    clock.set(T0 + IDEMPOTENCY_TTL - timedelta(minutes=1))
    assert memories.idempotent_result("acme", "key-1") == ("fp", results)
    # Past it, the key is free again (on DynamoDB before TTL deletion has caught up too)
    clock.set(T0 + IDEMPOTENCY_TTL + timedelta(minutes=1))
    assert memories.idempotent_result("acme", "key-1") is None


def test_pages_travel_by_an_opaque_cursor_and_a_made_up_one_is_refused(
    store: tuple[MemoryStore, FixedClock],
) -> None:
    memories, _ = store
    memories.write("acme", WriteBatch(records=[_record(i) for i in range(5)]))
    seen: list[str] = []
    cursor: str | None = None
    while True:
        page = memories.list_page("acme", Conditions(scopes=("user:a",)), cursor=cursor, limit=2)
        seen += [r.id for r in page.records]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert sorted(seen) == [f"mem_{i:08d}" for i in range(5)] and len(set(seen)) == 5
    for forged in ("not-a-cursor", "WyJ4Il0=", "bWVtXzE="):  # garbage, a one-element list, plain text
        with pytest.raises(ValidationFailedError, match="cursor"):
            memories.list_page("acme", Conditions(scopes=("user:a",)), cursor=forged, limit=2)


def test_a_completed_run_keeps_the_newest_reports_only(store: tuple[MemoryStore, FixedClock]) -> None:
    memories, _ = store
    for i in range(LIFECYCLE_REPORTS_KEPT + 3):
        started = T0 + timedelta(hours=i)
        memories.put_lifecycle_report(
            "acme",
            LifecycleReport(
                run_id=f"run-{i:04d}", tenant_id="acme", now=started, started_at=started, status="completed"
            ),
        )
    kept = memories.lifecycle_reports("acme", limit=1_000)
    assert len(kept) == LIFECYCLE_REPORTS_KEPT
    assert kept[0].run_id == f"run-{LIFECYCLE_REPORTS_KEPT + 2:04d}" and kept[-1].run_id == "run-0003"


def test_a_finished_job_is_readable_for_its_ttl_an_open_one_always(
    store: tuple[MemoryStore, FixedClock],
) -> None:
    memories, clock = store
    done = Job(job_id="job_done", status="succeeded", created_at=T0, updated_at=T0)
    waiting = Job(job_id="job_open", status="queued", created_at=T0, updated_at=T0)
    memories.put_job("acme", done)
    memories.put_job("acme", waiting)
    clock.set(T0 + FINISHED_JOB_TTL - timedelta(hours=1))
    assert memories.get_job("acme", "job_done") is not None
    clock.set(T0 + FINISHED_JOB_TTL + timedelta(hours=1))
    assert memories.get_job("acme", "job_done") is None
    assert memories.get_job("acme", "job_open") is not None
