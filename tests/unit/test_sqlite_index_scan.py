"""The embedded index's two-pass scan (sign bits, then float32) for large tenants, against the
exact scan of the same data."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from engram.adapters import sqlite_index
from engram.adapters.binary_scan import BinaryCodes
from engram.adapters.sqlite.database import SqliteDatabase
from engram.adapters.sqlite.store import SqliteStore
from engram.adapters.sqlite_index import SqliteIndex
from engram.identity import content_hash
from engram.models import MemoryRecord, Tenant
from engram.ports import Conditions, WriteBatch
from engram.scopes import ScopeSet
from engram.settings import ScanSettings

DIM = 64
N = 3_000
NOW = datetime(2026, 11, 1, tzinfo=UTC)
# Two passes above 1,000 rows: a whole-tenant scan (3,000) takes them, one scope (1,000) does not.
TWO_PASS = ScanSettings(exact_max_rows=1_000, rescore=300)
EXACT = ScanSettings(exact_max_rows=10**9)


def _record(i: int, scope: str, tenant: str = "acme") -> MemoryRecord:
    text = f"memory number {i}"
    return MemoryRecord(
        tenant_id=tenant,
        id=f"mem_{i:08d}",
        scope=scope,
        content=text,
        abstract=text,
        created_at=NOW,
        updated_at=NOW,
        content_hash=content_hash(text),
        embedding_model="test",
    )


def _vectors(n: int, seed: int) -> np.ndarray:
    """Unit vectors with the structure of text embeddings: a shared direction, a few strong
    components, a long tail of weak ones."""
    rng = np.random.default_rng(seed)
    spectrum = np.concatenate([np.full(12, 1.0), np.full(DIM - 12, 0.15)])
    vectors = rng.standard_normal((n, DIM)) * spectrum + 1.5
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors.astype(np.float32)


@pytest.fixture
def db(tmp_path: Path) -> SqliteDatabase:
    database = SqliteDatabase(tmp_path / "engram.db")
    store = SqliteStore(database)
    for tenant in ("acme", "other"):
        store.tenants.create_tenant(Tenant(tenant_id=tenant, name=tenant, created_at=NOW))
    vectors = _vectors(N, seed=1)
    records = [_record(i, f"user:{i % 3}") for i in range(N)]
    store.records.write("acme", WriteBatch(records=records, vectors=list(vectors)))
    # Another tenant's vectors sit next to the queries: they must never be found.
    store.records.write(
        "other",
        WriteBatch(
            records=[_record(N + i, "user:0", "other") for i in range(50)], vectors=list(_vectors(50, 9))
        ),
    )
    return database


def _queries(count: int) -> np.ndarray:
    return _vectors(count, seed=2)


def _fitted(index: SqliteIndex) -> BinaryCodes:
    """Has a large scan start (or restart) the sign bits, waits for them, and has the next scan
    take them up: what a second of recalls does in a server."""
    everything = Conditions(scopes=ScopeSet.every())
    index.knn("acme", _queries(1)[0], 10, everything)
    cache = index._tenants["acme"]
    if cache.fitting is not None:
        cache.fitting.result()
    index.knn("acme", _queries(1)[0], 10, everything)
    assert cache.quantized is not None and cache.fitting is None
    return cache.quantized


def _near_rows(count: int) -> np.ndarray:
    """Queries like the memories they look for: a stored vector, moved a little."""
    rng = np.random.default_rng(3)
    queries = _vectors(N, seed=1)[rng.choice(N, count)] + rng.normal(0, 0.01, (count, DIM))
    return (queries / np.linalg.norm(queries, axis=1, keepdims=True)).astype(np.float32)


@pytest.mark.parametrize(
    ("queries", "at_least"),
    # Queries drawn apart from every memory are the hard case: their 20 nearest are barely nearer
    # than the next ones: a tenth of the rows rescored finds ~98 % of them either way.
    [(_queries(40), 0.97), (_near_rows(40), 0.98)],
    ids=["unrelated-queries", "queries-near-memories"],
)
def test_two_pass_finds_what_the_exact_scan_finds(
    db: SqliteDatabase, queries: np.ndarray, at_least: float
) -> None:
    exact, two_pass = (
        SqliteIndex(db, dimension=DIM, scan=EXACT),
        SqliteIndex(db, dimension=DIM, scan=TWO_PASS),
    )
    _fitted(two_pass)
    found = []
    for query in queries:
        want = exact.knn("acme", query, 20, Conditions(scopes=ScopeSet.every()))
        got = two_pass.knn("acme", query, 20, Conditions(scopes=ScopeSet.every()))
        assert all(i.startswith("mem_") and int(i[4:]) < N for i, _ in got)  # never the other tenant
        cosines = dict(want)
        for memory_id, score in got:  # every cosine returned is the exact one
            if memory_id in cosines:
                assert score == pytest.approx(cosines[memory_id], abs=1e-5)
        found.append(len({i for i, _ in want} & {i for i, _ in got}) / 20)
    assert two_pass._tenants["acme"].quantized is not None  # the first pass really ran
    assert exact._tenants["acme"].quantized is None
    assert np.mean(found) >= at_least, np.mean(found)


def test_small_scans_stay_exact(db: SqliteDatabase) -> None:
    """One scope of 1,000 rows is below the threshold: identical results, no codes made."""
    exact, two_pass = (
        SqliteIndex(db, dimension=DIM, scan=EXACT),
        SqliteIndex(db, dimension=DIM, scan=TWO_PASS),
    )
    one_scope = Conditions(scopes=ScopeSet.of(["user:1"]))
    for query in _queries(10):
        assert two_pass.knn("acme", query, 20, one_scope) == exact.knn("acme", query, 20, one_scope)
    assert two_pass._tenants["acme"].quantized is None


def test_two_pass_applies_conditions_before_ranking(db: SqliteDatabase) -> None:
    index = SqliteIndex(db, dimension=DIM, scan=ScanSettings(exact_max_rows=500, rescore=50))
    _fitted(index)
    two_scopes = Conditions(scopes=ScopeSet.of(["user:0", "user:2"]))  # 2,000 rows: two passes
    for query in _queries(10):
        hits = index.knn("acme", query, 30, two_scopes)
        assert len(hits) == 30
        assert all(int(i[4:]) % 3 in (0, 2) for i, _ in hits)
    assert index._tenants["acme"].quantized is not None


def test_writes_after_the_fit_are_projected_and_removals_vanish(db: SqliteDatabase) -> None:
    index = SqliteIndex(db, dimension=DIM, scan=TWO_PASS)
    everything = Conditions(scopes=ScopeSet.every())
    query = _queries(1)[0]
    fitted = _fitted(index)
    # A new memory equal to the query must come first, found through its bits.
    record = _record(N + 100, "user:1")
    SqliteStore(db).records.write("acme", WriteBatch(records=[record], vectors=[query]))
    index.upsert("acme", [record], [query])
    hits = index.knn("acme", query, 10, everything)
    assert hits[0] == (record.id, pytest.approx(1.0, abs=1e-5))
    assert index._tenants["acme"].quantized is fitted  # one write does not refit
    index.remove("acme", [record.id])
    assert record.id not in {i for i, _ in index.knn("acme", query, 10, everything)}


def test_refits_when_the_tenant_has_doubled(db: SqliteDatabase) -> None:
    index = SqliteIndex(db, dimension=DIM, scan=TWO_PASS)
    first = _fitted(index)
    assert first.fitted_rows == N
    more = [_record(N + 1_000 + i, "user:2") for i in range(N + 1)]
    vectors = list(_vectors(len(more), seed=3))
    SqliteStore(db).records.write("acme", WriteBatch(records=more, vectors=vectors))
    index.upsert("acme", more, vectors)
    second = _fitted(index)
    assert second is not first and second.fitted_rows == 2 * N + 1


def test_knn_many_takes_the_union_of_each_querys_candidates(db: SqliteDatabase) -> None:
    exact, two_pass = (
        SqliteIndex(db, dimension=DIM, scan=EXACT),
        SqliteIndex(db, dimension=DIM, scan=TWO_PASS),
    )
    queries = _queries(5)
    want = exact.knn_many("acme", queries, 10, Conditions(scopes=ScopeSet.every()))
    got = two_pass.knn_many("acme", queries, 10, Conditions(scopes=ScopeSet.every()))
    assert len(got) == 5
    overlap = [len({i for i, _ in w} & {i for i, _ in g}) / 10 for w, g in zip(want, got, strict=True)]
    assert np.mean(overlap) >= 0.99, overlap
    for g, query in zip(got, queries, strict=True):
        one = two_pass.knn("acme", query, 10, Conditions(scopes=ScopeSet.every()))
        assert [i for i, _ in g] == [i for i, _ in one]
        assert [s for _, s in g] == pytest.approx([s for _, s in one], abs=1e-5)


def test_the_first_pass_takes_the_rows_nearest_by_hamming_distance() -> None:
    """Distances equal a popcount computed bit by bit, disallowed rows are never taken, and the
    cut keeps the ``take`` nearest plus their ties."""
    rng = np.random.default_rng(4)
    vectors = _vectors(2_000, seed=5)
    codes = BinaryCodes.fit(vectors, np.ones(2_000, dtype=bool))
    allowed = rng.random(2_000) < 0.5
    bits = (vectors - codes.mean) @ codes.planes > 0
    for query in _queries(3):
        distance = codes.distances(2_000, query)
        assert list(distance) == list((bits != ((query - codes.mean) @ codes.planes > 0)).sum(axis=1))
        with ThreadPoolExecutor(max_workers=1) as pool:  # the first half on another thread: the same
            assert list(codes.distances(2_000, query, pool)) == list(distance)
        rows = codes.nearest(2_000, query, allowed, 25)
        assert allowed[rows].all() and len(rows) >= 25
        cut = distance[rows].max()
        assert sorted(np.flatnonzero(allowed & (distance <= cut))) == list(rows)
        assert (allowed & (distance < cut)).sum() < 25  # the cut is the 25th nearest's distance


def test_the_first_pass_takes_every_allowed_row_when_fewer_than_take_are_allowed() -> None:
    """The cut never reaches the rows left out, however few are allowed."""
    vectors = _vectors(500, seed=6)
    codes = BinaryCodes.fit(vectors, np.ones(500, dtype=bool))
    allowed = np.zeros(500, dtype=bool)
    allowed[[3, 70, 71, 499]] = True
    for take in (4, 5, 1_000):
        assert list(codes.nearest(500, _queries(1)[0], allowed, take)) == [3, 70, 71, 499]
    assert list(codes.nearest(500, _queries(1)[0], allowed, 0)) == []
    assert list(codes.nearest(0, _queries(1)[0], allowed, 10)) == []


def test_the_bits_are_taken_around_the_tenants_mean() -> None:
    """Vectors that all lean one way (as text embeddings do) still split into informative bits."""
    vectors = _vectors(500, seed=6)
    codes = BinaryCodes.fit(vectors, np.ones(500, dtype=bool))
    assert np.allclose(codes.mean, vectors.mean(axis=0), atol=1e-6)
    above = np.unpackbits(codes.words[:, :500].T.copy().view(np.uint8), axis=1)
    assert 0.3 < above.mean() < 0.7  # about half the bits set, not nearly all
    dead = BinaryCodes.fit(vectors, np.arange(500) % 2 == 0)
    assert not dead.words[:, 1:500:2].any()  # dead rows hold no bits


def test_dead_rows_do_not_make_every_scan_refit(db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch) -> None:
    """Edits leave dead rows behind; while they are not packed away (held off here), the codes
    are remade when the rows double, not each query."""
    monkeypatch.setattr(sqlite_index, "PACK_DEAD_ROWS", 10**9)
    index = SqliteIndex(db, dimension=DIM, scan=TWO_PASS)
    everything = Conditions(scopes=ScopeSet.every())
    _fitted(index)
    # Re-put every memory twice over: 3 × N rows, N of them alive
    records = [_record(i, f"user:{i % 3}") for i in range(N)]
    for seed in (7, 8):
        index.upsert("acme", records, list(_vectors(N, seed=seed)))
    before = index._tenants["acme"].quantized
    remade = _fitted(index)  # the rows tripled: remade once
    assert remade is not before and remade.fitted_rows == 3 * N
    index.knn("acme", _queries(1)[0], 10, everything)
    cache = index._tenants["acme"]
    assert cache.quantized is remade and cache.fitting is None  # and not again on the next query


def test_dead_rows_are_packed_away_and_the_bits_go_with_their_rows(
    db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once more rows are dead than 4,096 and half the live ones, the next query packs the live
    rows: the codes are renumbered with them, not fitted again, and the scan finds the same."""
    index = SqliteIndex(db, dimension=DIM, scan=TWO_PASS)
    everything = Conditions(scopes=ScopeSet.every())
    fitted = _fitted(index)
    records = [_record(i, f"user:{i % 3}") for i in range(N)]
    for seed in (7, 8):  # 3 × N rows, N of them alive
        index.upsert("acme", records, list(_vectors(N, seed=seed)))
    query = _queries(1)[0]
    monkeypatch.setattr(sqlite_index, "PACK_DEAD_ROWS", 10**9)
    unpacked = index.knn("acme", query, 10, everything)
    assert index._tenants["acme"].n == 3 * N
    monkeypatch.undo()
    packed = index.knn("acme", query, 10, everything)
    cache = index._tenants["acme"]
    assert (cache.n, cache.dead, cache.fitting) == (N, 0, None)
    assert cache.quantized is not None and cache.quantized.mean is fitted.mean
    assert cache.quantized.fitted_rows == N  # remade once the packed tenant doubles
    assert packed == unpacked


def test_scans_are_exact_while_the_bits_are_made_and_rows_written_meanwhile_get_theirs(
    db: SqliteDatabase,
) -> None:
    exact, index = SqliteIndex(db, dimension=DIM, scan=EXACT), SqliteIndex(db, dimension=DIM, scan=TWO_PASS)
    everything = Conditions(scopes=ScopeSet.every())
    query = _queries(1)[0]
    # Given a tenant too large for an exact scan, the first large scan answers exactly (no wait)
    assert index.knn("acme", query, 20, everything) == exact.knn("acme", query, 20, everything)
    cache = index._tenants["acme"]
    assert cache.quantized is None and cache.fitting is not None
    # When a memory equal to the query is written while the bits are being made
    record = _record(N + 200, "user:1")
    SqliteStore(db).records.write("acme", WriteBatch(records=[record], vectors=[query]))
    index.upsert("acme", [record], [query])
    cache.fitting.result()
    # Then the next scan takes the bits up, with that memory's, and finds it first
    assert index.knn("acme", query, 10, everything)[0] == (record.id, pytest.approx(1.0, abs=1e-5))
    assert cache.quantized is not None and cache.quantized.fitted_rows == N
