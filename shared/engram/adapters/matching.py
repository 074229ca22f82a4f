"""``Conditions`` evaluated on a ``MemoryRecord`` in Python.

The SQLite adapter turns conditions into SQL; stores and indexes that cannot (DynamoDB, the
in-memory index) evaluate them here, so every backend answers the same question the same way.
"""

from __future__ import annotations

from datetime import UTC, datetime

from engram.models import MemoryRecord
from engram.ports import Conditions


def iso(value: datetime | None) -> str | None:
    """A sortable UTC timestamp string (microseconds, ``Z``), or None.

    >>> iso(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    '2026-01-02T03:04:05.000000Z'
    """
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _in_range(value: datetime | None, bounds: tuple[datetime | None, datetime | None]) -> bool:
    low, high = bounds
    if low is None and high is None:
        return True
    if value is None:
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def matches(record: MemoryRecord, conditions: Conditions) -> bool:
    """Whether the record meets every condition (the tenant is checked by the caller's key)."""
    if not conditions.scopes.allows(record.scope):
        return False
    if conditions.statuses and record.status not in conditions.statuses:
        return False
    if conditions.categories and record.category not in conditions.categories:
        return False
    if conditions.tiers and record.tier not in conditions.tiers:
        return False
    if conditions.exclude_tiers and record.tier in conditions.exclude_tiers:
        return False
    if conditions.session_id is not None and record.source.session_id != conditions.session_id:
        return False
    if conditions.tags_any and not set(conditions.tags_any) & set(record.tags):
        return False
    if conditions.tags_all and not set(conditions.tags_all) <= set(record.tags):
        return False
    for key, values in conditions.metadata:
        if key not in record.metadata or record.metadata[key] not in values:
            return False
    if conditions.valid_at is not None:  # what was true then: valid_from <= t < valid_until
        if (record.valid_from or record.created_at) > conditions.valid_at:
            return False
        if record.valid_until is not None and record.valid_until <= conditions.valid_at:
            return False
    return _in_range(record.occurred_at, conditions.occurred_at) and _in_range(
        record.created_at, conditions.created_at
    )
