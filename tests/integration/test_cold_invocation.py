"""``engram coldstart --first-call`` against DynamoDB Local: a cold retain function answers its
first raw retain, and its cold start costs more CPU than a warm call (#28)."""

from __future__ import annotations

from typing import Any

from engram_dev.cold_invocation import measure


def test_a_cold_retain_function_answers_and_its_cold_start_outweighs_a_warm_call(dynamodb_local: Any) -> None:
    # Given DynamoDB Local and the stand-ins for Titan and the search domain
    # When one fresh interpreter runs the retain function's init and two raw retains
    [run] = measure(1, dynamodb_local.endpoint)

    # Then both retains answered 200 (measure raises otherwise) and the cold start is the larger
    assert run.init_s > 0 and run.cold_s > 5 * run.warm_s
    assert 0 < run.peak_mb < 512
