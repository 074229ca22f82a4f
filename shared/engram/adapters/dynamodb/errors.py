"""DynamoDB's failures as Engram's errors, so none reaches a caller as a raw boto error.

``translating(client)`` wraps a boto3 DynamoDB client: an operation that fails with a
``ClientError`` or a ``BotoCoreError`` raises the ``EngramError`` of what happened instead, except
for the codes the adapters handle themselves (a failed condition, a cancelled transaction, a
table that already exists), which pass through unchanged. ``client.exceptions``, ``meta``,
waiters and paginators are the client's own.

| DynamoDB says | the caller gets |
|---|---|
| throttled (``ProvisionedThroughputExceededException``, ``ThrottlingException``, ``RequestLimitExceeded``) | 503 ``unavailable``, ``Retry-After: 1`` |
| ``InternalServerError``, ``ServiceUnavailable``, a timeout or a refused connection | 503 ``unavailable`` |
| an item over 400 KB (``ValidationException`` "Item size has exceeded ...") | 413 ``payload_too_large`` |
| ``AccessDeniedException``, a KMS or credential error | 500 ``internal_error`` (the operator's: details in the log) |
| anything else | 502 ``provider_error`` naming the operation and the code |
"""

from __future__ import annotations

import functools
from typing import Any

from engram.errors import ConfigurationError, PayloadTooLargeError, ProviderError, UnavailableError

PASSED = frozenset(
    {
        "ConditionalCheckFailedException",
        "TransactionCanceledException",
        "ResourceInUseException",
        "ResourceNotFoundException",
    }
)
"""Codes an adapter catches itself (``client.exceptions.X``): raised as they are."""
THROTTLED = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "LimitExceededException",
    }
)
UNAVAILABLE = frozenset({"InternalServerError", "ServiceUnavailable", "InternalFailure"})
DENIED = frozenset(
    {
        "AccessDeniedException",
        "UnrecognizedClientException",
        "InvalidSignatureException",
        "ExpiredTokenException",
        "KMSAccessDeniedException",
        "KMSDisabledException",
        "KMSNotFoundException",
        "KMSInvalidStateException",
    }
)
ITEM_LIMIT_KB = 400


def translate(operation: str, exc: Exception) -> Exception:
    """The Engram error for a failed DynamoDB call (``exc`` itself if an adapter handles it)."""
    from botocore.exceptions import BotoCoreError, ClientError

    if isinstance(exc, BotoCoreError):
        return UnavailableError(f"DynamoDB did not answer {operation} ({type(exc).__name__}); retry")
    if not isinstance(exc, ClientError):
        return exc
    error = exc.response.get("Error", {})
    code, message = str(error.get("Code", "")), str(error.get("Message", ""))
    if code in PASSED:
        passed: Exception = exc
        return passed
    if code in THROTTLED:
        return UnavailableError(f"DynamoDB is throttling {operation} ({code}); retry", retry_after=1)
    if code in UNAVAILABLE:
        return UnavailableError(f"DynamoDB failed {operation} ({code}); retry")
    if code == "ValidationException" and "item size" in message.lower():
        return PayloadTooLargeError(
            f"a memory is over DynamoDB's {ITEM_LIMIT_KB} KB item size limit: shorten its content or metadata",
            details=[{"field": "content", "problem": f"the stored memory is over {ITEM_LIMIT_KB} KB"}],
        )
    if code in DENIED:
        return ConfigurationError(f"DynamoDB refused {operation}: {code} ({message})")
    return ProviderError(f"DynamoDB {operation} failed ({code})")


class TranslatingClient:
    """A DynamoDB client whose operations raise Engram's errors (``translate``)."""

    _OWN = frozenset({"exceptions", "meta", "get_waiter", "get_paginator", "can_paginate", "close"})

    def __init__(self, client: Any) -> None:
        self._client = client

    @property
    def unwrapped(self) -> Any:
        return self._client

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if name in self._OWN or name.startswith("_") or not callable(attribute):
            return attribute

        @functools.wraps(attribute)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return attribute(*args, **kwargs)
            except Exception as exc:
                translated = translate(name, exc)
                if translated is exc:
                    raise
                raise translated from exc

        return call


def translating(client: Any) -> Any:
    """``client`` with its failures translated (a client already wrapped is returned as is)."""
    return client if isinstance(client, TranslatingClient) else TranslatingClient(client)
