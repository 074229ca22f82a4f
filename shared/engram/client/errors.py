"""What the SDK raises: the error envelope ``{"error": {"code", "message", "details"?}}`` of
every non-2xx answer as a typed exception carrying its status, code and details.

Each is also the matching ``engram.errors`` class (``NotFound`` is an ``engram.errors.NotFoundError``),
so code that handles Engram's errors in-process handles them over HTTP the same way. A call the
SDK refuses before sending (a bad field, an unknown option, no key) raises the very ``ApiError``
the server would answer, so ``except ApiError`` catches every refusal; ``ConnectionFailed`` is the
one other error: no answer came. Both are ``engram.errors.EngramError``.
"""

from __future__ import annotations

from typing import Any

from engram import errors


class ApiError(errors.EngramError):
    """A non-2xx answer from the API."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: list[dict[str, Any]] | None = None,
        *,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, details=details)
        self.status = status
        self.code = code
        self.retry_after = retry_after

    def __str__(self) -> str:
        return f"{self.status} {self.code}: {self.message}"


class BadRequest(ApiError, errors.ValidationFailedError):
    """400: a field is missing, of the wrong type or out of range (``details`` names each)."""


class Unauthorized(ApiError, errors.UnauthorizedError):
    """401: the key is missing, malformed, unknown, revoked or expired."""


class Forbidden(ApiError, errors.ForbiddenError):
    """403: the key may not use this scope, or may not write."""


class NotFound(ApiError, errors.NotFoundError):
    """404: no such memory, job or route — or it is another tenant's."""


class Conflict(ApiError, errors.ConflictError):
    """409: an ``Idempotency-Key`` reused for another body, or a concurrent change won."""


class PayloadTooLarge(ApiError, errors.PayloadTooLargeError):
    """413: the body is over 6 MiB."""


class Unprocessable(ApiError, errors.UnprocessableError):
    """422: unknown fields (named in ``details``) or a request that cannot be carried out."""


class RateLimited(ApiError):
    """429: over quota; ``retry_after`` seconds is when to try again (retried automatically)."""


class ServerError(ApiError):
    """5xx: the server failed (retried automatically when retrying is safe)."""


class ConnectionFailed(errors.EngramError, code="connection_failed"):
    """The server could not be reached or did not answer in time (after the retries); the message
    names the address tried."""


MISSING_KEY = (
    "ENGRAM_API_KEY is not set: export ENGRAM_API_KEY=<key> "
    "(`engram key create TENANT` or POST /v1/admin/tenants/TENANT/keys prints one)"
)


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    422: Unprocessable,
    429: RateLimited,
}


def refused(error: errors.EngramError) -> ApiError:
    """The ``ApiError`` the server would answer for a call the SDK refuses before sending it: the
    one of ``_BY_STATUS`` that is also the error's own class (``BadRequest`` for a
    ``ValidationFailedError``), with its status."""
    for status, cls in _BY_STATUS.items():
        if isinstance(error, cls.__bases__[1:]):  # (ApiError, the engram.errors class it answers)
            return cls(status, error.code, error.message, error.details or None)
    return ApiError(500, error.code, error.message, error.details or None)


def missing_key() -> Unauthorized:
    """A client made from the environment without ``ENGRAM_API_KEY``: refused at once, not at
    the first call."""
    return Unauthorized(401, "unauthorized", MISSING_KEY)


def from_answer(status: int, body: Any, retry_after: float | None) -> ApiError:
    """The exception for a non-2xx answer, from its envelope (or its status alone)."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        error = {"code": "http_" + str(status), "message": str(body)[:500] or f"HTTP {status}"}
    cls = _BY_STATUS.get(status, ServerError if status >= 500 else ApiError)
    return cls(
        status,
        str(error.get("code", "")),
        str(error.get("message", "")),
        error.get("details") or None,
        retry_after=retry_after,
    )
