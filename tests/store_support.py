"""The store backends of the contract suites (``tests/contract/``: the ``backend`` fixture runs each
test on SQLite and on DynamoDB Local) and what they build their rows from."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engram.adapters.clock import FixedClock
from engram.identity import content_hash, memory_id, receipt_id
from engram.models import DeletionLogEntry, HistoryEntry, MemoryRecord, Tenant
from engram.ports import Conditions, KeyStore, Store, UsageLedger, Vector, WriteBatch
from engram.records import ApiKeyRecord
from engram.scopes import ScopeSet

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
EVERY_SCOPE = Conditions(scopes=ScopeSet.every())


@dataclass
class Backend:
    name: str
    store: Store
    keys: KeyStore
    usage: UsageLedger
    clock: FixedClock


def record(
    tenant: str, text: str, scope: str = "user:alice", *, minute: int = 0, **fields: Any
) -> MemoryRecord:
    at = T0 + timedelta(minutes=minute)
    return MemoryRecord(
        tenant_id=tenant,
        id=memory_id(tenant, scope, text),
        scope=scope,
        content=text,
        content_hash=content_hash(text),
        created_at=at,
        updated_at=at,
        **fields,
    )


def vector(seed: int) -> Vector:
    v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
    return v / np.linalg.norm(v)


def created(r: MemoryRecord) -> HistoryEntry:
    return HistoryEntry(memory_id=r.id, version=1, event="created", at=r.created_at, content=r.content)


def put(store: Store, *records: MemoryRecord, embed: bool = True) -> None:
    """Write records (each with its vector ``vector(i)`` unless ``embed`` is false) and history."""
    store.records.write(
        records[0].tenant_id,
        WriteBatch(
            records=list(records),
            vectors=[vector(i) if embed else None for i in range(len(records))],
            history=[created(r) for r in records],
        ),
    )


def with_parts(store: Store, **parts: Any) -> Store:
    """A copy of ``store`` with these parts in place of its own (a failing or racing fake)."""
    copied = copy.copy(store)
    for name, part in parts.items():
        setattr(copied, name, part)
    return copied


def log(tenant: str, reason: str = "forget") -> DeletionLogEntry:
    return DeletionLogEntry(receipt_id=receipt_id(), tenant_id=tenant, at=T0, ids=[], reason=reason)


def open_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """The backend ``request.param`` names (``sqlite`` or ``dynamodb``) with two tenants, ``acme``
    and ``globex``, and a clock that moves only when told to; a DynamoDB table is dropped after."""
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
        built.store.tenants.create_tenant(Tenant(tenant_id=tenant, name=tenant, created_at=T0))
    yield built
    if request.param == "dynamodb":
        client.delete_table(TableName=table)


def key_record(key_id: str, tenant: str, minute: int = 0) -> ApiKeyRecord:
    return ApiKeyRecord(
        key_id=key_id,
        tenant_id=tenant,
        display_prefix=f"egk_{key_id}_",
        secret_hash="ab" * 32,
        scopes=("user:alice",),
        read_only=False,
        created_at=T0 + timedelta(minutes=minute),
        expires_at=None,
        revoked_at=None,
        last_used_at=None,
    )
