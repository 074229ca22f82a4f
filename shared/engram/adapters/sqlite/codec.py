"""How a memory is laid out in the ``memories`` table: its columns, its vector, its document."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from engram.adapters.matching import iso
from engram.models import MemoryRecord
from engram.ports import Vector

KEEP_ACCESS = (
    "doc=json_set(?, '$.access_count', json_extract(doc, '$.access_count'),"
    " '$.last_accessed_at', json_extract(doc, '$.last_accessed_at'))"
)
"""The ``SET`` of a document that keeps the access bookkeeping the row has (recalls add to it)."""


def columns(record: MemoryRecord) -> dict[str, Any]:
    """A record's values for the memories table, by column (all but the embedding)."""
    return {
        "tenant_id": record.tenant_id,
        "id": record.id,
        "scope": record.scope,
        "category": record.category,
        "status": record.status,
        "tier": record.tier,
        "content_hash": record.content_hash,
        "session_id": record.source.session_id,
        "thread_id": record.thread,
        "created_at": iso(record.created_at),
        "occurred_at": iso(record.occurred_at),
        "version": record.version,
        "tags": json.dumps(record.tags),
        "metadata": json.dumps(record.metadata),
        "doc": record.model_dump_json(),
        "embedding_model": record.embedding_model,
    }


def with_stored_access(record: MemoryRecord, count: int | None, last: str | None) -> MemoryRecord:
    """``record`` with the access bookkeeping the row has now (recalls since it was read), unless
    the writer moved the last access itself (a restore restarts the decay clock)."""
    stored = datetime.fromisoformat(last) if last else None
    if record.last_accessed_at is not None and (stored is None or record.last_accessed_at > stored):
        return record.model_copy(update={"access_count": max(record.access_count, count or 0)})
    return record.model_copy(
        update={"access_count": max(record.access_count, count or 0), "last_accessed_at": stored}
    )


def record_of(doc: str) -> MemoryRecord:
    return MemoryRecord.model_validate_json(doc)


def vector_blob(vector: Vector | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


def blob_vector(blob: bytes | None) -> Vector | None:
    return None if blob is None else np.frombuffer(blob, dtype=np.float32)


def chunks(ids: Sequence[str], size: int = 500) -> Iterator[list[str]]:
    """``ids`` in lists of at most ``size`` (SQLite binds at most 999 parameters per statement)."""
    for start in range(0, len(ids), size):
        yield list(ids[start : start + size])


def marks(values: Sequence[Any]) -> str:
    """``?,?,…``: one placeholder per value."""
    return ",".join("?" * len(values))
