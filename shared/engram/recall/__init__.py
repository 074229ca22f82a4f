"""Recall (DESIGN §6): the memories that matter for a query, best first, with a trace on request.

Stages: embed the query (BM25 and its hits' records are fetched on another thread meanwhile);
candidates from k-NN and BM25 (conditions applied before ranking);
the cosine of every candidate in the union; fusion (``weighted`` or ``rrf``) to [0, 1]; optional
rerank blended 0.6/0.4; a bounded lifecycle prior (frequency of access never enters it) and
length normalisation; ``min_score``; MMR; access tracking of the best few. Every stage's time is measured; every memory's per-stage scores go in
``trace`` with ``debug``.

The stages, over one ``RecallState`` (each testable on a hand-built state): ``gather``
(candidates, cosines, records) → ``fuse`` → ``context`` (bonuses, thread neighbours) →
``rerank`` (when asked) → ``shape`` (lifecycle prior, length, ``min_score``) → ``diversify``
(MMR) → ``present``. The trace is ``NO_TRACE`` unless ``debug``: off, nothing is built for it.
"""

from engram.recall.gather import candidate_pool
from engram.recall.metered import run
from engram.recall.present import CONTEXT_HEADER, context_block
from engram.recall.service import recall

__all__ = ["CONTEXT_HEADER", "candidate_pool", "context_block", "recall", "run"]
