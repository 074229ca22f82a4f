"""The functions of every request log nothing on success at the level the stack gives them
(``WARN``): the API's access log line is a request's one record, which is what ``engram cost``
counts (``prices.LOG_BYTES_PER_INVOCATION``, #28)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engram.engine import Engine
from engram.models import RetainRequest
from engram_http.loader import load_handler

EVENTS_DIR = Path(__file__).resolve().parents[2] / "events"
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def invoke(function: str, name: str) -> Any:
    from engram_http.apigw import LocalContext

    event = json.loads((EVENTS_DIR / f"{name}.json").read_text(encoding="utf-8"))
    context = LocalContext(
        function_name=f"engram-{function}",
        aws_request_id=event["requestContext"]["requestId"],
        deadline=time.monotonic() + 30.0,
    )
    return load_handler(function).lambda_handler(event, context)


@pytest.fixture
def at_warn(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    """acme with one memory, the handlers' logger at WARN and metrics on, as the stack runs them."""
    from engram_http.runtime import metrics, use_engine

    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    monkeypatch.setattr(metrics, "namespace", "Engram", raising=False)
    engram_logger = logging.getLogger("engram")
    level = engram_logger.level
    engram_logger.setLevel(logging.WARNING)
    engine.retain("acme", RetainRequest(scope="user:alice", text="I prefer dark mode", mode="raw"))
    use_engine(engine)
    try:
        yield engine
    finally:
        use_engine(None)
        engram_logger.setLevel(level)


@pytest.mark.parametrize("function, sample", [("retain", "retain.post"), ("recall", "recall.post")])
def test_a_successful_request_logs_no_line(
    at_warn: Engine, function: str, sample: str, capfd: pytest.CaptureFixture[str]
) -> None:
    # Given the function at WARN with its metrics on, warmed by one call (a cold start may log)
    invoke(function, sample)
    capfd.readouterr()

    # When it answers a request
    response = invoke(function, sample)

    # Then it printed nothing: no log line and no metric line
    assert response["statusCode"] == 200
    printed = capfd.readouterr()
    assert printed.out == "" and printed.err == ""
