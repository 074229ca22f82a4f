"""Fusion of the vector and BM25 channels into one relevance score in [0, 1] (DESIGN §6.2)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def calibrate_cosine(cosine: float, *, floor: float, scale: float) -> float:
    """Map a cosine onto [0, 1): ``1 - exp(-max(0, cos - floor) / scale)``.

    MiniLM puts unrelated sentences below ~0.15 and clear paraphrases at 0.3–0.9, so a raw
    cosine is a poor absolute score. This saturating stretch keeps the order (strictly
    increasing above ``floor``) while lifting a paraphrase at 0.32 to ~0.84 (scale 0.12), so that
    ``min_score`` means the same for every query.

    >>> round(calibrate_cosine(0.25, floor=0.10, scale=0.15), 4)
    0.6321
    >>> calibrate_cosine(0.05, floor=0.10, scale=0.15)
    0.0
    """
    if scale <= 0:
        raise ValueError("scale must be positive")
    return 1.0 - math.exp(-max(0.0, cosine - floor) / scale)


def normalise_bm25(scores: Mapping[str, float]) -> dict[str, float]:
    """BM25 scores over the pool divided by the pool's best: the best hit is 1, no hit is 0.

    >>> normalise_bm25({"a": 4.0, "b": 1.0})
    {'a': 1.0, 'b': 0.25}
    """
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return {key: 0.0 for key in scores}
    return {key: max(0.0, value) / best for key, value in scores.items()}


def weighted(vector_score: float, bm25_score: float, *, w_vector: float, w_bm25: float) -> float:
    """Linear fusion ``(wv·v + wb·b) / (wv + wb)``; with the defaults 0.7·v + 0.3·b.

    >>> round(weighted(0.5, 1.0, w_vector=0.7, w_bm25=0.3), 4)
    0.65
    """
    total = w_vector + w_bm25
    if total <= 0:
        raise ValueError("weights must not both be zero")
    return (w_vector * vector_score + w_bm25 * bm25_score) / total


def rrf(ranks: Sequence[int | None], weights: Sequence[float], *, k: int = 60) -> float:
    """Reciprocal rank fusion ``Σ wᶜ/(k + rankᶜ)`` over channels, divided by its maximum
    ``Σ wᶜ/(k + 1)`` so that first place in every channel scores 1. Ranks are 1-based;
    ``None`` means the channel did not return the item.

    >>> round(rrf([1, None], [1.0, 1.0], k=60), 4)
    0.5
    """
    if len(ranks) != len(weights):
        raise ValueError("one weight per channel")
    best = sum(w / (k + 1) for w in weights)
    if best <= 0:
        raise ValueError("weights must not all be zero")
    got = sum(w / (k + r) for r, w in zip(ranks, weights, strict=True) if r is not None)
    return got / best


def ranks_of(scores: Mapping[str, float]) -> dict[str, int]:
    """1-based ranks by descending score (ties broken by key for determinism)."""
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return {key: rank for rank, (key, _) in enumerate(ordered, start=1)}
