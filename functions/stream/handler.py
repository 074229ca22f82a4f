"""DynamoDB Streams -> OpenSearch and EventBridge: the table stream's one consumer.

Each batch is applied to the search index (the system of record's changes kept in step), then
its events go on the bus for the tenants that publish them (``events.publish``, read from the
table a minute at a time). Wired with ``ReportBatchItemFailures``, bisection and an on-failure
destination (the DLQ): a batch is retried from the first record either part failed, and what
keeps failing lands in the DLQ (``engram.indexing.consumer`` says what each part's failure does
to the other). No HTTP and no Powertools resolver: the index adapter, the table's
``BatchGetItem`` (the vector items a batch does not hold, the tenants' settings) and
``events:PutEvents`` on the stack's bus.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

_installed: dict[str, Any] = {}
MARGIN_S = 2.0  # what the last request keeps back before the function's timeout


@functools.cache
def _settings() -> Any:
    from engram.settings import Settings

    return Settings.from_env(os.environ)


@functools.cache
def _built(part: str) -> Any:
    """One part built once per container from ``ENGRAM_*``: the index, the vector reader, the
    bus publisher (only when a batch has events to put) or the publishing tenants."""
    from engram import app

    builders: dict[str, Callable[[Any], Any]] = {
        "index": app.build_search_index,
        "vectors": app.build_vector_reader,
        "publisher": app.build_event_publisher,
        "publishing": app.build_publishing_tenants,
    }
    return builders[part](_settings())


def _part(name: str) -> Any:
    return _installed[name] if name in _installed else _built(name)


def use(**parts: Any) -> None:
    """Install parts this process uses (tests): ``index``, ``vectors``, ``publisher``,
    ``publishing``; None removes one (it is built from the settings again)."""
    for name, value in parts.items():
        if value is None:
            _installed.pop(name, None)
        else:
            _installed[name] = value


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    from engram import deadline
    from engram.app import stream_changes, stream_events
    from engram.indexing.consumer import consume

    records = event.get("Records", [])
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    with deadline.within(remaining() / 1000 - MARGIN_S if callable(remaining) else None):
        result = consume(
            stream_changes(records, vectors=lambda t, ids: _part("vectors")(t, ids)),
            stream_events(records),
            index=_part("index"),
            publish=lambda events: _part("publisher")(events),
            publishes=lambda tenants: _part("publishing")(tenants),
        )
    return result.response()


def _check_at_init() -> None:
    """Inside Lambda, a misconfigured consumer fails its init; the log says why."""
    if os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
        _settings()  # every rule is a validator of Settings


lambda_handler = handler  # the entry point every function of the stack names
_check_at_init()
