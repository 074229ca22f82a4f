"""``Engram``: the blocking client."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from types import TracebackType
from typing import Any, TypeVar, Unpack

import httpx

from engram.admin_models import KeyCreated, KeyRevoked, TenantConfigured, TenantCreated, TenantErased
from engram.client import _calls as calls
from engram.client._calls import (
    Call,
    ForgetOptions,
    ListOptions,
    PatchOptions,
    RecallOptions,
    RetainOptions,
    RetryPolicy,
    Signal,
)
from engram.client.errors import ConnectionFailed
from engram.models import (
    FeedbackResponse,
    ForgetResponse,
    HealthResponse,
    ImportResponse,
    Job,
    JobAccepted,
    ListResponse,
    MemoryView,
    RecallResponse,
    RetainResponse,
    StatsResponse,
)

T = TypeVar("T")


def client_options(base_url: str, api_key: str | None, timeout: float) -> dict[str, Any]:
    """What both clients give httpx: the base URL, the key as a bearer token, timeouts."""
    headers = {"User-Agent": "engram-python"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return {"base_url": base_url.rstrip("/"), "headers": headers, "timeout": httpx.Timeout(timeout)}


def env_options() -> tuple[str, str | None]:
    """``ENGRAM_URL`` (default ``http://127.0.0.1:8080``) and ``ENGRAM_API_KEY``."""
    return os.environ.get("ENGRAM_URL", "http://127.0.0.1:8080"), os.environ.get("ENGRAM_API_KEY")


def _inputs(
    text: str | None, messages: list[dict[str, Any]] | None, items: list[dict[str, Any]] | None
) -> dict[str, Any]:
    return {"text": text, "messages": messages, "items": items}


class Engram:
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

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        http_client: httpx.Client | None = None,
    ) -> None:
        self._http = http_client or httpx.Client(**client_options(base_url, api_key, timeout))
        self._owns_http = http_client is None
        self.retry = RetryPolicy(max_retries=max_retries)

    @classmethod
    def from_env(cls, **options: Any) -> Engram:
        """A client for ``ENGRAM_URL`` with ``ENGRAM_API_KEY``."""
        url, key = env_options()
        return cls(url, key, **options)

    def __enter__(self) -> Engram:
        return self

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def send(self, call: Call[T]) -> T:
        """Send one call, retrying as the policy allows; its answer, read."""
        attempt = 0
        while True:
            try:
                response = self._http.request(
                    call.method,
                    call.path,
                    json=call.json,
                    content=call.content,
                    params=call.params,
                    headers=call.headers,
                )
            except httpx.TransportError as exc:
                wait = self.retry.delay(attempt, None, {}, retry_unsafe=call.retry_unsafe)
                if wait is None:
                    raise ConnectionFailed(f"{call.method} {call.path}: {exc}") from exc
            else:
                wait = self.retry.delay(
                    attempt, response.status_code, response.headers, retry_unsafe=call.retry_unsafe
                )
                if wait is None:
                    return call.read(response.status_code, response.headers, response.content)
            time.sleep(wait)
            attempt += 1

    # -- memories -----------------------------------------------------------------------------

    def retain(
        self,
        scope: str,
        text: str | None = None,
        *,
        messages: list[dict[str, Any]] | None = None,
        items: list[dict[str, Any]] | None = None,
        idempotency_key: str | None = None,
        **options: Unpack[RetainOptions],
    ) -> RetainResponse:
        """Retain ``text``, ``messages`` or ``items`` in ``scope`` and wait for the outcome."""
        return self.send(calls.retain(scope, _inputs(text, messages, items), idempotency_key, options))

    def submit_retain(
        self,
        scope: str,
        text: str | None = None,
        *,
        messages: list[dict[str, Any]] | None = None,
        items: list[dict[str, Any]] | None = None,
        idempotency_key: str | None = None,
        **options: Unpack[RetainOptions],
    ) -> JobAccepted:
        """Retain as a job (202); follow it with ``job`` or ``wait_for_job``."""
        call = calls.submit_retain(scope, _inputs(text, messages, items), idempotency_key, options)
        return self.send(call)

    def recall(self, query: str, **options: Unpack[RecallOptions]) -> RecallResponse:
        """The best memories for ``query`` (``context=True``: with a prompt-ready block)."""
        return self.send(calls.recall(query, options))

    def forget(self, **options: Unpack[ForgetOptions]) -> ForgetResponse:
        """Hard-delete by ``ids``, ``query`` or ``filter`` (``dry_run=True``: only say what)."""
        return self.send(calls.forget(options))

    def feedback(self, memory_id: str, signal: Signal) -> FeedbackResponse:
        return self.send(calls.feedback(memory_id, signal))

    def get(self, memory_id: str, *, history: bool = False) -> MemoryView:
        return self.send(calls.get(memory_id, history))

    def list_memories(self, *, cursor: str | None = None, **options: Unpack[ListOptions]) -> ListResponse:
        return self.send(calls.list_memories(cursor, options))

    def iter_memories(self, **options: Unpack[ListOptions]) -> Iterator[MemoryView]:
        """Every memory the filters select, page after page."""
        cursor: str | None = None
        while True:
            page = self.list_memories(cursor=cursor, **options)
            yield from page.memories
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    def update(self, memory_id: str, **changes: Unpack[PatchOptions]) -> MemoryView:
        """``PATCH``: content, tags, metadata, pinned, tier or expires_at."""
        return self.send(calls.patch(memory_id, changes))

    def delete(self, memory_id: str) -> ForgetResponse:
        return self.send(calls.delete(memory_id))

    def restore(self, memory_id: str, tier: str = "peripheral") -> MemoryView:
        return self.send(calls.restore(memory_id, tier))

    def release(self, memory_id: str) -> MemoryView:
        return self.send(calls.release(memory_id))

    def stats(self) -> StatsResponse:
        return self.send(calls.stats())

    def job(self, job_id: str) -> Job:
        return self.send(calls.job(job_id))

    def wait_for_job(self, job_id: str, *, timeout: float = 60.0, interval: float = 0.25) -> Job:
        """Poll a job until it has succeeded or failed (``TimeoutError`` after ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while (current := self.job(job_id)).status in ("queued", "running"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"job {job_id} is still {current.status}")
            time.sleep(interval)
        return current

    def export(self) -> str:
        """Every memory as JSONL (with history and vectors), as ``import_jsonl`` takes it."""
        return self.send(calls.export())

    def import_jsonl(self, jsonl: str) -> ImportResponse:
        return self.send(calls.import_jsonl(jsonl))

    def health(self) -> HealthResponse:
        return self.send(calls.health())

    def openapi(self) -> dict[str, Any]:
        return self.send(calls.openapi())

    # -- operator routes (the client's key is the operator token) ------------------------------

    def create_tenant(self, tenant_id: str, name: str | None = None) -> TenantCreated:
        return self.send(calls.create_tenant(tenant_id, name))

    def create_key(
        self,
        tenant_id: str,
        *,
        scopes: list[str] | None = None,
        read_only: bool = False,
        expires_in_days: float | None = None,
    ) -> KeyCreated:
        return self.send(calls.create_key(tenant_id, scopes, read_only, expires_in_days))

    def configure_tenant(self, tenant_id: str, settings: dict[str, Any]) -> TenantConfigured:
        return self.send(calls.configure_tenant(tenant_id, settings))

    def revoke_key(self, key_id: str) -> KeyRevoked:
        return self.send(calls.revoke_key(key_id))

    def erase_tenant(self, tenant_id: str) -> TenantErased:
        return self.send(calls.erase_tenant(tenant_id))
