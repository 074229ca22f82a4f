"""Unit tests for ``engram.scoring.fusion`` against hand-computed values."""

from __future__ import annotations

import itertools
import math

import pytest

from engram.scoring.fusion import calibrate_cosine, normalise_bm25, ranks_of, rrf, weighted
from engram.settings import RecallSettings

FLOOR = 0.10
SCALE = 0.15


# --- calibrate_cosine -------------------------------------------------------------------------


def test_calibrate_cosine_maps_a_cosine_below_the_floor_to_zero() -> None:
    # Given a cosine under the floor (unrelated sentences)
    cosine = 0.05

    # When it is calibrated
    score = calibrate_cosine(cosine, floor=FLOOR, scale=SCALE)

    # Then max(0, 0.05 - 0.10) = 0, so 1 - e^0 = 0
    assert score == 0.0


def test_calibrate_cosine_maps_a_cosine_exactly_at_the_floor_to_zero() -> None:
    # Given a cosine equal to the floor
    # When it is calibrated
    score = calibrate_cosine(FLOOR, floor=FLOOR, scale=SCALE)

    # Then 1 - e^(-0/0.15) = 0
    assert score == 0.0


def test_calibrate_cosine_maps_floor_plus_scale_to_one_minus_one_over_e() -> None:
    # Given a cosine one scale above the floor: 0.10 + 0.15 = 0.25
    cosine = FLOOR + SCALE

    # When it is calibrated
    score = calibrate_cosine(cosine, floor=FLOOR, scale=SCALE)

    # Then 1 - e^(-0.15/0.15) = 1 - 1/e = 1 - 0.367879... = 0.632121
    assert score == pytest.approx(0.6321205588)


def test_calibrate_cosine_lifts_a_paraphrase_cosine_to_about_three_quarters() -> None:
    # Given a typical paraphrase cosine of 0.32
    # When it is calibrated
    score = calibrate_cosine(0.32, floor=FLOOR, scale=SCALE)

    # Then 1 - e^(-(0.32 - 0.10)/0.15) = 1 - e^(-1.466667) = 1 - 0.230693 = 0.769307
    assert score == pytest.approx(0.769307, abs=1e-6)


def test_calibrate_cosine_of_a_perfect_match_approaches_but_does_not_reach_one() -> None:
    # Given an identical vector (cosine 1.0)
    # When it is calibrated
    score = calibrate_cosine(1.0, floor=FLOOR, scale=SCALE)

    # Then 1 - e^(-0.9/0.15) = 1 - e^-6 = 1 - 0.00247875 = 0.99752125
    assert score == pytest.approx(1 - math.exp(-6))
    assert score == pytest.approx(0.99752125)


def test_calibrate_cosine_is_strictly_increasing_above_the_floor() -> None:
    # Given increasing cosines above the floor
    cosines = [0.11, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0]

    # When each is calibrated
    scores = [calibrate_cosine(c, floor=FLOOR, scale=SCALE) for c in cosines]

    # Then the scores keep the order strictly and stay below 1
    assert all(a < b for a, b in itertools.pairwise(scores))
    assert all(0.0 < s < 1.0 for s in scores)


@pytest.mark.parametrize("scale", [0.0, -0.15])
def test_calibrate_cosine_rejects_a_non_positive_scale(scale: float) -> None:
    # Given a zero or negative scale
    # When / Then calibrating raises
    with pytest.raises(ValueError, match="scale must be positive"):
        calibrate_cosine(0.5, floor=FLOOR, scale=scale)


# --- normalise_bm25 ---------------------------------------------------------------------------


def test_normalise_bm25_gives_the_best_hit_one_and_divides_the_rest_by_it() -> None:
    # Given BM25 scores whose best is 8.0
    scores = {"a": 8.0, "b": 2.0, "c": 6.0}

    # When they are normalised
    normalised = normalise_bm25(scores)

    # Then a = 8/8 = 1, b = 2/8 = 0.25, c = 6/8 = 0.75
    assert normalised == pytest.approx({"a": 1.0, "b": 0.25, "c": 0.75})


def test_normalise_bm25_of_no_scores_is_empty() -> None:
    # Given no BM25 hits
    # When they are normalised
    normalised = normalise_bm25({})

    # Then the result is empty
    assert normalised == {}


def test_normalise_bm25_of_all_zero_scores_is_all_zero() -> None:
    # Given a pool where nothing matched (best score 0)
    scores = {"a": 0.0, "b": 0.0}

    # When they are normalised
    normalised = normalise_bm25(scores)

    # Then every key is kept with 0 (no division by zero)
    assert normalised == {"a": 0.0, "b": 0.0}


# --- weighted ---------------------------------------------------------------------------------


