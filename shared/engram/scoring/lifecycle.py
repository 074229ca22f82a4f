"""Lifecycle math (DESIGN §7): Weibull retention, frequency, importance, composite, multiplier,
and the tier rules the lifecycle job applies.

All functions are pure; constants come from ``LifecycleSettings`` and may be overridden per
tenant. ``explain`` returns every intermediate value for debug traces and ``GET`` views;
``settle`` returns the tier moves a memory makes at a given time, each with its reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from engram.settings import LifecycleSettings

if TYPE_CHECKING:
    from engram.models import MemoryRecord

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


def rank_multiplier(c: float, fresh_c: float, tier: str, settings: LifecycleSettings) -> float:
    """The multiplier recall ranks by: a tier's floor holds a memory up as it decays, but never
    above ``fresh_c``, its composite when new (R = 1, F = 0).

    Promotions are earned by being returned (access ≥ 3), so a floor that lifted a fresh memory
    above its own composite would let being returned outrank what answers the next query.

    >>> s = LifecycleSettings()
    >>> round(rank_multiplier(0.55, 0.55, "working", s), 4)  # fresh: as a peripheral one
    0.685
    >>> round(rank_multiplier(0.15, 0.55, "working", s), 4)  # faded: held at its fresh composite
    0.685
    >>> round(rank_multiplier(0.15, 0.55, "peripheral", s), 4)
    0.65
    """
    base = settings.multiplier_base
    floor = min(floor_for(tier, settings), fresh_c)
    return base + (1.0 - base) * max(floor, min(1.0, c))


def recall_multiplier(record: MemoryRecord, now: datetime, settings: LifecycleSettings) -> float:
    """``rank_multiplier`` of a record at ``now`` as recall ranks by it (never accessed: F = 0;
    the floor no higher than its fresh composite): the arithmetic of ``explain`` step for step,
    so the value is the same to the last bit, without the values a trace shows.

    >>> from datetime import UTC
    >>> from engram.models import MemoryRecord
    >>> now, then = datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 1, 9, tzinfo=UTC)
    >>> record = MemoryRecord(id="m", tenant_id="t", scope="user:a", content="x", created_at=then,
    ...     updated_at=then, tier="working", importance=0.7, content_hash="h")
    >>> s = LifecycleSettings()
    >>> values = explain(**state_of(record, access_count=0), now=now, settings=s)
    >>> fresh = composite(1.0, 0.0, values["importance"])
    >>> recall_multiplier(record, now, s) == rank_multiplier(values["composite"], fresh, record.tier, s)
    True
    """
    importance = record.importance
    if record.pinned:
        r = 1.0
    else:
        days = days_between(record.last_accessed_at or record.created_at, now)
        beta = beta_for(record.tier, settings)
        r = retention(
            days,
            importance,
            beta,
            half_life_days=settings.half_life_days,
            stretch=settings.importance_stretch,
        )
    f = frequency(0, scale=settings.frequency_scale)
    i = importance_score(importance, record.confidence, record.feedback_weight)
    w_r, w_f, w_i = settings.weight_retention, settings.weight_frequency, settings.weight_importance
    c = composite(r, f, i, w_r=w_r, w_f=w_f, w_i=w_i)
    fresh = composite(1.0, 0.0, i, w_r=w_r, w_f=w_f, w_i=w_i)
    return rank_multiplier(c, fresh, record.tier, settings)


def rank_prior(multiplier_value: float, weight: float) -> float:
    """The query-independent factor of a recall score: ``1 − weight·(1 − multiplier)``.

    Recall evaluates the multiplier as if the memory had never been accessed (frequency feeds
    tiers and decay, never a ranking: a memory returned often would otherwise outrank what answers
    the next query), and ``weight`` bounds what is left, to [1 − 0.7·weight, 1] since the
    multiplier is in [0.3, 1]. Weight 0 ranks by relevance alone, 1 by the whole multiplier.

    >>> round(rank_prior(0.685, 0.25), 4)  # a fresh peripheral memory
    0.9213
    >>> round(rank_prior(0.93, 0.25), 4)  # a core one
    0.9825
    """
    return 1.0 - weight * (1.0 - multiplier_value)


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


class MemoryState(TypedDict):
    """The fields of a record the formulas here read (``state_of``)."""

    importance: float
    confidence: float
    feedback_weight: float
    access_count: int
    tier: str
    pinned: bool
    created_at: datetime
    last_accessed_at: datetime | None


def state_of(record: MemoryRecord, **overrides: Any) -> dict[str, Any]:
    """The fields of a record the formulas here read, as their keyword arguments (``overrides``
    replace some, e.g. the tier a record would move to)."""
    return {
        "importance": record.importance,
        "confidence": record.confidence,
        "feedback_weight": record.feedback_weight,
        "access_count": record.access_count,
        "tier": record.tier,
        "pinned": record.pinned,
        "created_at": record.created_at,
        "last_accessed_at": record.last_accessed_at,
        **overrides,
    }


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


# --- tier rules -----------------------------------------------------------------------------------

TIER_ORDER = ("archived", "peripheral", "working", "core")
ALL_RULES = frozenset({"promote", "demote", "archive"})
"""Tiers from lowest to highest; a promotion moves right, a demotion or archival moves left."""


def tier_rank(tier: str) -> int:
    """Position in ``TIER_ORDER`` (archived 0 … core 3)."""
    return TIER_ORDER.index(tier)


def promotes_to_working(access_count: int, c: float, settings: LifecycleSettings) -> bool:
    """peripheral -> working when ``access ≥ 3`` and ``C ≥ 0.4``.

    >>> promotes_to_working(3, 0.4, LifecycleSettings()), promotes_to_working(2, 0.9, LifecycleSettings())
    (True, False)
    """
    return access_count >= settings.working_min_access and c >= settings.working_min_composite


def promotes_to_core(access_count: int, c: float, importance: float, settings: LifecycleSettings) -> bool:
    """working -> core when ``access ≥ 10``, ``C ≥ 0.7`` and ``importance ≥ 0.8`` (the stored importance).

    >>> promotes_to_core(10, 0.7, 0.8, LifecycleSettings()), promotes_to_core(10, 0.7, 0.79, LifecycleSettings())
    (True, False)
    """
    return (
        access_count >= settings.core_min_access
        and c >= settings.core_min_composite
        and importance >= settings.core_min_importance
    )


def demotes_working(c: float, age_days: float, access_count: int, settings: LifecycleSettings) -> bool:
    """working -> peripheral when ``C < 0.15`` or (``age > 60 d`` and ``access < 3``); age counts from creation.

    >>> demotes_working(0.5, 61.0, 2, LifecycleSettings()), demotes_working(0.5, 61.0, 3, LifecycleSettings())
    (True, False)
    """
    old_and_unused = age_days > settings.demote_min_age_days and access_count < settings.demote_max_access
    return c < settings.demote_max_composite or old_and_unused


def demotes_core(c: float, access_count: int, settings: LifecycleSettings) -> bool:
    """core -> working when ``C < 0.15`` and ``access < 3``.

    >>> demotes_core(0.14, 2, LifecycleSettings()), demotes_core(0.14, 3, LifecycleSettings())
    (True, False)
    """
    return c < settings.demote_max_composite and access_count < settings.demote_max_access


def archives(r: float, idle_days: float, settings: LifecycleSettings) -> bool:
    """peripheral -> archived when ``R < 0.05`` and no access for 30 days (idle counts from creation if never accessed).

    >>> archives(0.049, 30.0, LifecycleSettings()), archives(0.049, 29.9, LifecycleSettings())
    (True, False)
    """
    return r < settings.archive_max_retention and idle_days >= settings.archive_min_idle_days


def is_expired(expires_at: datetime | None, now: datetime, *, pinned: bool) -> bool:
    """Due for deletion: ``expires_at`` is set, not in the future, and the memory is not pinned."""
    return expires_at is not None and expires_at <= now and not pinned


def demotion_on_feedback(
    tier: str, signal: str, weight: float, *, pinned: bool, settings: LifecycleSettings
) -> str | None:
    """The tier a feedback signal moves a memory to at once, or None.

    ``corrected`` demotes one tier; ``ignored`` or ``negative`` demote one tier when they leave the
    weight below ``feedback_demote_below`` (three in a row from the neutral 0.5: 0.35, 0.245, 0.1715).
    Feedback never archives, and a pinned memory never moves down.

    >>> demotion_on_feedback("core", "corrected", 0.35, pinned=False, settings=LifecycleSettings())
    'working'
    >>> demotion_on_feedback("working", "ignored", 0.245, pinned=False, settings=LifecycleSettings()) is None
    True
    """
    if pinned or tier not in ("core", "working"):
        return None
    negative = signal in ("ignored", "negative") and weight < settings.feedback_demote_below
    if signal == "corrected" or negative:
        return TIER_ORDER[tier_rank(tier) - 1]
    return None


@dataclass(frozen=True)
class Move:
    """One tier move: from, to, the rule that fired and its numbers."""

    source: str
    target: str
    rule: str
    reason: str


def next_move(
    tier: str,
    *,
    values: dict[str, Any],
    importance: float,
    access_count: int,
    age_days: float,
    feedback_weight: float,
    pinned: bool,
    settings: LifecycleSettings,
    allowed: frozenset[str] = ALL_RULES,
) -> Move | None:
    """The one rule that fires for a memory in ``tier`` with ``values`` (from ``explain``), or None.

    Archived memories never move by themselves (``PATCH tier`` or restore bring them back); pinned
    memories may be promoted but never demoted or archived; a memory whose feedback weight is below
    ``promote_min_feedback`` (neutral, 0.5) is not promoted. ``allowed`` limits the kinds of rule that may fire
    (``promote``, ``demote``, ``archive``).
    """
    c, r, idle = values["composite"], values["retention"], values["days_since_access"]
    may_promote = "promote" in allowed and feedback_weight >= settings.promote_min_feedback
    may_demote = "demote" in allowed and not pinned
    may_archive = "archive" in allowed and not pinned
    if tier == "peripheral":
        if may_promote and promotes_to_working(access_count, c, settings):
            reason = f"access {access_count} ≥ {settings.working_min_access} and C {c:.3f} ≥ {settings.working_min_composite}"
            return Move(tier, "working", "promote", reason)
        if may_archive and archives(r, idle, settings):
            reason = f"R {r:.4f} < {settings.archive_max_retention} and no access for {idle:.1f} d"
            return Move(tier, "archived", "archive", reason)
    elif tier == "working":
        if may_promote and promotes_to_core(access_count, c, importance, settings):
            reason = (
                f"access {access_count} ≥ {settings.core_min_access}, C {c:.3f} ≥ {settings.core_min_composite}"
                f" and importance {importance:.2f} ≥ {settings.core_min_importance}"
            )
            return Move(tier, "core", "promote", reason)
        if may_demote and demotes_working(c, age_days, access_count, settings):
            if c < settings.demote_max_composite:
                reason = f"C {c:.3f} < {settings.demote_max_composite}"
            else:
                reason = f"age {age_days:.1f} d > {settings.demote_min_age_days} d and access {access_count} < {settings.demote_max_access}"
            return Move(tier, "peripheral", "demote", reason)
    elif tier == "core" and may_demote and demotes_core(c, access_count, settings):
        reason = f"C {c:.3f} < {settings.demote_max_composite} and access {access_count} < {settings.demote_max_access}"
        return Move(tier, "working", "demote", reason)
    return None


def settle(
    *,
    now: datetime,
    settings: LifecycleSettings,
    allowed: frozenset[str] = ALL_RULES,
    **state: Unpack[MemoryState],
) -> list[Move]:
    """Every move a memory makes at ``now``, applying the rules until none fires (R and C are
    recomputed in each new tier, since β depends on it).

    Promotions need more accesses than demotions allow, so a memory only goes up or only goes down
    and the result is a fixed point: settling again at the same time moves nothing, which is what
    makes the job idempotent.
    """
    moves: list[Move] = []
    age = days_between(state["created_at"], now)
    for _ in range(len(TIER_ORDER)):
        values = explain(**state, now=now, settings=settings)
        move = next_move(
            state["tier"],
            values=values,
            importance=state["importance"],
            access_count=state["access_count"],
            age_days=age,
            feedback_weight=state["feedback_weight"],
            pinned=state["pinned"],
            settings=settings,
            allowed=allowed,
        )
        if move is None:
            break
        moves.append(move)
        state["tier"] = move.target
    return moves
