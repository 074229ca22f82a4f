"""The state one recall carries from stage to stage."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from engram.models import MemoryRecord, RecallRequest, RerankTrace
from engram.ports import Conditions, Vector
from engram.recall.trace import NO_TRACE, Timer, Trace

if TYPE_CHECKING:
    from concurrent.futures import Future


@dataclass
class RecallState:
    """One recall between its stages; each stage reads what the ones before it set."""

    tenant_id: str
    request: RecallRequest
    conditions: Conditions
    method: str
    """The fusion: ``weighted``, ``rrf``, or one channel (``bm25``, ``vector``)."""
    now: datetime
    window: tuple[datetime, datetime] | None = None
    """The time span the query names, when the time channel is on."""
    pool: int = 25
    query_vector: Vector | None = None
    knn: list[tuple[str, float]] = field(default_factory=list)
    bm25: list[tuple[str, float]] = field(default_factory=list)
    bm25_hits: Future[list[tuple[str, float]]] | None = None
    """BM25's final hits, resolved by the words channel's thread before it reads their thread prior."""
    bm25_query: str | None = None
    """The words BM25 scored when not the query's (``gather.topic_hits``)."""
    vector_query: str | None = None
    """The words the query vector embeds when not the query's (``gather.vector_query``)."""
    ids: list[str] = field(default_factory=list)
    """The candidates, in the order found (k-NN, then BM25, then the others with a cosine)."""
    records: dict[str, MemoryRecord] = field(default_factory=dict)
    factors: dict[str, float] = field(default_factory=dict)
    """``stages.shape_factor`` of the records that came with BM25's hits (made beside the embedding)."""
    cos: dict[str, float] = field(default_factory=dict)
    fused: dict[str, float] = field(default_factory=dict)
    final: dict[str, float] = field(default_factory=dict)
    """Scores after the lifecycle prior and the length shaping, of those above ``min_score``."""
    chosen: list[str] = field(default_factory=list)
    reranked: RerankTrace | None = None
    trace: Trace = NO_TRACE
    timer: Timer = field(default_factory=Timer)