def test_weighted_with_the_default_weights_is_eighty_twenty() -> None:
    # Given the default recall weights (0.8 vector, 0.2 BM25: what the dev set favoured)
    defaults = RecallSettings()
    assert (defaults.weight_vector, defaults.weight_bm25) == (0.8, 0.2)

    # When a vector score 0.8 and a BM25 score 0.4 are fused
    score = weighted(0.8, 0.4, w_vector=defaults.weight_vector, w_bm25=defaults.weight_bm25)

    # Then (0.8·0.8 + 0.2·0.4) / (0.8 + 0.2) = (0.64 + 0.08) / 1 = 0.72
    assert score == pytest.approx(0.72)


def test_weighted_divides_by_the_weight_sum_so_only_the_ratio_matters() -> None:
    # Given weights 7 and 3 (same ratio as 0.7 / 0.3)
    # When a vector score 0.8 and a BM25 score 0.4 are fused
    score = weighted(0.8, 0.4, w_vector=7.0, w_bm25=3.0)

    # Then (7·0.8 + 3·0.4) / 10 = (5.6 + 1.2) / 10 = 0.68
    assert score == pytest.approx(0.68)


def test_weighted_rejects_two_zero_weights() -> None:
    # Given both weights at zero
    # When / Then fusing raises
    with pytest.raises(ValueError, match="weights must not both be zero"):
        weighted(0.8, 0.4, w_vector=0.0, w_bm25=0.0)


# --- rrf --------------------------------------------------------------------------------------


def test_rrf_scores_first_place_in_every_channel_as_one() -> None:
    # Given an item ranked first by both channels
    # When it is fused with RRF
    score = rrf([1, 1], [0.7, 0.3], k=60)

    # Then (0.7/61 + 0.3/61) / (0.7/61 + 0.3/61) = 1
    assert score == pytest.approx(1.0)


def test_rrf_counts_a_missing_channel_as_zero() -> None:
    # Given an item ranked first by the vector channel and absent from BM25
    # When it is fused with RRF
    score = rrf([1, None], [0.7, 0.3], k=60)

    # Then (0.7/61) / (1/61) = 0.7
    assert score == pytest.approx(0.7)


def test_rrf_of_an_item_missing_from_every_channel_is_zero() -> None:
    # Given an item no channel returned
    # When it is fused with RRF
    score = rrf([None, None], [0.7, 0.3], k=60)

    # Then nothing is summed
    assert score == 0.0


def test_rrf_matches_a_hand_computed_mixed_example() -> None:
    # Given ranks 2 (vector) and 5 (BM25) with weights 0.7 / 0.3 and k = 60
    # When they are fused with RRF
    score = rrf([2, 5], [0.7, 0.3], k=60)

    # Then got  = 0.7/62 + 0.3/65 = (0.7·65 + 0.3·62) / (62·65) = (45.5 + 18.6) / 4030 = 64.1/4030
    #      best = (0.7 + 0.3)/61 = 1/61
    #      got / best = 61·64.1 / 4030 = 3910.1 / 4030 = 0.970248139
    assert score == pytest.approx(3910.1 / 4030)
    assert score == pytest.approx(0.970248139)


def test_rrf_with_a_larger_k_flattens_the_gap_between_ranks() -> None:
    # Given an item ranked tenth by a single channel
    # When it is fused with k = 1 and with k = 60
    sharp = rrf([10], [1.0], k=1)
    flat = rrf([10], [1.0], k=60)

    # Then k=1: (1/11)/(1/2) = 2/11 = 0.181818 and k=60: (1/70)/(1/61) = 61/70 = 0.871429
    assert sharp == pytest.approx(2 / 11)
    assert flat == pytest.approx(61 / 70)
    assert flat > sharp


def test_rrf_rejects_a_weight_count_that_differs_from_the_channel_count() -> None:
    # Given two ranks and one weight
    # When / Then fusing raises
    with pytest.raises(ValueError, match="one weight per channel"):
        rrf([1, 2], [1.0], k=60)


def test_rrf_rejects_all_zero_weights() -> None:
    # Given every channel weighted zero
    # When / Then fusing raises
    with pytest.raises(ValueError, match="weights must not all be zero"):
        rrf([1, 2], [0.0, 0.0], k=60)


# --- ranks_of ---------------------------------------------------------------------------------


def test_ranks_of_ranks_by_descending_score_from_one() -> None:
    # Given three distinct scores
    scores = {"low": 0.1, "high": 0.9, "mid": 0.5}

    # When they are ranked
    ranks = ranks_of(scores)

    # Then the best is rank 1 and ranks are 1-based
    assert ranks == {"high": 1, "mid": 2, "low": 3}


def test_ranks_of_breaks_ties_by_key() -> None:
    # Given two keys tied at 0.5 below a leader, inserted out of key order
    scores = {"b": 0.5, "c": 0.9, "a": 0.5}

    # When they are ranked
    ranks = ranks_of(scores)

    # Then the tie goes to the smaller key: a before b
    assert ranks == {"c": 1, "a": 2, "b": 3}


def test_ranks_of_no_scores_is_empty() -> None:
    # Given no scores
    # When they are ranked
    # Then there are no ranks
    assert ranks_of({}) == {}
