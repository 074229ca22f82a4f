"""BM25 over an in-memory inverted index built from each tenant's FTS5 table.

FTS5 keeps the persistent, crash-safe inverted index (written in the same transaction as the
record) and is the one tokenizer (``porter unicode61 remove_diacritics 2``): documents are read
back through ``fts5vocab`` when a tenant's cache loads, and new texts and queries are tokenized by
a scratch in-memory FTS5 table, so the tokens always match. Scoring happens here, in numpy,
because FTS5's ``ORDER BY bm25()`` scores every matching row: ~50 ms at 100k memories for a query
with a common word, against ~2 ms for the scatter-add below.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from engram.adapters.sqlite.schema import TOKENIZER
from engram.adapters.sqlite_driver import sqlite3
from engram.scoring.words import STOPWORDS

_WORD = re.compile(r"\w+", re.UNICODE)
MAX_QUERY_TERMS = 32


class Fts5Tokenizer:
    """FTS5's own tokenizer, through a scratch in-memory table (one per thread); ~40 µs a text."""

    def __init__(self) -> None:
        self._local = threading.local()

    def _conn(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            conn.execute(f"CREATE VIRTUAL TABLE scratch USING fts5(content, tokenize='{TOKENIZER}')")
            conn.execute("CREATE VIRTUAL TABLE scratch_terms USING fts5vocab(scratch, 'instance')")
            self._local.conn = conn
        return conn

    def tokens(self, texts: Sequence[str]) -> list[list[str]]:
        """The indexed terms of each text, in order (stemmed, case- and accent-folded)."""
        if not texts:
            return []
        conn = self._conn()
        conn.execute("BEGIN")
        try:
            conn.executemany("INSERT INTO scratch(rowid, content) VALUES(?, ?)", enumerate(texts, start=1))
            out: list[list[str]] = [[] for _ in texts]
            for doc, term in conn.execute("SELECT doc, term FROM scratch_terms ORDER BY doc, offset"):
                out[doc - 1].append(term)
            conn.execute("DELETE FROM scratch")
        finally:
            conn.execute("COMMIT")
        return out


def query_terms(query: str, tokenizer: Fts5Tokenizer) -> list[str]:
    """A query's content words as index terms: stopwords out, tokenized like the documents.

    >>> query_terms("What is the error E4711 about running?", Fts5Tokenizer())
    ['error', 'e4711', 'about', 'run']
    """
    words = [w for w in _WORD.findall(query.lower()) if w not in STOPWORDS][:MAX_QUERY_TERMS]
    if not words:
        return []
    return list(dict.fromkeys(tokenizer.tokens([" ".join(words)])[0]))


def fts5_idf(docs: int, df: int) -> float:
    """FTS5's idf of a term in ``df`` of ``docs`` documents: ``ln((N - df + 0.5) / (df + 0.5))``,
    and 1e-6 where that is not positive (a term in half the documents or more still counts a little).

    >>> round(fts5_idf(100, 10), 3), fts5_idf(10, 8)
    (2.154, 1e-06)
    """
    idf = math.log((docs - df + 0.5) / (df + 0.5))
    return idf if idf > 0 else 1e-6


class _Posting:
    """Rows and term frequencies of one term; appends stay in lists until the next query."""

    __slots__ = ("pending_rows", "pending_tfs", "rows", "tfs", "weights", "weights_avgdl")

    def __init__(self) -> None:
        self.rows: npt.NDArray[np.int32] = np.zeros(0, dtype=np.int32)
        self.tfs: npt.NDArray[np.float32] = np.zeros(0, dtype=np.float32)
        self.pending_rows: list[int] = []
        self.pending_tfs: list[float] = []
        self.weights: npt.NDArray[np.float32] | None = None
        self.weights_avgdl = 0.0

    def arrays(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32]]:
        if self.pending_rows:
            self.rows = np.concatenate([self.rows, np.asarray(self.pending_rows, dtype=np.int32)])
            self.tfs = np.concatenate([self.tfs, np.asarray(self.pending_tfs, dtype=np.float32)])
            self.pending_rows, self.pending_tfs = [], []
            self.weights = None
        return self.rows, self.tfs

    def saturated(
        self, doclen: npt.NDArray[np.float32], avgdl: float, k1: float, b: float
    ) -> npt.NDArray[np.float32]:
        """``tf·(k1+1) / (tf + k1·(1 - b + b·dl/avgdl))`` of every row, kept until the average
        length or the posting changes (a row's length never changes: an edit takes a new row)."""
        rows, tfs = self.arrays()
        if self.weights is None or self.weights_avgdl != avgdl:
            dl = doclen[rows]
            self.weights = (tfs * (k1 + 1) / (tfs + k1 * (1 - b + b * dl / avgdl))).astype(np.float32)
            self.weights_avgdl = avgdl
        return self.weights


class Context(NamedTuple):
    """A row's neighbours in its thread (``-1``: none), and the weight of their text in its document."""

    prev: npt.NDArray[np.int32]
    next: npt.NDArray[np.int32]
    weight: float


