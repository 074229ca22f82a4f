"""What the screening head decides about a memory, and the tags that say so (no numpy here:
recall and the CLI read the tag without loading the head)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["MARK_TAG", "Verdict", "marked"]

MARK_TAG = "instruction-like"
"""The tag of an active memory that reads as an instruction (released, or below quarantine)."""


class Verdict(NamedTuple):
    action: str  # "quarantine" or "mark"
    reason: str  # what a history entry records


def marked(tags: Sequence[str], verdict: Verdict) -> list[str]:
    """``tags`` with the tag a verdict adds.

    >>> marked(["work"], Verdict("mark", "classifier (m, p=0.88)"))
    ['work', 'instruction-like']
    """
    tag = "quarantined" if verdict.action == "quarantine" else MARK_TAG
    return list(dict.fromkeys([*tags, tag]))
