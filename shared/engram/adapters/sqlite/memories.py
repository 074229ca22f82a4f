"""``MemoryRecords`` on SQLite, the reading half: by id, by hash, thread neighbours, listings,
vectors and counts. Every statement binds the tenant first."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Unpack

import numpy as np

from engram.adapters.matching import iso
from engram.adapters.sqlite.codec import blob_vector, chunks, marks, record_of
from engram.adapters.sqlite.conditions import conditions_sql
from engram.adapters.sqlite.database import SqliteTables
from engram.adapters.store_policy import decode_cursor, encode_cursor
from engram.models import CATEGORIES, TIERS, MemoryRecord, StatsResponse
from engram.ports import Conditions, Page, Vector
from engram.ports.store import Paging, Selection

_NEIGHBOURS = (
    "(SELECT json_group_array(id) FROM (SELECT m.id FROM memories m WHERE m.tenant_id = c.tenant_id "
    "AND m.scope = c.scope AND m.thread_id = c.thread_id AND m.rowid {op} c.rowid AND {where} "
    "ORDER BY m.rowid {order} LIMIT ?))"
)


class SqliteMemoryReads(SqliteTables):
    def get(self, tenant_id: str, memory_id: str) -> MemoryRecord | None:
        row = self.db.one("SELECT doc FROM memories WHERE tenant_id=? AND id=?", (tenant_id, memory_id))
        return record_of(row[0]) if row else None

    def get_many(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        out: dict[str, MemoryRecord] = {}
        conn = self.db.connection()
        for chunk in chunks(memory_ids):
            for (doc,) in conn.execute(
                f"SELECT doc FROM memories WHERE tenant_id=? AND id IN ({marks(chunk)})", (tenant_id, *chunk)
            ):
                record = record_of(doc)
                out[record.id] = record
        return out

    def find_by_hash(self, tenant_id: str, scope: str, content_hash: str) -> MemoryRecord | None:
        row = self.db.one(
            "SELECT doc FROM memories WHERE tenant_id=? AND scope=? AND content_hash=? AND status='active'",
            (tenant_id, scope, content_hash),
        )
        return record_of(row[0]) if row else None

    def neighbours(
        self, tenant_id: str, memory_ids: Sequence[str], conditions: Conditions, span: int
    ) -> dict[str, list[str]]:
        """Neighbours in the same thread (session, or retain batch) by insertion order (rowid),
        through the (tenant, scope, thread) index."""
        if not memory_ids or span < 1:
            return {}
        where, params = conditions_sql(conditions)
        before = _NEIGHBOURS.format(op="<", order="DESC", where=where)
        after = _NEIGHBOURS.format(op=">", order="ASC", where=where)
        sql = (
            f"SELECT c.id, {before}, {after} FROM memories c "
            f"WHERE c.tenant_id = ? AND c.thread_id IS NOT NULL AND c.id IN ({marks(memory_ids)})"
        )
        rows = self.db.connection().execute(sql, (*params, span, *params, span, tenant_id, *memory_ids))
        out: dict[str, list[str]] = {}
        for memory_id, earlier, later in rows:
            found = [*reversed(json.loads(earlier)), *json.loads(later)]
            if found:
                out[memory_id] = found
        return out

    def get_vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        out: dict[str, Vector] = {}
        conn = self.db.connection()
        for chunk in chunks(memory_ids):
            for memory_id, blob in conn.execute(
                f"SELECT id, embedding FROM memories WHERE tenant_id=? AND id IN ({marks(chunk)})"
                " AND embedding IS NOT NULL",
                (tenant_id, *chunk),
            ):
                out[memory_id] = np.frombuffer(blob, dtype=np.float32)
        return out

    def select_ids(self, tenant_id: str, conditions: Conditions, **selection: Unpack[Selection]) -> list[str]:
        older_than, limit = selection.get("older_than"), selection.get("limit")
        where, params = conditions_sql(conditions)
        sql = f"SELECT m.id FROM memories m WHERE m.tenant_id=? AND {where}"
        if older_than is not None:
            sql += " AND m.created_at < ?"
            params.append(iso(older_than))
        sql += " ORDER BY m.created_at, m.id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [r[0] for r in self.db.connection().execute(sql, (tenant_id, *params))]

    def list_page(self, tenant_id: str, conditions: Conditions, **paging: Unpack[Paging]) -> Page:
        cursor, limit, tag = paging["cursor"], paging["limit"], paging.get("tag")
        where, params = conditions_sql(conditions)
        sql = f"SELECT m.doc, m.created_at, m.id FROM memories m WHERE m.tenant_id=? AND {where}"
        if tag is not None:
            sql += " AND EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = ?)"
            params.append(tag)
        if cursor:
            created_at, memory_id = decode_cursor(cursor)
            sql += " AND (m.created_at, m.id) > (?, ?)"
            params.extend([created_at, memory_id])
        sql += " ORDER BY m.created_at, m.id LIMIT ?"
        params.append(limit + 1)
        rows = self.db.connection().execute(sql, (tenant_id, *params)).fetchall()
        more = len(rows) > limit
        rows = rows[:limit]
        next_cursor = encode_cursor(rows[-1][1], rows[-1][2]) if more and rows else None
        return Page(records=[record_of(r[0]) for r in rows], next_cursor=next_cursor)

    def iter_records(self, tenant_id: str) -> Iterator[tuple[MemoryRecord, Vector | None]]:
        conn = self.db.connection()
        last = -1
        while True:
            rows = conn.execute(
                "SELECT rowid, doc, embedding FROM memories WHERE tenant_id=? AND rowid>? ORDER BY rowid LIMIT 1000",
                (tenant_id, last),
            ).fetchall()
            if not rows:
                return
            for rowid, doc, blob in rows:
                last = rowid
                yield record_of(doc), blob_vector(blob)

    def stats(self, tenant_id: str, *, scopes: Sequence[str] | None = None) -> StatsResponse:
        conn = self.db.connection()
        where, params = "m.tenant_id=?", [tenant_id]
        if scopes is not None:  # the scopes a caller may see, listed (none listed: nothing)
            where += f" AND m.scope IN ({marks(scopes)})"
            params += list(scopes)

        def grouped(column: str) -> dict[str, int]:
            sql = f"SELECT m.{column}, count(*) FROM memories m WHERE {where} GROUP BY m.{column}"
            return {str(k): int(v) for k, v in conn.execute(sql, params)}

        by_status = grouped("status")
        size = conn.execute(
            f"SELECT coalesce(sum(length(m.doc) + coalesce(length(m.embedding), 0)), 0) FROM memories m WHERE {where}",
            params,
        ).fetchone()[0]
        pending = conn.execute(
            "SELECT count(*) FROM memories WHERE tenant_id=? AND embedding IS NULL", (tenant_id,)
        ).fetchone()[0]
        return StatsResponse(
            tenant_id=tenant_id,
            total=sum(by_status.values()),
            by_scope=grouped("scope"),
            by_category={c: 0 for c in CATEGORIES} | grouped("category"),
            by_tier={t: 0 for t in TIERS} | grouped("tier"),
            by_status=by_status,
            storage_bytes=int(size),
            usage={},
            pending_embedding=int(pending),
        )
