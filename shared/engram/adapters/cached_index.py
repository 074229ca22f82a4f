"""What the two in-process search indexes share: a cache per tenant under one lock, and their
bookkeeping around it.

``InMemoryIndex`` (over any store) and ``SqliteIndex`` (the embedded default) keep each tenant's
vectors and postings in this process. They differ in how a tenant's cache is loaded and kept
current (``_cache``) and in how its rows are ranked (``_bm25``, ``knn``); taking memories out,
forgetting a tenant, listing what is held, BM25's early outs and which tenants' caches to drop
for room (the least recently searched) are the same, and live here.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Generic, Protocol, Self, TypeVar

from engram.adapters.text_index import Fts5Tokenizer, query_terms
from engram.models import MemoryRecord
from engram.ports import Conditions


class TenantCache(Protocol):
    """One tenant's rows: ``ids[row]`` is the memory of a row, ``row_of`` the live row of a memory."""

    ids: list[str]
    row_of: dict[str, int]

    def remove(self, memory_id: str) -> None: ...


CacheT = TypeVar("CacheT", bound=TenantCache)
QUERY_TERMS_KEPT = 256


class CachedIndex(ABC, Generic[CacheT]):
    """Thread-safe; every method is scoped to one tenant's own cache."""

    def __init__(self) -> None:
        self.tokenizer = Fts5Tokenizer()
        self._terms: dict[str, tuple[str, ...]] = {}
        self._lock = threading.RLock()
        self._tenants: dict[str, CacheT] = {}

    @abstractmethod
    def _cache(self, tenant_id: str) -> CacheT:
        """The tenant's cache, current (loaded on first use); called under the lock."""

    @abstractmethod
    def _bm25(
        self,
        tenant_id: str,
        cache: CacheT,
        terms: list[str],
        k: int,
        conditions: Conditions,
        context_weight: float,
    ) -> list[tuple[str, float]]:
        """``bm25`` over a cache with at least one row, for a query with terms and ``k`` > 0."""

    def query_terms(self, query: str) -> list[str]:
        """``text_index.query_terms`` of a query, kept for the last queries: one recall asks for
        the terms of its query twice (BM25, the thread prior) and the tokenizer is a SQLite trip."""
        terms = self._terms.get(query)
        if terms is None:
            terms = tuple(query_terms(query, self.tokenizer))
            if len(self._terms) >= QUERY_TERMS_KEPT:
                self._terms.clear()
            self._terms[query] = terms
        return list(terms)

    def bm25(
        self, tenant_id: str, query: str, k: int, conditions: Conditions, *, context_weight: float = 0.0
    ) -> list[tuple[str, float]]:
        terms = self.query_terms(query)
        if not terms or k <= 0:
            return []
        with self._lock:
            cache = self._cache(tenant_id)
            return self._bm25(tenant_id, cache, terms, k, conditions, context_weight) if cache.ids else []

    def remove(
        self, tenant_id: str, memory_ids: Sequence[str], *, states: Sequence[MemoryRecord] = ()
    ) -> None:
        with self._lock:
            cache = self._tenants.get(tenant_id)
            if cache is not None:
                for memory_id in memory_ids:
                    cache.remove(memory_id)

    def _make_room(self, kept: str, rows: int) -> None:
        """Drop the least recently searched tenants' caches until all hold at most ``rows`` rows
        (``kept``, just loaded or grown, stays whatever its size; a dropped tenant loads on its next
        search).
        Called under the lock; ``_searched`` keeps the order."""
        total = sum(len(cache.ids) for cache in self._tenants.values())
        for tenant_id in list(self._tenants):
            if total <= rows:
                return
            if tenant_id != kept:
                total -= len(self._tenants.pop(tenant_id).ids)

    def _searched(self, tenant_id: str, cache: CacheT) -> None:
        """Keep the tenant's cache as the most recently searched (the dict's last: dropped last)."""
        self._tenants.pop(tenant_id, None)
        self._tenants[tenant_id] = cache

    def forget_tenant(self, tenant_id: str) -> None:
        """Drop the tenant's cache (its next query loads it again from the store)."""
        with self._lock:
            self._tenants.pop(tenant_id, None)

    def indexed_ids(self, tenant_id: str) -> Iterator[str]:
        with self._lock:
            return iter(list(self._cache(tenant_id).row_of))

    def rebuild_target(self) -> Self:
        return self
