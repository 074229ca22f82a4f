"""The search index as the request path sees it on AWS, where the stream indexer owns its writes."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence

from engram.adapters.opensearch_index import OpenSearchIndex
from engram.errors import ProviderError
from engram.models import MemoryRecord
from engram.ports import Conditions, Vector

logger = logging.getLogger(__name__)


class StreamBackedIndex:
    """The index as the request path sees it on AWS, where the stream indexer owns its writes.

    Reads go to OpenSearch and fail loudly (``ProviderError``); ``upsert`` and ``remove`` are a
    best-effort head start for read-your-writes: when they fail the write is already durable in
    DynamoDB and the stream indexer applies it once OpenSearch is back, so the request succeeds.
    """

    def __init__(self, inner: OpenSearchIndex) -> None:
        self.inner = inner

    follows_upserts_only = False
    indexes_unembedded = False

    def rebuild_target(self) -> OpenSearchIndex:
        """OpenSearch itself: a rebuild's failures show instead of being left to the stream."""
        return self.inner.rebuild_target()

    def indexed_ids(self, tenant_id: str) -> Iterator[str]:
        return self.inner.indexed_ids(tenant_id)

    def upsert(
        self, tenant_id: str, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]
    ) -> None:
        try:
            self.inner.upsert(tenant_id, records, vectors)
        except ProviderError:
            logger.warning("index write deferred to the stream indexer", exc_info=True)

    def remove(
        self, tenant_id: str, memory_ids: Sequence[str], *, states: Sequence[MemoryRecord] = ()
    ) -> None:
        try:
            self.inner.remove(tenant_id, memory_ids, states=states)
        except ProviderError:
            logger.warning("index delete deferred to the stream indexer", exc_info=True)

    def forget_tenant(self, tenant_id: str) -> int:
        return self.inner.forget_tenant(tenant_id)

    def candidates(
        self, tenant_id: str, vector: Vector, query: str, k: int, conditions: Conditions
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]], dict[str, float]]:
        return self.inner.candidates(tenant_id, vector, query, k, conditions)

    def knn(self, tenant_id: str, vector: Vector, k: int, conditions: Conditions) -> list[tuple[str, float]]:
        return self.inner.knn(tenant_id, vector, k, conditions)

    def knn_many(
        self, tenant_id: str, vectors: Vector, k: int, conditions: Conditions
    ) -> list[list[tuple[str, float]]]:
        return self.inner.knn_many(tenant_id, vectors, k, conditions)

    def bm25(
        self, tenant_id: str, query: str, k: int, conditions: Conditions, *, context_weight: float = 0.0
    ) -> list[tuple[str, float]]:
        return self.inner.bm25(tenant_id, query, k, conditions)

    def cosines(self, tenant_id: str, vector: Vector, memory_ids: Sequence[str]) -> dict[str, float]:
        return self.inner.cosines(tenant_id, vector, memory_ids)

    def vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        return self.inner.vectors(tenant_id, memory_ids)
