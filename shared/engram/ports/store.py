"""The system of record's ports, one per concern; ``Store`` is the store composed of them.

Every method takes the tenant id as its first argument (the tenant registry's cross-tenant
listings excepted); an adapter never reads, changes or counts another tenant's rows, whatever
else it is given. What is kept and for how long (TTLs, kept counts, the cursor) is
``engram.adapters.store_policy``'s, the same on every backend; ``tests/contract/`` runs one
suite per port against each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, Required, TypedDict, Unpack, runtime_checkable

from engram.models import (
    DeletionLogEntry,
    HistoryEntry,
    Job,
    LifecycleReport,
    MemoryRecord,
    StatsResponse,
    Tenant,
)

if TYPE_CHECKING:
    from engram.ports.values import ConditionalUpdate, Conditions, Page, Vector, WriteBatch
    from engram.records import ApiKeyRecord


class Selection(TypedDict, total=False):
    """``select_ids``'s keywords: only memories created before ``older_than``, at most ``limit``."""

    older_than: datetime | None
    limit: int | None


class Paging(TypedDict, total=False):
    """``list_page``'s keywords: the page after ``cursor`` (None: the first), of ``limit`` memories,
    only those tagged ``tag`` if given."""

    cursor: Required[str | None]
    limit: Required[int]
    tag: str | None


class Change(TypedDict, total=False):
    """``update``'s keywords: the version the record must still have, the history entry written
    with it, and a new vector (None keeps the stored one)."""

    expected_version: Required[int]
    history: HistoryEntry | None
    vector: Vector | None


@runtime_checkable
class TenantRegistry(Protocol):
    """Tenants with their setting overrides; ``Tenant.erasing`` marks one being erased."""

    def create_tenant(self, tenant: Tenant) -> None:
        """Insert a new tenant; ``ConflictError`` if the id is taken."""
        ...

    def get_tenant(self, tenant_id: str) -> Tenant | None: ...
    def set_tenant_settings(self, tenant_id: str, overrides: dict[str, Any]) -> bool:
        """Replace the tenant's setting overrides; False if there is no such tenant."""
        ...

    def list_tenants(self) -> list[Tenant]: ...
    def erase_tenant(self, tenant_id: str, *, should_stop: Callable[[], bool] | None = None) -> int:
        """Delete everything of the tenant, the tenant itself last; returns the memories removed.
        A store that erases in steps first marks the tenant ``erasing`` and stops between
        batches once ``should_stop()`` says so: the tenant is then still there (erasing), and
        calling again goes on where it stopped."""
        ...


@runtime_checkable
class MemoryRecords(Protocol):
    """Memories with their vectors: reads, listings in creation order, and atomic writes."""

    def get(self, tenant_id: str, memory_id: str) -> MemoryRecord | None: ...
    def get_many(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]: ...
    def find_by_hash(self, tenant_id: str, scope: str, content_hash: str) -> MemoryRecord | None:
        """The active memory of the scope with this content hash, if any. A store may leave out a
        memory whose id is the one its text derives (``identity.memory_id`` of its tenant, scope
        and content: unchanged since it was made), which the caller reads by that id; DynamoDB's
        hash index lists only the others (#28)."""
        ...

    def neighbours(
        self, tenant_id: str, memory_ids: Sequence[str], conditions: Conditions, span: int
    ) -> dict[str, list[str]]:
        """For each listed memory of a thread (``MemoryRecord.thread``: its session, else the retain
        batch it came in), up to ``span`` memories before and after it in the same scope and
        thread, in the order they were retained (creation time: retain spaces a batch's items a
        microsecond apart), that meet ``conditions``."""
        ...

    def get_vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        """The stored vector of each listed memory of this tenant (unembedded or missing ids are left out).

        The index drops archived memories; this is where their vectors come back from on a restore.
        A store may keep them at half precision (DynamoDB's: each component within 2^-11 of itself).
        """
        ...

    def select_ids(self, tenant_id: str, conditions: Conditions, **selection: Unpack[Selection]) -> list[str]:
        """Ids meeting ``conditions`` (created before ``older_than``), in creation order."""
        ...

    def list_page(self, tenant_id: str, conditions: Conditions, **paging: Unpack[Paging]) -> Page:
        """One page in creation order; ``next_cursor`` (opaque, ``store_policy``) for the next."""
        ...

    def iter_records(self, tenant_id: str) -> Iterator[tuple[MemoryRecord, Vector | None]]: ...
    def stats(self, tenant_id: str, *, scopes: Sequence[str] | None = None) -> StatsResponse:
        """Counts over the tenant's memories, or only those in ``scopes``; usage only for the whole tenant."""
        ...

    def write(self, tenant_id: str, batch: WriteBatch) -> None:
        """Insert or replace records (with vectors), history and idempotency, atomically."""
        ...

    def update(self, tenant_id: str, record: MemoryRecord, **change: Unpack[Change]) -> bool:
        """Replace a record only if its stored version is ``expected_version``; False if not. The
        stored access count and last access (which recalls add to) are kept, unless the record
        moves the last access itself."""
        ...

    def update_many(
        self, tenant_id: str, updates: Sequence[ConditionalUpdate], *, report: LifecycleReport | None = None
    ) -> list[str]:
        """Apply each update whose record is still at its expected version and access count (no
        write and no recall since it was read; stored vectors are kept),
        skip the others, and return the ids applied. ``report``, if given, is stored after them
        (``put_lifecycle_report``), in the same transaction where the backend has one, so a resumed
        run never counts a change twice. Each update on its own is atomic; the batch need not be.
        """
        ...

    def record_access(self, tenant_id: str, memory_ids: Sequence[str], at: datetime) -> None:
        """access_count + 1 and last_accessed_at = ``at``; the version stays (it counts changes,
        each with a history entry)."""
        ...

    def delete(self, tenant_id: str, memory_ids: Sequence[str], log: DeletionLogEntry) -> list[str]:
        """Hard-delete records, vectors, text index rows and history; write the log; return ids gone."""
        ...


