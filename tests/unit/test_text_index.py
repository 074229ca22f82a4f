"""The in-memory BM25 agrees with FTS5's own bm25() and follows its tokenizer."""

from __future__ import annotations

import numpy as np
import pytest

from engram.adapters.sqlite.schema import TOKENIZER
from engram.adapters.sqlite_driver import sqlite3
from engram.adapters.text_index import Bm25Index, Context, Fts5Tokenizer, TermHits, query_terms

CORPUS = [
    "Deploys on the green cluster fail with error E4711 after the cache flush",
    "The cache was flushed twice on Friday",
    "Running errors are logged to the billing dashboard",
    "I prefer dark mode in every editor",
    "Errors, errors, errors: the deploy failed again",
]


def _fts5_scores(query: str) -> dict[int, float]:
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(content, tokenize='{TOKENIZER}')")
    conn.executemany("INSERT INTO t(rowid, content) VALUES(?, ?)", enumerate(CORPUS))
    expression = " OR ".join(f'"{term}"' for term in query_terms(query, Fts5Tokenizer()))
    rows = conn.execute("SELECT rowid, bm25(t) FROM t WHERE t MATCH ?", (expression,)).fetchall()
    return {rowid: -score for rowid, score in rows}


def _ours(query: str) -> dict[int, float]:
    tokenizer = Fts5Tokenizer()
    index = Bm25Index()
    for row, terms in enumerate(tokenizer.tokens(CORPUS)):
        index.add(row, terms)
    scores = index.scores(query_terms(query, tokenizer), np.ones(len(CORPUS), dtype=bool))
    return {row: float(s) for row, s in enumerate(scores) if s > 0}


@pytest.mark.parametrize(
    "query", ["error E4711", "cache flush", "deploy errors", "dark editor mode", "billing"]
)
def test_scores_equal_fts5_bm25_for_the_same_corpus(query: str) -> None:
    # Given the same five documents in FTS5 and in the in-memory index
    # When both score the query
    expected, got = _fts5_scores(query), _ours(query)
    # Then they match the same documents with the same scores
    assert got.keys() == expected.keys()
    for row, score in expected.items():
        assert got[row] == pytest.approx(score, rel=1e-5)


def test_the_tokenizer_stems_and_folds_like_fts5() -> None:
    # Given texts with inflections, case and accents
    # When they are tokenized
    tokens = Fts5Tokenizer().tokens(["Running Cafés", "ran errors"])
    # Then they come out as FTS5's porter/unicode61 terms
    assert tokens == [["run", "cafe"], ["ran", "error"]]


def test_query_terms_drop_stopwords_and_duplicates() -> None:
    # Given a question full of function words and a repeated word
    # When its terms are taken
    terms = query_terms("What is the error, the ERROR E4711?", Fts5Tokenizer())
    # Then only content words remain, once each
    assert terms == ["error", "e4711"]


def test_a_dead_row_no_longer_scores_or_counts() -> None:
    # Given two documents sharing a word, the first of them removed
    tokenizer = Fts5Tokenizer()
    index = Bm25Index()
    for row, terms in enumerate(tokenizer.tokens(["alpha beta", "alpha gamma"])):
        index.add(row, terms)
    index.remove(0)
    alive = np.array([False, True])
    # When "alpha" is scored
    scores = index.scores(["alpha"], alive)
    # Then only the live document scores, and the statistics count one document
    assert scores[0] == 0 and scores[1] > 0
    assert index.docs == 1


def _chain(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows 0..n-1 as one thread in order: the row before and after each (-1: none)."""
    before = np.arange(-1, n - 1, dtype=np.int32)
    after = np.arange(1, n + 1, dtype=np.int32)
    after[-1] = -1
    return before, after


def _index() -> tuple[Bm25Index, list[str]]:
    tokenizer = Fts5Tokenizer()
    index = Bm25Index()
    for row, terms in enumerate(tokenizer.tokens(CORPUS)):
        index.add(row, terms)
    return index, tokenizer.tokens(["billing dashboard"])[0]


def test_with_context_weight_zero_bm25f_is_plain_bm25() -> None:
    # Given the corpus as one thread
    index, terms = _index()
    alive = np.ones(len(CORPUS), dtype=bool)
    before, after = _chain(len(CORPUS))

    # When scored with a context of weight 0 and without one
    plain = index.scores(terms, alive)
    zero = index.scores(terms, alive, context=Context(before, after, 0.0))

    # Then the scores are the same
    assert np.allclose(plain, zero)


def test_a_turn_next_to_the_one_with_the_words_scores_at_a_lower_field_weight() -> None:
    # Given the corpus as one thread, and a query whose words are only in row 2
    index, terms = _index()
    alive = np.ones(len(CORPUS), dtype=bool)
    before, after = _chain(len(CORPUS))

    # When scored with the neighbours' text at weights 0.5 and 1
    half = index.scores(terms, alive, context=Context(before, after, 0.5))
    full = index.scores(terms, alive, context=Context(before, after, 1.0))
    plain = index.scores(terms, alive)

    # Then rows 1 and 3 (next to row 2) now score, below row 2, and more at the higher weight;
    # row 2's own score is unchanged (its neighbours do not hold the words); far rows stay 0
    assert plain[1] == plain[3] == 0 and half[1] > 0 and half[3] > 0
    assert half[1] < half[2] and half[1] < full[1]
    assert half[2] == pytest.approx(plain[2])
    assert half[0] == half[4] == 0


def test_a_thread_is_scored_as_one_document_of_its_turns() -> None:
    # Given rows 0-1 in thread 0, rows 2-3 in thread 1 and row 4 in none
    index, terms = _index()
    group = np.array([0, 0, 1, 1, -1], dtype=np.int32)

    # When the threads are scored for words that only row 2 holds
    scores = index.by_group(terms, np.ones(len(CORPUS), dtype=bool), group, 2)

    # Then thread 1 scores and thread 0 does not
    assert scores[1] > 0 and scores[0] == 0


@pytest.mark.parametrize("weight", [0.0, 0.5])
def test_a_second_query_scored_with_the_first_ones_term_hits_scores_the_same(weight: float) -> None:
    # Given the corpus as one thread with row 1 out of the allowed rows, and a query's terms
    # scored once with their hits kept
    index, _ = _index()
    tokenizer = Fts5Tokenizer()
    alive, allowed = np.ones(len(CORPUS), dtype=bool), np.ones(len(CORPUS), dtype=bool)
    allowed[1] = False
    context = Context(*_chain(len(CORPUS)), weight)
    first = query_terms("errors in the cache of the billing dashboard", tokenizer)
    kept: dict[str, TermHits | None] = {}
    index.scores(first, alive, allowed, context, kept=kept)

    # When a query sharing some of its words, and one sharing none, are scored with them kept
    for query in ("cache errors", "dark mode editor"):
        terms = query_terms(query, tokenizer)
        again = index.scores(terms, alive, allowed, context, kept=kept)

        # Then the scores are those of the query scored afresh, to the last bit
        assert np.array_equal(again, index.scores(terms, alive, allowed, context))
    assert set(kept) >= set(first)
