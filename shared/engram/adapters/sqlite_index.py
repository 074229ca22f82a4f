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
passes: sign bits of the vectors (``binary_scan``: 1/16 of the bytes, compared by XOR and
popcount) pick the nearest ``rescore`` rows, and only those are scored on their float32 vectors,
so every returned cosine is exact and only the choice of candidates is approximate.
``engram bench`` reports how many of the exact top 50 this finds.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.adapters.binary_scan import BinaryCodes
from engram.adapters.cached_index import CachedIndex
from engram.adapters.sqlite.codec import chunks, marks
from engram.adapters.sqlite.conditions import conditions_sql
from engram.adapters.sqlite.database import SqliteDatabase, fts_table
from engram.adapters.sqlite_vectors import TenantVectors, epoch, needs_sql
from engram.adapters.text_index import Context, Groups, TermHits
from engram.models import MemoryRecord
from engram.ports import Conditions, Vector
from engram.scopes import ScopeSet
from engram.scoring import words
from engram.settings import ScanSettings

logger = logging.getLogger(__name__)

PARALLEL_ROWS = 16_384  # below this a product is too quick to be worth a second thread
LABEL_CHARS = 64  # of a memory's text read on a load, for its speaker label ("Priya: …")
CATCH_UP_ROWS = 5_000  # changed rows re-read rather than the tenant loaded again (or a quarter of it)
PACK_DEAD_ROWS = 4_096  # a cache packs its live rows once more are dead than this (or half the live)


