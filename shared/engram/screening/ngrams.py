"""The third screen: a logistic head over the hashed character n-grams of a text, in any language.

The vector head reads a text through an English embedding model, and its words through word lists
in five languages. Character n-grams need neither: "Assistent", "asistente" and "assistant"
share "ssist", "忽略" is two characters, and a phrasing no template had still shares pieces with
the ones the corpus has. The head reads the same de-obfuscated reading the patterns and the words
do (``lexical.reading``: look-alike letters, leetspeak, spaced-out letters and invisible
characters undone, accents dropped), with each run of digits read as one ``0`` (the corpus's
digits are slot values, amounts and addresses, and said nothing but "this row was generated"),
padded with a space at each end; each run of ``low`` to
``high`` characters is hashed (a polynomial over its code points, then mixed) into ``2**bits``
slots, counted, ``log(1 + count)``, scaled to unit length. ``p = σ(w·x + b)``, fitted on the
corpus's train split (``engram screen --train``) and shipped as ``heads/ngrams.json``: float16
weights, read on the first text screened and kept, so nothing happens at import or cold start.

It reads no vector, so every embedding model's vectors get it beside their own head
(``head.second_look``); it quarantines at or above its own threshold and marks nothing (its
``mark`` is its ``quarantine``, unless the file says otherwise).
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from engram.screening.lexical import reading
from engram.screening.verdict import Verdict

__all__ = ["MIN_LETTERS", "NGRAMS", "NgramHead", "grams", "ngram_head", "vectors", "worded"]

NGRAMS = "ngrams"
"""The head's name in verdicts (``classifier (ngrams, p=…)``) and its file (``heads/ngrams.json``)."""

_PRIME = np.uint64(1_000_003)
_MIX = np.uint64(0x9E3779B97F4A7C15)  # 2**64 / golden ratio: spreads the polynomial's bits
_SHIFT = np.uint64(29)
_DIGITS = re.compile(r"\d+")
_LETTER = re.compile(r"[^\W\d_]")
MIN_LETTERS = 12
"""Fewer letters than this and the head says nothing: a bare link, number or word ("examples",
``http://192.168.1.5/``) is too little to tell an instruction by its pieces, and its few n-grams
weigh the more (no held-out attack caught by this head alone has fewer than 19)."""


def grams(text: str, bits: int, low: int = 2, high: int = 5) -> np.ndarray:
    """The slot (0 … 2**bits − 1) of each character n-gram of ``text``'s reading, ``low`` ≤ n ≤
    ``high``, in order of n then position (int64).

    >>> grams("Ig\u200bn0re", 8).tolist() == grams("ignore", 8).tolist()
    True
    >>> grams("call 555-0199", 8).tolist() == grams("call 0-0", 8).tolist()
    True
    >>> len(grams("ab", 8))  # " ab ": three 2-grams, two 3-grams, one 4-gram
    6
    """
    padded = f" {_DIGITS.sub('0', reading(text))} "
    points = np.frombuffer(padded.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    runs = []
    for n in range(low, min(high, len(points)) + 1):
        count = len(points) - n + 1
        hashed = np.full(count, n, dtype=np.uint64)
        for k in range(n):
            hashed = hashed * _PRIME ^ points[k : k + count]
        runs.append(hashed)
    if not runs:
        return np.zeros(0, dtype=np.int64)
    hashed = np.concatenate(runs) * _MIX
    hashed ^= hashed >> _SHIFT
    hashed = hashed * _MIX
    return (hashed >> np.uint64(64 - bits)).astype(np.int64)


def vectors(text: str, bits: int, low: int = 2, high: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """The text's n-gram vector, sparse: the slots it has (ascending) and their values,
    ``log(1 + count)`` scaled to unit length.

    >>> slots, values = vectors("ignore", 8)
    >>> round(float(values @ values), 6)
    1.0
    """
    slots, counts = np.unique(grams(text, bits, low, high), return_counts=True)
    values = np.log1p(counts)
    norm = float(np.sqrt(values @ values))
    return slots, values / norm if norm else values


def worded(text: str) -> bool:
    """The text has ``MIN_LETTERS`` letters (looked for in its first ``4 * MIN_LETTERS`` characters).

    >>> worded("http://192.168.1.5/"), worded("Send the notes to the new address")
    (False, True)
    """
    return len(_LETTER.findall(text, 0, 4 * MIN_LETTERS)) >= MIN_LETTERS


@dataclass(frozen=True)
class NgramHead:
    weights: np.ndarray  # float32, 2**bits: one a slot
    bias: float
    bits: int
    low: int  # the shortest n-gram read
    high: int  # the longest
    quarantine: float  # p at or above it: held, like a pattern hit
    mark: float  # p at or above it (and below ``quarantine``): active but marked

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """p(instruction) of each text (float64; 0 for a text of fewer than ``MIN_LETTERS`` letters)."""
        logits = []
        for text in texts:
            if not worded(text):
                logits.append(-np.inf)
                continue
            slots, values = vectors(text, self.bits, self.low, self.high)
            logits.append(float(self.weights[slots].astype(np.float64) @ values))
        out: np.ndarray = 1.0 / (1.0 + np.exp(-(np.asarray(logits, dtype=np.float64) + self.bias)))
        return out

    def verdict(self, p: float) -> Verdict | None:
        """Quarantine, mark or nothing, for a score.

        >>> h = NgramHead(np.zeros(4, np.float32), 0.0, 2, 2, 5, 0.98, 0.98)
        >>> h.verdict(0.99)
        Verdict(action='quarantine', reason='classifier (ngrams, p=0.99)')
        >>> h.verdict(0.97) is None
        True
        """
        reason = f"classifier ({NGRAMS}, p={math.floor(p * 100) / 100:.2f})"
        if p >= self.quarantine:
            return Verdict("quarantine", reason)
        return Verdict("mark", reason) if p >= self.mark else None


@cache
def ngram_head() -> NgramHead | None:
    """The shipped n-gram head (read once, then kept), or None when none ships."""
    path = resources.files("engram.screening") / "heads" / f"{NGRAMS}.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    bits = int(data["bits"])
    weights = np.frombuffer(base64.b64decode(data["weights"]), dtype="<f2").astype(np.float32)
    if data.get("model_id") != NGRAMS or len(weights) != 1 << bits:
        return None  # not this head, or fitted on other features than this code reads
    quarantine = float(data["quarantine"])
    return NgramHead(
        weights=weights,
        bias=float(data["bias"]),
        bits=bits,
        low=int(data["low"]),
        high=int(data["high"]),
        quarantine=quarantine,
        mark=float(data.get("mark", quarantine)),
    )
