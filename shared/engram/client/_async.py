"""``AsyncEngram``: the asyncio client (the same calls as ``Engram``, awaited)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any, TypeVar, Unpack

import httpx

from engram import models
from engram.client import _calls as calls
from engram.client._common import Attempts, BaseClient, Wait, request, unfinished
from engram.tenants import admin_models as admin

T = TypeVar("T")


class AsyncEngram(BaseClient[httpx.AsyncClient]):
    """Engram's HTTP API from Python, for asyncio: ``Engram``'s calls, awaited, with the same
    models, retries and errors (``Engram`` says which).

    >>> async with AsyncEngram("http://127.0.0.1:8080", api_key) as memory:  # doctest: +SKIP
    ...     await memory.retain("user:alice", "I prefer dark mode")
    ...     (await memory.recall("what theme do I like?", context=True)).context
    """

    def _open(self, options: dict[str, Any]) -> httpx.AsyncClient:
        return httpx.AsyncClient(**options)

    async def __aenter__(self) -> AsyncEngram:
        return self

    async def __aexit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def send(self, call: calls.Call[T]) -> T:
        """Send one call, retrying as the policy allows; its answer, read."""
        attempts = Attempts(call, self.retry)
        while isinstance(step := attempts.after(await self._attempt(call)), Wait):
            await asyncio.sleep(step.seconds)
        return step

    async def _attempt(self, call: calls.Call[Any]) -> httpx.Response | httpx.TransportError:
        try:
            return await self._http.send(request(self._http, call))
        except httpx.TransportError as exc:
            return exc

    # -- memories -----------------------------------------------------------------------------

    async def retain(
        self, scope: str, text: str | None = None, **options: Unpack[calls.RetainOptions]
    ) -> models.RetainResponse:
        """Retain ``text``, ``messages`` or ``items`` in ``scope`` and wait for the outcome."""
        return await self.send(calls.retain(scope, text, options))

    async def submit_retain(
        self, scope: str, text: str | None = None, **options: Unpack[calls.RetainOptions]
    ) -> models.JobAccepted:
        """Retain as a job (202); follow it with ``job`` or ``wait_for_job``."""
        return await self.send(calls.submit_retain(scope, text, options))

    async def recall(self, query: str, **options: Unpack[calls.RecallOptions]) -> models.RecallResponse:
        """The best memories for ``query`` (``context=True``: with a prompt-ready block)."""
        return await self.send(calls.recall(query, options))

    async def forget(self, **options: Unpack[calls.ForgetOptions]) -> models.ForgetResponse:
        """Hard-delete by ``ids``, ``query`` or ``filter`` (``dry_run=True``: only say what)."""
        return await self.send(calls.forget(options))

    async def feedback(self, memory_id: str, signal: calls.Signal) -> models.FeedbackResponse:
        return await self.send(calls.feedback(memory_id, signal))

    async def get(self, memory_id: str, *, history: bool = False) -> models.MemoryView:
        return await self.send(calls.get(memory_id, history))

    async def list_memories(
        self, *, cursor: str | None = None, **options: Unpack[calls.ListOptions]
    ) -> models.ListResponse:
        return await self.send(calls.list_memories(cursor, options))

    async def iter_memories(self, **options: Unpack[calls.ListOptions]) -> AsyncIterator[models.MemoryView]:
        """Every memory the filters select, page after page."""
        cursor: str | None = None
        while True:
            page = await self.list_memories(cursor=cursor, **options)
            for memory in page.memories:
                yield memory
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def update(self, memory_id: str, **changes: Unpack[calls.PatchOptions]) -> models.MemoryView:
        """``PATCH``: content, tags, metadata, pinned, tier or expires_at."""
        return await self.send(calls.patch(memory_id, changes))

    async def delete(self, memory_id: str) -> models.ForgetResponse:
        return await self.send(calls.delete(memory_id))

    async def restore(self, memory_id: str, tier: str = "peripheral") -> models.MemoryView:
        return await self.send(calls.restore(memory_id, tier))

    async def release(self, memory_id: str) -> models.MemoryView:
        return await self.send(calls.release(memory_id))

    async def stats(self) -> models.StatsResponse:
        return await self.send(calls.stats())

    async def job(self, job_id: str) -> models.Job:
        return await self.send(calls.job(job_id))

    async def wait_for_job(self, job_id: str, *, timeout: float = 60.0, interval: float = 0.25) -> models.Job:
        """Poll a job until it has succeeded or failed (``TimeoutError`` after ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while unfinished(current := await self.job(job_id), deadline):
            await asyncio.sleep(interval)
        return current

    async def export(self) -> str:
        """Every memory as JSONL (with history and vectors), as ``import_jsonl`` takes it."""
        return await self.send(calls.export())

    async def import_jsonl(self, jsonl: str) -> models.ImportResponse | models.JobAccepted:
        return await self.send(calls.import_jsonl(jsonl))

    async def health(self) -> models.HealthResponse:
        return await self.send(calls.health())

    async def openapi(self) -> dict[str, Any]:
        return await self.send(calls.openapi())

    # -- operator routes (the client's key is the operator token) ------------------------------

    async def create_tenant(self, tenant_id: str, name: str | None = None) -> admin.TenantCreated:
        return await self.send(calls.create_tenant(tenant_id, name))

    async def create_key(self, tenant_id: str, **options: Unpack[calls.KeyOptions]) -> admin.KeyCreated:
        """A key for ``tenant_id`` (its secret is in this answer only)."""
        return await self.send(calls.create_key(tenant_id, options))

    async def configure_tenant(self, tenant_id: str, settings: dict[str, Any]) -> admin.TenantConfigured:
        return await self.send(calls.configure_tenant(tenant_id, settings))

    async def revoke_key(self, key_id: str) -> admin.KeyRevoked:
        return await self.send(calls.revoke_key(key_id))

    async def erase_tenant(self, tenant_id: str) -> admin.TenantErased:
        return await self.send(calls.erase_tenant(tenant_id))
