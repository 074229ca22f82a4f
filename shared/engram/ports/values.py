"""The values the ports exchange: a vector, the conditions of a search or listing, a write batch,
a conditional update, a page, a change of a memory (none of them refers to a port)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from engram.models import HistoryEntry, MemoryRecord
from engram.scopes import ScopeSet

Vector = npt.NDArray[np.float32]
"""A float32 array; one row per text, L2-normalised, so a dot product is the cosine."""


@dataclass(frozen=True)
class Conditions:
    """What a candidate must satisfy *before* ranking. Built only by ``engram.ports.query``.

    ``scopes`` names the scopes a search may see, or is ``ScopeSet.every()`` for every scope of
    the tenant (a caller whose credential is not limited to some scopes).
    """

    scopes: ScopeSet
    statuses: tuple[str, ...] = ("active",)
    categories: tuple[str, ...] = ()
    tiers: tuple[str, ...] = ()
    tags_any: tuple[str, ...] = ()
    tags_all: tuple[str, ...] = ()
    session_id: str | None = None
    metadata: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    occurred_at: tuple[datetime | None, datetime | None] = (None, None)
    created_at: tuple[datetime | None, datetime | None] = (None, None)
    exclude_tiers: tuple[str, ...] = ("archived",)
    valid_at: datetime | None = None
    """When set, only memories valid at that time: ``valid_from`` (else ``created_at``) at or
    before it and ``valid_until`` unset or after it (recall's ``as_of``)."""


@dataclass
class WriteBatch:
    """Everything one operation writes: the records whole or not at all, then their history,
    then the idempotency result, each only after the one before; a failure between them leaves
    whole records, which writing the same batch again completes without writing anything twice."""

    records: list[MemoryRecord] = field(default_factory=list)
    vectors: list[Vector | None] = field(default_factory=list)
    """One per record; None stores the record unembedded (``pending_embedding`` finds it)."""
    history: list[HistoryEntry] = field(default_factory=list)
    idempotency: tuple[str, str, list[dict[str, Any]]] | None = None
    """(key, request fingerprint, content-free results) for a retain with an idempotency key."""


@dataclass(frozen=True)
class ConditionalUpdate:
    """Replace ``record`` only if the stored version is still ``expected_version`` (with its history)."""

    record: MemoryRecord
    expected_version: int
    history: HistoryEntry | None = None


@dataclass(frozen=True)
class Page:
    records: list[MemoryRecord]
    next_cursor: str | None


@dataclass(frozen=True)
class MemoryChange:
    """One change of a memory as the system of record's change stream tells it (DynamoDB Streams).

    ``new`` and ``old`` are the records after and before (``None`` where the stream has no image,
    or one that belongs to another tenant than the key); ``index_changed`` is false when only what
    the search index ignores changed (access counts and versions, which every recall writes).
    """

    sequence: str
    event: Literal["INSERT", "MODIFY", "REMOVE"]
    tenant_id: str
    memory_id: str
    new: MemoryRecord | None
    vector: Vector | None
    old: MemoryRecord | None
    index_changed: bool
