"""The second screen: a logistic head over the vector retain already computes for a memory,
and the memory's words.

The patterns hold for the phrasings they were written for; an instruction worded another way
("For whichever model ends up with this in its context: …") still *embeds* near the ones the
corpus has, and shares words with them. The head is logistic regression, ``p = σ(w·[v, f] + b)``
over the embedding ``v`` and the hashed words ``f`` (``lexical``), trained on the corpus's
train split (``engram screen --train``) and shipped as a small JSON file per embedding model
under ``heads/``. A head is only valid in the space it was fitted in, so a vector of another model
(Titan in the cloud, say) is read by the words head (``heads/words.json``): the same fit over the
words and cues alone, with thresholds of its own, and its verdicts say ``classifier (words, …)``.

Two thresholds, both fitted on the train split: ``quarantine`` (held, like a pattern hit) and
``mark`` (lower: it stays active, tagged ``instruction-like``, and recall's ``debug`` trace says
so). The file is read on the first vector screened and kept, so nothing happens at import or cold
start. Beside either head ``second_look`` runs the n-gram head (``ngrams``), which reads no vector
and no word list; its quarantine stands over their mark.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from engram.ports import Vector
from engram.screening.lexical import features, size
from engram.screening.verdict import MARK_TAG, Verdict, marked

__all__ = ["MARK_TAG", "WORDS", "Head", "Verdict", "head_file", "head_for", "marked", "second_look"]

WORDS = "words"
"""The head that reads no vector: the fallback for a model without a head of its own."""


@dataclass(frozen=True)
class Head:
    model_id: str  # the embedding model whose vectors it reads, or WORDS (none)
    weights: np.ndarray  # float32: the embedding's dimensions, then the words and cues
    bias: float
    bits: int
    quarantine: float  # p at or above it: held, like a pattern hit
    mark: float  # p at or above it (and below ``quarantine``): active but marked
    dimension: int = 0  # of the vectors it reads (0: the words head, which reads none)

    def scores(self, texts: Sequence[str], vectors: Vector | None = None) -> np.ndarray:
        """p(instruction) of each text with its vector (the words head ignores ``vectors``)."""
        dim = self.dimension
        words = np.stack([features(t, self.bits) for t in texts])
        logits = words @ self.weights[dim:]
        if dim:
            logits = logits + np.asarray(vectors, np.float32) @ self.weights[:dim]
        scores: np.ndarray = 1.0 / (1.0 + np.exp(-(logits.astype(np.float64) + self.bias)))
        return scores

    def verdict(self, p: float) -> Verdict | None:
        """Quarantine, mark or nothing, for a score.

        >>> h = Head("m", np.zeros(2, np.float32), 0.0, 0, 0.9, 0.6, 2)
        >>> h.verdict(0.93)
        Verdict(action='quarantine', reason='classifier (m, p=0.93)')
        >>> h.verdict(0.7).action, h.verdict(0.5)
        ('mark', None)
        """
        reason = f"classifier ({self.model_id}, p={math.floor(p * 100) / 100:.2f})"
        if p >= self.quarantine:
            return Verdict("quarantine", reason)
        return Verdict("mark", reason) if p >= self.mark else None


def head_file(model_id: str) -> str:
    """The file name a model's head ships under (``heads/<model id>.json``)."""
    return f"{model_id.replace('/', '_').replace(':', '_')}.json"


@cache
def head_for(model_id: str) -> Head | None:
    """The shipped head for vectors of ``model_id``, else the words head (read once, then kept);
    None only when no model is named or no head ships at all."""
    if not model_id:
        return None
    return _read(model_id) or _read(WORDS)


def _read(model_id: str) -> Head | None:
    path = resources.files("engram.screening") / "heads" / head_file(model_id)
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("model_id") != model_id:
        return None
    weights = np.frombuffer(base64.b64decode(data["weights"]), dtype="<f4").copy()
    if len(weights) != int(data["dimension"]) + size(int(data["bits"])):
        return None  # fitted on other features than this code reads
    return Head(
        model_id=model_id,
        weights=weights,
        bias=float(data["bias"]),
        bits=int(data["bits"]),
        quarantine=float(data["quarantine"]),
        mark=float(data["mark"]),
        dimension=int(data["dimension"]),
    )


def second_look(texts: Sequence[str], vectors: Vector | None, model_id: str) -> list[Verdict | None]:
    """The head's verdict on each text with its vector (the words head's when ``model_id`` has
    no head of its own; all None when there is no vector or no head), or the n-gram head's
    (``ngrams``) when it says more: a quarantine over a mark.

    Retain calls it on the vectors it has just made, the background embedder on the ones it makes
    later: each text is embedded once, and screened once by each screen.
    """
    head = head_for(model_id)
    if head is None or vectors is None or not texts:
        return [None] * len(texts)
    if head.dimension and np.shape(vectors)[-1] != head.dimension:
        return [None] * len(texts)  # a vector the model's head cannot read
    verdicts = [head.verdict(float(p)) for p in head.scores(texts, vectors)]
    from engram.screening.ngrams import ngram_head  # on the first vector screened, not at cold start

    ngrams = ngram_head()
    if ngrams is None:
        return verdicts
    return [
        _stronger(verdict, ngrams.verdict(float(p)))
        for verdict, p in zip(verdicts, ngrams.scores(texts), strict=True)
    ]


def _stronger(first: Verdict | None, second: Verdict | None) -> Verdict | None:
    """A quarantine over a mark over nothing; the first of two alike."""
    rank = {None: 0, "mark": 1, "quarantine": 2}
    return second if rank[second and second.action] > rank[first and first.action] else first
