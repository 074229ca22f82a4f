"""The stream's one consumer (``engram.indexing.consumer``): which events it publishes, and what
a failing bus or settings read reports, with hand-built batches (the DynamoDB-backed runs are in
tests/integration/test_events_stream.py and test_aws_faults.py)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any

from engram.events.changes import Event
from engram.indexing.consumer import consume


def _event(tenant_id: str, subject: str) -> Event:
    return Event(
        id=f"evt_{tenant_id}_{subject}",
        type="job.succeeded",
        tenant_id=tenant_id,
        occurred_at=datetime(2026, 12, 1, tzinfo=UTC),
        subject=subject,
        data={},
    )


BATCH = [("101", [_event("acme", "job_1")]), ("102", []), ("103", [_event("globex", "job_2")])]


class Index:
    """Applies nothing: the batches here hold no memory changes."""

    def upsert(self, *_: Any, **__: Any) -> None:
        raise AssertionError("no memory change to index")

    def remove(self, *_: Any, **__: Any) -> None:
        raise AssertionError("no memory change to index")


def test_only_the_publishing_tenants_events_are_put_and_the_others_dropped() -> None:
    # Given a batch with an event of two tenants, only acme publishing
    put: list[Event] = []

    def publish(events: Sequence[Event]) -> list[int]:
        put.extend(events)
        return []

    # When it is consumed
    result = consume(
        [None, None, None], BATCH, index=Index(), publish=publish, publishes=lambda t: {"acme"} & set(t)
    )
    # Then acme's event alone went to the bus, and nothing is retried
    assert [e.tenant_id for e in put] == ["acme"]
    assert (result.events.published, result.events.dropped, result.response()) == (
        1,
        1,
        {"batchItemFailures": []},
    )


def test_a_batch_no_tenant_publishes_never_calls_the_bus() -> None:
    # Given a bus that fails any call (as an unbuilt publisher would: no bus configured)
    def publish(events: Sequence[Event]) -> list[int]:
        raise AssertionError("the bus was called")

    # When no tenant of the batch publishes
    result = consume([None] * 3, BATCH, index=Index(), publish=publish, publishes=lambda t: set())
    # Then the batch is done
    assert result.response() == {"batchItemFailures": []}


def test_a_settings_read_or_a_bus_that_fails_outright_retries_from_the_first_event() -> None:
    # Given a settings read that fails (DynamoDB throttled), then a PutEvents that raises
    def unreadable(tenants: Collection[str]) -> set[str]:
        raise RuntimeError("throttled")

    def broken(events: Sequence[Event]) -> list[int]:
        raise RuntimeError("endpoint unreachable")

    for publish, publishes in ((broken, lambda t: set(t)), (lambda e: [], unreadable)):
        # When the batch is consumed
        result = consume([None] * 3, BATCH, index=Index(), publish=publish, publishes=publishes)
        # Then Lambda retries from the batch's first record with an event
        assert result.response() == {"batchItemFailures": [{"itemIdentifier": "101"}]}


def test_the_failures_of_both_parts_are_reported_in_stream_order() -> None:
    # Given a bus that refuses globex's event (the second put)
    result = consume(
        [None] * 3,
        BATCH,
        index=Index(),
        publish=lambda events: [len(events) - 1],
        publishes=lambda t: set(t),
    )
    # Then its record is reported (sequence numbers compare as numbers, not text)
    result.index.failures = ["99"]
    assert [f["itemIdentifier"] for f in result.response()["batchItemFailures"]] == ["99", "103"]