@runtime_checkable
class MemoryHistory(Protocol):
    """Each memory's changes, oldest first (written with the change, deleted with the memory)."""

    def history(self, tenant_id: str, memory_id: str) -> list[HistoryEntry]: ...


@runtime_checkable
class DeletionLog(Protocol):
    """Content-free receipts of hard deletes (ids and reason), written by ``MemoryRecords.delete``."""

    def deletion_log(self, tenant_id: str) -> list[DeletionLogEntry]: ...


@runtime_checkable
class IdempotencyRecords(Protocol):
    """A retain's answer per ``Idempotency-Key`` (written through ``WriteBatch.idempotency``)."""

    def idempotent_result(self, tenant_id: str, key: str) -> tuple[str, list[dict[str, Any]]] | None:
        """(request fingerprint, content-free results) stored for a key, if any and still live."""
        ...


@runtime_checkable
class JobStore(Protocol):
    """Asynchronous retains: open ones until they finish, finished ones for their TTL."""

    def put_job(self, tenant_id: str, job: Job) -> None: ...
    def get_job(self, tenant_id: str, job_id: str) -> Job | None: ...
    def pending_jobs(self) -> list[tuple[str, Job]]:
        """(tenant, job) of every tenant's job still queued or running (a stopped process's)."""
        ...


@runtime_checkable
class LifecycleReports(Protocol):
    """What each lifecycle run did, per tenant."""

    def put_lifecycle_report(self, tenant_id: str, report: LifecycleReport) -> None:
        """Insert or replace a lifecycle run's report, keyed by ``report.run_id``; a completed run
        keeps only the tenant's newest ``LIFECYCLE_REPORTS_KEPT``."""
        ...

    def lifecycle_reports(self, tenant_id: str, limit: int = 10) -> list[LifecycleReport]:
        """The tenant's lifecycle reports, most recently started first."""
        ...


@runtime_checkable
class EmbeddingBacklog(Protocol):
    """Memories stored without a vector, waiting for the embedder."""

    def pending_embedding(self, tenant_id: str, limit: int) -> list[tuple[str, str, str]]:
        """(id, content, content_hash) of memories stored without a vector, oldest first."""
        ...

    def set_embeddings(
        self, tenant_id: str, items: Sequence[tuple[str, str, Vector]], model_id: str
    ) -> list[str]:
        """Store vectors for (id, content_hash) pairs still unembedded with that text; ids updated."""
        ...

    def tenants_with_pending(self) -> list[str]: ...


class Store(Protocol):
    """The system of record, composed of its parts: each the port of one concern, all on one
    backend (``SqliteStore``, ``DynamoStore``). The composition root builds it and ``Deps`` holds
    it; no service takes it: a service names the parts it uses (``records``, ``jobs`` …, the names
    in ``engram.deps.STORE_PARTS``) and is given ``store.records``, ``store.jobs`` …"""

    tenants: TenantRegistry
    records: MemoryRecords
    history: MemoryHistory
    deletion_log: DeletionLog
    idempotency: IdempotencyRecords
    jobs: JobStore
    reports: LifecycleReports
    pending: EmbeddingBacklog


@runtime_checkable
class UsageLedger(Protocol):
    """Per-tenant usage counters by UTC day (``YYYY-MM-DD``); see ``engram.metering.counters`` for the names."""

    def add(self, tenant_id: str, day: str, counters: Mapping[str, int]) -> None:
        """Add every counter to the tenant's day at once (atomically: concurrent adds all count)."""
        ...

    def days(self, tenant_id: str, *, since: str, until: str) -> dict[str, dict[str, int]]:
        """The counters of each day from ``since`` to ``until`` (both included) that has any."""
        ...

    def totals(self, tenant_id: str) -> dict[str, int]:
        """Every counter summed over all days."""
        ...

    def forget_tenant(self, tenant_id: str) -> None:
        """Delete the tenant's counters (with the tenant)."""
        ...


@runtime_checkable
class KeyStore(Protocol):
    """API key records (DESIGN §9): only the secret's HMAC and a display prefix are ever stored."""

    def put_key(self, record: ApiKeyRecord) -> None:
        """Insert a new key; ``ConflictError`` if its key id is taken."""
        ...

    def get_key(self, key_id: str) -> ApiKeyRecord | None: ...

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        """Mark a key revoked (keeping the first revocation time); False if there is no such key."""
        ...

    def touch_key(self, key_id: str, at: datetime) -> None:
        """Set last-used time to ``at`` unless it is already later."""
        ...

    def list_keys(self, tenant_id: str) -> list[ApiKeyRecord]: ...

    def delete_tenant_keys(self, tenant_id: str) -> int:
        """Delete every key of one tenant; return how many were deleted."""
        ...
