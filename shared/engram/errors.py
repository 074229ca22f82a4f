"""Engram's error hierarchy, its envelope and its HTTP statuses: the one home of both.

Every error a caller can cause or observe is an ``EngramError`` with a stable ``code``; the API
layer maps codes to HTTP statuses in one table (``HTTP_STATUS``), never by message text. The HTTP
resolver, the local gateway and the CLI all write ``envelope(...)``; invalid input of any kind
becomes an error through ``from_validation``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def envelope(code: str, message: str, details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The error body every surface answers: ``{"error": {"code", "message", "details"?}}``."""
    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = details
    return {"error": body}


class EngramError(Exception):
    """Base of every error Engram raises on purpose."""

    code = "internal"

    def __init__(self, message: str, *, details: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or []

    def to_dict(self) -> dict[str, Any]:
        return envelope(self.code, self.message, self.details)


class ValidationFailedError(EngramError):
    """The request is malformed: a field is missing, of the wrong type or out of range."""

    code = "validation_error"


class UnprocessableError(EngramError):
    """The request is well-formed but cannot be carried out as asked."""

    code = "unprocessable"


class NotFoundError(EngramError):
    """The thing does not exist, or belongs to another tenant (never say which)."""

    code = "not_found"


class ConflictError(EngramError):
    """A concurrent change won, or the thing already exists."""

    code = "conflict"


class PayloadTooLargeError(EngramError):
    """The request or one of its texts is larger than allowed."""

    code = "payload_too_large"


class UnauthorizedError(EngramError):
    """Missing, malformed, unknown, revoked or expired credentials (one message for all)."""

    code = "unauthorized"


class ForbiddenError(EngramError):
    """The credentials are valid but do not allow this scope or operation."""

    code = "forbidden"


class QuotaExceededError(EngramError):
    """The tenant is over its quota; retry after ``retry_after`` seconds."""

    code = "quota_exceeded"

    def __init__(self, message: str, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class DependencyMissingError(EngramError):
    """An optional dependency (an install extra) is not installed."""

    code = "dependency_missing"


class ConfigurationError(EngramError):
    """The service is misconfigured (a missing or malformed ``ENGRAM_*`` setting): the operator's
    fault, never the caller's. A Lambda function refuses to start with it (its init fails); if it
    surfaces inside a request, the caller gets a generic 500 and the details go to the log."""

    code = "internal_error"


class ProviderError(EngramError):
    """A configured provider (embedder, LLM, reranker, index) failed."""

    code = "provider_error"


HTTP_STATUS: dict[type[EngramError], int] = {
    ValidationFailedError: 400,
    UnauthorizedError: 401,
    ForbiddenError: 403,
    NotFoundError: 404,
    ConflictError: 409,
    PayloadTooLargeError: 413,
    UnprocessableError: 422,
    QuotaExceededError: 429,
    DependencyMissingError: 500,
    ConfigurationError: 500,
    ProviderError: 502,
}


def http_status(error: EngramError) -> int:
    """The HTTP status for an error, by class (most specific first)."""
    for cls in type(error).__mro__:
        if issubclass(cls, EngramError) and cls in HTTP_STATUS:
            return HTTP_STATUS[cls]
    return 500


def from_validation(errors: Iterable[Mapping[str, Any]], *, outer: tuple[str, ...] = ()) -> EngramError:
    """Pydantic's errors as Engram's: each detail names its field (dotted, without the ``outer``
    parts of the location such as ``body``), its problem and its type. Any unknown field makes it a
    422 (``UnprocessableError``) naming the unknown fields first (``{"recall": …}`` sent where the
    body is ``{"settings": {"recall": …}}`` is told so); anything else is a 400."""
    details = [
        {
            "field": ".".join(str(p) for p in err.get("loc", ()) if p not in outer) or "(body)",
            "problem": str(err.get("msg", "invalid")),
            "type": str(err.get("type", "")),
        }
        for err in errors
    ]
    unknown = [d["field"] for d in details if d["type"] == "extra_forbidden"]
    others = "; ".join(f"{d['field']}: {d['problem']}" for d in details if d["type"] != "extra_forbidden")
    if unknown:
        message = f"unknown field(s): {', '.join(unknown)}" + (f"; {others}" if others else "")
        return UnprocessableError(message, details=details)
    return ValidationFailedError(f"invalid request: {others}", details=details)