TermHits = tuple[npt.NDArray[Any], npt.NDArray[Any]]
"""The rows a term scores in ``Bm25Index.scores`` and its score in each."""


class Groups(NamedTuple):
    """The rows ``Bm25Index.by_group`` scores as groups, and each group's length (``Bm25Index.groups``)."""

    member: npt.NDArray[np.bool_]
    length: npt.NDArray[Any]
    docs: int
    average: float


class Bm25Index:
    """Okapi BM25 (k1 = 1.2, b = 0.75, ``fts5_idf``).

    Rows are the owner's row numbers; the owner says which rows are alive, so a removed or
    replaced document simply stops counting (its postings stay until the next full load).
    """

    k1 = 1.2
    b = 0.75

    def __init__(self) -> None:
        self.postings: dict[str, _Posting] = {}
        self.doclen: npt.NDArray[np.float32] = np.zeros(0, dtype=np.float32)
        self.total_len = 0.0
        self.docs = 0

    def grow(self, capacity: int) -> None:
        if capacity > self.doclen.shape[0]:
            grown = np.zeros(max(capacity, 2 * self.doclen.shape[0], 256), dtype=np.float32)
            grown[: self.doclen.shape[0]] = self.doclen
            self.doclen = grown

    def add(self, row: int, terms: Iterable[str]) -> None:
        counts: dict[str, int] = {}
        for term in terms:
            counts[term] = counts.get(term, 0) + 1
        for term, tf in counts.items():
            posting = self.postings.get(term)
            if posting is None:
                posting = self.postings[term] = _Posting()
            posting.pending_rows.append(row)
            posting.pending_tfs.append(float(tf))
        length = float(sum(counts.values()))
        if length == 0:
            return
        self.grow(row + 1)
        self.doclen[row] = length
        self.total_len += length
        self.docs += 1

    def remove(self, row: int) -> None:
        """Stop counting a row's length (its postings die with the owner's alive flag)."""
        if row < self.doclen.shape[0] and self.doclen[row] > 0:
            self.total_len -= float(self.doclen[row])
            self.doclen[row] = 0.0
            self.docs -= 1

    def packed(self, kept: npt.NDArray[np.intp], moved: npt.NDArray[np.int32], capacity: int) -> Bm25Index:
        """This index over the rows ``kept`` alone, renumbered (``moved[row]``: a row's new number,
        -1 for a dead one), for an owner packing its live rows: the same scores, without the dead
        rows' postings."""
        index = Bm25Index()
        index.grow(capacity)
        index.doclen[: kept.shape[0]] = self.doclen[kept]
        index.total_len, index.docs = self.total_len, self.docs
        for term, posting in self.postings.items():
            rows, tfs = posting.arrays()
            renumbered = moved[rows]
            stays = renumbered >= 0
            if stays.any():
                fresh = index.postings[term] = _Posting()
                fresh.rows, fresh.tfs = renumbered[stays], tfs[stays]
        return index

    def load(self, conn: Any, fts: str, row_of_rowid: dict[int, int]) -> None:
        """Postings for every document of an FTS5 table, read through ``fts5vocab``."""
        vocab = f"{fts}_terms"
        conn.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{vocab} USING fts5vocab(main, {fts}, 'instance')"
        )
        per_row: dict[int, list[str]] = {}
        for term, doc in conn.execute(f"SELECT term, doc FROM temp.{vocab}"):
            row = row_of_rowid.get(doc)
            if row is not None:
                per_row.setdefault(row, []).append(term)
        for row in sorted(per_row):
            self.add(row, per_row[row])
        for posting in self.postings.values():  # arrays now, not on each term's first query
            posting.arrays()

    def scores(
        self,
        terms: Sequence[str],
        alive: npt.NDArray[np.bool_],
        allowed: npt.NDArray[np.bool_] | None = None,
        context: Context | None = None,
        *,
        kept: dict[str, TermHits | None] | None = None,
    ) -> npt.NDArray[np.float64]:
        """BM25 of every row (0 where no term matches); ``alive`` has one flag per row.

        Statistics (document frequency, average length) count every live row; only the rows in
        ``allowed`` (default: the live ones) are scored, so a search within one scope of a large
        tenant touches that scope's postings alone. With ``context``, each row's document also
        holds its neighbours' text at a lower field weight (BM25F, see ``Context``). ``kept``
        holds each term's hits once scored, for another query over the same rows, conditions and
        context (a recall's second query, without the speakers' names, shares its other words).
        """
        n = alive.shape[0]
        if self.docs <= 0:
            return np.zeros(n, dtype=np.float64)
        hits = [
            found
            for term in terms
            if (found := self._term_hits(term, alive, allowed, context, kept)) is not None
        ]
        if not hits:
            return np.zeros(n, dtype=np.float64)
        hit_rows = [rows for rows, _ in hits]
        hit_scores = [score for _, score in hits]
        total = np.bincount(np.concatenate(hit_rows), weights=np.concatenate(hit_scores), minlength=n)
        return total[:n].astype(np.float64, copy=False)

    def _term_hits(
        self,
        term: str,
        alive: npt.NDArray[np.bool_],
        allowed: npt.NDArray[np.bool_] | None,
        context: Context | None,
        kept: dict[str, TermHits | None] | None,
    ) -> TermHits | None:
        """The rows one term scores and their scores (None: no live row holds it)."""
        if kept is not None and term in kept:
            return kept[term]
        found: TermHits | None = None
        posting = self.postings.get(term)
        if posting is not None:
            rows, _ = posting.arrays()
            live = alive[rows]
            df = int(np.count_nonzero(live))
            if df > 0:
                avgdl = self.total_len / self.docs
                idf = fts5_idf(self.docs, df)
                if context is not None and context.weight > 0:
                    within = allowed if allowed is not None else alive
                    around, score = self._in_context(posting, live, within, context, avgdl)
                    found = (around, idf * score)
                else:
                    keep = live if allowed is None else allowed[rows]
                    found = (rows[keep], idf * posting.saturated(self.doclen, avgdl, self.k1, self.b)[keep])
        if kept is not None:
            kept[term] = found
        return found

    def groups(
        self, allowed: npt.NDArray[np.bool_], group: npt.NDArray[np.int32], groups: int
    ) -> Groups | None:
        """The allowed rows with a group (``group`` -1: none) and each group's length, for
        ``by_group``; None when no allowed row has a group. Query-independent: an owner may keep
        it until its rows change."""
        n = allowed.shape[0]
        member = allowed & (group[:n] >= 0)
        if not member.any():
            return None
        codes = group[:n][member]
        length = np.bincount(codes, weights=self.doclen[:n][member], minlength=groups)
        present = length > 0
        return Groups(member, length, int(np.count_nonzero(present)), float(length[present].mean()))

    def by_group(
        self,
        terms: Sequence[str],
        allowed: npt.NDArray[np.bool_],
        group: npt.NDArray[np.int32],
        groups: int,
        *,
        within: Groups | None = None,
    ) -> npt.NDArray[np.float64]:
        """BM25 of each group of rows taken as one document (a thread: all its turns), over the
        allowed rows with a group (``group`` -1: none); statistics count those groups alone.
        ``within``: ``groups(allowed, group, groups)``, when the caller kept it."""
        stats = within if within is not None else self.groups(allowed, group, groups)
        if stats is None:
            return np.zeros(groups, dtype=np.float64)
        member, length, docs, average = stats
        score = np.zeros(groups, dtype=np.float64)
        for _, rows, tfs in self._found(terms):
            inside = member[rows]
            tf = np.bincount(group[rows[inside]], weights=tfs[inside], minlength=groups)
            hit = tf > 0
            df = int(np.count_nonzero(hit))
            if df == 0:
                continue
            idf = fts5_idf(docs, df)
            norm = self.k1 * (1 - self.b + self.b * length[hit] / average)
            score[hit] += idf * tf[hit] * (self.k1 + 1) / (tf[hit] + norm)
        return score

    def _found(
        self, terms: Iterable[str]
    ) -> Iterator[tuple[_Posting, npt.NDArray[np.int32], npt.NDArray[np.float32]]]:
        """(posting, rows, term frequencies) of each term that some row holds."""
        for term in terms:
            posting = self.postings.get(term)
            if posting is not None:
                yield posting, *posting.arrays()

    def _in_context(
        self,
        posting: _Posting,
        live: npt.NDArray[np.bool_],
        allowed: npt.NDArray[np.bool_],
        context: Context,
        avgdl: float,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
        """BM25F of one term (Robertson, Zaragoza & Taylor 2004) over two fields, the row's own
        text and its neighbours' (the turns before and after it): the pseudo-frequency
        ``tf/B + w·tf_ctx/B_ctx`` (B the length normalisation of each field, the context's
        average length taken as twice a document's) saturates once, ``x·(k1+1)/(k1+x)``, so a
        word in both the turn and its neighbour counts less than twice. Weight 0 is plain BM25."""
        rows, tfs = posting.arrays()
        rows, tfs = rows[live], tfs[live].astype(np.float64)
        b, k1 = self.b, self.k1
        own = tfs / (1 - b + b * self.doclen[rows] / avgdl)
        # The rows whose neighbour holds the term: the one after each occurrence and the one before.
        around = np.concatenate([context.next[rows], context.prev[rows]])
        has = around >= 0
        around, lifted = around[has], np.concatenate([tfs, tfs])[has]
        ctx_len = np.where(context.prev[around] >= 0, self.doclen[context.prev[around]], 0.0) + np.where(
            context.next[around] >= 0, self.doclen[context.next[around]], 0.0
        )
        lifted = context.weight * lifted / (1 - b + b * ctx_len / (2 * avgdl))
        targets = np.concatenate([rows, around])
        values = np.concatenate([own, lifted])
        keep = allowed[targets]
        pseudo = np.bincount(targets[keep], weights=values[keep], minlength=allowed.shape[0])
        found = np.flatnonzero(pseudo)
        x = pseudo[found]
        return found, x * (k1 + 1) / (k1 + x)
