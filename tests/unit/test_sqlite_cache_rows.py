"""A process's search caches stay within ``scan.cached_rows`` rows over all tenants: a server that
serves many tenants drops the least recently searched ones' caches instead of holding every
tenant it ever searched."""

from __future__ import annotations

from pathlib import Path

from store_support import EVERY_SCOPE, T0, put, record

from engram.adapters.sqlite.database import SqliteDatabase
from engram.adapters.sqlite.store import SqliteStore
from engram.adapters.sqlite_index import SqliteIndex
from engram.models import Tenant
from engram.settings import ScanSettings

TENANTS = {"acme": 10, "beta": 10, "gamma": 10}


def _index(tmp_path: Path, cached_rows: int) -> SqliteIndex:
    db = SqliteDatabase(tmp_path / "engram.db")
    store = SqliteStore(db)
    for tenant, count in TENANTS.items():
        store.tenants.create_tenant(Tenant(tenant_id=tenant, name=tenant, created_at=T0))
        put(store, *[record(tenant, f"the lake in week {n}", minute=n) for n in range(count)])
    return SqliteIndex(db, dimension=384, scan=ScanSettings(cached_rows=cached_rows))


def test_loading_a_tenant_drops_the_least_recently_searched_others_beyond_the_budget(
    tmp_path: Path,
) -> None:
    index = _index(tmp_path, cached_rows=25)

    def search(tenant: str) -> list[tuple[str, float]]:
        return index.bm25(tenant, "lake week", 10, EVERY_SCOPE)

    # Given two tenants' caches (20 rows), acme searched last
    beta = search("beta")
    search("acme")
    assert list(index._tenants) == ["beta", "acme"] and index.loads == 2
    # When a third tenant loads (30 rows in all: over 25)
    search("gamma")
    # Then the least recently searched one is dropped, the other and the new one kept
    assert list(index._tenants) == ["acme", "gamma"]
    # And the dropped one loads again on its next search, answering as before, and drops the next
    assert search("beta") == beta
    assert (index.loads, list(index._tenants)) == (4, ["gamma", "beta"])
    # While searching a cached tenant loads nothing and only moves it last
    search("gamma")
    assert (index.loads, list(index._tenants)) == (4, ["beta", "gamma"])


def test_a_tenant_larger_than_the_budget_is_still_cached(tmp_path: Path) -> None:
    index = _index(tmp_path, cached_rows=5)
    first = index.bm25("acme", "lake", 10, EVERY_SCOPE)
    assert len(first) == 10
    assert index.bm25("acme", "lake", 10, EVERY_SCOPE) == first
    assert (index.loads, list(index._tenants)) == (1, ["acme"])


def test_writes_that_grow_a_cached_tenant_past_the_budget_drop_the_least_recently_searched(
    tmp_path: Path,
) -> None:
    # Given two tenants' caches within a budget of 25 rows (20), beta searched last
    index = _index(tmp_path, cached_rows=25)
    index.bm25("acme", "lake", 10, EVERY_SCOPE)
    index.bm25("beta", "lake", 10, EVERY_SCOPE)
    # When this process writes 10 more memories to beta (30 rows in all), as a service does
    more = [record("beta", f"the kayak in week {n}", minute=n) for n in range(10)]
    put(SqliteStore(index.db), *more)
    index.upsert("beta", more, [None] * len(more))
    # Then acme's cache is dropped, and beta keeps its new rows without a load
    assert list(index._tenants) == ["beta"]
    assert len(index.bm25("beta", "kayak", 20, EVERY_SCOPE)) == 10 and index.loads == 2
