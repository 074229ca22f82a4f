"""Fit the screening head (``engram.screening.head``) on the corpus's train split, reproducibly.

Features: the embedding of each text (by the model the head is for) and its hashed words and
cues (``engram.screening.lexical``); the words head (``heads/words.json``, the fallback for other
models' vectors) is the same fit without the embedding. Logistic regression with an L2 penalty, fitted by Newton's method (deterministic: the same
corpus and vectors give the same weights), the classes weighted to count alike. The thresholds
come from out-of-fold scores over the train split only, folds holding out whole templates: the
quarantine threshold is the lowest that keeps the everyday rows' out-of-fold false alarms at or
under ``QUARANTINE_FA`` (``WORDS_QUARANTINE_FA`` for the words head), the mark threshold the same
at ``MARK_FA``. The held-out split is never
read. ``engram screen --train`` runs it and writes ``heads/<model id>.json`` and ``heads/words.json``,
and the n-gram head's ``heads/ngrams.json`` (``train_ngrams``).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engram.screening.head import WORDS, head_file
from engram.screening.lexical import features
from engram.screening.ngrams import NGRAMS
from engram_dev.poisoning import technical, train_ngrams
from engram_dev.poisoning.folds import FOLDS, class_weights, fold, threshold

L2 = 0.03
BITS = 12  # 4,096 word slots
QUARANTINE_FA = 0.005
WORDS_QUARANTINE_FA = 0.0  # the words head, less sure without the embedding: above every everyday row
WORDS_LEAVE_OUT = frozenset({"written", "framed"})
"""Generators the words head is not fitted on: the ``written`` rows' everyday half, said like
instructions, lifted its threshold (0.985 -> 0.995, above every everyday row) and its held-out
catch fell from 91.5 to 87.3 %; the local model's head gains from them (fresh 68.8 -> 73.1 %).
The ``framed`` rows' everyday half is of the same kind (fitted with them, and a lighter penalty
on the cues, the words head's threshold rose to 0.9965 and it caught 90.3 % held-out)."""
MARK_FA = 0.03
TECHNICAL_WEIGHT = 0.05
"""Of a technical row (``technical``), against a corpus everyday row's, as ``train_ngrams`` weighs them."""
TECHNICAL_HEADS = frozenset({WORDS})
"""The vector-free heads fitted with the technical rows. Without them the words head held 165 of
583 paragraphs of our documentation and docstrings (``documentation``), with them 19, and one
dev-set turn where it held four. The local model's head held 154 and would hold 10, but fitted
with them its threshold falls (p 0.971 -> 0.956) and it holds 7 of the held-out split's 472
everyday rows; at a stricter one it loses 3 held-out attacks: not taken."""
HEADS = Path("shared/engram/screening/heads")


def fit(x: np.ndarray, y: np.ndarray, sample_weight: np.ndarray, l2: float = L2) -> tuple[np.ndarray, float]:
    """Weights and bias minimising the weighted log-loss plus ``l2``·|w|²/2, by Newton steps.

    There are more features than rows, so each step solves the rows' system, not the features'
    (Woodbury: (D + XᵀWX)⁻¹g = D⁻¹g − D⁻¹XᵀS(I + SXD⁻¹XᵀS)⁻¹SXD⁻¹g with S = √W); the bias gets
    a penalty too small to matter (1e-6), which keeps D invertible.
    """
    n, d = x.shape
    xb = np.hstack([x.astype(np.float64), np.ones((n, 1))])
    theta = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 1e-6
    scaled = xb / penalty  # X D⁻¹
    kernel = scaled @ xb.T  # X D⁻¹ Xᵀ: the same every step
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-(xb @ theta)))
        grad = xb.T @ (sample_weight * (p - y)) + penalty * theta
        s = np.sqrt(sample_weight * p * (1 - p))
        inner = np.eye(n) + (s[:, None] * kernel) * s[None, :]
        step = grad / penalty - scaled.T @ (s * np.linalg.solve(inner, s * (scaled @ grad)))
        theta -= step
        if np.abs(step).max() < 1e-7:
            break
    return theta[:-1], float(theta[-1])


def _sample_weights(y: np.ndarray, extra: np.ndarray) -> np.ndarray:
    """The corpus's classes weighted to count alike, a technical row ``TECHNICAL_WEIGHT`` of an
    everyday one (on top: counted in the balance, they would lighten the corpus's everyday rows)."""
    own = y[~extra]
    weights = np.zeros(len(y))
    weights[~extra] = class_weights(own)
    weights[extra] = TECHNICAL_WEIGHT * len(own) / (2 * max(1, len(own) - int(own.sum())))
    return weights


