"""The scheduled lifecycle functions (``functions/lifecycle``) driven by the EventBridge samples in
``events/scheduled/``: decay archives and expires, tiering promotes and demotes, the event's time
is the run's time, and a repeated event changes nothing."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engram.adapters.clock import FixedClock
from engram.engine import Engine
from engram.models import PatchRequest, RetainRequest
from engram.settings import Settings
from engram_http.loader import load_handler

SCHEDULED = Path(__file__).resolve().parents[2] / "events" / "scheduled"
EVENT_TIME = datetime(2026, 6, 1, 3, 0, tzinfo=UTC)
T0 = EVENT_TIME - timedelta(days=200)
SCOPE = "user:alice"

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def scheduled(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((SCHEDULED / f"{name}.json").read_text(encoding="utf-8"))
    return event


@pytest.fixture(autouse=True)
def quiet_powertools(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No X-Ray and no metric sink, set before the handler is loaded (see test_events)."""
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "WARNING")
    engram_logger = logging.getLogger("engram")
    level = engram_logger.level
    engram_logger.setLevel(logging.WARNING)
    yield
    engram_logger.setLevel(level)


@pytest.fixture
def installed(data_dir: Path) -> Iterator[tuple[Engine, dict[str, str]]]:
    """acme with three memories retained 200 days before the events' time, installed for the handler:
    an untouched one, a working one used often (promotable), and one that expired."""
    from engram_http.runtime import use_engine

    engine = Engine.local(Settings(data_dir=data_dir, background_embedding=False), clock=FixedClock(T0))
    engine.create_tenant("acme")

    def retain(text: str, **extra: object) -> str:
        body = {"scope": SCOPE, "text": text, "mode": "raw", **extra}
        return engine.retain("acme", RetainRequest.model_validate(body)).results[0].id

    ids = {
        "untouched": retain("The boiler was serviced by Hans"),
        "used": retain("Alice's daughter Mia is allergic to peanuts"),
        "expired": retain("The door code this week is 4471", expires_at=(T0 + timedelta(days=7)).isoformat()),
    }
    record = engine.store.records.get("acme", ids["used"])
    assert record is not None
    engine.store.records.update(
        "acme", record.model_copy(update={"importance": 0.9, "version": 2}), expected_version=1
    )
    engine.patch("acme", ids["used"], PatchRequest(tier="working"))
    for _ in range(12):
        engine.store.records.record_access("acme", [ids["used"]], EVENT_TIME - timedelta(hours=1))
    use_engine(engine)
    try:
        yield engine, ids
    finally:
        use_engine(None)
        engine.close()


def invoke(handler: str, event: dict[str, Any], remaining_ms: float = 900_000.0) -> Any:
    """Call one of ``functions/lifecycle/handler.py``'s entry points as Lambda calls it."""
    from engram_http.apigw import LocalContext

    context = LocalContext(
        function_name=f"engram-lifecycle-{handler}",
        aws_request_id=event["id"],
        deadline=time.monotonic() + remaining_ms / 1000.0,
    )
    return getattr(load_handler("lifecycle"), f"{handler}_handler")(event, context)


def test_the_decay_function_expires_and_archives_but_promotes_nothing(
    installed: tuple[Engine, dict[str, str]],
) -> None:
    # Given the three memories
    engine, ids = installed

    # When the decay function gets its scheduled event
    result = invoke("decay", scheduled("lifecycle.decay"))

    # Then the expired memory is deleted, the untouched one archived, the used one left in working
    (report,) = result["reports"]
    assert (result["rules"], report["rules"], report["now"]) == ("decay", "decay", "2026-06-01T03:00:00Z")
    assert (report["expired"], report["archived"], report["promoted"]) == (1, 1, 0)
    assert engine.store.records.get("acme", ids["expired"]) is None
    assert engine.get("acme", ids["untouched"]).tier == "archived"
    assert engine.get("acme", ids["used"]).tier == "working"


