"""``EmbeddingBacklog`` on SQLite: memories stored without a vector (``embedding IS NULL``, a
partial index) wait here until the embedder fills them in."""

from __future__ import annotations

from collections.abc import Sequence

from engram.adapters.sqlite.codec import vector_blob
from engram.adapters.sqlite.database import SqliteTables
from engram.ports import Vector


class SqliteEmbeddingBacklog(SqliteTables):
    def pending_embedding(self, tenant_id: str, limit: int) -> list[tuple[str, str, str]]:
        rows = self.db.rows(
            "SELECT id, json_extract(doc, '$.content'), content_hash FROM memories "
            "WHERE tenant_id=? AND embedding IS NULL ORDER BY rowid LIMIT ?",
            (tenant_id, limit),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def set_embeddings(
        self, tenant_id: str, items: Sequence[tuple[str, str, Vector]], model_id: str
    ) -> list[str]:
        done: list[str] = []
        with self.db.transaction() as conn:
            for memory_id, content_hash, vector in items:
                # The hash guard: a text patched meanwhile keeps waiting for its own vector.
                cur = conn.execute(
                    "UPDATE memories SET embedding=?, embedding_model=?, doc=json_set(doc, '$.embedding_model', ?) "
                    "WHERE tenant_id=? AND id=? AND content_hash=? AND embedding IS NULL",
                    (vector_blob(vector), model_id, model_id, tenant_id, memory_id, content_hash),
                )
                if cur.rowcount:
                    done.append(memory_id)
            if done:
                self.db.bump_generation(conn, tenant_id, done)
        return done

    def tenants_with_pending(self) -> list[str]:
        return [
            r[0]
            for r in self.db.connection().execute(
                "SELECT DISTINCT tenant_id FROM memories WHERE embedding IS NULL"
            )
        ]
