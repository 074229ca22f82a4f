"""``Engram``: the blocking client."""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import TracebackType
from typing import Any, TypeVar, Unpack

import httpx

from engram import models
from engram.client import _calls as calls
from engram.client._common import Attempts, BaseClient, Wait, request, unfinished
from engram.tenants import admin_models as admin

T = TypeVar("T")


class Engram(BaseClient[httpx.Client]):
    """Engram's HTTP API from Python, blocking.

    >>> with Engram("http://127.0.0.1:8080", api_key) as memory:  # doctest: +SKIP
    ...     memory.retain("user:alice", "I prefer dark mode")
    ...     memory.recall("what theme do I like?", context=True).context

    Every call is typed with the API's models; 429 and 5xx answers (and lost connections) are
    retried with exponential backoff and jitter, honouring ``Retry-After``, up to ``max_retries``
    times (a 4xx never is; feedback, import and creations only when the answer says nothing was
    done); each retain carries its own ``Idempotency-Key`` across its retries. Errors are
    ``engram.client.errors`` exceptions carrying the envelope's code and details.
    """

    def _open(self, options: dict[str, Any]) -> httpx.Client:
        return httpx.Client(**options)

    def __enter__(self) -> Engram:
        return self

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def send(self, call: calls.Call[T]) -> T:
        """Send one call, retrying as the policy allows; its answer, read."""
        attempts = Attempts(call, self.retry)
        while isinstance(step := attempts.after(self._attempt(call)), Wait):
            time.sleep(step.seconds)
        return step

    def _attempt(self, call: calls.Call[Any]) -> httpx.Response | httpx.TransportError:
        try:
            return self._http.send(request(self._http, call))
        except httpx.TransportError as exc:
            return exc

    # -- memories -----------------------------------------------------------------------------

    def retain(
        self, scope: str, text: str | None = None, **options: Unpack[calls.RetainOptions]
    ) -> models.RetainResponse:
        """Retain ``text``, ``messages`` or ``items`` in ``scope`` and wait for the outcome."""
        return self.send(calls.retain(scope, text, options))

    def submit_retain(
        self, scope: str, text: str | None = None, **options: Unpack[calls.RetainOptions]
    ) -> models.JobAccepted:
        """Retain as a job (202); follow it with ``job`` or ``wait_for_job``."""
        return self.send(calls.submit_retain(scope, text, options))

    def recall(self, query: str, **options: Unpack[calls.RecallOptions]) -> models.RecallResponse:
        """The best memories for ``query`` (``context=True``: with a prompt-ready block)."""
        return self.send(calls.recall(query, options))

    def forget(self, **options: Unpack[calls.ForgetOptions]) -> models.ForgetResponse:
        """Hard-delete by ``ids``, ``query`` or ``filter`` (``dry_run=True``: only say what)."""
        return self.send(calls.forget(options))

    def feedback(self, memory_id: str, signal: calls.Signal) -> models.FeedbackResponse:
        return self.send(calls.feedback(memory_id, signal))

    def get(self, memory_id: str, *, history: bool = False) -> models.MemoryView:
        return self.send(calls.get(memory_id, history))

    def list_memories(
        self, *, cursor: str | None = None, **options: Unpack[calls.ListOptions]
    ) -> models.ListResponse:
        return self.send(calls.list_memories(cursor, options))

    def iter_memories(self, **options: Unpack[calls.ListOptions]) -> Iterator[models.MemoryView]:
        """Every memory the filters select, page after page."""
        cursor: str | None = None
        while True:
            page = self.list_memories(cursor=cursor, **options)
            yield from page.memories
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    def update(self, memory_id: str, **changes: Unpack[calls.PatchOptions]) -> models.MemoryView:
        """``PATCH``: content, tags, metadata, pinned, tier or expires_at."""
        return self.send(calls.patch(memory_id, changes))

    def delete(self, memory_id: str) -> models.ForgetResponse:
        return self.send(calls.delete(memory_id))

    def restore(self, memory_id: str, tier: str = "peripheral") -> models.MemoryView:
        return self.send(calls.restore(memory_id, tier))

    def release(self, memory_id: str) -> models.MemoryView:
        return self.send(calls.release(memory_id))

    def stats(self) -> models.StatsResponse:
        return self.send(calls.stats())

    def job(self, job_id: str) -> models.Job:
        return self.send(calls.job(job_id))

    def wait_for_job(self, job_id: str, *, timeout: float = 60.0, interval: float = 0.25) -> models.Job:
        """Poll a job until it has succeeded or failed (``TimeoutError`` after ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while unfinished(current := self.job(job_id), deadline):
            time.sleep(interval)
        return current

    def export(self) -> str:
        """Every memory as JSONL (with history and vectors), as ``import_jsonl`` takes it."""
        return self.send(calls.export())

    def import_jsonl(self, jsonl: str) -> models.ImportResponse | models.JobAccepted:
        return self.send(calls.import_jsonl(jsonl))

    def health(self) -> models.HealthResponse:
        return self.send(calls.health())

    def openapi(self) -> dict[str, Any]:
        return self.send(calls.openapi())

    # -- operator routes (the client's key is the operator token) ------------------------------

    def create_tenant(self, tenant_id: str, name: str | None = None) -> admin.TenantCreated:
        return self.send(calls.create_tenant(tenant_id, name))

    def create_key(self, tenant_id: str, **options: Unpack[calls.KeyOptions]) -> admin.KeyCreated:
        """A key for ``tenant_id`` (its secret is in this answer only)."""
        return self.send(calls.create_key(tenant_id, options))

    def configure_tenant(self, tenant_id: str, settings: dict[str, Any]) -> admin.TenantConfigured:
        return self.send(calls.configure_tenant(tenant_id, settings))

    def revoke_key(self, key_id: str) -> admin.KeyRevoked:
        return self.send(calls.revoke_key(key_id))

    def erase_tenant(self, tenant_id: str) -> admin.TenantErased:
        return self.send(calls.erase_tenant(tenant_id))
