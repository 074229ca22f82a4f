"""The embedded default's search index: exact cosine k-NN in numpy plus BM25 from FTS5.

Vectors live in the memories table (the system of record); this module keeps, per tenant, a
float32 matrix of them with the filter fields as small arrays, so a query is one matrix-vector
product over the rows that pass the conditions (filtering before ranking, never after). The
cache is checked against the tenant's generation in ``index_state`` on every query, so writes by
another process (the CLI beside a running server) are seen; writes through this process are
applied incrementally.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from engram.adapters.sqlite_store import SqliteDatabase, conditions_sql, fts_table
from engram.models import MemoryRecord
from engram.ports import Conditions, Vector

logger = logging.getLogger(__name__)

_WORD = re.compile(r"\w+", re.UNICODE)
# Function words carry no topic; leaving them out keeps BM25 from ranking on "I" and "the".
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "me",
        "my",
        "myself",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "ours",
        "she",
        "should",
        "so",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "too",
        "us",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
    ]
)
MAX_QUERY_TERMS = 32


def match_expression(query: str) -> str | None:
    """An FTS5 MATCH expression OR-ing the query's content words (quoted), or None if it has none.

    >>> match_expression('What is "error E4711"?')
    '"error" OR "e4711"'
    """
    terms: list[str] = []
    for word in _WORD.findall(query.lower()):
        if word not in STOPWORDS and word not in terms:
            terms.append(word)
    if not terms:
        return None
    return " OR ".join(f'"{t}"' for t in terms[:MAX_QUERY_TERMS])


def _epoch(value: str | None) -> float:
    return datetime.fromisoformat(value).timestamp() if value else float("nan")


class _Codes:
    """Interns strings as small ints so filters become numpy comparisons."""

    def __init__(self) -> None:
        self.code: dict[str, int] = {}

    def of(self, value: str) -> int:
        return self.code.setdefault(value, len(self.code))

    def mask(self, column: npt.NDArray[np.int32], values: Sequence[str]) -> npt.NDArray[np.bool_]:
        wanted = [self.code[v] for v in values if v in self.code]
        return np.isin(column, wanted)


@dataclass
class _TenantVectors:
    generation: int
    dimension: int
    n: int = 0
    ids: list[str] = field(default_factory=list)
    row_of: dict[str, int] = field(default_factory=dict)
    matrix: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    alive: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    scope: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    status: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    tier: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    category: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    created: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    occurred: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    codes: dict[str, _Codes] = field(
        default_factory=lambda: {k: _Codes() for k in ("scope", "status", "tier", "category")}
    )

    def _grow(self, need: int) -> None:
        capacity = self.matrix.shape[0]
        if need <= capacity:
            return
        new = max(need, capacity * 2, 256)
        matrix = np.zeros((new, self.dimension), dtype=np.float32)
        if capacity:
            matrix[:capacity] = self.matrix
        self.matrix = matrix
        for name in ("alive", "scope", "status", "tier", "category", "created", "occurred"):
            old = getattr(self, name)
            grown = np.zeros(new, dtype=old.dtype)
            grown[: old.shape[0]] = old
            setattr(self, name, grown)

    def put(
        self,
        memory_id: str,
        vector: npt.NDArray[np.float32],
        scope: str,
        status: str,
        tier: str,
        category: str,
        created: float,
        occurred: float,
    ) -> None:
        row = self.row_of.get(memory_id)
        if row is None:
            self._grow(self.n + 1)
            row = self.n
            self.n += 1
            self.ids.append(memory_id)
            self.row_of[memory_id] = row
        self.matrix[row] = vector
        self.alive[row] = True
        self.scope[row] = self.codes["scope"].of(scope)
        self.status[row] = self.codes["status"].of(status)
        self.tier[row] = self.codes["tier"].of(tier)
        self.category[row] = self.codes["category"].of(category)
        self.created[row] = created
        self.occurred[row] = occurred

    def remove(self, memory_id: str) -> None:
        row = self.row_of.pop(memory_id, None)
        if row is not None:
            self.alive[row] = False
            self.matrix[row] = 0.0

    def mask(self, conditions: Conditions) -> npt.NDArray[np.bool_]:
        n = self.n
        keep = self.alive[:n].copy()
        keep &= self.codes["scope"].mask(self.scope[:n], conditions.scopes)
        if conditions.statuses:
            keep &= self.codes["status"].mask(self.status[:n], conditions.statuses)
        if conditions.categories:
            keep &= self.codes["category"].mask(self.category[:n], conditions.categories)
        if conditions.tiers:
            keep &= self.codes["tier"].mask(self.tier[:n], conditions.tiers)
        if conditions.exclude_tiers:
            keep &= ~self.codes["tier"].mask(self.tier[:n], conditions.exclude_tiers)
        for column, (low, high) in (("occurred", conditions.occurred_at), ("created", conditions.created_at)):
            values = getattr(self, column)[:n]
            if low is not None:
                keep &= values >= low.timestamp()
            if high is not None:
                keep &= values <= high.timestamp()
        return keep


def _needs_sql(conditions: Conditions) -> bool:
    """Conditions the numpy columns cannot answer (tags, metadata, session) go through SQL."""
    return bool(conditions.tags_any or conditions.tags_all or conditions.metadata or conditions.session_id)


class SqliteIndex:
    """``SearchIndex`` over ``SqliteDatabase``; thread-safe."""

    def __init__(self, db: SqliteDatabase, *, dimension: int = 384) -> None:
        self.db = db
        self.dimension = dimension
        self._lock = threading.RLock()
        self._tenants: dict[str, _TenantVectors] = {}

    # -- cache -----------------------------------------------------------------------------------

    def _load(self, tenant_id: str, generation: int) -> _TenantVectors:
        cache = _TenantVectors(generation=generation, dimension=self.dimension)
        rows = (
            self.db.connection()
            .execute(
                "SELECT id, scope, status, tier, category, created_at, occurred_at, embedding FROM memories "
                "WHERE tenant_id=? AND embedding IS NOT NULL ORDER BY rowid",
                (tenant_id,),
            )
            .fetchall()
        )
        cache._grow(len(rows))
        for memory_id, scope, status, tier, category, created, occurred, blob in rows:
            cache.put(
                memory_id,
                np.frombuffer(blob, dtype=np.float32),
                scope,
                status,
                tier,
                category,
                _epoch(created),
                _epoch(occurred),
            )
        logger.debug("vector cache loaded: %d rows", len(rows))
        return cache

    def _fresh(self, tenant_id: str) -> _TenantVectors:
        generation = self.db.generation(tenant_id)
        cache = self._tenants.get(tenant_id)
        if cache is None or cache.generation != generation:
            cache = self._load(tenant_id, generation)
            self._tenants[tenant_id] = cache
        return cache

    def upsert(self, tenant_id: str, records: Sequence[MemoryRecord], vectors: Sequence[Vector]) -> None:
        """Apply a write this process just committed; anything unexpected drops the cache instead."""
        with self._lock:
            cache = self._tenants.get(tenant_id)
            if cache is None:
                return
            generation = self.db.generation(tenant_id)
            if generation not in (cache.generation, cache.generation + 1) or len(records) != len(vectors):
                del self._tenants[tenant_id]
                return
            for record, vector in zip(records, vectors, strict=True):
                cache.put(
                    record.id,
                    vector,
                    record.scope,
                    record.status,
                    record.tier,
                    record.category,
                    record.created_at.timestamp(),
                    record.occurred_at.timestamp() if record.occurred_at else float("nan"),
                )
            cache.generation = generation

    def remove(self, tenant_id: str, memory_ids: Sequence[str]) -> None:
        with self._lock:
            cache = self._tenants.get(tenant_id)
            if cache is None:
                return
            generation = self.db.generation(tenant_id)
            if generation not in (cache.generation, cache.generation + 1):
                del self._tenants[tenant_id]
                return
            for memory_id in memory_ids:
                cache.remove(memory_id)
            cache.generation = generation

    def forget_tenant(self, tenant_id: str) -> None:
        with self._lock:
            self._tenants.pop(tenant_id, None)

    # -- search ----------------------------------------------------------------------------------

    def _allowed_rows(
        self, tenant_id: str, cache: _TenantVectors, conditions: Conditions
    ) -> npt.NDArray[np.bool_]:
        keep = cache.mask(conditions)
        if _needs_sql(conditions):
            where, params = conditions_sql(conditions)
            ids = [
                r[0]
                for r in self.db.connection().execute(
                    f"SELECT m.id FROM memories m WHERE m.tenant_id=? AND {where}", (tenant_id, *params)
                )
            ]
            allowed = np.zeros(cache.n, dtype=bool)
            rows = [cache.row_of[i] for i in ids if i in cache.row_of]
            allowed[rows] = True
            keep &= allowed
        return keep

    def knn(self, tenant_id: str, vector: Vector, k: int, conditions: Conditions) -> list[tuple[str, float]]:
        with self._lock:
            cache = self._fresh(tenant_id)
            if cache.n == 0 or k <= 0:
                return []
            keep = self._allowed_rows(tenant_id, cache, conditions)
            candidates = np.flatnonzero(keep)
            if candidates.size == 0:
                return []
            if candidates.size == cache.n:
                sims = cache.matrix[: cache.n] @ vector
            else:
                sims = cache.matrix[candidates] @ vector
            take = min(k, sims.shape[0])
            top = np.argpartition(-sims, take - 1)[:take]
            top = top[np.argsort(-sims[top], kind="stable")]
            rows = top if candidates.size == cache.n else candidates[top]
            return [(cache.ids[int(r)], float(sims[int(t)])) for r, t in zip(rows, top, strict=True)]

    def knn_many(
        self, tenant_id: str, vectors: Vector, k: int, conditions: Conditions
    ) -> list[list[tuple[str, float]]]:
        with self._lock:
            cache = self._fresh(tenant_id)
            if cache.n == 0 or k <= 0 or len(vectors) == 0:
                return [[] for _ in range(len(vectors))]
            candidates = np.flatnonzero(self._allowed_rows(tenant_id, cache, conditions))
            if candidates.size == 0:
                return [[] for _ in range(len(vectors))]
            sims = cache.matrix[candidates] @ np.asarray(vectors, dtype=np.float32).T  # (rows, queries)
            take = min(k, candidates.size)
            out: list[list[tuple[str, float]]] = []
            for column in range(sims.shape[1]):
                scores = sims[:, column]
                top = np.argpartition(-scores, take - 1)[:take]
                top = top[np.argsort(-scores[top], kind="stable")]
                out.append([(cache.ids[int(candidates[t])], float(scores[t])) for t in top])
            return out

    def bm25(self, tenant_id: str, query: str, k: int, conditions: Conditions) -> list[tuple[str, float]]:
        expression = match_expression(query)
        if expression is None or k <= 0 or not self.db.has_fts(tenant_id):
            return []
        fts = fts_table(tenant_id)
        where, params = conditions_sql(conditions)
        rows = (
            self.db.connection()
            .execute(
                f"SELECT m.id, bm25({fts}) AS s FROM {fts} JOIN memories m ON m.rowid = {fts}.rowid "
                f"WHERE {fts} MATCH ? AND m.tenant_id=? AND {where} ORDER BY s LIMIT ?",
                (expression, tenant_id, *params, k),
            )
            .fetchall()
        )
        # FTS5's bm25() is negative, lower is better; the port wants >= 0, higher is better.
        return [(memory_id, -float(score)) for memory_id, score in rows]

    def cosines(self, tenant_id: str, vector: Vector, memory_ids: Sequence[str]) -> dict[str, float]:
        with self._lock:
            cache = self._fresh(tenant_id)
            present = [(i, cache.row_of[i]) for i in memory_ids if i in cache.row_of]
            if not present:
                return {}
            sims = cache.matrix[[row for _, row in present]] @ vector
            return {memory_id: float(s) for (memory_id, _), s in zip(present, sims, strict=True)}

    def vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        with self._lock:
            cache = self._fresh(tenant_id)
            return {i: cache.matrix[cache.row_of[i]].copy() for i in memory_ids if i in cache.row_of}
