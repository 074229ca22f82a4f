"""What the contract suites build their rows from (see ``conftest.py`` for the backends)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from engram.adapters.clock import FixedClock
from engram.identity import content_hash, memory_id, receipt_id
from engram.models import DeletionLogEntry, HistoryEntry, MemoryRecord
from engram.ports import ALL_SCOPES, Conditions, KeyStore, MemoryStore, UsageLedger, Vector, WriteBatch

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
EVERY_SCOPE = Conditions(scopes=ALL_SCOPES)


@dataclass
class Backend:
    name: str
    store: MemoryStore
    keys: KeyStore
    usage: UsageLedger
    clock: FixedClock


def record(
    tenant: str, text: str, scope: str = "user:alice", *, minute: int = 0, **fields: Any
) -> MemoryRecord:
    at = T0 + timedelta(minutes=minute)
    return MemoryRecord(
        tenant_id=tenant,
        id=memory_id(tenant, scope, text),
        scope=scope,
        content=text,
        content_hash=content_hash(text),
        created_at=at,
        updated_at=at,
        **fields,
    )


def vector(seed: int) -> Vector:
    v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
    return v / np.linalg.norm(v)


def created(r: MemoryRecord) -> HistoryEntry:
    return HistoryEntry(memory_id=r.id, version=1, event="created", at=r.created_at, content=r.content)


def put(store: MemoryStore, *records: MemoryRecord, embed: bool = True) -> None:
    """Write records (each with its vector ``vector(i)`` unless ``embed`` is false) and history."""
    store.write(
        records[0].tenant_id,
        WriteBatch(
            records=list(records),
            vectors=[vector(i) if embed else None for i in range(len(records))],
            history=[created(r) for r in records],
        ),
    )


def log(tenant: str, reason: str = "forget") -> DeletionLogEntry:
    return DeletionLogEntry(receipt_id=receipt_id(), tenant_id=tenant, at=T0, ids=[], reason=reason)
