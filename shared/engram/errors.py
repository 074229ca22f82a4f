"""Engram's error hierarchy and its envelope.

Every error a caller can cause or observe is an ``EngramError`` with a stable ``code``, named in
its class statement (never derived from message text). Which HTTP status answers it is the API
layer's business: one table, ``engram_http.errors.STATUS``. The HTTP resolver, the local gateway
and the CLI all write ``envelope(...)``; invalid input of any kind becomes an error through
``from_validation``.
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
    """Base of every error Engram raises on purpose. A subclass names its ``code`` in its class
    statement (``class NotFoundError(EngramError, code="not_found")``); one that names none
    inherits its parent's."""

    code = "internal"

    def __init_subclass__(cls, *, code: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code

    def __init__(self, message: str, *, details: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or []

    def to_dict(self) -> dict[str, Any]:
        return envelope(self.code, self.message, self.details)


class ValidationFailedError(EngramError, code="validation_error"):
    """The request is malformed: a field is missing, of the wrong type or out of range."""


class UnprocessableError(EngramError, code="unprocessable"):
    """The request is well-formed but cannot be carried out as asked."""


class NotFoundError(EngramError, code="not_found"):
    """The thing does not exist, or belongs to another tenant (never say which)."""


class ConflictError(EngramError, code="conflict"):
    """A concurrent change won, or the thing already exists."""


class PayloadTooLargeError(EngramError, code="payload_too_large"):
    """The request or one of its texts is larger than allowed."""


class UnauthorizedError(EngramError, code="unauthorized"):
    """Missing, malformed, unknown, revoked or expired credentials (one message for all)."""


class ForbiddenError(EngramError, code="forbidden"):
    """The credentials are valid but do not allow this scope or operation."""


class QuotaExceededError(EngramError, code="quota_exceeded"):
    """The tenant is over its quota; retry after ``retry_after`` seconds."""

    def __init__(self, message: str, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class DependencyMissingError(EngramError, code="dependency_missing"):
    """An optional dependency (an install extra) is not installed."""


class ConfigurationError(EngramError, code="internal_error"):
    """The service is misconfigured (a missing or malformed ``ENGRAM_*`` setting): the operator's
    fault, never the caller's. A Lambda function refuses to start with it (its init fails); if it
    surfaces inside a request, the caller gets a generic 500 and the details go to the log."""


class ProviderError(EngramError, code="provider_error"):
    """A configured provider (embedder, LLM, reranker, index) failed."""


class UnavailableError(EngramError, code="unavailable"):
    """A backing service (the table) is throttling or briefly down: retry, after ``retry_after``
    seconds when it is set."""

    def __init__(self, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def from_validation(errors: Iterable[Mapping[str, Any]], *, outer: tuple[str, ...] = ()) -> EngramError:
    """Pydantic's errors as Engram's: each detail names its field (dotted, without the ``outer``
    parts of the location such as ``body``), its problem in words (``engram.validation_words``:
    what the field must be, never a regular expression) and its type. Any unknown field makes it a
    422 (``UnprocessableError``) naming the unknown fields first (``{"recall": …}`` sent where the
    body is ``{"settings": {"recall": …}}`` is told so); anything else is a 400."""
    from engram.validation_words import field_name, problem

    details = [
        {"field": field_name(err, outer), "problem": problem(err), "type": str(err.get("type", ""))}
        for err in errors
    ]
    unknown = [d["field"] for d in details if d["type"] == "extra_forbidden"]
    others = "; ".join(f"{d['field']}: {d['problem']}" for d in details if d["type"] != "extra_forbidden")
    if unknown:
        message = f"unknown field(s): {', '.join(unknown)}" + (f"; {others}" if others else "")
        return UnprocessableError(message, details=details)
    return ValidationFailedError(f"invalid request: {others}", details=details)
