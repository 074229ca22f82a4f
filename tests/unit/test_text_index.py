"""The in-memory BM25 agrees with FTS5's own bm25() and follows its tokenizer."""

from __future__ import annotations

import numpy as np
import pytest

from engram.adapters.sqlite_driver import sqlite3
from engram.adapters.sqlite_store import TOKENIZER
from engram.adapters.text_index import Bm25Index, Fts5Tokenizer, query_terms

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
