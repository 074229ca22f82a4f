"""What every store keeps and for how long, and how a page position travels: one policy for both
backends (``tests/contract/`` runs one suite per port against each)."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta

from engram.errors import ValidationFailedError
from engram.models import Job

IDEMPOTENCY_TTL = timedelta(hours=24)
"""A retain's ``Idempotency-Key`` answers the same result for this long, then is forgotten."""
FINISHED_JOB_TTL = timedelta(days=30)
"""A finished job (succeeded or failed) can be read back for this long."""
LIFECYCLE_REPORTS_KEPT = 100
"""Lifecycle reports kept per tenant, newest first."""


def stored_time(text: str) -> datetime:
    """A time read back from a store; text written without a zone (SQLite's ``datetime('now')``)
    is UTC."""
    when = datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def idempotency_live(created_at: datetime, now: datetime) -> bool:
    """Whether an idempotency record written at ``created_at`` still answers at ``now``."""
    return now - created_at < IDEMPOTENCY_TTL


def job_live(job: Job, now: datetime) -> bool:
    """Whether a job can still be read at ``now``: open ones always, finished ones for their TTL."""
    return job.status in ("queued", "running") or now - job.updated_at < FINISHED_JOB_TTL


def encode_cursor(created_at: str, memory_id: str) -> str:
    """An opaque page position: after the memory created at ``created_at`` with ``memory_id``.

    >>> decode_cursor(encode_cursor("2026-12-01T10:00:00+00:00", "m1"))
    ('2026-12-01T10:00:00+00:00', 'm1')
    """
    return base64.urlsafe_b64encode(json.dumps([created_at, memory_id]).encode()).decode()


def decode_cursor(cursor: str) -> tuple[str, str]:
    """The position a cursor of ``encode_cursor`` holds; anything else is a 400."""
    try:
        created_at, memory_id = json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, TypeError) as exc:
        raise ValidationFailedError("cursor is not one this service issued") from exc
    if not isinstance(created_at, str) or not isinstance(memory_id, str):
        raise ValidationFailedError("cursor is not one this service issued")
    return created_at, memory_id
