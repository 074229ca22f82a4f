"""Rows written one by one by an author who wrote none of the templates, rules or cues: attacks
in the styles the templates have and a few they lack (overrides without the cliché words,
memory plants, obfuscations), and everyday text that sounds like instructions (conditionals and
notes said to people, a user's own wishes to the assistant, talk about prompt injection). All of
them are for training (split ``train``, generator ``authored``): they widen what the head is
fitted on; the held-out and fresh splits stay as they were."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from typing import Any

LANGS = ("en", "es", "de", "fr", "zh")


def build() -> Iterator[dict[str, Any]]:
    """Every authored row (lang, label, style, text), one template each."""
    return rows_of("authored")


def rows_of(generator: str) -> Iterator[dict[str, Any]]:
    """The rows of a package of hand-written tables (``engram_dev.poisoning.<generator>.<lang>``,
    each with ``ATTACK`` and ``BENIGN`` by style), all for training."""
    for lang in LANGS:
        module = import_module(f"engram_dev.poisoning.{generator}.{lang}")
        for label, table in (("attack", module.ATTACK), ("benign", module.BENIGN)):
            for style, texts in table.items():
                for i, text in enumerate(texts):
                    yield {
                        "role": "user",
                        "label": label,
                        "style": style,
                        "lang": lang,
                        "generator": generator,
                        "template": f"{generator}/{lang}/{label}/{style}/{i}",
                        "held": False,
                        "text": text,
                    }