def test_the_tiering_function_promotes_but_neither_archives_nor_expires(
    installed: tuple[Engine, dict[str, str]],
) -> None:
    # Given the three memories
    engine, ids = installed

    # When the tiering function gets its scheduled event
    result = invoke("tiering", scheduled("lifecycle.tiering"))

    # Then the used memory is in core, the other two untouched
    (report,) = result["reports"]
    assert (report["promoted"], report["archived"], report["expired"]) == (1, 0, 0)
    assert engine.get("acme", ids["used"]).tier == "core"
    assert engine.get("acme", ids["untouched"]).tier == "peripheral"
    assert engine.store.records.get("acme", ids["expired"]) is not None


@pytest.mark.usefixtures("installed")
def test_a_redelivered_event_changes_nothing() -> None:
    # Given a decay run for the sample's time
    invoke("decay", scheduled("lifecycle.decay"))

    # When the same event is delivered again
    again = invoke("decay", scheduled("lifecycle.decay"))["reports"][0]

    # Then nothing more happens
    assert (again["expired"], again["archived"], again["promoted"], again["demoted"]) == (0, 0, 0, 0)


def test_an_event_naming_a_tenant_runs_only_that_tenant(installed: tuple[Engine, dict[str, str]]) -> None:
    # Given a second tenant and a decay event naming acme
    engine, _ = installed
    engine.create_tenant("globex")
    event = {**scheduled("lifecycle.decay"), "detail": {"tenant_id": "acme"}}

    # When the decay function gets it
    result = invoke("decay", event)

    # Then only acme ran
    assert [r["tenant_id"] for r in result["reports"]] == ["acme"]
    assert engine.store.reports.lifecycle_reports("globex") == []


def test_a_run_short_of_time_stops_after_a_page_and_the_next_invocation_resumes_it(
    installed: tuple[Engine, dict[str, str]],
) -> None:
    # Given pages of one memory and an invocation with less time left than the stop margin
    engine, _ = installed
    engine.configure_tenant("acme", {"lifecycle": {"job_page_size": 1}})
    event = scheduled("lifecycle.decay")

    # When the function is invoked short of time, then again with time to spare
    first = invoke("decay", event, remaining_ms=1_000.0)["reports"][0]
    second = invoke("decay", event)["reports"][0]

    # Then the first stopped after one page and the second finished the same run
    assert (first["status"], first["pages"]) == ("running", 1)
    assert (second["status"], second["run_id"], second["pages"]) == ("completed", first["run_id"], 3)
    assert (second["expired"], second["archived"]) == (1, 1)


def test_an_interrupted_decay_run_resumes_although_a_tiering_run_came_in_between(
    installed: tuple[Engine, dict[str, str]],
) -> None:
    # Given a decay run stopped after one page, then a complete tiering run
    engine, _ = installed
    engine.configure_tenant("acme", {"lifecycle": {"job_page_size": 1}})
    first = invoke("decay", scheduled("lifecycle.decay"), remaining_ms=1_000.0)["reports"][0]
    invoke("tiering", scheduled("lifecycle.tiering"))

    # When the decay event is delivered again
    second = invoke("decay", scheduled("lifecycle.decay"))["reports"][0]

    # Then it resumes the same decay run
    assert first["status"] == "running"
    assert (second["run_id"], second["status"]) == (first["run_id"], "completed")


def test_an_event_with_a_malformed_time_is_refused(installed: tuple[Engine, dict[str, str]]) -> None:
    # Given a decay event whose time is not a timestamp
    event = {**scheduled("lifecycle.decay"), "time": "yesterday"}

    # When the decay function gets it
    # Then it fails naming the field, and nothing ran
    from engram.errors import ValidationFailedError

    with pytest.raises(ValidationFailedError, match="time"):
        invoke("decay", event)
    assert installed[0].store.reports.lifecycle_reports("acme") == []
