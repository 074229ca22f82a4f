"""The embedded index's two-pass scan (int8 codes, then float32) for large tenants, against the
exact scan of the same data."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from engram.adapters.int8_scan import MODEL, ZERO, Int8Codes, Int8Scan, build_model
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
TWO_PASS = ScanSettings(exact_max_rows=1_000, rescore=100)
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


def test_two_pass_finds_what_the_exact_scan_finds(db: SqliteDatabase) -> None:
    exact, two_pass = (
        SqliteIndex(db, dimension=DIM, scan=EXACT),
        SqliteIndex(db, dimension=DIM, scan=TWO_PASS),
    )
    found = []
    for query in _queries(40):
        want = exact.knn("acme", query, 20, Conditions(scopes=ScopeSet.every()))
        got = two_pass.knn("acme", query, 20, Conditions(scopes=ScopeSet.every()))
        assert all(i.startswith("mem_") and int(i[4:]) < N for i, _ in got)  # never the other tenant
        cosines = dict(want)
        for memory_id, score in got:  # every cosine returned is the exact one
            if memory_id in cosines:
                assert score == pytest.approx(cosines[memory_id], abs=1e-5)
        found.append(len({i for i, _ in want} & {i for i, _ in got}) / 20)
    assert two_pass._tenants["acme"].quantized is not None  # the int8 pass really ran
    assert exact._tenants["acme"].quantized is None
    assert np.mean(found) >= 0.99, np.mean(found)


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
    index.knn("acme", query, 10, everything)  # makes the codes
    fitted = index._tenants["acme"].quantized
    # A new memory equal to the query must come first, found through its int8 code.
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
    everything = Conditions(scopes=ScopeSet.every())
    index.knn("acme", _queries(1)[0], 10, everything)
    first = index._tenants["acme"].quantized
    assert first is not None and first.fitted_rows == N
    more = [_record(N + 1_000 + i, "user:2") for i in range(N + 1)]
    vectors = list(_vectors(len(more), seed=3))
    SqliteStore(db).records.write("acme", WriteBatch(records=more, vectors=vectors))
    index.upsert("acme", more, vectors)
    index.knn("acme", _queries(1)[0], 10, everything)
    second = index._tenants["acme"].quantized
    assert second is not first and second is not None and second.fitted_rows == 2 * N + 1


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


def test_the_int8_pass_ranks_by_the_integer_products_numpy_computes() -> None:
    rng = np.random.default_rng(4)
    vectors = _vectors(2_000, seed=5)
    codes = Int8Codes.fit(vectors, np.ones(2_000, dtype=bool))
    queries = _queries(3).T  # (dimension, queries)
    allowed = rng.random(2_000) < 0.5
    best = Int8Scan().top(codes.codes[:2_000], codes.queries(queries), allowed, 25)
    products = (codes.codes[:2_000].astype(np.int64) - ZERO) @ codes.queries(queries).astype(np.int64)
    for column in range(3):
        assert allowed[best[:, column]].all()
        ranked = np.where(allowed, products[:, column], np.iinfo(np.int64).min)
        expected = np.sort(ranked)[::-1][:25]
        assert sorted(products[best[:, column], column], reverse=True) == list(expected)
    # The codes keep each cosine within a small error of the float32 one.
    approx = ((codes.codes[:2_000].astype(np.float32) - ZERO) * codes.scale) @ queries
    assert np.abs(approx - vectors @ queries).max() < 0.02


def test_the_shipped_graph_is_the_one_build_model_writes() -> None:
    pytest.importorskip("onnx", reason="the dev extra's onnx package rebuilds the graph")
    import onnx

    shipped = onnx.load_model_from_string(MODEL.read_bytes())
    assert shipped == onnx.load_model_from_string(build_model())


def test_dead_rows_do_not_make_every_scan_refit(db: SqliteDatabase) -> None:
    """Edits leave dead rows behind; the codes are remade when the rows double, not each query."""
    index = SqliteIndex(db, dimension=DIM, scan=TWO_PASS)
    everything = Conditions(scopes=ScopeSet.every())
    index.knn("acme", _queries(1)[0], 10, everything)
    # Re-put every memory twice over: 3 × N rows, N of them alive
    records = [_record(i, f"user:{i % 3}") for i in range(N)]
    for seed in (7, 8):
        index.upsert("acme", records, list(_vectors(N, seed=seed)))
    before = index._tenants["acme"].quantized
    index.knn("acme", _queries(1)[0], 10, everything)  # the rows tripled: remade once
    remade = index._tenants["acme"].quantized
    assert remade is not before and remade is not None and remade.fitted_rows == 3 * N
    index.knn("acme", _queries(1)[0], 10, everything)
    assert index._tenants["acme"].quantized is remade  # and not again on the next query