class SqliteIndex(CachedIndex[TenantVectors]):
    """``SearchIndex`` over ``SqliteDatabase``; thread-safe."""

    def __init__(self, db: SqliteDatabase, *, dimension: int = 384, scan: ScanSettings | None = None) -> None:
        super().__init__()
        self.db = db
        self.dimension = dimension
        self.scan = scan or ScanSettings()
        self.loads = 0  # full cache loads, for tests and diagnostics
        self._last_mask: tuple[TenantVectors, int, Conditions, npt.NDArray[np.bool_]] | None = None
        self._last_terms: (
            tuple[TenantVectors, tuple[int, float], Conditions, dict[str, TermHits | None]] | None
        ) = None
        self._last_groups: tuple[TenantVectors, tuple[int, int], Conditions, Groups | None] | None = None
        self._last_threads: (
            tuple[TenantVectors, tuple[int, tuple[str, ...]], Conditions, npt.NDArray[np.float64]] | None
        ) = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-knn")
        self._fitter: ThreadPoolExecutor | None = None  # makes the sign bits, on first need

    # -- cache -----------------------------------------------------------------------------------

    def _load(self, tenant_id: str, generation: int, local: int) -> TenantVectors:
        """Every memory of the tenant with its vector, filter fields and terms, from the store."""
        cache = TenantVectors(generation=generation, local=local, dimension=self.dimension)
        self.loads += 1
        conn = self.db.connection()
        # One read transaction: the vectors and the text index must be the same snapshot.
        conn.execute("BEGIN")
        try:
            rows = conn.execute(
                f"SELECT rowid, {_ROW.format(text=f'substr(json_extract(doc, {_CONTENT}), 1, {LABEL_CHARS})')} "
                "FROM memories WHERE tenant_id=? AND tier != 'archived' ORDER BY rowid",
                (tenant_id,),
            ).fetchall()
            cache._grow(len(rows))
            row_of_rowid: dict[int, int] = {}
            for rowid, *row in rows:
                row_of_rowid[rowid] = cache.n
                _put(cache, row, None)
            if self.db.has_fts(tenant_id):
                cache.text.load(conn, fts_table(tenant_id), row_of_rowid)
        finally:
            conn.execute("COMMIT")
        logger.debug("search cache loaded: %d rows", len(rows))
        return cache

    def _cache(self, tenant_id: str) -> TenantVectors:
        generation, local = self.db.generations(tenant_id)
        cache = self._tenants.get(tenant_id)
        grown = cache is None or generation - cache.generation != local - cache.local
        if cache is not None and grown:
            cache = self._catch_up(tenant_id, cache, generation, local)
        if cache is None:
            cache = self._load(tenant_id, generation, local)
        elif cache.dead > max(PACK_DEAD_ROWS, len(cache.row_of) // 2):
            cache = cache.packed()
        self._searched(tenant_id, cache)
        if grown:
            self._make_room(tenant_id, self.scan.cached_rows)
        return cache

    def _catch_up(
        self, tenant_id: str, cache: TenantVectors, generation: int, local: int
    ) -> TenantVectors | None:
        """The cache with the rows another process changed since it was current read again from the
        file (``index_changes``), and this process's own among them (put again: the same rows).
        None, for a load, when the log no longer covers the gap, or when that many changes make a
        load as quick.
        Measured at 100k memories: a recall right after another process's retain took ~6 s (a
        load); now 11-17 ms, as after this process's own retain."""
        conn = self.db.connection()
        conn.execute("BEGIN")  # the log and the rows it names: one snapshot
        try:
            changed = self.db.changes(conn, tenant_id, cache.generation, generation)
            live = len(cache.row_of)
            if changed is None or len(changed) > max(CATCH_UP_ROWS, live // 4):
                return None
            # In rowid order, as a load reads them: new turns join their threads in retained order.
            rows = sorted(
                row
                for chunk in chunks(sorted(changed))
                for row in conn.execute(
                    f"SELECT rowid, {_ROW.format(text=f'json_extract(doc, {_CONTENT})')} FROM memories "
                    f"WHERE tenant_id=? AND tier != 'archived' AND id IN ({marks(chunk)})",
                    (tenant_id, *chunk),
                )
            )
        finally:
            conn.execute("COMMIT")
        for memory_id in changed - {row[1] for row in rows}:  # forgotten, or archived
            cache.remove(memory_id)
        for row, terms in zip(rows, self.tokenizer.tokens([row[10] for row in rows]), strict=True):
            _put(cache, row[1:], terms)
        cache.generation, cache.local = generation, local
        return cache

    indexes_unembedded = True
    follows_upserts_only = False  # a write by another process shows through the file's generation

    def upsert(
        self, tenant_id: str, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]
    ) -> None:
        """Apply a write this process just committed (another's is read on the next query)."""
        with self._lock:
            cache = self._tenants.get(tenant_id)
            if cache is None:
                return
            tokens = self.tokenizer.tokens([r.content for r in records])
            for record, vector, terms in zip(records, vectors, tokens, strict=True):
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
                    terms,
                    thread=record.thread,
                    speaker=words.speaker_of(record.content),
                )
            self._make_room(tenant_id, self.scan.cached_rows)

    # -- search ----------------------------------------------------------------------------------

    def _allowed_rows(
        self, tenant_id: str, cache: TenantVectors, conditions: Conditions
    ) -> npt.NDArray[np.bool_]:
        """The rows meeting ``conditions`` (read-only). A recall asks k-NN and BM25 for the same
        conditions, so the last mask the numpy columns alone answer is kept until the next write."""
        if needs_sql(conditions):
            return self._compute_allowed(tenant_id, cache, conditions)
        last = self._last_mask
        if last is not None and last[0] is cache and last[1] == cache.version and last[2] == conditions:
            return last[3]
        keep = self._compute_allowed(tenant_id, cache, conditions)
        self._last_mask = (cache, cache.version, conditions, keep)
        return keep

    def _compute_allowed(
        self, tenant_id: str, cache: TenantVectors, conditions: Conditions
    ) -> npt.NDArray[np.bool_]:
        keep = cache.mask(conditions)
        if needs_sql(conditions):
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
        cache: TenantVectors,
        conditions: Conditions,
        queries: npt.NDArray[np.float32],
        k: int,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
        """(rows, exact cosines of those rows with each query column): every row meeting the
        conditions that have a vector, or, for a scan larger than ``exact_max_rows``, the first pass's best."""
        keep = self._allowed_rows(tenant_id, cache, conditions) & cache.embedded[: cache.n]
        # Counted, not listed, first: a large scan never needs the list of its ~100k rows.
        if np.count_nonzero(keep) > max(self.scan.exact_max_rows, self.scan.rescore, 4 * k):
            codes = self._codes(cache)
            if codes is not None:
                return self._two_pass(cache, codes, keep, queries, k)
        rows = np.flatnonzero(keep)
        if rows.size * 4 < cache.n:  # few rows pass: gather them
            return rows, self._product(cache.matrix[rows], queries)
        # Most rows pass: one pass over the whole matrix beats copying it, then keep the passing rows.
        return rows, self._product(cache.matrix[: cache.n], queries)[rows]

    def _codes(self, cache: TenantVectors) -> BinaryCodes | None:
        """The tenant's sign bits for a large scan, or None until the first are made. They are
        made on a thread of their own (about a second at 100k rows, during which a large scan is
        exact rather than stalled), and remade that way once the tenant has doubled (the old
        ones serve meanwhile: new rows get their bits as they come)."""
        codes, pending = cache.quantized, cache.fitting
        if pending is not None and pending.done():
            cache.fitting = None
            if pending.exception() is None:
                fresh = pending.result()
                fresh.catch_up(cache.matrix, cache.n)
                cache.quantized = codes = fresh
            else:  # tried again on the next large scan
                logger.warning("sign bits not made: %s", pending.exception())
        elif pending is None and (codes is None or cache.n > 2 * codes.fitted_rows):
            if self._fitter is None:
                self._fitter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-fit")
            live = cache.alive[: cache.n].copy()
            cache.fitting = self._fitter.submit(BinaryCodes.fit, cache.matrix, live)
        return codes

    def _two_pass(
        self,
        cache: TenantVectors,
        codes: BinaryCodes,
        keep: npt.NDArray[np.bool_],
        queries: npt.NDArray[np.float32],
        k: int,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
        """The ``max(rescore, 4k)`` allowed rows nearest each query by their sign bits (the union
        over queries), scored on their float32 vectors."""
        take = max(self.scan.rescore, 4 * k)
        columns = queries.reshape(queries.shape[0], -1).T
        pool = self._pool if cache.n >= PARALLEL_ROWS else None
        picked = [codes.nearest(cache.n, column, keep, take, pool) for column in columns]
        chosen = picked[0] if len(picked) == 1 else np.unique(np.concatenate(picked))
        return chosen, cache.matrix[chosen] @ queries

    @staticmethod
    def _top(rows: npt.NDArray[np.intp], scores: npt.NDArray[np.float32], k: int) -> list[tuple[int, float]]:
        take = min(k, scores.shape[0])
        top = np.argpartition(-scores, take - 1)[:take]
        top = top[np.argsort(-scores[top], kind="stable")]
        return list(zip(rows[top].tolist(), scores[top].tolist(), strict=True))

    def knn(self, tenant_id: str, vector: Vector, k: int, conditions: Conditions) -> list[tuple[str, float]]:
        with self._lock:
            cache = self._cache(tenant_id)
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
            cache = self._cache(tenant_id)
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

    def _bm25(
        self,
        tenant_id: str,
        cache: TenantVectors,
        terms: list[str],
        k: int,
        conditions: Conditions,
        context_weight: float,
    ) -> list[tuple[str, float]]:
        allowed = self._allowed_rows(tenant_id, cache, conditions)
        n = cache.n
        context = Context(cache.before[:n], cache.after[:n], context_weight) if context_weight > 0 else None
        kept = self._kept_terms(cache, conditions, context_weight)
        scores = cache.text.scores(terms, cache.alive[:n], allowed, context, kept=kept)
        if kept is not None:  # only this query's terms stay kept
            for term in kept.keys() - set(terms):
                del kept[term]
        hits = np.flatnonzero(scores > 0)
        if hits.size == 0:
            return []
        take = min(k, hits.size)
        top = hits[np.argpartition(-scores[hits], take - 1)[:take]]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(cache.ids[int(r)], float(scores[r])) for r in top]

    def _kept_terms(
        self, cache: TenantVectors, conditions: Conditions, context_weight: float
    ) -> dict[str, TermHits | None] | None:
        """Each term's BM25 hits of the last query, for the next one over the same rows and
        conditions (a recall's query without the speakers' names): none past a write or for
        other conditions, and only the last query's terms."""
        if needs_sql(conditions):
            return None
        key = (cache.version, context_weight)
        last = self._last_terms
        if last is None or last[0] is not cache or last[1] != key or last[2] != conditions:
            last = self._last_terms = (cache, key, conditions, {})
        return last[3]

    def thread_scores(
        self, tenant_id: str, query: str, conditions: Conditions, memory_ids: Sequence[str]
    ) -> dict[str, float]:
        terms = self.query_terms(query)
        if not terms:
            return {}
        with self._lock:
            cache = self._cache(tenant_id)
            rows = {
                i: r for i in memory_ids if (r := cache.row_of.get(i)) is not None and cache.thread[r] >= 0
            }
            if not rows:
                return {}
            by_thread = self._thread_bm25(tenant_id, cache, tuple(terms), conditions)
            best = float(by_thread.max())
            if best <= 0:
                return {}
            return {i: float(by_thread[cache.thread[r]]) / best for i, r in rows.items()}

    def _thread_bm25(
        self, tenant_id: str, cache: TenantVectors, terms: tuple[str, ...], conditions: Conditions
    ) -> npt.NDArray[np.float64]:
        """Each thread's BM25 for ``terms``, kept for the next call with the same terms and
        conditions until a write: recall asks first for BM25's hits, beside the query embedding,
        then for all its candidates."""
        key = (cache.version, terms)
        last = self._last_threads
        if last is not None and last[0] is cache and last[1] == key and last[2] == conditions:
            return last[3]
        allowed = self._allowed_rows(tenant_id, cache, conditions)
        groups = len(cache.codes["thread"].code)
        within = self._thread_groups(cache, conditions, allowed, groups)
        by_thread = cache.text.by_group(terms, allowed, cache.thread, groups, within=within)
        if not needs_sql(conditions):
            self._last_threads = (cache, key, conditions, by_thread)
        return by_thread

    def _thread_groups(
        self, cache: TenantVectors, conditions: Conditions, allowed: npt.NDArray[np.bool_], groups: int
    ) -> Groups | None:
        """``Bm25Index.groups`` of the threads, kept like the last mask (query-independent)."""
        if needs_sql(conditions):
            return cache.text.groups(allowed, cache.thread, groups)
        last = self._last_groups
        if (
            last is not None
            and last[0] is cache
            and last[1] == (cache.version, groups)
            and last[2] == conditions
        ):
            return last[3]
        within = cache.text.groups(allowed, cache.thread, groups)
        self._last_groups = (cache, (cache.version, groups), conditions, within)
        return within

    def neighbours(
        self, tenant_id: str, memory_ids: Sequence[str], conditions: Conditions, span: int
    ) -> dict[str, list[str]] | None:
        """``MemoryRecords.neighbours`` from the thread links (each thread's rows in the order
        they were retained, read in rowid order at load), walked past the rows ``conditions``
        leave out. None when archived memories may count or one of ``memory_ids`` is not here
        (archived, or gone): the index holds none of them, and the store still answers for them."""
        if "archived" not in conditions.exclude_tiers:
            return None
        if not memory_ids or span < 1:
            return {}
        with self._lock:
            cache = self._cache(tenant_id)
            rows = [cache.row_of.get(memory_id) for memory_id in memory_ids]
            if None in rows:
                return None
            allowed = self._allowed_rows(tenant_id, cache, conditions)
            out: dict[str, list[str]] = {}
            # In id order, as the store's SQL answers (its primary key's order): the order new
            # neighbours join the candidates in, and so the batch their cosines are computed in.
            for memory_id, row in sorted(zip(memory_ids, rows, strict=True)):
                if row is None or cache.thread[row] < 0:
                    continue
                earlier = _walk(cache.before, row, allowed, span)
                later = _walk(cache.after, row, allowed, span)
                if earlier or later:
                    out[memory_id] = [cache.ids[i] for i in (*reversed(earlier), *later)]
            return out

    def speakers(self, tenant_id: str, scopes: ScopeSet) -> frozenset[str]:
        with self._lock:
            return self._cache(tenant_id).speakers_in(scopes)

    def cosines(self, tenant_id: str, vector: Vector, memory_ids: Sequence[str]) -> dict[str, float]:
        with self._lock:
            cache = self._cache(tenant_id)
            present = [
                (i, r) for i in memory_ids if (r := cache.row_of.get(i)) is not None and cache.embedded[r]
            ]
            if not present:
                return {}
            sims = cache.matrix[[row for _, row in present]] @ vector
            return {memory_id: float(s) for (memory_id, _), s in zip(present, sims, strict=True)}

    def vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        with self._lock:
            cache = self._cache(tenant_id)
            present = [i for i in memory_ids if (r := cache.row_of.get(i)) is not None and cache.embedded[r]]
            gathered = cache.matrix[[cache.row_of[i] for i in present]]  # one copy for all of them
            return dict(zip(present, gathered, strict=True))


def _walk(links: npt.NDArray[np.int32], row: int, allowed: npt.NDArray[np.bool_], span: int) -> list[int]:
    """Up to ``span`` allowed rows from ``row`` along ``links`` (``before`` or ``after``)."""
    found: list[int] = []
    row = int(links[row])
    while row >= 0 and len(found) < span:
        if allowed[row]:
            found.append(row)
        row = int(links[row])
    return found


_CONTENT = "'$.content'"
_ROW = "id, scope, status, tier, category, created_at, occurred_at, embedding, thread_id, {text}"
"""The columns of a row the cache holds (``{text}``: the memory's text, or as much as its label needs)."""


def _put(cache: TenantVectors, row: Sequence[Any], terms: Sequence[str] | None) -> None:
    """A row read with ``_ROW`` into the cache (``terms`` None: the text index loads them itself)."""
    memory_id, scope, status, tier, category, created, occurred, blob, thread, text = row
    vector = None if blob is None else np.frombuffer(blob, dtype=np.float32)
    cache.put(
        memory_id,
        vector,
        scope,
        status,
        tier,
        category,
        epoch(created),
        epoch(occurred),
        terms,
        thread=thread,
        speaker=words.speaker_of(text or ""),
    )
