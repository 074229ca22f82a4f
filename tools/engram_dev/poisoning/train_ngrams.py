"""Fit the n-gram head (``engram.screening.ngrams``) on the corpus's train split, reproducibly.

The rows are sparse (a few hundred of 65,536 slots each), so the fit never makes the dense matrix:
logistic regression with an L2 penalty, the classes weighted to count alike, by Newton's method
with each step solved by conjugate gradients over Hessian-vector products (two sparse products a
step; deterministic: the same corpus gives the same weights). Beside the train split it reads
technical text as everyday rows (``technical``: the docstrings and one-line strings of
``shared/``, each weighted ``TECHNICAL_WEIGHT``).
The threshold comes from out-of-fold scores over the train split, folds holding out whole
templates (``folds``): the lowest that keeps the corpus's everyday rows'
out-of-fold false alarms at or under ``QUARANTINE_FA``. The held-out and fresh splits are never
read.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from engram.screening.ngrams import NGRAMS, vectors, worded
from engram_dev.poisoning.folds import FOLDS, class_weights, fold, threshold

BITS = 16  # 65,536 slots: 128 KB of float16 weights
LOW, HIGH = 2, 5
L2 = 0.003
QUARANTINE_FA = 0.002
"""Of the train split's everyday rows, out of fold. At 0.2 % the head added no everyday false
alarm on the held-out split and no dev-set turn beside the patterns and the local model's head;
at 0.5 % it added four everyday rows and eleven turns."""
TECHNICAL_WEIGHT = 0.05
"""Of a technical row, against a corpus everyday row's. At 0.05 the head adds none of 539
paragraphs of documentation it never read (235 unweighted by them) and no dev-set turn; at 0.2
and 1, eleven turns (one text) rose over the threshold."""


class Rows(NamedTuple):
    """A sparse matrix: row, slot and value of each entry."""

    row: np.ndarray
    slot: np.ndarray
    value: np.ndarray
    rows: int
    slots: int

    def times(self, w: np.ndarray) -> np.ndarray:
        """X w."""
        return np.bincount(self.row, weights=self.value * w[self.slot], minlength=self.rows)

    def transposed_times(self, z: np.ndarray) -> np.ndarray:
        """Xᵀ z."""
        return np.bincount(self.slot, weights=self.value * z[self.row], minlength=self.slots)

    def only(self, keep: np.ndarray) -> Rows:
        """The rows where ``keep`` is true, renumbered."""
        chosen = keep[self.row]
        renumbered = np.cumsum(keep) - 1
        return Rows(
            renumbered[self.row[chosen]],
            self.slot[chosen],
            self.value[chosen],
            int(keep.sum()),
            self.slots,
        )


def matrix(texts: Sequence[str], bits: int = BITS, low: int = LOW, high: int = HIGH) -> Rows:
    parts = [vectors(text, bits, low, high) for text in texts]
    return Rows(
        np.concatenate([np.full(len(slots), i) for i, (slots, _) in enumerate(parts)]).astype(np.int64),
        np.concatenate([slots for slots, _ in parts]).astype(np.int64),
        np.concatenate([values for _, values in parts]),
        len(texts),
        1 << bits,
    )


def fit(x: Rows, y: np.ndarray, sample_weight: np.ndarray, l2: float = L2) -> tuple[np.ndarray, float]:
    """Weights and bias minimising the weighted log-loss plus ``l2``·|w|²/2 (the bias: 1e-6), by
    Newton steps solved with conjugate gradients and halved until the loss falls."""
    w, b = np.zeros(x.slots), 0.0

    def loss(w: np.ndarray, b: float) -> float:
        z = x.times(w) + b
        return float(
            (sample_weight * (np.logaddexp(0.0, z) - y * z)).sum() + 0.5 * l2 * (w @ w) + 5e-7 * b * b
        )

    current = loss(w, b)
    for _ in range(60):
        p = 1.0 / (1.0 + np.exp(-(x.times(w) + b)))
        gw = x.transposed_times(sample_weight * (p - y)) + l2 * w
        gb = float((sample_weight * (p - y)).sum()) + 1e-6 * b
        curvature = sample_weight * p * (1 - p)
        dw, db = _newton_step(x, curvature, l2, gw, gb)
        slope = float(gw @ dw + gb * db)
        step = 1.0
        while (after := loss(w + step * dw, b + step * db)) > current + 1e-4 * step * slope and step > 1e-4:
            step /= 2
        w, b = w + step * dw, b + step * db
        done = current - after < 1e-9 * max(1.0, current)
        current = after
        if done:
            break
    return w, b


def _newton_step(
    x: Rows, curvature: np.ndarray, l2: float, gw: np.ndarray, gb: float
) -> tuple[np.ndarray, float]:
    """−H⁻¹g by conjugate gradients, H = Xᵀ diag(curvature) X + l2 (and 1e-6 for the bias)."""
    dw, db = np.zeros_like(gw), 0.0
    rw, rb = -gw, -gb
    pw, pb = rw.copy(), rb
    rr = float(rw @ rw + rb * rb)
    start = np.sqrt(rr)
    for _ in range(250):
        t = curvature * (x.times(pw) + pb)
        hw, hb = x.transposed_times(t) + l2 * pw, float(t.sum()) + 1e-6 * pb
        alpha = rr / float(pw @ hw + pb * hb)
        dw, db = dw + alpha * pw, db + alpha * pb
        rw, rb = rw - alpha * hw, rb - alpha * hb
        new = float(rw @ rw + rb * rb)
        if np.sqrt(new) < 1e-3 * start * min(1.0, start):
            break
        pw, pb = rw + (new / rr) * pw, rb + (new / rr) * pb
        rr = new
    return dw, db


def scores(x: Rows, w: np.ndarray, b: float) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-(x.times(w) + b)))
    return out


def _sample_weights(y: np.ndarray, technical: np.ndarray) -> np.ndarray:
    """The classes weighted to count alike, a technical row ``TECHNICAL_WEIGHT`` of an everyday one."""
    weights = class_weights(y)
    weights[technical] *= TECHNICAL_WEIGHT
    return weights


def out_of_fold(
    x: Rows, y: np.ndarray, groups: Sequence[str], technical: np.ndarray, l2: float = L2
) -> np.ndarray:
    """Each row's score from a head fitted without its template's rows."""
    folds = np.array([fold(g) for g in groups])
    out = np.zeros(len(y))
    for k in range(FOLDS):
        test = folds == k
        w, b = fit(x.only(~test), y[~test], _sample_weights(y[~test], technical[~test]), l2)
        out[test] = scores(x.only(test), w, b)
    return out


def train(
    texts: Sequence[str], labels: Sequence[int], groups: Sequence[str], technical: Sequence[str] = ()
) -> dict[str, Any]:
    """The head file's content, fitted on the rows and on ``technical`` texts as everyday ones."""
    y = np.asarray([*labels, *[0] * len(technical)], dtype=np.float64)
    x = matrix([*texts, *technical])
    extra = np.arange(len(y)) >= len(texts)
    folds = [*groups, *(f"technical/{i % 97}" for i in range(len(technical)))]
    # scored as the head scores them: a text of too few letters gets no verdict
    oof = out_of_fold(x, y, folds, extra) * np.array([worded(t) for t in [*texts, *technical]])
    quarantine = max(0.5, threshold(oof[(y == 0) & ~extra], QUARANTINE_FA))
    w, b = fit(x, y, _sample_weights(y, extra))
    return {
        "model_id": NGRAMS,
        "bits": BITS,
        "low": LOW,
        "high": HIGH,
        "bias": round(b, 6),
        "quarantine": round(quarantine, 4),
        "mark": round(quarantine, 4),
        "trained_on": {
            "rows": len(texts),
            "attacks": int(y.sum()),
            "texts_sha256": hashlib.sha256("\n".join(texts).encode()).hexdigest(),
            "technical_rows": len(technical),
            "technical_sha256": hashlib.sha256("\n".join(technical).encode()).hexdigest(),
            "technical_weight": TECHNICAL_WEIGHT,
            "l2": L2,
            "out_of_fold_caught": round(float((oof[y == 1] >= quarantine).mean()), 4),
            "out_of_fold_technical_flagged": round(float((oof[extra] >= quarantine).mean()), 4)
            if len(technical)
            else 0.0,
        },
        # float16, little-endian, base64: one a slot.
        "weights": base64.b64encode(w.astype("<f2").tobytes()).decode("ascii"),
    }