def out_of_fold(
    x: np.ndarray, y: np.ndarray, groups: Sequence[str], extra: np.ndarray, l2: float = L2
) -> np.ndarray:
    """Each row's score from a head fitted without its template's rows."""
    folds = np.array([fold(g) for g in groups])
    scores = np.zeros(len(y))
    for k in range(FOLDS):
        test = folds == k
        w, b = fit(x[~test], y[~test], _sample_weights(y[~test], extra[~test]), l2)
        scores[test] = 1.0 / (1.0 + np.exp(-(x[test] @ w + b)))
    return scores


def train(
    texts: Sequence[str],
    labels: Sequence[int],
    groups: Sequence[str],
    vectors: np.ndarray | None,
    model_id: str,
    quarantine_fa: float = QUARANTINE_FA,
    technical_texts: Sequence[str] = (),
    technical_vectors: np.ndarray | None = None,
) -> dict[str, Any]:
    """The head file's content for vectors of ``model_id`` (``vectors`` None: the words head),
    fitted on the rows and on ``technical_texts`` (with ``technical_vectors``) as everyday ones."""
    y = np.asarray([*labels, *[0] * len(technical_texts)], dtype=np.float64)
    extra = np.arange(len(y)) >= len(texts)
    words = np.stack([features(t, BITS) for t in [*texts, *technical_texts]])
    if vectors is None:
        x = words
    else:
        both = vectors if not len(technical_texts) else np.vstack([vectors, np.asarray(technical_vectors)])
        x = np.hstack([np.asarray(both, np.float32), words])
    folds = [*groups, *(f"technical/{i % 97}" for i in range(len(technical_texts)))]
    oof = out_of_fold(x, y, folds, extra, L2)
    everyday = (y == 0) & ~extra  # the thresholds: the corpus's everyday rows alone
    quarantine = max(0.5, threshold(oof[everyday], quarantine_fa))
    mark = min(quarantine, max(0.3, threshold(oof[everyday], MARK_FA)))
    w, b = fit(x, y, _sample_weights(y, extra), L2)
    caught = float((oof[y == 1] >= quarantine).mean())
    return {
        "model_id": model_id,
        "dimension": 0 if vectors is None else int(vectors.shape[1]),
        "bits": BITS,
        "bias": round(b, 6),
        "quarantine": round(quarantine, 4),
        "mark": round(mark, 4),
        "trained_on": {
            "rows": len(texts),
            "attacks": int(y.sum()),
            "texts_sha256": hashlib.sha256("\n".join(texts).encode()).hexdigest(),
            "l2": L2,
            "out_of_fold_caught": round(caught, 4),
            **_technical_provenance(technical_texts, oof[extra], quarantine),
        },
        # float32, little-endian, base64: the embedding's dimensions, then the word slots and cues.
        "weights": base64.b64encode(w.astype("<f4").tobytes()).decode("ascii"),
    }


def _technical_provenance(texts: Sequence[str], oof: np.ndarray, quarantine: float) -> dict[str, Any]:
    """What the head file records of the technical rows (nothing when there were none)."""
    if not len(texts):
        return {}
    return {
        "technical_rows": len(texts),
        "technical_sha256": hashlib.sha256("\n".join(texts).encode()).hexdigest(),
        "technical_weight": TECHNICAL_WEIGHT,
        "out_of_fold_technical_flagged": round(float((oof >= quarantine).mean()), 4),
    }


def run(corpus: Path, model_id: str, embed: Any, out: Path = HEADS) -> list[Path]:
    """Fit on ``corpus``'s train split with ``embed`` (texts -> unit vectors) and write the
    model's head file, the words head's (fitted without ``WORDS_LEAVE_OUT``'s rows) and the
    n-gram head's (``train_ngrams``). The words and n-gram heads read the ``technical`` snapshot
    as everyday rows too (``TECHNICAL_HEADS``)."""
    rows = [r for r in json.loads(corpus.read_text(encoding="utf-8")) if r["split"] == "train"]
    paths = []
    vectors = np.asarray(embed([r["text"] for r in rows]), dtype=np.float32)
    extra = technical.rows()
    words_rows = [r for r in rows if r["generator"] not in WORDS_LEAVE_OUT]
    heads = (
        (model_id, rows, vectors, QUARANTINE_FA),
        (WORDS, words_rows, None, WORDS_QUARANTINE_FA),
    )
    for name, chosen, vectors_or_none, fa in heads:
        texts = [r["text"] for r in chosen]
        labels, groups = [int(r["label"] == "attack") for r in chosen], [r["template"] for r in chosen]
        path = out / head_file(name)
        own = extra if name in TECHNICAL_HEADS else ()
        head = train(texts, labels, groups, vectors_or_none, name, fa, own)
        path.write_text(json.dumps(head, indent=1) + "\n", encoding="utf-8")
        paths.append(path)
    path = out / f"{NGRAMS}.json"
    texts, labels = [r["text"] for r in rows], [int(r["label"] == "attack") for r in rows]
    head = train_ngrams.train(texts, labels, [r["template"] for r in rows], extra)
    path.write_text(json.dumps(head, indent=1) + "\n", encoding="utf-8")
    return [*paths, path]
