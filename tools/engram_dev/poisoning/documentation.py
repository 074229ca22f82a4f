"""Text no head was fitted on: our documentation's paragraphs and the docstrings outside ``shared/``.

Coding agents store notes like these as memories, and the corpus's everyday rows are what people
say, not this; so the screens are also measured here (``flagged``): each of the patterns, the
model's head, the words head and the n-gram head, and any of them as retain holds a text. The
paragraphs of ``docs/*.md`` (code blocks, tables and headings left out) and the docstrings of
``functions/``, ``tools/`` and ``infra/`` (the modules ``technical`` leaves out, left out too),
each of at least ``MIN_CHARS``. ``technical``'s snapshot reads ``shared/`` only, so the two never
share a text. Example::

    texts = paragraphs()
    print(flagged(texts, LocalEmbedder().embed(texts), MODEL_ID))
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engram.screening import screen
from engram.screening.head import WORDS, head_for
from engram.screening.ngrams import ngram_head
from engram_dev.poisoning.technical import MIN_CHARS, SKIP, docstrings_of

__all__ = ["flagged", "paragraphs"]

CODE = re.compile(r"```.*?```", re.S)


def paragraphs(root: Path = Path()) -> list[str]:
    """The documentation's paragraphs, then the docstrings, each text once."""
    texts = []
    for path in sorted((root / "docs").glob("*.md")):
        for part in re.split(r"\n\s*\n", CODE.sub("", path.read_text(encoding="utf-8"))):
            part = part.strip()
            if len(part) >= MIN_CHARS and not part.startswith(("|", "#")):
                texts.append(part)
    for folder in ("functions", "tools", "infra"):
        for path in sorted((root / folder).rglob("*.py")):
            if not any(part in str(path) for part in SKIP):
                tree = ast.parse(path.read_text(encoding="utf-8"))
                texts += [t for t in docstrings_of(tree) if len(t) >= MIN_CHARS]
    return list(dict.fromkeys(texts))


def flagged(texts: Sequence[str], vectors: np.ndarray, model_id: str) -> dict[str, int]:
    """How many of ``texts`` each screen quarantines, and any of them beside each vector head."""
    ngrams = ngram_head()
    held_by_ngrams = (
        ngrams.scores(texts) >= ngrams.quarantine if ngrams is not None else np.zeros(len(texts), bool)
    )
    patterns = np.array([screen(t) is not None for t in texts], bool)
    counts = {"texts": len(texts), "patterns": int(patterns.sum()), "n-grams": int(held_by_ngrams.sum())}
    for name, head in (("head", head_for(model_id)), ("words head", head_for(WORDS))):
        if head is None:
            continue
        scores = head.scores(texts, vectors if head.model_id != WORDS else None)
        held = scores >= head.quarantine
        counts[name] = int(held.sum())
        counts[f"{name} marks"] = int(((scores >= head.mark) & ~held).sum())
        counts[f"any, {name}"] = int((held | patterns | held_by_ngrams).sum())
    return counts
