"""``MemoryRecords`` on SQLite, the writing half: batches, conditional updates, access counts and
hard deletes, each in one transaction with its history (and text index row, and generation)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Unpack

from engram.adapters.matching import iso
from engram.adapters.sqlite.codec import KEEP_ACCESS, chunks, columns, marks, vector_blob, with_stored_access
from engram.adapters.sqlite.deletion_log import log_deletion
from engram.adapters.sqlite.history import insert_history
from engram.adapters.sqlite.idempotency import put_idempotency
from engram.adapters.sqlite.lifecycle import put_report
from engram.adapters.sqlite.memories import SqliteMemoryReads
from engram.errors import ValidationFailedError
from engram.models import DeletionLogEntry, LifecycleReport, MemoryRecord
from engram.ports import ConditionalUpdate, Vector, WriteBatch
from engram.ports.store import Change


def _own(tenant_id: str, records: Sequence[MemoryRecord]) -> None:
    if any(r.tenant_id != tenant_id for r in records):
        raise ValidationFailedError("every record must belong to the tenant written to")


def _put(conn: Any, fts: str, record: MemoryRecord, vector: Vector | None) -> None:
    """Insert or replace the row and, when its text changed, its text index row."""
    old = conn.execute(
        "SELECT rowid, content_hash FROM memories WHERE tenant_id=? AND id=?", (record.tenant_id, record.id)
    ).fetchone()
    values = columns(record)
    if old is None or vector is not None:  # an update without a vector keeps the stored one
        values["embedding"] = vector_blob(vector)
    if old is None:
        rowid = conn.execute(
            f"INSERT INTO memories({', '.join(values)}) VALUES({marks(list(values))})", tuple(values.values())
        ).lastrowid
    else:
        rowid = old[0]
        sets = ", ".join(f"{name}=?" for name in values)
        conn.execute(f"UPDATE memories SET {sets} WHERE rowid=?", (*values.values(), rowid))
        if old[1] == record.content_hash:
            return  # same text: the text index row stands (feedback, tags, pins…)
        conn.execute(f"DELETE FROM {fts} WHERE rowid=?", (rowid,))
    conn.execute(f"INSERT INTO {fts}(rowid, content) VALUES(?, ?)", (rowid, record.content))


def _apply_unaccessed(conn: Any, fts: str, tenant_id: str, update: ConditionalUpdate) -> bool:
    """One lifecycle update, applied only if nothing changed since the job read it: no write, and
    no recall (the access count is still the one the job saw)."""
    record = update.record
    # The common case in one statement: same text (the text index row stands), same version.
    keys = ("tenant_id", "id", "content_hash")
    values = {name: value for name, value in columns(record).items() if name not in keys}
    # The lifecycle job never moves access bookkeeping: the row keeps what recalls wrote.
    sets = ", ".join(f"{name}=?" if name != "doc" else KEEP_ACCESS for name in values)
    cur = conn.execute(
        f"UPDATE memories SET {sets} WHERE tenant_id=? AND id=? AND version=? AND content_hash=?"
        " AND json_extract(doc, '$.access_count') = ?",
        (
            *values.values(),
            tenant_id,
            record.id,
            update.expected_version,
            record.content_hash,
            record.access_count,
        ),
    )
    if cur.rowcount:
        return True
    row = conn.execute(
        "SELECT version, json_extract(doc, '$.access_count') FROM memories WHERE tenant_id=? AND id=?",
        (tenant_id, record.id),
    ).fetchone()
    if row is None or (row[0], row[1]) != (update.expected_version, record.access_count):
        return False
    _put(conn, fts, record, None)  # a new text: its text index row changes too
    return True


class SqliteMemories(SqliteMemoryReads):
    def write(self, tenant_id: str, batch: WriteBatch) -> None:
        _own(tenant_id, batch.records)
        with self.db.transaction() as conn:
            fts = self.db.ensure_fts(conn, tenant_id)
            vectors = list(batch.vectors) or [None] * len(batch.records)
            for record, vector in zip(batch.records, vectors, strict=True):
                _put(conn, fts, record, vector)
            insert_history(conn, tenant_id, batch.history)
            if batch.idempotency is not None:
                put_idempotency(conn, tenant_id, batch.idempotency, self.clock.now())
            if batch.records:
                self.db.bump_generation(conn, tenant_id, [r.id for r in batch.records])

    def update(self, tenant_id: str, record: MemoryRecord, **change: Unpack[Change]) -> bool:
        expected_version = change["expected_version"]
        history, vector = change.get("history"), change.get("vector")
        _own(tenant_id, [record])
        with self.db.transaction() as conn:
            row = conn.execute(
                "SELECT version, scope, status, tier, category, occurred_at,"
                " json_extract(doc, '$.access_count'), json_extract(doc, '$.last_accessed_at')"
                " FROM memories WHERE tenant_id=? AND id=?",
                (tenant_id, record.id),
            ).fetchone()
            if row is None or row[0] != expected_version:
                return False
            record = with_stored_access(record, row[6], row[7])
            _put(conn, self.db.ensure_fts(conn, tenant_id), record, vector)
            insert_history(conn, tenant_id, [history] if history is not None else [])
            searched = (record.scope, record.status, record.tier, record.category, iso(record.occurred_at))
            # Only what the index filters or ranks on invalidates caches; feedback alone does not.
            if vector is not None or tuple(row[1:6]) != searched:
                self.db.bump_generation(conn, tenant_id, [record.id])
        return True

    def update_many(
        self, tenant_id: str, updates: Sequence[ConditionalUpdate], *, report: LifecycleReport | None = None
    ) -> list[str]:
        """Every update whose memory is unchanged since it was read (same version, no recall
        since), and the report, in one transaction."""
        _own(tenant_id, [u.record for u in updates])
        with self.db.transaction() as conn:
            fts = self.db.ensure_fts(conn, tenant_id)
            applied = [u for u in updates if _apply_unaccessed(conn, fts, tenant_id, u)]
            insert_history(conn, tenant_id, [u.history for u in applied if u.history is not None])
            if report is not None:
                put_report(conn, tenant_id, report)
            if applied:
                self.db.bump_generation(conn, tenant_id, [u.record.id for u in applied])
        return [u.record.id for u in applied]

    def delete(self, tenant_id: str, memory_ids: Sequence[str], log: DeletionLogEntry) -> list[str]:
        deleted: list[str] = []
        with self.db.transaction() as conn:
            fts = self.db.ensure_fts(conn, tenant_id)
            for chunk in chunks(memory_ids):
                rows = conn.execute(
                    f"SELECT rowid, id FROM memories WHERE tenant_id=? AND id IN ({marks(chunk)})",
                    (tenant_id, *chunk),
                ).fetchall()
                for rowid, memory_id in rows:
                    conn.execute(f"DELETE FROM {fts} WHERE rowid=?", (rowid,))
                    conn.execute("DELETE FROM memories WHERE rowid=?", (rowid,))
                    conn.execute(
                        "DELETE FROM history WHERE tenant_id=? AND memory_id=?", (tenant_id, memory_id)
                    )
                    deleted.append(memory_id)
            if deleted:
                log_deletion(conn, tenant_id, log.model_copy(update={"ids": deleted}))
                # Rewrites the tenant's text index so no token of the forgotten text remains.
                conn.execute(f"INSERT INTO {fts}({fts}) VALUES('optimize')")
                self.db.bump_generation(conn, tenant_id, deleted, receipt_id=log.receipt_id)
        if deleted:
            self.db.checkpoint()
        return deleted

    def record_access(self, tenant_id: str, memory_ids: Sequence[str], at: datetime) -> None:
        """access_count + 1 and last_accessed_at = at for each id. The version stays: it counts
        changes (each with its history entry), and ``update`` keeps the stored access fields, so
        an optimistic writer holding an older record loses no access."""
        if not memory_ids:
            return
        with self.db.bookkeeping() as conn:
            conn.execute(
                "UPDATE memories SET doc = json_set(doc,"
                " '$.access_count', json_extract(doc, '$.access_count') + 1, '$.last_accessed_at', ?)"
                f" WHERE tenant_id=? AND id IN ({marks(memory_ids)})",
                (iso(at), tenant_id, *memory_ids),
            )
