"""Ports: the typed contracts between the services and their adapters.

The store's ports, one per concern, are in ``engram.ports.store`` (and importable from here).
Every store and index method takes the tenant id as its first argument; an adapter must never
read, change or count another tenant's data, whatever else it is given. Scores are floats where
higher is better; their ranges are stated per method.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from engram.models import ExtractedMemory, Job, MemoryRecord, Message
from engram.ports.store import DeletionLog as DeletionLog
from engram.ports.store import EmbeddingBacklog as EmbeddingBacklog
from engram.ports.store import IdempotencyRecords as IdempotencyRecords
from engram.ports.store import JobStore as JobStore
from engram.ports.store import KeyStore as KeyStore
from engram.ports.store import LifecycleReports as LifecycleReports
from engram.ports.store import MemoryHistory as MemoryHistory
from engram.ports.store import MemoryRecords as MemoryRecords
from engram.ports.store import Store as Store
from engram.ports.store import TenantRegistry as TenantRegistry
from engram.ports.store import UsageLedger as UsageLedger
from engram.ports.values import ConditionalUpdate as ConditionalUpdate
from engram.ports.values import Conditions as Conditions
from engram.ports.values import MemoryChange as MemoryChange
from engram.ports.values import Page as Page
from engram.ports.values import Vector as Vector
from engram.ports.values import WriteBatch as WriteBatch
from engram.scopes import ScopeSet


@runtime_checkable
class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


@runtime_checkable
class Embedder(Protocol):
    model_id: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> Vector:
        """Embed texts into an (n, dimension) float32 array of unit vectors."""
        ...


@runtime_checkable
class Extractor(Protocol):
    def extract(self, messages: Sequence[Message], *, reference_time: datetime) -> list[ExtractedMemory]:
        """Memories worth keeping from a conversation; relative dates resolve against reference_time."""
        ...


@dataclass(frozen=True)
class LlmAnswer:
    """A structured answer of a language model and what it cost."""

    data: dict[str, Any]
    """The JSON object the model returned (not yet validated against the schema)."""
    input_tokens: int = 0
    output_tokens: int = 0


@runtime_checkable
class LLM(Protocol):
    """A language model that answers with one JSON object shaped by a JSON schema (DESIGN §5)."""

    provider: str
    """``bedrock``, ``openai``: with ``model_id``, the label its usage is metered under."""
    model_id: str

    def complete_json(self, *, system: str, user: str, name: str, schema: dict[str, Any]) -> LlmAnswer:
        """Ask once (retries and the deadline are the adapter's); ``ProviderError`` on failure.

        ``name`` names the schema (``engram_extraction``, ``engram_dedup_decision``); ``system``
        holds the instructions, ``user`` the data.
        """
        ...


@runtime_checkable
class JobQueue(Protocol):
    """Where accepted asynchronous retains wait for a worker (SQS in the cloud)."""

    def enqueue(self, tenant_id: str, job_id: str) -> None:
        """Hand a durable job to the workers; raises if it could not be handed over."""
        ...


class StepQueue(Protocol):
    """Where tenant-wide work waits in resumable steps (an erasure, a lifecycle run per tenant)."""

    def send(self, step: dict[str, Any]) -> None:
        """Hand one step (a JSON object) to the step worker; raises if it could not."""
        ...


class BlobStore(Protocol):
    """Objects too large for the store's items or a response (S3 in the cloud)."""

    def put(self, key: str, data: bytes) -> None: ...

    def get(self, key: str) -> bytes | None:
        """The object, or None if there is none."""
        ...

    def delete(self, key: str) -> None: ...

    def delete_prefix(self, prefix: str) -> int:
        """Delete every object under ``prefix``; returns how many."""
        ...

    def upload_file(self, key: str, path: str) -> None: ...

    def presigned_get(self, key: str, expires_s: int) -> str:
        """A URL that fetches the object without credentials until it expires."""
        ...

    def presigned_put(self, key: str, expires_s: int) -> str:
        """A URL that stores the object (an HTTP ``PUT`` of its bytes) without credentials until
        it expires."""
        ...

    def size(self, key: str) -> int | None:
        """The object's size in bytes, or None if there is none."""
        ...


@runtime_checkable
class Reranker(Protocol):
    """A cross-encoder: how well each document answers the query."""

    provider: str
    model_id: str

    def rerank(self, query: str, documents: Sequence[str]) -> list[float]:
        """A relevance score in [0, 1] per document, in the documents' order; ``ProviderError``
        on failure (recall then keeps its fused order)."""
        ...


@runtime_checkable
class SearchIndex(Protocol):
    """Derived, rebuildable search structures over the active memories of each tenant.

    Whoever changes in the store what the index holds (vectors, text, scope, status, tier,
    category, dates) calls ``upsert`` or ``remove`` right after the store commits.
    """

    indexes_unembedded: bool
    """True when a memory upserted without a vector is searchable by BM25 at once (k-NN skips it
    until its vector arrives); False when such memories are left out until they have one."""

    follows_upserts_only: bool
    """True when the index learns of writes only through ``upsert``/``remove`` (not by reading the
    store): it must then not be read between a batch's ``set_embeddings`` and its ``upsert``."""

    def knn(self, tenant_id: str, vector: Vector, k: int, conditions: Conditions) -> list[tuple[str, float]]:
        """Top-k ids by cosine in [-1, 1], among memories meeting ``conditions``."""
        ...

    def knn_many(
        self, tenant_id: str, vectors: Vector, k: int, conditions: Conditions
    ) -> list[list[tuple[str, float]]]:
        """``knn`` for each row of ``vectors`` in one pass (used by retain's dedup)."""
        ...

    def bm25(
        self, tenant_id: str, query: str, k: int, conditions: Conditions, *, context_weight: float = 0.0
    ) -> list[tuple[str, float]]:
        """Top-k ids by BM25 (>= 0, higher is better), among memories meeting ``conditions``.

        With ``context_weight`` > 0, a transcript turn's document also holds the turns before and
        after it in its thread at that field weight (BM25F). The embedded index does; the others
        (OpenSearch, the in-process index over DynamoDB) rank by the turn alone."""
        ...

    def cosines(self, tenant_id: str, vector: Vector, memory_ids: Sequence[str]) -> dict[str, float]:
        """Cosine of ``vector`` with each listed memory of this tenant (missing or unembedded ids
        are left out)."""
        ...

    def vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]: ...

    def upsert(
        self, tenant_id: str, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]
    ) -> None:
        """Add or replace records; ``vectors[i]`` is the stored vector of ``records[i]``, or None
        while it has none (see ``indexes_unembedded``)."""
        ...

    def remove(
        self, tenant_id: str, memory_ids: Sequence[str], *, states: Sequence[MemoryRecord] = ()
    ) -> None:
        """Take memories out of the index. ``states``: the removal state of some of them, when known
        (the archived record, or ``removed_state(record)`` for a hard delete), so that an index
        with versions never lets a delete remove a later write."""

    def forget_tenant(self, tenant_id: str) -> object:
        """Drop everything the index holds of the tenant (its erasure)."""
        ...

    def indexed_ids(self, tenant_id: str) -> Iterator[str]:
        """Every memory id the index holds for the tenant (a clean rebuild removes those the store
        no longer has)."""
        ...

    def rebuild_target(self) -> SearchIndex:
        """The index a rebuild (``engram reindex``) writes to, set up and ready (a remote index puts
        its template and pipelines first), whose failures show rather than being deferred."""
        ...


