"""HTTP statuses live in the API layer (``engram_http.errors``), not on the domain's errors."""

from __future__ import annotations

import inspect

import pytest

from engram import errors
from engram.client.errors import BadRequest, NotFound, Unprocessable, refused
from engram_http.errors import STATUS, http_status
from engram_http.runtime import _from_engram

ANSWERS = {
    errors.ValidationFailedError: 400,
    errors.UnauthorizedError: 401,
    errors.ForbiddenError: 403,
    errors.NotFoundError: 404,
    errors.ConflictError: 409,
    errors.PayloadTooLargeError: 413,
    errors.UnprocessableError: 422,
    errors.QuotaExceededError: 429,
    errors.DependencyMissingError: 500,
    errors.ConfigurationError: 500,
    errors.ProviderError: 502,
    errors.UnavailableError: 503,
}


def _domain_errors() -> list[type[errors.EngramError]]:
    return [
        cls
        for _, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.EngramError) and cls is not errors.EngramError
    ]


def test_every_domain_error_has_its_status_in_the_api_layers_one_table() -> None:
    # Given every error class of engram.errors
    # Then the table answers each with the status the API has always answered
    assert {cls: STATUS.get(cls) for cls in _domain_errors()} == ANSWERS


@pytest.mark.parametrize("cls", sorted(ANSWERS, key=lambda c: c.__name__))
def test_a_domain_error_carries_its_code_and_no_http_status(cls: type[errors.EngramError]) -> None:
    # Given a domain error
    error = cls("something")

    # Then it knows its code, not how HTTP answers it; the resolver answers with the table's status
    assert error.code and not hasattr(error, "status")
    assert _from_engram(error).status_code == ANSWERS[cls]


def test_an_error_outside_the_table_answers_as_its_nearest_ancestor_in_it() -> None:
    class TooManyScopesError(errors.ValidationFailedError, code="too_many_scopes"):
        pass

    assert http_status(TooManyScopesError("x")) == 400
    assert http_status(errors.EngramError("x")) == 500
    assert http_status(BadRequest(400, "validation_error", "x")) == 400


def test_what_the_sdk_refuses_before_sending_is_the_api_error_the_server_would_answer() -> None:
    # Given the domain errors a request model's check raises
    bad, unknown = errors.ValidationFailedError("bad"), errors.UnprocessableError("unknown field(s): x")

    # Then the SDK raises the same class and status the server answers them with
    assert (type(refused(bad)), refused(bad).status) == (BadRequest, 400)
    assert (type(refused(unknown)), refused(unknown).status) == (Unprocessable, 422)
    assert (type(refused(errors.NotFoundError("m"))), refused(errors.NotFoundError("m")).status) == (
        NotFound,
        404,
    )
