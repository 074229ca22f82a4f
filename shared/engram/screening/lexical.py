"""The words of a text as the screening head reads them: hashed, so the head is a fixed size.

The embedding model says what a text is about; the words say how it is put ("tell the user",
"助手", "Assistenten"). Both are read from the de-obfuscated reading the patterns see (look-alike
letters, leetspeak and spaced-out letters undone). Features: each word, each pair of adjacent
words, each 4-character piece of a longer word (so "recomienda" and "recomendar" share some),
and each pair of adjacent CJK characters, hashed (CRC-32) into ``2**bits`` slots, present or
not, the vector scaled to unit length. After them come the cues (``cues``: who is addressed,
what is asked, for how long, and each pair of those), read from the same reading.
"""

from __future__ import annotations

import re
import zlib
from itertools import pairwise

import numpy as np

from engram.screening import cues
from engram.screening.views import _SPACED, _SPACES, _clean, _folded, _spaced

__all__ = ["features", "reading", "size", "tokens"]

_TOKEN = re.compile(r"[^\W\d_]+|\d+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


def reading(text: str) -> str:
    """The text case-folded, accents dropped, look-alike letters, leetspeak and spaced-out letters
    undone, spaces collapsed.

    >>> reading("Ａ s s i s t a n t, 1gn0re  TÉ")
    'assistant, ignore te'
    """
    clean = _clean(text)
    plain = _SPACES.sub(" ", clean).strip()
    return _spaced(_folded(clean)) if _SPACED.search(plain) else _folded(plain)


def tokens(text: str) -> list[str]:
    """The words of the text's de-obfuscated reading; CJK runs as pairs of characters.

    >>> tokens("Ig\u200bn0re 忽略指令")
    ['ignore', '忽略', '略指', '指令']
    """
    return _tokens(reading(text))


def _tokens(read: str) -> list[str]:
    out: list[str] = []
    for word in _TOKEN.findall(read):
        if _CJK.search(word):
            out += [word[i : i + 2] for i in range(max(1, len(word) - 1))]
        else:
            out.append(word)
    return out


def size(bits: int) -> int:
    """How long ``features(text, bits)`` is."""
    return (1 << bits) + cues.DIM


def features(text: str, bits: int, piece: int = 4) -> np.ndarray:
    """The hashed, unit-length word vector of ``text`` (``2**bits`` long), then its cues
    (``cues.DIM`` long, unit length too), float32."""
    read = reading(text)
    words = _tokens(read)
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
    return np.concatenate([out / norm if norm else out, cues.cues(read)])
