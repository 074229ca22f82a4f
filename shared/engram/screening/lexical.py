"""The words of a text as the screening head reads them: hashed, so the head is a fixed size.

The embedding model says what a text is about; the words say how it is put ("tell the user",
"助手", "Assistenten"). Both are read from the de-obfuscated reading the patterns see (look-alike
letters, leetspeak and spaced-out letters undone). Features: each word, each pair of adjacent
words, each 4-character piece of a longer word (so "recomienda" and "recomendar" share some),
and each pair of adjacent CJK characters, hashed (CRC-32) into ``2**bits`` slots, present or
not, the vector scaled to unit length.
"""

from __future__ import annotations

import re
import zlib
from itertools import pairwise

import numpy as np

from engram.screening.views import _SPACED, _SPACES, _clean, _folded, _spaced

__all__ = ["features", "tokens"]

_TOKEN = re.compile(r"[^\W\d_]+|\d+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


def tokens(text: str) -> list[str]:
    """The words of the text's de-obfuscated reading; CJK runs as pairs of characters.

    >>> tokens("Ig\u200bn0re 忽略指令")
    ['ignore', '忽略', '略指', '指令']
    """
    clean = _clean(text)
    plain = _SPACES.sub(" ", clean).strip()
    read = _spaced(_folded(clean)) if _SPACED.search(plain) else _folded(plain)
    out: list[str] = []
    for word in _TOKEN.findall(read):
        if _CJK.search(word):
            out += [word[i : i + 2] for i in range(max(1, len(word) - 1))]
        else:
            out.append(word)
    return out


def features(text: str, bits: int, piece: int = 4) -> np.ndarray:
    """The hashed, unit-length feature vector of ``text`` (float32, ``2**bits`` long)."""
    words = tokens(text)
    grams = [*words, *(f"{a} {b}" for a, b in pairwise(words))]
    for word in words:
        if len(word) > piece and not _CJK.search(word):
            padded = f"<{word}>"
            grams += [f"#{padded[i : i + piece]}" for i in range(len(padded) - piece + 1)]
    out = np.zeros(1 << bits, dtype=np.float32)
    mask = (1 << bits) - 1
    for gram in grams:
        out[zlib.crc32(gram.encode()) & mask] = 1.0
    norm = float(np.linalg.norm(out))
    return out / norm if norm else out
