"""Unit tests for ``engram.scoring.shaping`` against hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from engram.scoring.shaping import length_norm, mmr

# --- length_norm ------------------------------------------------------------------------------


@pytest.mark.parametrize("chars", [0, 1, 200, 499, 500])
def test_length_norm_leaves_texts_up_to_the_anchor_untouched(chars: int) -> None:
    # Given a text no longer than the 500-character anchor
    # When its length factor is computed
    factor = length_norm(chars)

    # Then ratio = max(chars/500, 1) = 1, log2(1) = 0, so 1/(1 + 0) = 1
    assert factor == 1.0


def test_length_norm_of_twice_the_anchor_is_two_thirds() -> None:
    # Given a 1000-character text
    # When its length factor is computed
    factor = length_norm(1000)

    # Then 1/(1 + 0.5·log2(2)) = 1/1.5 = 0.666667
    assert factor == pytest.approx(1 / 1.5)


def test_length_norm_of_four_times_the_anchor_lands_exactly_on_the_floor() -> None:
    # Given a 2000-character text
    # When its length factor is computed
    factor = length_norm(2000)

    # Then 1/(1 + 0.5·log2(4)) = 1/(1 + 1) = 0.5, equal to the floor
    assert factor == pytest.approx(0.5)


def test_length_norm_of_a_very_long_text_is_floored() -> None:
    # Given a 4000-character text
    # When its length factor is computed
    factor = length_norm(4000)

    # Then 1/(1 + 0.5·log2(8)) = 1/(1 + 1.5) = 0.4, raised to the floor 0.5
    assert factor == pytest.approx(0.5)


def test_length_norm_with_a_lower_custom_floor_keeps_the_raw_factor() -> None:
    # Given a 4000-character text and a floor of 0.3
    # When its length factor is computed
    factor = length_norm(4000, floor=0.3)

    # Then max(0.3, 0.4) = 0.4
    assert factor == pytest.approx(0.4)


def test_length_norm_with_a_custom_anchor_and_strength() -> None:
    # Given a 400-character text, anchor 100 and strength 1
    # When its length factor is computed
    factor = length_norm(400, anchor=100, strength=1.0, floor=0.0)

    # Then 1/(1 + 1·log2(4)) = 1/3 = 0.333333
    assert factor == pytest.approx(1 / 3)


# --- mmr --------------------------------------------------------------------------------------


def _unit(*rows: list[float]) -> np.ndarray:
    vectors = np.array(rows, dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_mmr_with_lambda_one_returns_plain_score_order() -> None:
    # Given three ids, two with identical vectors, scored out of id order
    ids = ["a", "b", "c"]
    scores = {"a": 0.2, "b": 0.9, "c": 0.5}
    vectors = _unit([1, 0], [1, 0], [0, 1])

    # When MMR runs with λ = 1 (no diversity penalty)
    picked = mmr(ids, scores, vectors, k=3, lam=1.0)

    # Then the order is by score alone: b (0.9), c (0.5), a (0.2)
    assert picked == ["b", "c", "a"]


def test_mmr_with_lambda_one_half_skips_a_duplicate_vector() -> None:
    # Given a and b with the same vector and c orthogonal to both
    ids = ["a", "b", "c"]
    scores = {"a": 0.9, "b": 0.85, "c": 0.6}
    vectors = _unit([1, 0], [1, 0], [0, 1])

    # When MMR picks two with λ = 0.5
    picked = mmr(ids, scores, vectors, k=2, lam=0.5)

    # Then round 1: a = 0.45, b = 0.425, c = 0.30 → a
    #      round 2: b = 0.5·0.85 - 0.5·1 = -0.075, c = 0.5·0.6 - 0.5·0 = 0.30 → c
    assert picked == ["a", "c"]


def test_mmr_with_lambda_one_half_ranks_the_duplicate_last() -> None:
    # Given the same three ids
    ids = ["a", "b", "c"]
    scores = {"a": 0.9, "b": 0.85, "c": 0.6}
    vectors = _unit([1, 0], [1, 0], [0, 1])

    # When MMR orders all three with λ = 0.5
    picked = mmr(ids, scores, vectors, k=3, lam=0.5)

    # Then the duplicate b, though second by score, comes last
    assert picked == ["a", "c", "b"]


def test_mmr_with_k_larger_than_ids_returns_every_id_once() -> None:
    # Given two ids
    ids = ["a", "b"]
    scores = {"a": 0.4, "b": 0.8}
    vectors = _unit([1, 0], [0, 1])

    # When MMR is asked for ten
    picked = mmr(ids, scores, vectors, k=10, lam=0.7)

    # Then both come back, best first, with no repeats
    assert picked == ["b", "a"]


def test_mmr_of_no_ids_is_empty() -> None:
    # Given no candidates
    vectors = np.empty((0, 2), dtype=np.float32)

    # When MMR runs
    picked = mmr([], {}, vectors, k=5)

    # Then nothing is picked
    assert picked == []


def test_mmr_with_k_zero_picks_nothing() -> None:
    # Given candidates but k = 0
    vectors = _unit([1, 0], [0, 1])

    # When MMR runs
    picked = mmr(["a", "b"], {"a": 0.9, "b": 0.8}, vectors, k=0)

    # Then nothing is picked
    assert picked == []
