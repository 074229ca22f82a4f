"""What an embedding model takes in one call, and a text cut to fit it.

Titan Text Embeddings V2 takes at most 8,192 tokens or 50,000 characters a call (Bedrock's model
card); a longer text is refused. Retain accepts texts of up to 32,000 characters, which English
prose keeps well under 8,192 tokens (about 4.7 characters a token) but code, numbers or CJK text
may not. ``fit`` cuts a text to a conservative estimate of the limit (an ASCII character counts a
third of a token, any other character a whole one, both above what the model's tokenizer uses),
keeping its start; the memory keeps its whole text (keyword search sees all of it), only its
vector is of the start, and retain's answer names such memories (``embedding_truncated``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InputLimit:
    tokens: int
    chars: int


LIMITS: dict[str, InputLimit] = {
    "amazon.titan-embed-text-v2:0": InputLimit(tokens=8_192, chars=50_000),
}
"""Embedding models whose input is smaller than the longest text retain accepts."""


def token_estimate(text: str) -> float:
    """An upper estimate of the model's tokens for ``text``.

    >>> token_estimate("abc"), token_estimate("記憶")
    (1.0, 2.0)
    """
    ascii_chars = sum(1 for c in text if ord(c) < 128)
    return ascii_chars / 3 + (len(text) - ascii_chars)


def fit(text: str, model_id: str) -> tuple[str, bool]:
    """(the text cut to the model's input limit, whether it was cut).

    >>> fit("x" * 30_000, "amazon.titan-embed-text-v2:0")[0] == "x" * 24_576
    True
    >>> fit("記" * 9_000, "amazon.titan-embed-text-v2:0")[1]
    True
    """
    limit = LIMITS.get(model_id.split("@", 1)[0])  # a vector's model id carries its dimension
    if limit is None or (len(text) <= limit.chars and token_estimate(text) <= limit.tokens):
        return text, False
    low, high = 0, min(len(text), limit.chars)
    while low < high:  # the longest prefix within the estimate
        middle = (low + high + 1) // 2
        if token_estimate(text[:middle]) <= limit.tokens:
            low = middle
        else:
            high = middle - 1
    return text[:low], True
