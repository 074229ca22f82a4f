"""The second screen: a logistic head over the vector retain already computes for a memory,
and the memory's words.

The patterns hold for the phrasings they were written for; an instruction worded another way
("For whichever model ends up with this in its context: …") still *embeds* near the ones the
corpus has, and shares words with them. The head is logistic regression, ``p = σ(w·[v, f] + b)``
over the embedding ``v`` and the hashed words ``f`` (``lexical``), trained on the corpus's
train split (``engram screen --train``) and shipped as a small JSON file per embedding model
under ``heads/``. A vector of another model (Titan in the cloud, say) has no head, and the
patterns screen alone: a head is only valid in the space it was fitted in.

Two thresholds, both fitted on the train split: ``quarantine`` (held, like a pattern hit) and
``mark`` (lower: it stays active, tagged ``instruction-like``, and recall's ``debug`` trace says
so). The file is read on the first vector screened and kept, so nothing happens at import or cold
start.
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
from engram.screening.lexical import features
from engram.screening.verdict import MARK_TAG, Verdict, marked

__all__ = ["MARK_TAG", "Head", "Verdict", "head_file", "head_for", "marked", "second_look"]


@dataclass(frozen=True)
class Head:
    model_id: str  # the embedding model whose vectors it reads
    weights: np.ndarray  # float32: the embedding's dimensions, then 2**bits word slots
    bias: float
    bits: int
    quarantine: float  # p at or above it: held, like a pattern hit
    mark: float  # p at or above it (and below ``quarantine``): active but marked

    def scores(self, texts: Sequence[str], vectors: Vector) -> np.ndarray:
        """p(instruction) of each text with its vector."""
        dim = len(self.weights) - (1 << self.bits)
        words = np.stack([features(t, self.bits) for t in texts])
        logits = np.asarray(vectors, np.float32) @ self.weights[:dim] + words @ self.weights[dim:]
        scores: np.ndarray = 1.0 / (1.0 + np.exp(-(logits.astype(np.float64) + self.bias)))
        return scores

    def verdict(self, p: float) -> Verdict | None:
        """Quarantine, mark or nothing, for a score.

        >>> h = Head("m", np.zeros(2, np.float32), 0.0, 0, 0.9, 0.6)
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
    """The shipped head for vectors of ``model_id``, or None (read once, then kept)."""
    path = resources.files("engram.screening") / "heads" / head_file(model_id)
    if not model_id or not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("model_id") != model_id:
        return None
    return Head(
        model_id=model_id,
        weights=np.frombuffer(base64.b64decode(data["weights"]), dtype="<f4").copy(),
        bias=float(data["bias"]),
        bits=int(data["bits"]),
        quarantine=float(data["quarantine"]),
        mark=float(data["mark"]),
    )


def second_look(texts: Sequence[str], vectors: Vector | None, model_id: str) -> list[Verdict | None]:
    """The head's verdict on each text with its vector (all None when ``model_id`` has no head).

    Retain calls it on the vectors it has just made, the background embedder on the ones it makes
    later: each text is embedded once, and screened once by each screen.
    """
    head = head_for(model_id)
    if head is None or vectors is None or not texts:
        return [None] * len(texts)
    return [head.verdict(float(p)) for p in head.scores(texts, vectors)]
