"""``engram_dev.cost.quantized``: vector recall at the precisions the store could keep."""

from __future__ import annotations

from typing import Any

import numpy as np

from engram_dev.cost.quantized import as_float16, as_int8, compare


def test_the_precisions_keep_each_component_within_their_step() -> None:
    v = np.random.default_rng(1).standard_normal((3, 1024)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    assert np.allclose(as_float16(v), v, rtol=2**-11, atol=1e-7) and not np.array_equal(as_float16(v), v)
    step = np.abs(v).max(axis=1, keepdims=True) / 127
    assert np.all(np.abs(as_int8(v) - v) <= step / 2 + 1e-7)


def test_recall_is_counted_per_judged_question_at_each_precision() -> None:
    # Given a conversation of twelve turns with one-hot vectors, a judged question whose evidence
    # ranks first, one whose evidence ranks below the first ten, and an adversarial one (not judged)
    letters = "abcdefghijkl"

    def embed(texts: list[str]) -> Any:
        return [np.eye(len(letters))[letters.index(t[0])] for t in texts]

    turns = [{"dia_id": f"D1:{i + 1}", "text": f"{c} turn"} for i, c in enumerate(letters)]
    sample = {
        "conversation": {"session_1": turns},
        "qa": [
            {"question": "a?", "evidence": ["D1:1"], "category": 4},
            {"question": "b?", "evidence": "D1:11; D1:12", "category": 1},
            {"question": "c?", "evidence": ["D1:3"], "category": 5},
        ],
    }
    result = compare([sample], embed)
    # Then one of two judged questions is found at every precision, with float32's top 10
    assert result["questions"] == {"n": 2.0}
    assert all(
        result[p] == {"r5": 0.5, "r10": 0.5, "top10_kept": 1.0} for p in ("float32", "float16", "int8")
    )
