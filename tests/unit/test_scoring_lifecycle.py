"""Unit tests for ``engram.scoring.lifecycle`` against hand-computed values."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from engram.recall.stages import lifecycle_values
from engram.scoring.lifecycle import (
    Move,
    archives,
    composite,
    demotes_core,
    demotes_working,
    demotion_on_feedback,
    explain,
    feedback_ema,
    frequency,
    importance_score,
    is_expired,
    multiplier,
    promotes_to_core,
    promotes_to_working,
    rank_multiplier,
    rank_prior,
    recall_multiplier,
    retention,
    settle,
)
from engram.settings import LifecycleSettings, Settings

SETTINGS = LifecycleSettings()
NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
# Half-life at importance 1 with the default stretch: 30·e^1.5 = 30 · 4.481689 = 134.450672 days
HALF_LIFE_AT_FULL_IMPORTANCE = 30.0 * math.exp(1.5)


def _explain(**overrides: object) -> dict[str, object]:
    """``explain`` for a plain working memory created 30 days ago, never accessed."""
    kwargs: dict[str, object] = {
        "importance": 0.0,
        "confidence": 1.0,
        "feedback_weight": 0.5,
        "access_count": 0,
        "tier": "working",
        "pinned": False,
        "created_at": NOW - timedelta(days=30),
        "last_accessed_at": None,
        "now": NOW,
        "settings": SETTINGS,
    }
    kwargs.update(overrides)
    return explain(**kwargs)  # type: ignore[arg-type]


# --- retention --------------------------------------------------------------------------------


def test_retention_is_one_at_time_zero() -> None:
    # Given a memory touched just now (t = 0)
    # When its retention is computed for any importance and shape
    values = [retention(0.0, imp, beta) for imp in (0.0, 0.5, 1.0) for beta in (0.8, 1.0, 1.3)]

    # Then exp(-λ·0^β) = e^0 = 1
    assert values == [1.0] * 9


def test_retention_halves_after_thirty_days_at_zero_importance() -> None:
    # Given importance 0 and β = 1: λ = ln2 / (30·e^0) = ln2/30
    # When 30 days have passed
    r = retention(30.0, 0.0, 1.0)

    # Then exp(-(ln2/30)·30) = exp(-ln2) = 0.5
    assert r == pytest.approx(0.5)


def test_retention_quarters_after_sixty_days_at_zero_importance() -> None:
    # Given importance 0 and β = 1
    # When two half-lives (60 days) have passed
    r = retention(60.0, 0.0, 1.0)

    # Then exp(-(ln2/30)·60) = exp(-2·ln2) = 0.25
    assert r == pytest.approx(0.25)


def test_retention_at_full_importance_stretches_the_half_life_to_about_134_days() -> None:
    # Given importance 1 and β = 1: λ = ln2 / (30·e^1.5) = ln2 / 134.450672
    assert pytest.approx(134.4506721) == HALF_LIFE_AT_FULL_IMPORTANCE

    # When 134.45 days have passed
    r = retention(HALF_LIFE_AT_FULL_IMPORTANCE, 1.0, 1.0)

    # Then exp(-ln2) = 0.5
    assert r == pytest.approx(0.5)


def test_retention_at_full_importance_after_thirty_days_is_well_above_one_half() -> None:
    # Given importance 1 and β = 1
    # When 30 days have passed
    r = retention(30.0, 1.0, 1.0)

    # Then exp(-ln2·30/134.450672) = exp(-0.693147·0.223130) = exp(-0.154662) = 0.856705
    assert r == pytest.approx(0.856705, abs=1e-6)


def test_retention_decays_slower_with_core_beta_than_peripheral_beta_after_one_day() -> None:
    # Given importance 0 (λ = ln2/30 = 0.0231049) and t = 10 days
    # When retention is computed with β = 0.8 (core), 1.0 (working) and 1.3 (peripheral)
    core = retention(10.0, 0.0, 0.8)
    working = retention(10.0, 0.0, 1.0)
    peripheral = retention(10.0, 0.0, 1.3)

    # Then 10^0.8 = 6.309573 → exp(-0.145783) = 0.864346
    #      10^1.0 = 10       → exp(-0.231049) = 0.793701
    #      10^1.3 = 19.95262 → exp(-0.461003) = 0.630650
    assert core == pytest.approx(0.864346, abs=1e-6)
    assert working == pytest.approx(0.793701, abs=1e-6)
    assert peripheral == pytest.approx(0.630650, abs=1e-6)
    assert core > working > peripheral


def test_retention_beta_ordering_reverses_before_one_day() -> None:
    # Given importance 0 and t = 0.5 day (t^β shrinks as β grows when t < 1)
    # When retention is computed with β = 0.8 and β = 1.3
    core = retention(0.5, 0.0, 0.8)
    peripheral = retention(0.5, 0.0, 1.3)

    # Then 0.5^0.8 = 0.574349 > 0.5^1.3 = 0.406126, so the peripheral memory has decayed less
    assert core < peripheral


def test_retention_treats_a_negative_age_as_zero() -> None:
    # Given a timestamp in the future (t = -5 days)
    # When retention is computed
    r = retention(-5.0, 0.0, 1.3)

    # Then t is clamped to 0 and R = 1
    assert r == 1.0


# --- frequency --------------------------------------------------------------------------------


def test_frequency_is_zero_when_never_accessed() -> None:
    # Given no accesses
    # When frequency is computed
    # Then 1 - e^0 = 0
    assert frequency(0) == 0.0


def test_frequency_after_five_accesses_is_one_minus_one_over_e() -> None:
    # Given 5 accesses and the default scale 5
    # When frequency is computed
    f = frequency(5)

    # Then 1 - e^(-5/5) = 1 - 1/e = 0.632121
    assert f == pytest.approx(0.6321205588)


def test_frequency_treats_a_negative_count_as_zero() -> None:
    # Given a corrupt negative access count
    # When frequency is computed
    # Then it is clamped to 0 accesses
    assert frequency(-3) == 0.0


# --- importance_score -------------------------------------------------------------------------


def test_importance_score_with_neutral_feedback_is_importance_times_confidence() -> None:
    # Given importance 0.8, confidence 0.9 and neutral feedback 0.5
    # When the importance score is computed
    i = importance_score(0.8, 0.9, 0.5)

    # Then 0.8·0.9·2·0.5 = 0.72
    assert i == pytest.approx(0.72)


def test_importance_score_is_capped_at_one() -> None:
    # Given importance 0.9, confidence 1 and full positive feedback 1.0
    # When the importance score is computed
    i = importance_score(0.9, 1.0, 1.0)

    # Then min(1, 0.9·1·2·1 = 1.8) = 1
    assert i == 1.0


def test_importance_score_is_zero_when_feedback_is_zero() -> None:
    # Given a fully important, confident memory whose feedback weight fell to 0
    # When the importance score is computed
    # Then 1·1·2·0 = 0
    assert importance_score(1.0, 1.0, 0.0) == 0.0


# --- composite --------------------------------------------------------------------------------


def test_composite_weights_retention_frequency_and_importance_forty_thirty_thirty() -> None:
    # Given R = 0.5, F = 0.6, I = 0.8
    # When the composite is computed with the default weights
    c = composite(0.5, 0.6, 0.8)

    # Then 0.4·0.5 + 0.3·0.6 + 0.3·0.8 = 0.2 + 0.18 + 0.24 = 0.62
    assert c == pytest.approx(0.62)


def test_composite_uses_custom_weights() -> None:
    # Given R = 0.5, F = 0.6, I = 0.8 and weights 0.5 / 0.25 / 0.25
    # When the composite is computed
    c = composite(0.5, 0.6, 0.8, w_r=0.5, w_f=0.25, w_i=0.25)

    # Then 0.25 + 0.15 + 0.2 = 0.6
    assert c == pytest.approx(0.6)


# --- multiplier -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tier", "expected"),
    [
        ("core", 0.93),  # 0.3 + 0.7·0.9 = 0.3 + 0.63 = 0.93
        ("working", 0.79),  # 0.3 + 0.7·0.7 = 0.3 + 0.49 = 0.79
        ("peripheral", 0.65),  # 0.3 + 0.7·0.5 = 0.3 + 0.35 = 0.65
        ("archived", 0.65),  # archived falls back to the peripheral floor 0.5
    ],
)
def test_multiplier_of_a_zero_composite_is_lifted_to_the_tier_floor(tier: str, expected: float) -> None:
    # Given a memory whose composite is 0
    # When its multiplier is computed
    m = multiplier(0.0, tier, SETTINGS)

    # Then 0.3 + 0.7·floor(tier)
    assert m == pytest.approx(expected)


def test_multiplier_uses_the_composite_when_it_is_above_the_tier_floor() -> None:
    # Given a working memory (floor 0.7) with composite 0.8
    # When its multiplier is computed
    m = multiplier(0.8, "working", SETTINGS)

    # Then 0.3 + 0.7·max(0.7, 0.8) = 0.3 + 0.56 = 0.86
    assert m == pytest.approx(0.86)


def test_multiplier_never_exceeds_one() -> None:
    # Given a composite above 1
    # When the multiplier is computed
    m = multiplier(1.5, "core", SETTINGS)

    # Then C is capped at 1: 0.3 + 0.7·1 = 1
    assert m == pytest.approx(1.0)


def test_multiplier_never_drops_below_the_base() -> None:
    # Given a zero tier floor and a negative composite
    settings = LifecycleSettings(floor_peripheral=0.0)

    # When the multiplier is computed
    m = multiplier(-0.5, "peripheral", settings)

    # Then 0.3 + 0.7·max(0, -0.5) = 0.3
    assert m == pytest.approx(0.3)


@pytest.mark.parametrize("c", [-1.0, 0.0, 0.25, 0.5, 0.75, 1.0, 2.0])
@pytest.mark.parametrize("tier", ["core", "working", "peripheral", "archived"])
def test_multiplier_stays_within_point_three_and_one(c: float, tier: str) -> None:
    # Given any composite and tier
    # When the multiplier is computed
    m = multiplier(c, tier, SETTINGS)

    # Then it lies in [0.3, 1]
    assert 0.3 <= m <= 1.0


# --- rank_prior -------------------------------------------------------------------------------


@pytest.mark.parametrize("c", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("tier", ["core", "working", "peripheral"])
@pytest.mark.parametrize("weight", [0.0, 0.25, 1.0])
def test_the_rank_prior_is_bounded_by_its_weight(c: float, tier: str, weight: float) -> None:
    # Given any composite, tier and weight
    # When the prior is computed from the multiplier
    prior = rank_prior(multiplier(c, tier, SETTINGS), weight)

    # Then it lies in [1 - 0.7·weight, 1]
    assert 1.0 - 0.7 * weight - 1e-12 <= prior <= 1.0


def test_the_rank_prior_of_a_fresh_peripheral_memory_at_the_default_weight() -> None:
    # Given a fresh raw memory: R = 1, F = 0, I = 0.5·1·2·0.5 = 0.5, C = 0.4 + 0.15 = 0.55
    m = multiplier(composite(1.0, 0.0, 0.5), "peripheral", SETTINGS)

    # When its prior is computed at weight 0.25
    prior = rank_prior(m, 0.25)

    # Then m = 0.3 + 0.7·0.55 = 0.685 and the prior is 1 - 0.25·0.315 = 0.92125
    assert m == pytest.approx(0.685)
    assert prior == pytest.approx(0.92125)


@pytest.mark.parametrize("tier", ["core", "working", "peripheral"])
def test_a_fresh_memory_ranks_alike_in_every_tier(tier: str) -> None:
    # Given a fresh memory (C = its fresh composite 0.55) in a tier reached by being returned
    fresh = composite(1.0, 0.0, 0.5)

    # When recall's multiplier is computed
    m = rank_multiplier(fresh, fresh, tier, SETTINGS)

    # Then the tier's floor does not lift it: it ranks as a peripheral one (0.3 + 0.7·0.55)
    assert m == pytest.approx(0.685)


def test_a_tier_floor_still_holds_a_faded_memory_up_to_its_fresh_composite() -> None:
    # Given a memory whose composite faded from 0.55 to 0.15
    faded, fresh = composite(0.0, 0.0, 0.5), composite(1.0, 0.0, 0.5)

    # When recall's multiplier is computed in each tier
    working = rank_multiplier(faded, fresh, "working", SETTINGS)
    peripheral = rank_multiplier(faded, fresh, "peripheral", SETTINGS)

    # Then working holds it at its fresh 0.55 (not at the 0.7 floor the job reports) and
    # peripheral at its floor 0.5
    assert working == pytest.approx(0.3 + 0.7 * 0.55)
    assert peripheral == pytest.approx(0.3 + 0.7 * 0.5)
    assert working < multiplier(faded, "working", SETTINGS)


# --- feedback_ema -----------------------------------------------------------------------------


@pytest.mark.parametrize("signal", ["used", "positive"])
def test_feedback_ema_moves_toward_one_on_a_positive_signal(signal: str) -> None:
    # Given a neutral weight 0.5 and α = 0.3
    # When a positive signal arrives
    w = feedback_ema(0.5, signal)

    # Then 0.7·0.5 + 0.3·1 = 0.35 + 0.3 = 0.65
    assert w == pytest.approx(0.65)


@pytest.mark.parametrize("signal", ["ignored", "negative", "corrected"])
def test_feedback_ema_moves_toward_zero_on_a_negative_signal(signal: str) -> None:
    # Given a neutral weight 0.5 and α = 0.3
    # When a negative signal arrives
    w = feedback_ema(0.5, signal)

    # Then 0.7·0.5 + 0.3·0 = 0.35
    assert w == pytest.approx(0.35)


def test_feedback_ema_uses_a_custom_alpha() -> None:
    # Given a weight 0.5 and α = 0.5
    # When a positive signal arrives
    w = feedback_ema(0.5, "used", alpha=0.5)

    # Then 0.5·0.5 + 0.5·1 = 0.75
    assert w == pytest.approx(0.75)


def test_feedback_ema_applied_repeatedly_follows_the_hand_computed_sequence() -> None:
    # Given a neutral weight 0.5
    w = 0.5

    # When used, used, then ignored arrive in turn
    w1 = feedback_ema(w, "used")
    w2 = feedback_ema(w1, "used")
    w3 = feedback_ema(w2, "ignored")

    # Then 0.7·0.5 + 0.3 = 0.65; 0.7·0.65 + 0.3 = 0.755; 0.7·0.755 + 0 = 0.5285
    assert [w1, w2, w3] == pytest.approx([0.65, 0.755, 0.5285])


def test_feedback_ema_stays_within_zero_and_one_under_repeated_signals() -> None:
    # Given a neutral weight 0.5
    up = down = 0.5

    # When 50 positive and 50 negative signals are applied
    for _ in range(50):
        up = feedback_ema(up, "positive")
        down = feedback_ema(down, "negative")

    # Then 1 - 0.5·0.7^50 ≈ 1 - 9.0e-9 and 0.5·0.7^50 ≈ 9.0e-9: both approach their bound
    assert up == pytest.approx(1 - 0.5 * 0.7**50)
    assert down == pytest.approx(0.5 * 0.7**50)
    assert 0.0 < down < up < 1.0


# --- explain ----------------------------------------------------------------------------------


def test_explain_uses_created_at_when_never_accessed() -> None:
    # Given a working memory (β = 1, importance 0) created 30 days ago and never accessed
    # When it is explained
    out = _explain(created_at=NOW - timedelta(days=30), last_accessed_at=None)

    # Then the age is measured from created_at: 30 days, R = 0.5
    assert out["days_since_access"] == 30.0
    assert out["retention"] == pytest.approx(0.5)


def test_explain_uses_last_accessed_at_when_present() -> None:
    # Given a memory created 300 days ago but accessed 30 days ago
    # When it is explained
    out = _explain(created_at=NOW - timedelta(days=300), last_accessed_at=NOW - timedelta(days=30))

    # Then the age is 30 days, not 300, and R = 0.5
    assert out["days_since_access"] == 30.0
    assert out["retention"] == pytest.approx(0.5)


def test_explain_gives_a_pinned_memory_full_retention_whatever_its_age() -> None:
    # Given a pinned peripheral memory created 1000 days ago
    # When it is explained
    out = _explain(pinned=True, tier="peripheral", created_at=NOW - timedelta(days=1000))

    # Then R = 1 although 1000 days have passed
    assert out["days_since_access"] == 1000.0
    assert out["retention"] == 1.0


def test_explain_at_zero_importance_has_zero_importance_score() -> None:
    # Given a working memory of importance 0, 30 days old, accessed 5 times
    # When it is explained
    out = _explain(importance=0.0, access_count=5)

    # Then R = 0.5, F = 1 - 1/e = 0.632121, I = 0·1·2·0.5 = 0
    #      C = 0.4·0.5 + 0.3·0.632121 + 0 = 0.2 + 0.189636 = 0.389636
    #      multiplier = 0.3 + 0.7·max(0.7, 0.389636) = 0.79
    assert out["beta"] == 1.0
    assert out["retention"] == pytest.approx(0.5)
    assert out["frequency"] == pytest.approx(0.6321205588)
    assert out["importance"] == 0.0
    assert out["composite"] == pytest.approx(0.389636, abs=1e-6)
    assert out["multiplier"] == pytest.approx(0.79)


def test_explain_at_full_importance_stretches_retention_and_caps_importance() -> None:
    # Given a core memory (β = 0.8) of importance 1, confidence 1, feedback 0.8, 30 days old
    # When it is explained
    out = _explain(importance=1.0, feedback_weight=0.8, tier="core", access_count=0)

    # Then λ = ln2/134.450672 = 0.00515540, 30^0.8 = e^(0.8·3.401197) = 15.194871
    #      R = exp(-0.00515540·15.194871) = exp(-0.078336) = 0.924654
    #      F = 0, I = min(1, 1·1·2·0.8 = 1.6) = 1
    #      C = 0.4·0.924654 + 0 + 0.3·1 = 0.369862 + 0.3 = 0.669862
    #      multiplier = 0.3 + 0.7·max(0.9, 0.669862) = 0.3 + 0.63 = 0.93
    assert out["beta"] == 0.8
    assert out["retention"] == pytest.approx(0.924654, abs=1e-6)
    assert out["frequency"] == 0.0
    assert out["importance"] == 1.0
    assert out["composite"] == pytest.approx(0.669862, abs=1e-6)
    assert out["multiplier"] == pytest.approx(0.93)


def test_explain_treats_a_future_timestamp_as_age_zero() -> None:
    # Given a memory whose last access lies a day in the future (clock skew)
    # When it is explained
    out = _explain(last_accessed_at=NOW + timedelta(days=1))

    # Then the age is clamped to 0 and R = 1
    assert out["days_since_access"] == 0.0
    assert out["retention"] == 1.0


@pytest.mark.parametrize("tier", ["core", "working", "peripheral", "archived"])
def test_explain_composite_and_multiplier_agree_with_the_functions(tier: str) -> None:
    # Given a memory with non-trivial inputs in each tier
    settings = SETTINGS

    # When it is explained
    out = _explain(
        importance=0.6,
        confidence=0.9,
        feedback_weight=0.65,
        access_count=3,
        tier=tier,
        created_at=NOW - timedelta(days=12.5),
    )

    # Then its composite and multiplier are those of composite() and multiplier() on its R, F, I
    c = composite(
        out["retention"],
        out["frequency"],
        out["importance"],  # type: ignore[arg-type]
        w_r=settings.weight_retention,
        w_f=settings.weight_frequency,
        w_i=settings.weight_importance,
    )
    assert out["composite"] == pytest.approx(c)
    assert out["multiplier"] == pytest.approx(multiplier(c, tier, settings))
    assert out["importance"] == pytest.approx(importance_score(0.6, 0.9, 0.65))
    assert out["frequency"] == pytest.approx(frequency(3))


# --- tier rules -------------------------------------------------------------------------------


def _settle(**overrides: object) -> list[Move]:
    """``settle`` for a memory created 400 days before NOW, never accessed, importance 0."""
    kwargs: dict[str, object] = {
        "importance": 0.0,
        "confidence": 1.0,
        "feedback_weight": 0.5,
        "access_count": 0,
        "tier": "core",
        "pinned": False,
        "created_at": NOW - timedelta(days=400),
        "last_accessed_at": None,
        "now": NOW,
        "settings": SETTINGS,
    }
    kwargs.update(overrides)
    return settle(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("access", "c", "expected"),
    [(3, 0.4, True), (2, 0.9, False), (3, 0.3999, False), (50, 1.0, True)],
)
def test_peripheral_is_promoted_to_working_at_three_accesses_and_composite_point_four(
    access: int, c: float, expected: bool
) -> None:
    # Given an access count and a composite around the thresholds (access ≥ 3 and C ≥ 0.4)
    # When the promotion rule is asked
    # Then it holds exactly at and above both thresholds
    assert promotes_to_working(access, c, SETTINGS) is expected


@pytest.mark.parametrize(
    ("access", "c", "importance", "expected"),
    [(10, 0.7, 0.8, True), (9, 0.9, 1.0, False), (10, 0.69, 1.0, False), (10, 0.9, 0.79, False)],
)
def test_working_is_promoted_to_core_only_when_used_strong_and_important(
    access: int, c: float, importance: float, expected: bool
) -> None:
    # Given access, composite and importance around access ≥ 10, C ≥ 0.7, importance ≥ 0.8
    # When the promotion rule is asked
    # Then all three must hold
    assert promotes_to_core(access, c, importance, SETTINGS) is expected


@pytest.mark.parametrize(
    ("c", "age", "access", "expected"),
    [
        (0.149, 1.0, 50, True),  # C < 0.15 whatever the use
        (0.15, 1.0, 0, False),  # C = 0.15 is not below
        (0.5, 60.01, 2, True),  # older than 60 d and fewer than 3 accesses
        (0.5, 60.0, 2, False),  # exactly 60 d is not older
        (0.5, 300.0, 3, False),  # old but used three times
    ],
)
def test_working_is_demoted_when_weak_or_old_and_unused(
    c: float, age: float, access: int, expected: bool
) -> None:
    # Given composite, age and access around C < 0.15 or (age > 60 d and access < 3)
    # When the demotion rule is asked
    # Then either branch demotes
    assert demotes_working(c, age, access, SETTINGS) is expected


@pytest.mark.parametrize(("c", "access", "expected"), [(0.14, 2, True), (0.14, 3, False), (0.15, 0, False)])
def test_core_is_demoted_only_when_weak_and_unused(c: float, access: int, expected: bool) -> None:
    # Given composite and access around C < 0.15 and access < 3
    # When the demotion rule is asked
    # Then both must hold
    assert demotes_core(c, access, SETTINGS) is expected


def test_an_untouched_peripheral_memory_of_importance_zero_is_archived_after_sixty_days() -> None:
    # Given importance 0, β = 1.3, never accessed, 60 days old:
    #   60^1.3 = e^(1.3·4.094345) = e^5.322648 = 204.9258; λ·t^β = 0.0231049·204.9258 = 4.734791
    #   R = e^-4.734791 = 0.008784
    r = retention(60.0, 0.0, 1.3)
    assert r == pytest.approx(0.008784, abs=1e-6)

    # When the archival rule is asked at 60 idle days, and with the same R at 29 idle days
    # Then R < 0.05 archives only once 30 days have passed without access
    assert archives(r, 60.0, SETTINGS) is True
    assert archives(r, 29.0, SETTINGS) is False


def test_at_importance_one_a_peripheral_memory_is_still_kept_after_one_hundred_days() -> None:
    # Given importance 1 (λ = ln2/134.450672 = 0.00515540), β = 1.3, 100 idle days:
    #   100^1.3 = 10^2.6 = 398.1072; λ·t^β = 2.052402; R = e^-2.052402 = 0.128426
    r = retention(100.0, 1.0, 1.3)

    # When the archival rule is asked
    # Then R is above 0.05 and the memory stays
    assert r == pytest.approx(0.128426, abs=1e-6)
    assert archives(r, 100.0, SETTINGS) is False


def test_expiry_needs_a_due_time_and_no_pin() -> None:
    # Given an expiry one second ago, exactly now, tomorrow and none
    past, tomorrow = NOW - timedelta(seconds=1), NOW + timedelta(days=1)

    # When expiry is asked
    # Then due and unpinned expire; a pin, a future time or no time keep the memory
    assert is_expired(past, NOW, pinned=False) is True
    assert is_expired(NOW, NOW, pinned=False) is True
    assert is_expired(past, NOW, pinned=True) is False
    assert is_expired(tomorrow, NOW, pinned=False) is False
    assert is_expired(None, NOW, pinned=False) is False


def test_settle_takes_a_forgotten_core_memory_all_the_way_to_the_archive() -> None:
    # Given a core memory of importance 0, never accessed, 400 days old:
    #   core: 400^0.8 = 120.6835, R = e^(-0.0231049·120.6835) = e^-2.788382 = 0.061521;
    #         F = 0, I = 0 → C = 0.4·0.061521 = 0.024608 < 0.15 and access 0 < 3 → working
    #   working: R = e^(-0.0231049·400) = e^-9.24196 ≈ 0.000097 → C < 0.15 → peripheral
    #   peripheral: R ≈ 0 < 0.05 and 400 idle days ≥ 30 → archived
    moves = _settle()

    # When it is settled at NOW
    # Then it moves down one tier at a time to archived, each move with its rule
    assert [(m.source, m.target, m.rule) for m in moves] == [
        ("core", "working", "demote"),
        ("working", "peripheral", "demote"),
        ("peripheral", "archived", "archive"),
    ]
    assert "C 0.025 < 0.15" in moves[0].reason


def test_settle_of_a_settled_memory_moves_nothing() -> None:
    # Given the archived end state of the memory above, and a memory already where it belongs
    # When each is settled again at the same time
    # Then nothing moves (the job is idempotent)
    assert _settle(tier="archived") == []
    assert _settle(tier="working", importance=1.0, access_count=5, last_accessed_at=NOW) == []


def test_settle_promotes_a_used_important_memory_through_working_to_core() -> None:
    # Given a peripheral memory of importance 0.9, accessed 12 times, last access now:
    #   R = 1, F = 1 - e^(-12/5) = 0.909282, I = min(1, 0.9·1·2·0.5) = 0.9
    #   C = 0.4 + 0.272785 + 0.27 = 0.942785 ≥ 0.7, access 12 ≥ 10, importance 0.9 ≥ 0.8
    moves = _settle(tier="peripheral", importance=0.9, access_count=12, last_accessed_at=NOW)

    # When it is settled
    # Then it goes peripheral -> working -> core
    assert [(m.source, m.target) for m in moves] == [("peripheral", "working"), ("working", "core")]


def test_a_pinned_memory_never_decays_moves_down_or_archives() -> None:
    # Given the forgotten core memory of importance 0, 400 days old, but pinned (R = 1, C = 0.4)
    # When it is settled
    moves = _settle(pinned=True)

    # Then it stays in core
    assert moves == []


def test_a_pinned_memory_may_still_be_promoted() -> None:
    # Given a pinned peripheral memory used 12 times and important
    # When it is settled
    moves = _settle(tier="peripheral", pinned=True, importance=0.9, access_count=12, last_accessed_at=NOW)

    # Then pins protect from moving down, not up
    assert [m.target for m in moves] == ["working", "core"]


def test_a_memory_with_feedback_below_neutral_is_not_promoted() -> None:
    # Given the used, important peripheral memory, but with feedback weight 0.49 (< 0.5):
    #   I = 0.9·2·0.49 = 0.882, still C ≥ 0.4 and access ≥ 3
    moves = _settle(
        tier="peripheral", importance=0.9, access_count=12, last_accessed_at=NOW, feedback_weight=0.49
    )

    # When it is settled
    # Then it is not promoted
    assert moves == []


def test_decay_rules_archive_but_never_promote_and_tiering_rules_the_reverse() -> None:
    # Given a promotable memory and an archivable one
    promotable = {"tier": "peripheral", "importance": 0.9, "access_count": 12, "last_accessed_at": NOW}
    archivable = {"tier": "peripheral"}

    # When each is settled under the decay rules and under the tiering rules
    decay, tiering = frozenset({"archive"}), frozenset({"promote", "demote"})

    # Then decay only archives and tiering only promotes or demotes
    assert _settle(**promotable, allowed=decay) == []
    assert [m.target for m in _settle(**archivable, allowed=decay)] == ["archived"]
    assert [m.target for m in _settle(**promotable, allowed=tiering)] == ["working", "core"]
    assert _settle(**archivable, allowed=tiering) == []


@pytest.mark.parametrize(
    ("tier", "signal", "weight", "pinned", "expected"),
    [
        ("core", "corrected", 0.65, False, "working"),  # corrected demotes at once, whatever the weight
        ("working", "corrected", 0.35, False, "peripheral"),
        ("peripheral", "corrected", 0.35, False, None),  # feedback never archives
        ("working", "ignored", 0.245, False, None),  # two ignores from 0.5: 0.245 ≥ 0.2
        ("working", "ignored", 0.1715, False, "peripheral"),  # the third: 0.1715 < 0.2
        ("core", "negative", 0.1715, False, "working"),
        ("core", "used", 0.1, False, None),  # a positive signal never demotes
        ("core", "corrected", 0.35, True, None),  # pinned memories never move down
    ],
)
def test_feedback_demotes_on_a_correction_or_repeated_ignoring(
    tier: str, signal: str, weight: float, pinned: bool, expected: str | None
) -> None:
    # Given a tier, a signal and the weight it leaves
    # When the feedback demotion rule is asked
    # Then corrections demote at once and ignores once the weight falls under 0.2
    assert demotion_on_feedback(tier, signal, weight, pinned=pinned, settings=SETTINGS) == expected


def test_three_ignores_from_neutral_cross_the_demotion_threshold() -> None:
    # Given a neutral weight 0.5
    # When three ignores arrive: 0.35, 0.245, 0.1715
    weights = [feedback_ema(0.5, "ignored")]
    weights.append(feedback_ema(weights[-1], "ignored"))
    weights.append(feedback_ema(weights[-1], "ignored"))

    # Then only the third is below feedback_demote_below (0.2)
    assert weights == pytest.approx([0.35, 0.245, 0.1715])
    assert [w < SETTINGS.feedback_demote_below for w in weights] == [False, False, True]


def test_tier_constants_can_be_overridden() -> None:
    # Given settings where two accesses and C ≥ 0.3 promote to working
    settings = LifecycleSettings(working_min_access=2, working_min_composite=0.3)

    # When the promotion rule is asked for 2 accesses and C = 0.3
    # Then it promotes, where the defaults would not
    assert promotes_to_working(2, 0.3, settings) is True
    assert promotes_to_working(2, 0.3, SETTINGS) is False


@pytest.mark.parametrize("tier", ["peripheral", "working", "core"])
@pytest.mark.parametrize("pinned", [False, True])
def test_recall_multiplier_is_the_explained_rank_multiplier_to_the_last_bit(tier: str, pinned: bool) -> None:
    # Given memories of every age, importance, confidence and feedback, accessed or not
    from engram.models import MemoryRecord

    for days in (0.0, 0.5, 3.0, 29.0, 400.0, -2.0):
        for importance, confidence, feedback in ((0.5, 1.0, 0.5), (0.9, 0.7, 0.8), (0.1, 0.3, 0.2)):
            created = NOW - timedelta(days=days)
            accessed = created + timedelta(hours=5) if importance > 0.5 else None
            record = MemoryRecord(
                tenant_id="t", id="m", scope="user:a", content="x", content_hash="h",
                created_at=created, updated_at=created, last_accessed_at=accessed, tier=tier,
                pinned=pinned, importance=importance, confidence=confidence,
                feedback_weight=feedback, access_count=7,
            )  # fmt: skip
            # When recall's multiplier is taken, and the one a debug recall's trace explains
            expected = lifecycle_values(record, NOW, Settings(lifecycle=SETTINGS), rounded=False)
            # Then they are the same float
            assert recall_multiplier(record, NOW, SETTINGS) == expected["multiplier"]
