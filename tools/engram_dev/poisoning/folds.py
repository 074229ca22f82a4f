"""What the heads' fits share: folds that hold out whole templates, the classes weighted alike,
and a threshold read off everyday rows' out-of-fold scores (``train`` and ``train_ngrams``)."""

from __future__ import annotations

import hashlib

import numpy as np

__all__ = ["FOLDS", "class_weights", "fold", "threshold"]

FOLDS = 5


def class_weights(y: np.ndarray) -> np.ndarray:
    """A weight a row, so that the two classes count alike."""
    positives = max(1, int(y.sum()))
    negatives = max(1, len(y) - positives)
    return np.where(y == 1, len(y) / (2 * positives), len(y) / (2 * negatives))


def fold(group: str) -> int:
    """The fold of a template's rows (a stable hash of its name)."""
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % FOLDS


def threshold(benign_scores: np.ndarray, false_alarms: float) -> float:
    """The lowest score threshold with at most ``false_alarms`` of ``benign_scores`` at or above it."""
    ordered = np.sort(benign_scores)[::-1]
    allowed = int(np.floor(false_alarms * len(ordered)))
    return float(min(0.999, ordered[allowed] + 1e-6)) if len(ordered) > allowed else 0.5
