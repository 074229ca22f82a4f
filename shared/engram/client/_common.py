"""What ``Engram`` and ``AsyncEngram`` share besides the calls: their constructor (``BaseClient``),
the options they open httpx with, the environment's defaults, and each call's retries without the
I/O (``Attempts``), so the two clients only send and sleep.
"""

from __future__ import annotations

import os
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

import httpx

from engram.client._calls import Call, RetryPolicy
from engram.client.errors import ConnectionFailed, missing_key
from engram.models import Job

T = TypeVar("T")
H = TypeVar("H", httpx.Client, httpx.AsyncClient)


class BaseClient(ABC, Generic[H]):
    """The two clients' constructor and ``from_env``; ``H`` is the httpx client each sends with."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        http_client: H | None = None,
    ) -> None:
        self._http: H = http_client or self._open(client_options(base_url, api_key, timeout))
        self._owns_http = http_client is None
        self.retry = RetryPolicy(max_retries=max_retries)

    @classmethod
    def from_env(cls, **options: Any) -> Self:
        """A client for ``ENGRAM_URL`` with ``ENGRAM_API_KEY``."""
        url, key = env_options()
        return cls(url, key, **options)

    @abstractmethod
    def _open(self, options: dict[str, Any]) -> H:
        """The httpx client to send with when none is given (closed by ``close``)."""


def client_options(base_url: str, api_key: str | None, timeout: float) -> dict[str, Any]:
    """What both clients give httpx: the base URL, the key as a bearer token, timeouts."""
    headers = {"User-Agent": "engram-python"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return {"base_url": base_url.rstrip("/"), "headers": headers, "timeout": httpx.Timeout(timeout)}


def env_options() -> tuple[str, str]:
    """``ENGRAM_URL`` (default ``http://127.0.0.1:8080``) and ``ENGRAM_API_KEY`` (``Unauthorized``
    at once when it is unset or empty)."""
    key = os.environ.get("ENGRAM_API_KEY", "").strip()
    if not key:
        raise missing_key()
    return os.environ.get("ENGRAM_URL", "http://127.0.0.1:8080"), key


def request(http: httpx.Client | httpx.AsyncClient, call: Call[Any]) -> httpx.Request:
    """``call`` as httpx sends it (built afresh for each attempt)."""
    return http.build_request(
        call.method, call.path, json=call.json, content=call.content, params=call.params, headers=call.headers
    )


@dataclass(frozen=True)
class Wait:
    """Send the call again after ``seconds``."""

    seconds: float


class Attempts(Generic[T]):
    """One call through its retries: the client sends it and hands what came back to ``after``,
    which reads the answer, or says how long to wait before sending again, or raises (the API's
    error, or ``ConnectionFailed`` for a lost connection that may not be tried again)."""

    def __init__(self, call: Call[T], policy: RetryPolicy) -> None:
        self.call, self.policy, self.made = call, policy, 0

    def after(self, outcome: httpx.Response | httpx.TransportError) -> T | Wait:
        call, attempt = self.call, self.made
        if isinstance(outcome, httpx.TransportError):
            wait = self.policy.delay(attempt, None, {}, retry_unsafe=call.retry_unsafe)
            if wait is None:
                raise ConnectionFailed(_unreachable(call, outcome)) from outcome
        else:
            wait = self.policy.delay(
                attempt, outcome.status_code, outcome.headers, retry_unsafe=call.retry_unsafe
            )
            if wait is None:
                return call.read(outcome.status_code, outcome.headers, outcome.content)
        self.made += 1
        return Wait(wait)


def _unreachable(call: Call[Any], error: httpx.TransportError) -> str:
    """The message of a call that got no answer: where it went, and what the transport said."""
    try:
        url = error.request.url
        where = f"{url.scheme}://{url.netloc.decode('ascii', 'replace')}"
    except RuntimeError:  # an error raised before any request was built
        where = "the Engram API"
    kind = "did not answer in time" if isinstance(error, httpx.TimeoutException) else "could not be reached"
    return f"{where} {kind} ({call.method} {call.path}: {error or type(error).__name__}); is engram serve running there?"


def unfinished(job: Job, deadline: float) -> bool:
    """Whether ``job`` is still queued or running (``TimeoutError`` once past ``deadline``, a
    ``time.monotonic`` instant)."""
    if job.status not in ("queued", "running"):
        return False
    if time.monotonic() > deadline:
        raise TimeoutError(f"job {job.job_id} is still {job.status}")
    return True
