"""Rows written one by one by a third author, for training only, where the head was weakest on
text it had not seen: tool-call instructions (in prose and as JSON-ish calls), notes addressed to
"the assistant", "any model" or "whoever reads this", triggers ("whenever X, say Y"), memory plants
("remember as a fact that the user agreed to …") and fraud scripts, in the five languages; and as
many everyday rows of the same shapes said to people or wished by the user for themselves (a
calendar entry the user asks for, a note on the fridge, "if Grandma asks, say …", "remember that I
promised Tom …"), so that the shape alone says nothing. Written without reading the ``held-out``
or ``fresh`` rows or the generators that make them; all rows are split ``train`` (generator
``written``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engram_dev.poisoning.authored import rows_of


def build() -> Iterator[dict[str, Any]]:
    """Every written row (lang, label, style, text), a template each."""
    return rows_of("written")
