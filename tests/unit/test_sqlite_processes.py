"""One SQLite file, several processes (``engram serve``'s workers): what one process remembers
about the file's tables never outlives another process changing them."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_support import EVERY_SCOPE, T0, log, put, record, vector

from engram.adapters.sqlite import database
from engram.adapters.sqlite.database import SqliteDatabase
from engram.adapters.sqlite.store import SqliteStore
from engram.adapters.sqlite_index import SqliteIndex
from engram.models import MemoryRecord, Source, Tenant
from engram.ports import Conditions
from engram.scopes import ScopeSet


def test_a_tenant_table_dropped_by_another_process_is_made_again_when_needed(tmp_path: Path) -> None:
    # Given two processes' databases on one file, both having written the tenant's text index
    path = tmp_path / "engram.db"
    here, there = SqliteDatabase(path), SqliteDatabase(path)
    for db in (here, there):
        with db.transaction() as conn:
            db.ensure_fts(conn, "acme")
    # When the other one erases the tenant (its table goes)
    with there.transaction() as conn:
        there.drop_fts(conn, "acme")
    # Then this one sees the table is gone, and makes it again before writing to it
    assert not here.has_fts("acme")
    with here.transaction() as conn:
        name = here.ensure_fts(conn, "acme")
        conn.execute(f"INSERT INTO {name}(rowid, content) VALUES(1, 'green tea')")
    assert here.has_fts("acme")


class Process:
    """What one process of ``engram serve`` holds on the file: its database, store and index."""

    def __init__(self, path: Path) -> None:
        self.db = SqliteDatabase(path)
        self.store = SqliteStore(self.db)
        self.index = SqliteIndex(self.db, dimension=384)

    def found(self, query: str, scope: str = "user:alice") -> set[str]:
        """The ids BM25 and k-NN (by the query's own vector, ``vector(0)``) both return."""
        conditions = Conditions(scopes=ScopeSet.of((scope,)))
        words = {i for i, _ in self.index.bm25("acme", query, 10, conditions)}
        near = {i for i, _ in self.index.knn("acme", vector(0), 10, conditions)}
        return words | near


def _two_processes(tmp_path: Path) -> tuple[Process, Process, list[MemoryRecord]]:
    here, there = Process(tmp_path / "engram.db"), Process(tmp_path / "engram.db")
    here.store.tenants.create_tenant(Tenant(tenant_id="acme", name="acme", created_at=T0))
    kept = [record("acme", "green tea in the morning"), record("acme", "the kayak is red")]
    put(here.store, *kept)
    assert here.found("tea kayak") == {r.id for r in kept}  # loads the tenant's rows
    assert here.index.loads == 1
    return here, there, kept


def test_another_process_s_writes_are_read_row_by_row_without_loading_the_tenant_again(
    tmp_path: Path,
) -> None:
    # Given one process that has loaded a tenant's rows, and another on the same file
    here, there, (tea, kayak) = _two_processes(tmp_path)
    # When the other adds a memory, moves one to another scope, forgets one, and stores one whose
    # vector comes later (deferred embedding)
    lake = record("acme", "we drove up to the lake house", minute=1)
    waiting = record("acme", "the lake was cold", minute=2)
    put(there.store, lake)
    put(there.store, waiting, embed=False)
    moved = kayak.model_copy(update={"scope": "user:bob", "version": 2})
    assert there.store.records.update("acme", moved, expected_version=1)
    there.store.records.delete("acme", [tea.id], log("acme"))
    # Then this process finds the new one, no longer finds the forgotten one nor the moved one in
    # its old scope, finds the moved one in its new scope, and the one waiting by its words only
    assert here.found("tea kayak lake") == {lake.id, waiting.id}
    assert {i for i, _ in here.index.knn("acme", vector(0), 10, EVERY_SCOPE)} == {lake.id, kayak.id}
    assert here.found("kayak", scope="user:bob") == {kayak.id}
    # When the waiting one's vector arrives, Then k-NN finds it too
    there.store.pending.set_embeddings("acme", [(waiting.id, waiting.content_hash, vector(5))], "m")
    assert waiting.id in {i for i, _ in here.index.knn("acme", vector(5), 1, EVERY_SCOPE)}
    # And none of it loaded the tenant again: each change was read from the rows it names
    assert here.index.loads == 1


@pytest.mark.parametrize(
    ("limit", "value", "batches"),
    [
        ("CHANGES_KEPT", 2, [[1], [2], [3]]),  # three generations, the last two kept: a gap
        ("CHANGES_LISTED", 1, [[1, 2]]),  # two memories at once, one listed: a change of everything
    ],
)
def test_what_the_change_log_cannot_tell_loads_the_tenant_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str, value: int, batches: list[list[int]]
) -> None:
    # Given a change log held to a small limit
    monkeypatch.setattr(database, limit, value)
    here, there, _ = _two_processes(tmp_path)
    # When another process writes past it
    later = []
    for batch in batches:
        memories = [record("acme", f"the lake in week {n}", minute=n) for n in batch]
        put(there.store, *memories)
        later += memories
    # Then the log keeps no more generations than it may, and this process loads the tenant again, complete
    kept = there.db.rows("SELECT DISTINCT generation FROM index_changes WHERE tenant_id='acme'")
    assert len(kept) <= database.CHANGES_KEPT
    assert {i for i, _ in here.index.bm25("acme", "lake", 10, EVERY_SCOPE)} == {m.id for m in later}
    assert here.index.loads == 2


def test_a_forget_reaches_other_processes_through_its_receipt_and_the_log_keeps_no_forgotten_id(
    tmp_path: Path,
) -> None:
    # Given a memory another process retained, that this process has read about
    here, there, (tea, kayak) = _two_processes(tmp_path)
    lake = record("acme", "we drove up to the lake house", minute=1)
    put(there.store, lake)
    assert here.found("lake") >= {lake.id}
    # When the other process forgets it and the tea one
    there.store.records.delete("acme", [lake.id, tea.id], log("acme"))
    # Then this process finds neither, without loading the tenant again
    assert here.found("tea lake kayak") == {kayak.id}
    assert here.index.loads == 1
    # And the change log names neither id any more: only the receipt, which the deletion log keeps
    listed = there.db.rows("SELECT memory_id, receipt_id FROM index_changes WHERE tenant_id='acme'")
    assert not {lake.id, tea.id} & {memory_id for memory_id, _ in listed}
    assert [receipt for _, receipt in listed if receipt] == [
        there.store.deletion_log.deletion_log("acme")[0].receipt_id
    ]


def test_turns_another_process_retained_keep_their_order_in_the_thread(tmp_path: Path) -> None:
    # Given a session of five turns another process retains in one call, their ids not in turn order
    here, there, _ = _two_processes(tmp_path)
    texts = ["we drove up", "to the lake house", "it was cold", "so we lit a fire", "and slept early"]
    turns = [record("acme", t, minute=n, source=Source(session_id="s1")) for n, t in enumerate(texts, 1)]
    assert [t.id for t in turns] != sorted(t.id for t in turns)
    put(there.store, *turns)
    # Then this process's neighbours of each turn are the turns before and after it, as a load gives
    middle = [t.id for t in turns[1:-1]]
    caught_up = here.index.neighbours("acme", middle, EVERY_SCOPE, 1)
    assert caught_up == {t.id: [turns[n].id, turns[n + 2].id] for n, t in enumerate(turns[1:-1])}
    assert caught_up == Process(tmp_path / "engram.db").index.neighbours("acme", middle, EVERY_SCOPE, 1)
    assert here.index.loads == 1
