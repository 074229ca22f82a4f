"""A long-lived process's index packs the rows its own writes left dead: every replaced memory (a
deferred embedding, an edit, a move) takes a new row, and without packing a server that keeps
running would scan and hold every row it ever wrote."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from store_support import T0, created, record, vector

from engram.adapters import sqlite_index
from engram.adapters.sqlite.database import SqliteDatabase
from engram.adapters.sqlite.store import SqliteStore
from engram.adapters.sqlite_index import SqliteIndex
from engram.models import MemoryRecord, Source, Tenant
from engram.ports import Conditions, WriteBatch
from engram.scopes import ScopeSet
from engram.settings import ScanSettings

SCOPES = ("user:alice", "user:bob")
WORDS = ("lake", "tea", "kayak", "fire", "house", "cold")


class Process:
    """One process on the file: its store, and its index, told of its own writes as services do."""

    def __init__(self, path: Path, scan: ScanSettings | None = None) -> None:
        db = SqliteDatabase(path)
        self.store = SqliteStore(db)
        self.index = SqliteIndex(db, dimension=384, scan=scan)

    def write(self, records: list[MemoryRecord], seeds: list[int | None]) -> None:
        vectors = [None if s is None else vector(s) for s in seeds]
        self.store.records.write(
            "acme", WriteBatch(records=records, vectors=vectors, history=[created(r) for r in records])
        )
        self.index.upsert("acme", records, vectors)

    def answers(self, scope: str | None) -> dict[str, Any]:
        """What every search of the index returns, for a query in one scope or in all."""
        conditions = Conditions(scopes=ScopeSet.every() if scope is None else ScopeSet.of((scope,)))
        index, query = self.index, "lake house by the fire"
        near = index.knn("acme", vector(1_000), 12, conditions)
        words = index.bm25("acme", query, 12, conditions, context_weight=0.4)
        ids = sorted({i for i, _ in near + words})
        return {
            "knn": [(i, round(s, 5)) for i, s in near],
            "bm25": [(i, round(s, 5)) for i, s in words],
            "threads": {
                i: round(s, 5) for i, s in index.thread_scores("acme", query, conditions, ids).items()
            },
            "neighbours": index.neighbours("acme", ids, conditions, 2),
            "cosines": {i: round(c, 5) for i, c in index.cosines("acme", vector(1_000), ids).items()},
            "held": sorted(index.indexed_ids("acme")),
        }


def _untied(answers: dict[str, Any]) -> dict[str, Any]:
    """``answers`` with each ranked list as a set: equal scores may come in another order from a
    load, which reads rows in the file's order, not in the order this process last wrote them."""
    return {k: sorted(v) if k in ("knn", "bm25") else v for k, v in answers.items()}


def _turns(count: int) -> list[MemoryRecord]:
    """Turns of four sessions over two scopes, retained in order."""
    return [
        record(
            "acme",
            f"turn {n}: the {WORDS[n % 6]} and the {WORDS[(n * 5) % 6]} again",
            SCOPES[n % 2],
            minute=n,
            source=Source(session_id=f"s{n % 4}"),
        )
        for n in range(count)
    ]


def _churn(process: Process, turns: list[MemoryRecord], rounds: int) -> list[MemoryRecord]:
    """Each turn rewritten ``rounds`` times as a running server rewrites them: stored before its
    vector (deferred embedding), then embedded; one in five moved to the other scope once."""
    for r in range(rounds):
        bumped = [t.model_copy(update={"version": t.version + 1}) for t in turns]
        process.write(bumped, [None] * len(bumped))
        process.write(bumped, [n + 100 * r for n in range(len(bumped))])
        turns = bumped
    moved = [
        t.model_copy(update={"scope": SCOPES[(SCOPES.index(t.scope) + 1) % 2], "version": t.version + 1})
        for t in turns[::5]
    ]
    process.write(moved, [n + 7_000 for n in range(len(moved))])
    return turns


@pytest.mark.parametrize("scope", [None, "user:alice"])
def test_a_cache_packs_its_dead_rows_and_answers_as_a_fresh_load_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scope: str | None
) -> None:
    # Given a process that loaded a tenant of 40 turns and then rewrote every one of them
    # three times itself, its packing held off
    monkeypatch.setattr(sqlite_index, "PACK_DEAD_ROWS", 10**9)
    here = Process(tmp_path / "engram.db")
    here.store.tenants.create_tenant(Tenant(tenant_id="acme", name="acme", created_at=T0))
    turns = _turns(40)
    here.write(turns, list(range(40)))
    before = here.answers(scope)  # loads the tenant
    _churn(here, turns, rounds=3)
    unpacked = here.answers(scope)
    cache = here.index._tenants["acme"]
    assert (cache.n, cache.dead) == (40 + 40 * 6 + 8, 40 * 6 + 8)
    # When it next searches with packing allowed
    monkeypatch.setattr(sqlite_index, "PACK_DEAD_ROWS", 16)
    packed = here.answers(scope)
    # Then its rows are the live ones alone, it did not read the tenant again, and every search
    # answers as before packing and as a process loading the file afresh does
    cache = here.index._tenants["acme"]
    assert (cache.n, cache.dead, here.index.loads) == (40, 0, 1)
    assert packed == unpacked
    assert _untied(packed) == _untied(Process(tmp_path / "engram.db").answers(scope))
    assert packed != before  # the churn changed what is found (vectors, a fifth moved)


def test_the_sign_bits_travel_with_their_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a process whose all-scopes scans go through sign bits (above 16 rows), made before
    # its own writes left dead rows
    monkeypatch.setattr(sqlite_index, "PACK_DEAD_ROWS", 10**9)
    here = Process(tmp_path / "engram.db", ScanSettings(exact_max_rows=16, rescore=20))
    here.store.tenants.create_tenant(Tenant(tenant_id="acme", name="acme", created_at=T0))
    turns = _turns(60)
    here.write(turns, list(range(60)))
    here.answers(None)
    fitting = here.index._tenants["acme"].fitting
    assert fitting is not None
    fitting.result()
    _churn(here, turns, rounds=1)
    unpacked = here.answers(None)
    assert here.index._tenants["acme"].quantized is not None
    # When it packs
    monkeypatch.setattr(sqlite_index, "PACK_DEAD_ROWS", 16)
    packed = here.answers(None)
    # Then the packed cache kept its codes, renumbered, and the first pass picks the same rows
    cache = here.index._tenants["acme"]
    assert cache.n == 60 and cache.quantized is not None
    assert packed == unpacked
    assert cache.quantized.words.shape[1] == cache.matrix.shape[0]
