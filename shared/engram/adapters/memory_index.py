"""``SearchIndex`` held in this process, loaded from any store's ``MemoryRecords`` (exact cosine + BM25).

It pairs a store that has no search of its own (DynamoDB) with the embedded ranking: vectors in
one float32 matrix per tenant, BM25 over the same tokenizer as the embedded default, and the
``Conditions`` evaluated on the records themselves (``engram.adapters.matching``). A tenant's
data is loaded on first use from ``records.iter_records`` and kept current by ``upsert`` and
``remove``; ``forget_tenant`` drops it so the next query reloads (for writes by another process).
A memory without its vector yet is found by BM25 alone until the vector arrives.
Used by the tests of the AWS store and by single-process deployments; the cloud index is
OpenSearch (``engram.adapters.opensearch_index``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from engram.adapters.cached_index import CachedIndex
from engram.adapters.matching import matches
from engram.adapters.text_index import Bm25Index
from engram.models import MemoryRecord
from engram.ports import Conditions, MemoryRecords, Vector


@dataclass
class _Tenant:
    dimension: int
    ids: list[str] = field(default_factory=list)
    records: list[MemoryRecord | None] = field(default_factory=list)
    row_of: dict[str, int] = field(default_factory=dict)
    matrix: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    embedded: list[bool] = field(default_factory=list)
    text: Bm25Index = field(default_factory=Bm25Index)

    def put(self, record: MemoryRecord, vector: Vector | None, terms: Sequence[str]) -> None:
        self.remove(record.id)
        row = len(self.ids)
        if row >= self.matrix.shape[0]:
            grown = np.zeros((max(256, 2 * row), self.dimension), dtype=np.float32)
            if row:
                grown[:row] = self.matrix[:row]
            self.matrix = grown
        self.matrix[row] = 0.0 if vector is None else vector
        self.embedded.append(vector is not None)
        self.ids.append(record.id)
        self.records.append(record)
        self.row_of[record.id] = row
        self.text.add(row, terms)

    def remove(self, memory_id: str) -> None:
        row = self.row_of.pop(memory_id, None)
        if row is not None:
            self.records[row] = None
            self.embedded[row] = False
            self.matrix[row] = 0.0
            self.text.remove(row)

    def allowed(self, conditions: Conditions, *, embedded_only: bool = False) -> npt.NDArray[np.bool_]:
        return np.fromiter(
            (
                r is not None and (e or not embedded_only) and matches(r, conditions)
                for r, e in zip(self.records, self.embedded, strict=True)
            ),
            dtype=bool,
            count=len(self.records),
        )

    def has_vector(self, memory_id: str) -> bool:
        row = self.row_of.get(memory_id)
        return row is not None and self.embedded[row]


class InMemoryIndex(CachedIndex[_Tenant]):
    """Thread-safe; every method is scoped to one tenant's own matrix and postings."""

    follows_upserts_only = True
    """Writes reach this index only through ``upsert``/``remove`` (see ``engram.embedding.backlog.Backfill``)."""

    def __init__(self, records: MemoryRecords, *, dimension: int) -> None:
        super().__init__()
        self.records = records
        self.dimension = dimension

    def _cache(self, tenant_id: str) -> _Tenant:
        cache = self._tenants.get(tenant_id)
        if cache is None:
            cache = _Tenant(dimension=self.dimension)
            pairs = list(self.records.iter_records(tenant_id))
            terms = self.tokenizer.tokens([r.content for r, _ in pairs])
            for (record, vector), words in zip(pairs, terms, strict=True):
                cache.put(record, vector, words)
            self._tenants[tenant_id] = cache
        return cache

    indexes_unembedded = True

    def upsert(
        self, tenant_id: str, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]
    ) -> None:
        if any(r.tenant_id != tenant_id for r in records):
            raise ValueError("every record must belong to the tenant indexed")
        with self._lock:
            cache = self._tenants.get(tenant_id)
            if cache is None:
                return  # loaded from the store, with these records, on first use
            terms = self.tokenizer.tokens([r.content for r in records])
            for record, vector, words in zip(records, vectors, terms, strict=True):
                cache.put(record, None if vector is None else np.asarray(vector, dtype=np.float32), words)

    @staticmethod
    def _top(cache: _Tenant, scores: npt.NDArray[np.float64], k: int) -> list[tuple[str, float]]:
        order = np.argsort(-scores, kind="stable")[:k]
        return [(cache.ids[int(r)], float(scores[r])) for r in order]

    def knn_many(
        self, tenant_id: str, vectors: Vector, k: int, conditions: Conditions
    ) -> list[list[tuple[str, float]]]:
        with self._lock:
            cache = self._cache(tenant_id)
            n = len(cache.ids)
            keep = cache.allowed(conditions, embedded_only=True) if n else np.zeros(0, dtype=bool)
            rows = np.flatnonzero(keep)
            out: list[list[tuple[str, float]]] = []
            for vector in np.atleast_2d(np.asarray(vectors, dtype=np.float32)):
                if rows.size == 0 or k <= 0:
                    out.append([])
                    continue
                sims = cache.matrix[rows] @ vector
                order = np.argsort(-sims, kind="stable")[:k]
                out.append([(cache.ids[int(rows[o])], float(sims[o])) for o in order])
            return out

    def knn(self, tenant_id: str, vector: Vector, k: int, conditions: Conditions) -> list[tuple[str, float]]:
        return self.knn_many(tenant_id, np.asarray(vector, dtype=np.float32)[None, :], k, conditions)[0]

    def _bm25(
        self,
        tenant_id: str,
        cache: _Tenant,
        terms: list[str],
        k: int,
        conditions: Conditions,
        context_weight: float,
    ) -> list[tuple[str, float]]:
        alive = np.fromiter((r is not None for r in cache.records), dtype=bool, count=len(cache.records))
        scores = cache.text.scores(terms, alive)
        scores[~cache.allowed(conditions)] = 0.0
        hits = np.flatnonzero(scores > 0)
        return [(i, s) for i, s in self._top(cache, scores, k) if s > 0][: hits.size]

    def cosines(self, tenant_id: str, vector: Vector, memory_ids: Sequence[str]) -> dict[str, float]:
        with self._lock:
            cache = self._cache(tenant_id)
            return {
                i: float(cache.matrix[cache.row_of[i]] @ vector) for i in memory_ids if cache.has_vector(i)
            }

    def vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        with self._lock:
            cache = self._cache(tenant_id)
            return {i: cache.matrix[cache.row_of[i]].copy() for i in memory_ids if cache.has_vector(i)}
