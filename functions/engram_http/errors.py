"""Which HTTP status answers each of Engram's errors: the one exception-to-HTTP table (STYLE §10).

The library's errors carry a stable ``code`` (and, where it applies, ``retry_after``) and no HTTP
status; the resolver, the local gateway and the CLI's exit code all read the status here. An
error class not in the table answers as its nearest ancestor that is (the SDK's ``BadRequest`` is
a ``ValidationFailedError``: 400), anything else 500.
"""

from __future__ import annotations

from collections.abc import Mapping

from engram.errors import (
    ConfigurationError,
    ConflictError,
    DependencyMissingError,
    EngramError,
    ForbiddenError,
    NotFoundError,
    PayloadTooLargeError,
    ProviderError,
    QuotaExceededError,
    UnauthorizedError,
    UnavailableError,
    UnprocessableError,
    ValidationFailedError,
)

STATUS: Mapping[type[EngramError], int] = {
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
    UnavailableError: 503,
}
"""Error class -> the HTTP status of its answer."""


def http_status(error: EngramError) -> int:
    """The HTTP status of an error: its class's in ``STATUS`` (the nearest that has one), else 500.

    >>> http_status(NotFoundError("memory 'm' not found")), http_status(EngramError("boom"))
    (404, 500)
    """
    for cls in type(error).__mro__:
        status = STATUS.get(cls)
        if status is not None:
            return status
    return 500
