"""The embedded index knows who speaks in each tenant's turns (``SpeakerLabels``), in all and by
scope, from the rows it loads and the writes it is told of, and one tenant's speakers are never
another's."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from store_support import record

from engram.adapters.sqlite.database import SqliteDatabase
from engram.adapters.sqlite.store import SqliteStore
from engram.adapters.sqlite_index import SqliteIndex
from engram.models import MemoryRecord, Tenant
from engram.ports import Conditions, SpeakerLabels, WriteBatch
from engram.scopes import ScopeSet

NOW = datetime(2026, 11, 1, tzinfo=UTC)
DIM = 8
EVERY = ScopeSet.every()


def _write(store: SqliteStore, index: SqliteIndex, records: list[MemoryRecord]) -> None:
    vectors = [np.full(DIM, 1 / np.sqrt(DIM), dtype=np.float32) for _ in records]
    store.records.write(records[0].tenant_id, WriteBatch(records=records, vectors=list(vectors)))
    index.upsert(records[0].tenant_id, records, vectors)


def test_speakers_come_from_loaded_rows_and_later_writes(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "engram.db")
    store = SqliteStore(db)
    for tenant in ("acme", "other"):
        store.tenants.create_tenant(Tenant(tenant_id=tenant, name=tenant, created_at=NOW))
    index = SqliteIndex(db, dimension=DIM)
    assert isinstance(index, SpeakerLabels)
    _write(store, index, [record("acme", "Priya: we drove to the lake"), record("acme", "I like tea")])
    _write(store, index, [record("other", "Omar Haddad: the kayak is red")])
    # Given a tenant's rows loaded by a recall, then a write this process is told of
    index.knn("acme", np.ones(DIM, dtype=np.float32), 1, Conditions(scopes=ScopeSet.every()))
    assert index.speakers("acme", EVERY) == {"priya"}
    _write(store, index, [record("acme", "Dr. Lee: take two a day")])
    # Then both speakers are known, a text without a label adds none, and no tenant sees another's
    assert index.speakers("acme", EVERY) == {"priya", "dr."}
    assert index.speakers("other", EVERY) == {"omar"}
    # And a fresh process, which loads them from the file, knows the same
    fresh = SqliteIndex(db, dimension=DIM)
    assert fresh.speakers("acme", EVERY) == {"priya", "dr."} and fresh.speakers("other", EVERY) == {"omar"}


def test_speakers_of_the_scopes_searched_are_theirs_alone(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "engram.db")
    store = SqliteStore(db)
    store.tenants.create_tenant(Tenant(tenant_id="acme", name="acme", created_at=NOW))
    index = SqliteIndex(db, dimension=DIM)
    # Given Priya speaking in one user's conversation and Omar in another's, who mentions Priya
    _write(store, index, [record("acme", "Priya: we drove to the lake", "user:a")])
    _write(store, index, [record("acme", "Omar: Priya lent me her kayak", "user:b")])
    # Then each scope's speakers are its own, several scopes have theirs together, and a scope
    # with no turns (or unknown here) has none
    assert index.speakers("acme", ScopeSet.of(["user:a"])) == {"priya"}
    assert index.speakers("acme", ScopeSet.of(["user:b"])) == {"omar"}
    assert index.speakers("acme", ScopeSet.of(["user:a", "user:b", "user:c"])) == {"priya", "omar"}
    assert index.speakers("acme", ScopeSet.of(["user:c"])) == frozenset()
    # And so they stay once the rows are packed and in a fresh process that loads them
    cache = index._tenants["acme"]
    assert cache.packed().scope_speakers == cache.scope_speakers
    fresh = SqliteIndex(db, dimension=DIM)
    assert fresh.speakers("acme", ScopeSet.of(["user:b"])) == {"omar"}
