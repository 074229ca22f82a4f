"""DynamoDB Streams -> OpenSearch: keeps the search index in step with the system of record.

Wired with ``ReportBatchItemFailures`` and an on-failure destination (the DLQ): a batch that
fails is retried from its first failed record, and what keeps failing lands in the DLQ, from
which ``engram reindex`` recovers. No HTTP and no Powertools resolver: only the index adapter and,
for a memory whose vector item is not in the batch, the table's ``BatchGetItem`` of it.
"""

from __future__ import annotations

import functools
import os
from typing import Any

_installed: list[Any] = []
MARGIN_S = 2.0  # what the last bulk request keeps back before the function's timeout


@functools.cache
def _built() -> Any:
    from engram.app import build_search_index
    from engram.settings import Settings

    return build_search_index(Settings.from_env(os.environ))


def index() -> Any:
    """The search index: the one installed (tests), else built once per container from ``ENGRAM_*``."""
    return _installed[0] if _installed else _built()


def use_index(value: Any) -> None:
    """Install the index this process uses (tests; None: build it from the settings)."""
    _installed[:] = [] if value is None else [value]


@functools.cache
def _reader() -> Any:
    """The table's vector items (``ENGRAM_TABLE``), built on the first batch that needs them."""
    from engram.app import build_vector_reader
    from engram.settings import Settings

    return build_vector_reader(Settings.from_env(os.environ))


def _vectors(tenant_id: str, memory_ids: Any) -> Any:
    """The stored vectors of memories whose vector items are not in the batch."""
    return _reader()(tenant_id, memory_ids)


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    from engram import deadline
    from engram.app import stream_changes
    from engram.indexing.indexer import apply_stream

    remaining = getattr(context, "get_remaining_time_in_millis", None)
    with deadline.within(remaining() / 1000 - MARGIN_S if callable(remaining) else None):
        changes = stream_changes(event.get("Records", []), vectors=_vectors)
        result = apply_stream(changes, index())
    return result.response()


def _check_at_init() -> None:
    """Inside Lambda, a misconfigured indexer fails its init; the log says why."""
    if os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
        from engram.settings import Settings

        Settings.from_env(os.environ)  # every rule is a validator of Settings


lambda_handler = handler  # the entry point every function of the stack names
_check_at_init()
