"""Result shaping after fusion: length normalisation and MMR diversity (DESIGN §6.4)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt


def length_norm(chars: int, *, anchor: int = 500, strength: float = 0.5, floor: float = 0.5) -> float:
    """``max(floor, 1 / (1 + strength·log2(max(chars/anchor, 1))))``: long texts that match
    everything a little are pushed down; anything up to ``anchor`` characters is untouched.

    >>> length_norm(1000)
    0.6666666666666666
    """
    ratio = max(chars / anchor, 1.0)
    return max(floor, 1.0 / (1.0 + strength * math.log2(ratio)))


def brevity(words: int, *, anchor: int, strength: float = 1.0, floor: float = 0.3) -> float:
    """``max(floor, min(1, words/anchor)^strength)``: a memory with fewer than ``anchor``
    informative words ("Daniel: A hint?", "haha, of course") is pushed down, since a short text
    sits close to every query about its speaker while saying little; ``anchor`` 0 turns it off.

    >>> brevity(1, anchor=4, strength=0.5)
    0.5
    >>> brevity(9, anchor=4)
    1.0
    """
    if anchor <= 0:
        return 1.0
    return max(floor, float(min(1.0, words / anchor) ** strength))


def mmr(
    ids: Sequence[str],
    scores: Mapping[str, float],
    vectors: npt.NDArray[np.float32],
    *,
    k: int,
    lam: float = 0.7,
    threshold: float = 0.0,
) -> list[str]:
    """Maximal marginal relevance (Carbonell & Goldstein 1998): greedily pick
    ``argmax λ·score(d) - (1-λ)·max_{s∈S} cos(d, s)`` until ``k`` are chosen.

    ``vectors`` holds one unit vector per id, in the order of ``ids``. λ = 1 is plain ranking.
    With ``threshold`` t > 0 only similarity above t counts, rescaled to [0, 1]
    (``max(0, cos - t) / (1 - t)``): near-duplicates are spread out, memories that merely share
    a topic (several facts about one person) are not.

    >>> v = np.array([[1, 0], [1, 0], [0, 1]], dtype=np.float32)
    >>> mmr(["a", "b", "c"], {"a": 0.9, "b": 0.85, "c": 0.6}, v, k=2, lam=0.5)
    ['a', 'c']
    """
    if not ids or k <= 0:
        return []
    relevance = np.array([scores[i] for i in ids], dtype=np.float64)
    matrix = vectors.astype(np.float64)

    def similarities(pick: int) -> npt.NDArray[np.float64]:
        # Only the rows of what is picked: k of them, not the whole n x n matrix (measured at
        # 100k memories, limit 10: MMR 0.44 -> 0.29 ms, the same answers on 320 of 320 queries).
        sims: npt.NDArray[np.float64] = matrix @ matrix[pick]
        return np.maximum(0.0, sims - threshold) / (1.0 - threshold) if threshold > 0 else sims

    # Nothing chosen yet: no penalty, the best score first. Then each candidate's greatest
    # similarity to the chosen ones (finite: the vectors are).
    weighted = lam * relevance
    pick = int(np.argmax(weighted))
    chosen = [pick]
    max_sim = similarities(pick)
    for _ in range(1, min(k, len(ids))):
        value = weighted - (1.0 - lam) * max_sim
        value[chosen] = -np.inf
        pick = int(np.argmax(value))
        chosen.append(pick)
        np.maximum(max_sim, similarities(pick), out=max_sim)
    return [ids[i] for i in chosen]