@runtime_checkable
class ThreadSearch(Protocol):
    """Optional beside ``SearchIndex``: how well each memory's whole thread matches a query."""

    def thread_scores(
        self, tenant_id: str, query: str, conditions: Conditions, memory_ids: Sequence[str]
    ) -> dict[str, float]:
        """For each listed memory of a thread, that thread's BM25 for ``query`` with all its turns
        (meeting ``conditions``) as one document, divided by the best thread's: in (0, 1]."""
        ...


@runtime_checkable
class ThreadNeighbours(Protocol):
    """Optional beside ``SearchIndex``: ``MemoryRecords.neighbours`` from the index's own thread
    links (no store round trip), where the index can answer for these conditions."""

    def neighbours(
        self, tenant_id: str, memory_ids: Sequence[str], conditions: Conditions, span: int
    ) -> dict[str, list[str]] | None:
        """What ``MemoryRecords.neighbours`` answers, or None when the index cannot tell (the
        store's answer stands then)."""
        ...


@runtime_checkable
class SpeakerLabels(Protocol):
    """Optional beside ``SearchIndex``: who speaks in the tenant's transcript turns."""

    def speakers(self, tenant_id: str, scopes: ScopeSet) -> frozenset[str]:
        """The first names, lower-cased, of the speaker labels ("Priya: …") that open the tenant's
        indexed memories in ``scopes``; it may still hold a name whose turns are all gone (never
        less)."""
        ...


@runtime_checkable
class CandidateSearch(Protocol):
    """Optional beside ``SearchIndex``: recall's candidates in one round trip to a remote index."""

    def candidates(
        self, tenant_id: str, vector: Vector, query: str, k: int, conditions: Conditions
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]], dict[str, float]]:
        """(top-k by cosine, top-k by BM25, the cosine of every id in either list)."""
        ...


class UsagePlanRegistry(Protocol):
    """Where a cloud deployment meters tenants (API Gateway usage plans); absent locally."""

    def enroll(self, tenant_id: str, tier: str | None = None) -> str:
        """Give the tenant its usage-plan key (idempotent); returns the key's id."""
        ...

    def withdraw(self, tenant_id: str) -> int:
        """Delete the tenant's usage-plan key(s); returns how many went."""
        ...


def removed_state(record: MemoryRecord) -> MemoryRecord:
    """The state a hard delete leaves: one version after the record's last (an index orders it so)."""
    return record.model_copy(update={"version": record.version + 1})


class JobRunner(Protocol):
    """Runs accepted jobs in this process (locally: ``engram.background.jobs``), when there is
    no job queue."""

    def submit(self, tenant_id: str, job: Job) -> None: ...


@dataclass(frozen=True)
class Ports:
    """The ports an operation that reads, writes and embeds works with, as one argument
    (a service builds it from the ports it names; a metered operation's embedder counts its use)."""

    records: MemoryRecords
    index: SearchIndex
    embedder: Embedder
    clock: Clock


_SUPPORTS: dict[tuple[type, type], bool] = {}


def supports(port: object, protocol: type) -> bool:
    """``isinstance(port, protocol)`` for an optional runtime-checkable port, remembered per class:
    the check itself reads every member of the protocol each time (~30 µs, several a recall). A
    class that answers attributes itself (``__getattr__``: a proxy) is asked each time.
    It does not narrow the type: a caller ``cast``s the port to the protocol it checked.

    >>> supports(object(), ThreadSearch)
    False
    """
    kind = type(port)
    if hasattr(kind, "__getattr__"):  # a proxy: what it offers depends on what it wraps
        return isinstance(port, protocol)
    known = _SUPPORTS.get((kind, protocol))
    if known is None:
        known = _SUPPORTS[(kind, protocol)] = isinstance(port, protocol)
    return known
