"""The store's backends for the per-port contract suites: every test that takes ``backend`` runs
once on SQLite (a file in a temporary directory) and once on DynamoDB Local over HTTP, each with
two tenants (``acme`` and ``globex``) and a clock that moves only when told to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from store_support import T0, Backend

from engram.adapters.clock import FixedClock
from engram.models import Tenant


@pytest.fixture(params=["sqlite", "dynamodb"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    clock = FixedClock(T0)
    built: Backend
    if request.param == "sqlite":
        from engram.adapters.sqlite.database import SqliteDatabase
        from engram.adapters.sqlite.keys import SqliteKeyStore
        from engram.adapters.sqlite.store import SqliteStore
        from engram.adapters.sqlite.usage import SqliteUsage

        db = SqliteDatabase(tmp_path / "engram.db")
        built = Backend("sqlite", SqliteStore(db, clock=clock), SqliteKeyStore(db), SqliteUsage(db), clock)
    else:
        from engram.adapters.dynamodb.keys import DynamoKeyStore
        from engram.adapters.dynamodb.store import DynamoStore
        from engram.adapters.dynamodb.usage import DynamoUsage

        server: Any = request.getfixturevalue("dynamodb_local")
        client = server.client()
        table = server.new_table(client)
        built = Backend(
            "dynamodb",
            DynamoStore(client, table, clock=clock),
            DynamoKeyStore(client, table),
            DynamoUsage(client, table),
            clock,
        )
    for tenant in ("acme", "globex"):
        built.store.create_tenant(Tenant(tenant_id=tenant, name=tenant, created_at=T0))
    yield built
    if request.param == "dynamodb":
        client.delete_table(TableName=table)
