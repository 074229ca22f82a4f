"""Counters written behind on DynamoDB Local (``engram.adapters.dynamodb.write_behind``): recall's
access counts are one write per memory per interval, a request's usage counters one write per
invocation; nothing waiting is lost when the process ends normally."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from store_support import T0, put, record

from engram.adapters.dynamodb import write_behind
from engram.adapters.dynamodb.store import DynamoStore
from engram.adapters.dynamodb.usage import DynamoUsage
from engram.models import Tenant

ROOT = Path(__file__).resolve().parents[2]


class _Writes:
    """The real client, counting the writes it sends."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.exceptions = client.exceptions
        self.meta = client.meta
        self.updates = 0

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._client, name)
        if name != "update_item":
            return call

        def counted(**kwargs: Any) -> Any:
            self.updates += 1
            return call(**kwargs)

        return counted


@pytest.fixture
def table(dynamodb_local: Any) -> Iterator[tuple[Any, str]]:
    client = dynamodb_local.client()
    name = dynamodb_local.new_table(client)
    DynamoStore(client, name).tenants.create_tenant(Tenant(tenant_id="acme", name="acme", created_at=T0))
    yield client, name
    client.delete_table(TableName=name)


def test_recalls_write_no_access_per_call_and_the_counts_are_right_after_the_flush(
    table: tuple[Any, str],
) -> None:
    client, name = table
    writes = _Writes(client)
    store, other = DynamoStore(writes, name), DynamoStore(client, name)
    memories = [record("acme", f"fact {i}", minute=i) for i in range(5)]
    put(store, *memories)
    writes.updates = 0
    # When 20 recalls (each an invocation) return the same five memories
    for i in range(20):
        with write_behind.invocation():
            store.records.record_access("acme", [m.id for m in memories], T0.replace(minute=i))
    # Then no access was written yet, the container sees its own counts, another does not
    assert writes.updates == 0
    assert store.records.get("acme", memories[0].id).access_count == 20  # type: ignore[union-attr]
    assert other.records.get("acme", memories[0].id).access_count == 0  # type: ignore[union-attr]
    # When the interval is over (the next invocation's end) they are one write per memory
    store.records.accesses().max_age_s = 0.0
    with write_behind.invocation():
        pass
    assert writes.updates == 5
    stored = other.records.get_many("acme", [m.id for m in memories])
    assert {r.access_count for r in stored.values()} == {20}
    assert {r.last_accessed_at for r in stored.values()} == {T0.replace(minute=19)}


def test_access_counts_wait_at_most_for_the_bound_of_memories(table: tuple[Any, str]) -> None:
    client, name = table
    store = DynamoStore(client, name)
    memories = [record("acme", f"fact {i}", minute=i) for i in range(3)]
    put(store, *memories)
    store.records.accesses().max_keys = 2
    with write_behind.invocation():
        store.records.record_access("acme", [m.id for m in memories], T0)
        # the second memory filled the buffer: both written at once, the third waits
        assert DynamoStore(client, name).records.get("acme", memories[1].id).access_count == 1  # type: ignore[union-attr]
        assert DynamoStore(client, name).records.get("acme", memories[2].id).access_count == 0  # type: ignore[union-attr]


def test_outside_an_invocation_access_is_written_at_once(table: tuple[Any, str]) -> None:
    client, name = table
    store = DynamoStore(client, name)
    memory = record("acme", "I prefer dark mode")
    put(store, memory)
    store.records.record_access("acme", [memory.id], T0)
    assert DynamoStore(client, name).records.get("acme", memory.id).access_count == 1  # type: ignore[union-attr]


def test_a_requests_usage_counters_are_one_write_at_the_end_of_its_invocation(table: tuple[Any, str]) -> None:
    client, name = table
    writes = _Writes(client)
    ledger = DynamoUsage(writes, name)
    with write_behind.invocation():
        ledger.add("acme", "2026-12-01", {"recall_calls": 1})  # the operation's
        ledger.add("acme", "2026-12-01", {"requests": 1, "requests:POST /v1/recall": 1})  # the HTTP layer's
        assert writes.updates == 0
        assert ledger.days("acme", since="2026-12-01", until="2026-12-01")["2026-12-01"]["requests"] == 1
    assert writes.updates == 1
    assert DynamoUsage(client, name).days("acme", since="2026-12-01", until="2026-12-01") == {
        "2026-12-01": {"recall_calls": 1, "requests": 1, "requests:POST /v1/recall": 1}
    }


_EXITING = """
import sys
from datetime import UTC, datetime
from engram.adapters.dynamodb import write_behind
from engram.adapters.dynamodb.store import DynamoStore
from engram.adapters.dynamodb.table import dynamodb_client

client = dynamodb_client(region="us-east-1", endpoint_url=sys.argv[1], aws_access_key_id="local",
                         aws_secret_access_key="local")
store = DynamoStore(client, sys.argv[2])
with write_behind.invocation():
    store.records.record_access("acme", [sys.argv[3]], datetime(2026, 12, 1, tzinfo=UTC))
assert store.records.accesses().waiting()  # not due: it waits for the interval
"""


def test_a_normal_exit_writes_what_waits(table: tuple[Any, str], dynamodb_local: Any) -> None:
    client, name = table
    memory = record("acme", "I prefer dark mode")
    put(DynamoStore(client, name), memory)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(ROOT / p) for p in ("shared", "functions"))}
    done = subprocess.run(
        [sys.executable, "-c", _EXITING, dynamodb_local.endpoint, name, memory.id],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert DynamoStore(client, name).records.get("acme", memory.id).access_count == 1  # type: ignore[union-attr]
