"""What ``shape`` multiplies a candidate's fused score by that its query does not change: the
lifecycle prior, the length norm and the brevity prior (a module of its own: the words channel
computes them for its hits beside the query embedding, and the ranking stages for the rest)."""

from __future__ import annotations

from datetime import datetime

from engram.embedding.key_text import transcript_turn
from engram.models import MemoryRecord
from engram.scoring import lifecycle, shaping, words
from engram.settings import Settings


def shape_factors(record: MemoryRecord, multiplier: float, settings: Settings) -> tuple[float, float, float]:
    """A candidate's lifecycle prior (from its multiplier), length norm and brevity: what
    ``shape`` multiplies its fused score by, none of it from the query."""
    r = settings.recall
    prior = lifecycle.rank_prior(multiplier, r.lifecycle_weight)
    norm = shaping.length_norm(
        len(record.content),
        anchor=r.length_norm_anchor,
        strength=r.length_norm_strength,
        floor=r.length_norm_floor,
    )
    # Only transcript turns: a short turn leans on its neighbours, while a short fact stored on
    # its own or beside others ("I prefer dark mode") was kept on purpose.
    brevity = 1.0
    if r.brevity_anchor > 0 and transcript_turn(record):
        brevity = shaping.brevity(
            len(words.informative_words(record.content)),
            anchor=r.brevity_anchor,
            strength=r.brevity_strength,
            floor=r.brevity_floor,
        )
    return prior, norm, brevity


def shape_factor(record: MemoryRecord, now: datetime, settings: Settings) -> float:
    """The product of ``shape_factors`` at ``now`` (the prior rounded as a trace shows it), without
    the values a trace shows: the words channel computes it for its hits beside the embedding."""
    multiplier = lifecycle.recall_multiplier(record, now, settings.lifecycle)
    prior, norm, brevity = shape_factors(record, multiplier, settings)
    return round(prior, 6) * norm * brevity
