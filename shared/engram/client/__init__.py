"""Engram's Python SDK: ``Engram`` (blocking) and ``AsyncEngram`` (asyncio) over httpx.

``pip install 'engram-recall[client]'`` installs it with httpx and pydantic alone.

>>> from engram.client import Engram
>>> with Engram("http://127.0.0.1:8080", "egk_…") as memory:  # doctest: +SKIP
...     memory.retain("user:alice", "I prefer dark mode")
...     print(memory.recall("what theme do I like?", context=True).context)
"""

from __future__ import annotations

from engram.client._async import AsyncEngram
from engram.client._calls import Call, RetryPolicy
from engram.client._sync import Engram
from engram.client.errors import (
    ApiError,
    BadRequest,
    Conflict,
    ConnectionFailed,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    ServerError,
    Unauthorized,
    Unprocessable,
)

__all__ = [
    "ApiError",
    "AsyncEngram",
    "BadRequest",
    "Call",
    "Conflict",
    "ConnectionFailed",
    "Engram",
    "Forbidden",
    "NotFound",
    "PayloadTooLarge",
    "RateLimited",
    "RetryPolicy",
    "ServerError",
    "Unauthorized",
    "Unprocessable",
]
