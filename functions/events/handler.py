"""DynamoDB Streams -> EventBridge: every change of the system of record as events on the bus.

A second consumer of the table's stream, beside the indexer. Wired with ``ReportBatchItemFailures``
and an on-failure destination (a DLQ): a batch is retried from its first record whose events
could not be put, and what keeps failing lands in the DLQ. Needs only ``ENGRAM_EVENT_BUS`` and
``events:PutEvents`` on that bus.
"""

from __future__ import annotations

import os
import threading
from typing import Any

_publisher: Any = None
_lock = threading.Lock()


def publisher() -> Any:
    """The bus publisher (a function of a batch of events), built once per container from
    ``ENGRAM_EVENT_BUS``."""
    global _publisher
    if _publisher is None:
        with _lock:
            if _publisher is None:
                from engram.app import build_event_publisher
                from engram.settings import Settings

                _publisher = build_event_publisher(Settings.from_env(os.environ))
    return _publisher


def use_publisher(value: Any) -> None:
    """Install the publisher this process uses (tests)."""
    global _publisher
    _publisher = value


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    from engram.app import stream_events
    from engram.events.stream import publish_stream

    return publish_stream(stream_events(event.get("Records", [])), publisher()).response()


lambda_handler = handler  # the entry point every function of the stack names
