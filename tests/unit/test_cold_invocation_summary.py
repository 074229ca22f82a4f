"""``engram coldstart --first-call``'s arithmetic: a cold start's CPU time at each Lambda memory
size, and the least memory whose cold start fits the budget (#28's right-sizing of retain)."""

from __future__ import annotations

import pytest

from engram_dev.cold_invocation import Run, stretch, summary


def _run(cold_ms: float) -> Run:
    # start-up 20 ms, the init, a first call, a warm call of 10 ms: cold_ms in all
    return Run(
        startup_s=0.02, init_s=0.3, first_s=cold_ms / 1000 - 0.32 + 0.01, warm_s=0.01, peak_mb=95, modules=900
    )


def test_a_cold_start_is_everything_to_the_first_calls_end_less_a_warm_call() -> None:
    # Given a run of 0.7 s to the end of its first call and a warm call of 10 ms
    # Then its cold start is 0.7 s less the warm call
    assert _run(700).cold_s == pytest.approx(0.7)


def test_the_least_memory_is_the_first_whose_stretched_cold_start_fits_the_budget() -> None:
    # Given three runs whose median cold start is 700 ms of CPU
    result = summary([_run(690), _run(700), _run(720)], budget_s=3.0, configured_mb=512)

    # Then 512 MB takes 700 ms x 1,769 / 512 and the least memory within 3 s is 413 MB
    assert result["cold_start_s_at_memory"]["512"] == pytest.approx(0.7 * 1769 / 512, abs=0.01)
    least = result["least_memory_mb_within_budget"]
    assert least == 413 and stretch(0.7, least) <= 3.0 < stretch(0.7, least - 1)
    assert result["cpu_ms"]["cold_start"] == 700.0 and result["peak_mb"] == 95
