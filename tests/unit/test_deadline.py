"""Every internal deadline ends before the invocation does (``engram.deadline``), and a
misconfigured function fails its init instead of answering its callers 400."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from engram import deadline
from engram.adapters.providers import Retrier
from engram.errors import ConfigurationError, ProviderError
from engram_http import runtime


def test_outside_an_invocation_the_configured_deadline_applies() -> None:
    assert deadline.left(20.0) == 20.0


def test_inside_an_invocation_a_deadline_is_cut_to_the_time_left_and_the_sooner_end_wins() -> None:
    with deadline.within(5.0):
        assert 4.5 < deadline.left(20.0) <= 5.0
        assert deadline.left(1.0) == 1.0
        with deadline.within(60.0):  # an inner block can never extend the invocation
            assert deadline.left(20.0) <= 5.0
    assert deadline.left(20.0) == 20.0


def test_threads_working_for_an_invocation_see_its_deadline() -> None:
    seen: list[float] = []
    with deadline.within(2.0), ThreadPoolExecutor(max_workers=3) as pool:
        seen = list(pool.map(deadline.propagate(lambda _: deadline.left(30.0)), range(6)))
    assert all(s <= 2.0 for s in seen) and len(seen) == 6
    other = threading.Thread(target=lambda: seen.append(deadline.left(30.0)))
    other.start()
    other.join()
    assert seen[-1] == 30.0  # a thread not started for the invocation is not bound by it


def test_retries_stop_when_the_invocation_would_time_out_not_at_the_configured_deadline() -> None:
    # Given a provider failing with a retryable error and a 20 s retry deadline
    retrier = Retrier(attempts=50, base_s=0.05, cap_s=0.05, deadline_s=20.0)
    calls: list[float] = []

    def failing() -> None:
        calls.append(time.monotonic())
        raise TimeoutError("read timed out")

    # When the invocation has half a second left
    started = time.monotonic()
    with deadline.within(0.5), pytest.raises(ProviderError, match="still failing"):
        retrier.run(failing, lambda _exc: 0.0, "embeddings")
    # Then it gives up around that half second, long before 20 s (slack for a loaded machine)
    assert time.monotonic() - started < 3.0 and len(calls) >= 2


def test_a_handler_budget_keeps_a_margin_to_answer_before_the_lambda_timeout() -> None:
    context = SimpleNamespace(get_remaining_time_in_millis=lambda: 10_000)
    with runtime.invocation_budget(context):
        assert 8.0 < deadline.left(60.0) <= 10.0 - runtime.ANSWER_MARGIN_S


@pytest.mark.parametrize(
    ("endpoint", "problem"),
    [(None, "ENGRAM_OPENSEARCH_ENDPOINT is required"), ("search-x.es.amazonaws.com", "scheme")],
)
def test_a_misconfigured_function_fails_its_init_naming_the_variable(
    endpoint: str | None, problem: str, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a function inside Lambda on the aws backend, without a usable search endpoint
    environ = {"AWS_LAMBDA_FUNCTION_NAME": "engram-dev-recall", "ENGRAM_BACKEND": "aws"}
    if endpoint:
        environ["ENGRAM_OPENSEARCH_ENDPOINT"] = endpoint
    # Then its init fails with a configuration error that names the problem
    with pytest.raises(ConfigurationError, match=problem):
        runtime.check_at_init(environ)


def test_outside_lambda_nothing_is_checked_at_import() -> None:
    runtime.check_at_init({"ENGRAM_BACKEND": "aws"})


def test_a_configuration_error_during_a_request_is_a_generic_500_never_a_400() -> None:
    response = runtime._from_engram(ConfigurationError("ENGRAM_OPENSEARCH_ENDPOINT is required"))
    assert response.status_code == 500
    assert response.body == '{"error": {"code": "internal_error", "message": "internal error"}}'
