"""The embedded default's search index: exact cosine k-NN and BM25, both in numpy.

Vectors live in the memories table and terms in the tenant's FTS5 table (the system of record);
this module keeps, per tenant, a float32 matrix of the vectors, a BM25 inverted index
(``text_index``) and the filter fields as small arrays over the same rows, so a query is one
matrix-vector product and one scatter-add over the rows that pass the conditions (filtering
before ranking, never after). A replaced memory gets a new row and its old row dies. The
cache is checked against the tenant's generation in ``index_state`` on every query, so writes by
another process (the CLI beside a running server) are seen; writes through this process are
applied incrementally. Archived memories are not loaded (they leave the hot index; the store
keeps them and their vectors). A memory still waiting for its vector (deferred embedding) has a
row too, flagged unembedded: BM25 finds it at once, k-NN skips it until its vector arrives.

A scan over more rows than ``ScanSettings.exact_max_rows`` (a whole large tenant) is done in two
passes: int8 codes of the vectors (``int8_scan``: a quarter of the bytes, scanned by onnxruntime's
integer kernels) pick the best ``rescore`` rows, and only those are scored on their float32
vectors, so every returned cosine is exact and only the choice of candidates is approximate.
``engram bench`` reports how many of the exact top 50 this finds.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from engram.adapters.int8_scan import ZERO, Int8Codes, Int8Scan
from engram.adapters.sqlite.conditions import conditions_sql
from engram.adapters.sqlite.database import SqliteDatabase, fts_table
from engram.adapters.text_index import Bm25Index, Context, Fts5Tokenizer, query_terms
from engram.models import MemoryRecord
from engram.ports import ALL_SCOPES, Conditions, Vector
from engram.settings import ScanSettings

logger = logging.getLogger(__name__)

PARALLEL_ROWS = 16_384  # below this a product is too quick to be worth a second thread


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
        if len(wanted) == 1:  # the usual case (one scope, one status): a comparison beats isin
            equal: npt.NDArray[np.bool_] = column == wanted[0]
            return equal
        return np.isin(column, wanted)


@dataclass
class _TenantVectors:
    generation: int
    local: int
    dimension: int
    n: int = 0
    ids: list[str] = field(default_factory=list)
    row_of: dict[str, int] = field(default_factory=dict)
    matrix: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    alive: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    embedded: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    scope: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    status: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    tier: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    category: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    created: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    occurred: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    codes: dict[str, _Codes] = field(
        default_factory=lambda: {k: _Codes() for k in ("scope", "status", "tier", "category", "thread")}
    )
    # Each transcript turn's thread (session or retain batch) and the rows before and after it
    # there, in retained order (-1: none), for BM25's context field and the thread prior.
    thread: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    before: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    after: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    tails: dict[tuple[int, int], int] = field(default_factory=dict)
    text: Bm25Index = field(default_factory=Bm25Index)
    quantized: Int8Codes | None = None  # fitted on the first scan too large to do exactly
    version: int = 0  # bumped by every put and remove: cached row masks go stale

    def _grow(self, need: int) -> None:
        capacity = self.matrix.shape[0]
        if need <= capacity:
            return
        new = max(need, capacity * 2, 256)
        matrix = np.zeros((new, self.dimension), dtype=np.float32)
        if capacity:
            matrix[:capacity] = self.matrix
        self.matrix = matrix
        if self.quantized is not None:
            self.quantized.grow(new)
        self.text.grow(new)
        for name in ("alive", "embedded", "scope", "status", "tier", "category", "created", "occurred"):
            old = getattr(self, name)
            grown = np.zeros(new, dtype=old.dtype)
            grown[: old.shape[0]] = old
            setattr(self, name, grown)
        for name in ("thread", "before", "after"):
            old = getattr(self, name)
            grown = np.full(new, -1, dtype=np.int32)
            grown[: old.shape[0]] = old
            setattr(self, name, grown)

    def put(
        self,
        memory_id: str,
        vector: npt.NDArray[np.float32] | None,
        scope: str,
        status: str,
        tier: str,
        category: str,
        created: float,
        occurred: float,
        terms: Sequence[str] | None = None,
        thread: str | None = None,
    ) -> None:
        """Append a row for the memory (``vector`` None: not embedded yet, found by BM25 alone);
        a memory already here moves to the new row, and keeps its place in its thread."""
        old = self.row_of.get(memory_id)
        scope_code = self.codes["scope"].of(scope)
        thread_code = -1 if thread is None else self.codes["thread"].of(thread)
        stays = old is not None and self.thread[old] == thread_code and self.scope[old] == scope_code
        self.remove(memory_id, unlink=not stays)
        self.version += 1
        self._grow(self.n + 1)
        row = self.n
        self.n += 1
        self.thread[row] = thread_code
        if stays and old is not None:
            self._replace_in_thread(old, row)
        elif thread_code >= 0:
            self._append_to_thread(row, scope_code, thread_code)
        self.ids.append(memory_id)
        self.row_of[memory_id] = row
        if terms is not None:
            self.text.add(row, terms)
        self.embedded[row] = vector is not None
        self.matrix[row] = 0.0 if vector is None else vector
        if self.quantized is not None:
            self.quantized.codes[row] = self.quantized.encode(self.matrix[row])
        self.alive[row] = True
        self.scope[row] = scope_code
        self.status[row] = self.codes["status"].of(status)
        self.tier[row] = self.codes["tier"].of(tier)
        self.category[row] = self.codes["category"].of(category)
        self.created[row] = created
        self.occurred[row] = occurred

    def _append_to_thread(self, row: int, scope_code: int, thread_code: int) -> None:
        tail = self.tails.get((scope_code, thread_code), -1)
        self.before[row], self.after[row] = tail, -1
        if tail >= 0:
            self.after[tail] = row
        self.tails[(scope_code, thread_code)] = row

    def _replace_in_thread(self, old: int, row: int) -> None:
        before, after = int(self.before[old]), int(self.after[old])
        self.before[row], self.after[row] = before, after
        if before >= 0:
            self.after[before] = row
        if after >= 0:
            self.before[after] = row
        key = (int(self.scope[old]), int(self.thread[old]))
        if self.tails.get(key) == old:
            self.tails[key] = row
        self.before[old] = self.after[old] = -1

    def _unlink(self, row: int) -> None:
        before, after = int(self.before[row]), int(self.after[row])
        if before >= 0:
            self.after[before] = after
        if after >= 0:
            self.before[after] = before
        key = (int(self.scope[row]), int(self.thread[row]))
        if self.tails.get(key) == row:
            if before >= 0:
                self.tails[key] = before
            else:
                del self.tails[key]
        self.before[row] = self.after[row] = -1

    def remove(self, memory_id: str, *, unlink: bool = True) -> None:
        row = self.row_of.pop(memory_id, None)
        if row is not None:
            if unlink and self.thread[row] >= 0:
                self._unlink(row)
            self.version += 1
            self.alive[row] = False
            self.embedded[row] = False
            self.matrix[row] = 0.0
            if self.quantized is not None:
                self.quantized.codes[row] = ZERO
            self.text.remove(row)

    def mask(self, conditions: Conditions) -> npt.NDArray[np.bool_]:
        n = self.n
        keep = self.alive[:n].copy()
        if conditions.scopes != ALL_SCOPES:
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
    return bool(
        conditions.tags_any
        or conditions.tags_all
        or conditions.metadata
        or conditions.session_id
        or conditions.valid_at is not None
    )


class SqliteIndex:
    """``SearchIndex`` over ``SqliteDatabase``; thread-safe."""

    def __init__(self, db: SqliteDatabase, *, dimension: int = 384, scan: ScanSettings | None = None) -> None:
        self.db = db
        self.dimension = dimension
        self.scan = scan or ScanSettings()
        self._int8 = Int8Scan(threads=self.scan.threads)
        self._lock = threading.RLock()
        self._tenants: dict[str, _TenantVectors] = {}
        self.tokenizer = Fts5Tokenizer()
        self.loads = 0  # full cache loads, for tests and diagnostics
        self._last_mask: tuple[_TenantVectors, int, Conditions, npt.NDArray[np.bool_]] | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-knn")

    # -- cache -----------------------------------------------------------------------------------

    def _load(self, tenant_id: str, generation: int, local: int) -> _TenantVectors:
        """Every memory of the tenant with its vector, filter fields and terms, from the store."""
        cache = _TenantVectors(generation=generation, local=local, dimension=self.dimension)
        self.loads += 1
        conn = self.db.connection()
        # One read transaction: the vectors and the text index must be the same snapshot.
        conn.execute("BEGIN")
        try:
            rows = conn.execute(
                "SELECT rowid, id, scope, status, tier, category, created_at, occurred_at, embedding, thread_id "
                "FROM memories WHERE tenant_id=? AND tier != 'archived' ORDER BY rowid",
                (tenant_id,),
            ).fetchall()
            cache._grow(len(rows))
            row_of_rowid: dict[int, int] = {}
            for rowid, memory_id, scope, status, tier, category, created, occurred, blob, thread in rows:
                row_of_rowid[rowid] = cache.n
                cache.put(
                    memory_id,
                    None if blob is None else np.frombuffer(blob, dtype=np.float32),
                    scope,
                    status,
                    tier,
                    category,
                    _epoch(created),
                    _epoch(occurred),
                    thread=thread,
                )
            if self.db.has_fts(tenant_id):
                cache.text.load(conn, fts_table(tenant_id), row_of_rowid)
        finally:
            conn.execute("COMMIT")
        logger.debug("search cache loaded: %d rows", len(rows))
        return cache

    def _fresh(self, tenant_id: str) -> _TenantVectors:
        generation, local = self.db.generations(tenant_id)
        cache = self._tenants.get(tenant_id)
        if cache is None or generation - cache.generation != local - cache.local:
            cache = self._load(tenant_id, generation, local)
            self._tenants[tenant_id] = cache
        return cache

    indexes_unembedded = True
    follows_upserts_only = False  # a write by another process shows through the file's generation

    def rebuild_target(self) -> SqliteIndex:
        return self

    def indexed_ids(self, tenant_id: str) -> Iterator[str]:
        with self._lock:
            return iter(list(self._fresh(tenant_id).row_of))

    def upsert(
        self, tenant_id: str, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]
    ) -> None:
        """Apply a write this process just committed (a write by anyone else makes the next query reload)."""
        with self._lock:
            cache = self._tenants.get(tenant_id)
            if cache is None:
                return
            terms = self.tokenizer.tokens([r.content for r in records])
            for record, vector, words in zip(records, vectors, terms, strict=True):
                if record.tier == "archived":  # archived memories leave the hot index
                    cache.remove(record.id)
                    continue
                cache.put(
                    record.id,
                    vector,
                    record.scope,
                    record.status,
                    record.tier,
                    record.category,
                    record.created_at.timestamp(),
                    record.occurred_at.timestamp() if record.occurred_at else float("nan"),
                    words,
                    thread=record.thread,
                )

    def remove(
        self, tenant_id: str, memory_ids: Sequence[str], *, states: Sequence[MemoryRecord] = ()
    ) -> None:
        with self._lock:
            cache = self._tenants.get(tenant_id)
            if cache is None:
                return
            for memory_id in memory_ids:
                cache.remove(memory_id)

    def forget_tenant(self, tenant_id: str) -> None:
        with self._lock:
            self._tenants.pop(tenant_id, None)

    # -- search ----------------------------------------------------------------------------------

    def _allowed_rows(
        self, tenant_id: str, cache: _TenantVectors, conditions: Conditions
    ) -> npt.NDArray[np.bool_]:
        """The rows meeting ``conditions`` (read-only). A recall asks k-NN and BM25 for the same
        conditions, so the last mask the numpy columns alone answer is kept until the next write."""
        if _needs_sql(conditions):
            return self._compute_allowed(tenant_id, cache, conditions)
        last = self._last_mask
        if last is not None and last[0] is cache and last[1] == cache.version and last[2] == conditions:
            return last[3]
        keep = self._compute_allowed(tenant_id, cache, conditions)
        self._last_mask = (cache, cache.version, conditions, keep)
        return keep

    def _compute_allowed(
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

    def _product(
        self, rows: npt.NDArray[np.float32], right: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """``rows @ right``; large products are split over two threads (numpy releases the GIL, and
        BLAS itself is held to one thread so that it never spins against the embedding model)."""
        if rows.shape[0] < PARALLEL_ROWS:
            return rows @ right
        half = rows.shape[0] // 2
        first = self._pool.submit(np.dot, rows[:half], right)
        second = rows[half:] @ right
        return np.concatenate([first.result(), second])

    def _similarities(
        self,
        tenant_id: str,
        cache: _TenantVectors,
        conditions: Conditions,
        queries: npt.NDArray[np.float32],
        k: int,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
        """(rows, exact cosines of those rows with each query column): every row meeting the
        conditions that have a vector, or, for a scan larger than ``exact_max_rows``, the int8 pass's best."""
        keep = self._allowed_rows(tenant_id, cache, conditions) & cache.embedded[: cache.n]
        rows = np.flatnonzero(keep)
        if rows.size > max(self.scan.exact_max_rows, self.scan.rescore, 4 * k) and self._int8.available():
            return self._two_pass(cache, keep, queries, k)
        if rows.size * 4 < cache.n:  # few rows pass: gather them
            return rows, self._product(cache.matrix[rows], queries)
        # Most rows pass: one pass over the whole matrix beats copying it, then keep the passing rows.
        return rows, self._product(cache.matrix[: cache.n], queries)[rows]

    def _two_pass(
        self, cache: _TenantVectors, keep: npt.NDArray[np.bool_], queries: npt.NDArray[np.float32], k: int
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
        """The best ``max(rescore, 4k)`` allowed rows per query by their int8 codes (the union
        over queries), scored on their float32 vectors."""
        if cache.quantized is None or cache.n > 2 * cache.quantized.fitted_rows:
            cache.quantized = Int8Codes.fit(cache.matrix, cache.alive[: cache.n])
        codes = cache.quantized
        take = max(self.scan.rescore, 4 * k)
        best = self._int8.top(codes.codes[: cache.n], codes.queries(queries), keep, take)
        chosen = np.unique(best.ravel())
        chosen = chosen[keep[chosen]]
        return chosen, cache.matrix[chosen] @ queries

    @staticmethod
    def _top(rows: npt.NDArray[np.intp], scores: npt.NDArray[np.float32], k: int) -> list[tuple[int, float]]:
        take = min(k, scores.shape[0])
        top = np.argpartition(-scores, take - 1)[:take]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(rows[t]), float(scores[t])) for t in top]

    def knn(self, tenant_id: str, vector: Vector, k: int, conditions: Conditions) -> list[tuple[str, float]]:
        with self._lock:
            cache = self._fresh(tenant_id)
            if cache.n == 0 or k <= 0:
                return []
            rows, sims = self._similarities(
                tenant_id, cache, conditions, np.asarray(vector, dtype=np.float32), k
            )
            if rows.size == 0:
                return []
            return [(cache.ids[row], score) for row, score in self._top(rows, sims, k)]

    def knn_many(
        self, tenant_id: str, vectors: Vector, k: int, conditions: Conditions
    ) -> list[list[tuple[str, float]]]:
        with self._lock:
            cache = self._fresh(tenant_id)
            if cache.n == 0 or k <= 0 or len(vectors) == 0:
                return [[] for _ in range(len(vectors))]
            queries = np.asarray(vectors, dtype=np.float32).T  # (dimension, queries)
            rows, sims = self._similarities(tenant_id, cache, conditions, queries, k)
            if rows.size == 0:
                return [[] for _ in range(len(vectors))]
            return [
                [(cache.ids[row], score) for row, score in self._top(rows, sims[:, column], k)]
                for column in range(sims.shape[1])
            ]

    def bm25(
        self, tenant_id: str, query: str, k: int, conditions: Conditions, *, context_weight: float = 0.0
    ) -> list[tuple[str, float]]:
        terms = query_terms(query, self.tokenizer)
        if not terms or k <= 0:
            return []
        with self._lock:
            cache = self._fresh(tenant_id)
            if cache.n == 0:
                return []
            allowed = self._allowed_rows(tenant_id, cache, conditions)
            n = cache.n
            context = (
                Context(cache.before[:n], cache.after[:n], context_weight) if context_weight > 0 else None
            )
            scores = cache.text.scores(terms, cache.alive[:n], allowed, context)
            hits = np.flatnonzero(scores > 0)
            if hits.size == 0:
                return []
            take = min(k, hits.size)
            top = hits[np.argpartition(-scores[hits], take - 1)[:take]]
            top = top[np.argsort(-scores[top], kind="stable")]
            return [(cache.ids[int(r)], float(scores[r])) for r in top]

    def thread_scores(
        self, tenant_id: str, query: str, conditions: Conditions, memory_ids: Sequence[str]
    ) -> dict[str, float]:
        terms = query_terms(query, self.tokenizer)
        if not terms:
            return {}
        with self._lock:
            cache = self._fresh(tenant_id)
            rows = {
                i: r for i in memory_ids if (r := cache.row_of.get(i)) is not None and cache.thread[r] >= 0
            }
            if not rows:
                return {}
            allowed = self._allowed_rows(tenant_id, cache, conditions)
            by_thread = cache.text.by_group(terms, allowed, cache.thread, len(cache.codes["thread"].code))
            best = float(by_thread.max())
            if best <= 0:
                return {}
            return {i: float(by_thread[cache.thread[r]]) / best for i, r in rows.items()}

    def cosines(self, tenant_id: str, vector: Vector, memory_ids: Sequence[str]) -> dict[str, float]:
        with self._lock:
            cache = self._fresh(tenant_id)
            present = [
                (i, r) for i in memory_ids if (r := cache.row_of.get(i)) is not None and cache.embedded[r]
            ]
            if not present:
                return {}
            sims = cache.matrix[[row for _, row in present]] @ vector
            return {memory_id: float(s) for (memory_id, _), s in zip(present, sims, strict=True)}

    def vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        with self._lock:
            cache = self._fresh(tenant_id)
            present = [i for i in memory_ids if (r := cache.row_of.get(i)) is not None and cache.embedded[r]]
            gathered = cache.matrix[[cache.row_of[i] for i in present]]  # one copy for all of them
            return dict(zip(present, gathered, strict=True))
