"""Lifecycle math (DESIGN §7): Weibull retention, frequency, importance, composite, multiplier.

All functions are pure; constants come from ``LifecycleSettings`` and may be overridden per
tenant. ``explain`` returns every intermediate value for debug traces and ``GET`` views.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from engram.settings import LifecycleSettings

SECONDS_PER_DAY = 86_400.0
POSITIVE_SIGNALS = frozenset({"used", "positive"})


def retention(
    days: float, importance: float, beta: float, *, half_life_days: float = 30.0, stretch: float = 1.5
) -> float:
    """Weibull retention ``R = exp(-λ·t^β)`` with ``λ = ln2 / (half_life · e^(stretch·importance))``.

    With β = 1 and importance 0, R halves every ``half_life_days``.

    >>> round(retention(30.0, 0.0, 1.0), 4)
    0.5
    """
    t = max(0.0, days)
    lam = math.log(2) / (half_life_days * math.exp(stretch * importance))
    return math.exp(-lam * t**beta)


def frequency(access_count: int, *, scale: float = 5.0) -> float:
    """``F = 1 - e^(-access_count/scale)``: 0 when never accessed, → 1 with use.

    >>> round(frequency(5), 4)
    0.6321
    """
    return 1.0 - math.exp(-max(0, access_count) / scale)


def importance_score(importance: float, confidence: float, feedback_weight: float) -> float:
    """``I = min(1, importance·confidence·2·feedback_weight)``; neutral feedback (0.5) leaves it as is.

    >>> importance_score(0.8, 1.0, 0.5)
    0.8
    """
    return min(1.0, importance * confidence * 2.0 * feedback_weight)


def composite(r: float, f: float, i: float, *, w_r: float = 0.4, w_f: float = 0.3, w_i: float = 0.3) -> float:
    """``C = 0.4R + 0.3F + 0.3I`` (weights configurable).

    >>> composite(1.0, 0.0, 0.5)
    0.55
    """
    return w_r * r + w_f * f + w_i * i


def beta_for(tier: str, settings: LifecycleSettings) -> float:
    """Weibull shape per tier: core decays slowest (β < 1), peripheral fastest (β > 1)."""
    return {"core": settings.beta_core, "working": settings.beta_working}.get(tier, settings.beta_peripheral)


def floor_for(tier: str, settings: LifecycleSettings) -> float:
    """The composite floor per tier (core 0.9, working 0.7, peripheral and archived 0.5)."""
    return {"core": settings.floor_core, "working": settings.floor_working}.get(
        tier, settings.floor_peripheral
    )


def multiplier(c: float, tier: str, settings: LifecycleSettings) -> float:
    """Recall multiplier ``0.3 + 0.7·max(tier floor, C)``, in [0.3, 1].

    >>> round(multiplier(0.2, "working", LifecycleSettings()), 4)
    0.79
    """
    base = settings.multiplier_base
    return base + (1.0 - base) * max(floor_for(tier, settings), min(1.0, c))


def feedback_ema(weight: float, signal: str, *, alpha: float = 0.3) -> float:
    """``w ← (1-α)·w + α·s`` with s = 1 for used/positive, 0 for ignored/negative/corrected.

    >>> round(feedback_ema(0.5, "used"), 4)
    0.65
    """
    s = 1.0 if signal in POSITIVE_SIGNALS else 0.0
    return (1.0 - alpha) * weight + alpha * s


def days_between(earlier: datetime, later: datetime) -> float:
    """Days from ``earlier`` to ``later`` (0 if ``earlier`` is in the future)."""
    return max(0.0, (later - earlier).total_seconds() / SECONDS_PER_DAY)


def explain(
    *,
    importance: float,
    confidence: float,
    feedback_weight: float,
    access_count: int,
    tier: str,
    pinned: bool,
    created_at: datetime,
    last_accessed_at: datetime | None,
    now: datetime,
    settings: LifecycleSettings,
) -> dict[str, Any]:
    """Every lifecycle value of one memory at ``now``: R, F, I, C, multiplier and the inputs.

    Pinned memories never decay: R is 1 whatever their age.
    """
    days = days_between(last_accessed_at or created_at, now)
    beta = beta_for(tier, settings)
    r = (
        1.0
        if pinned
        else retention(
            days,
            importance,
            beta,
            half_life_days=settings.half_life_days,
            stretch=settings.importance_stretch,
        )
    )
    f = frequency(access_count, scale=settings.frequency_scale)
    i = importance_score(importance, confidence, feedback_weight)
    c = composite(
        r, f, i, w_r=settings.weight_retention, w_f=settings.weight_frequency, w_i=settings.weight_importance
    )
    return {
        "days_since_access": round(days, 4),
        "beta": beta,
        "retention": r,
        "frequency": f,
        "importance": i,
        "composite": c,
        "multiplier": multiplier(c, tier, settings),
    }
