"""Validation errors in words: what each bad field must be, never pydantic's own phrasing, a
regular expression, the input or a link (``engram.validation_words`` through ``parse``)."""

from __future__ import annotations

from typing import Any

import pytest

from engram.errors import EngramError, UnprocessableError, ValidationFailedError
from engram.models import FeedbackRequest, ForgetRequest, PatchRequest, RecallRequest, RetainRequest, parse
from engram.validation_words import in_words

INTERNALS = ("should match pattern", "Input should", "String should", "pydantic", "^(", "input_value", "[A-Z")

BAD: list[tuple[type[Any], dict[str, Any], str, str]] = [
    # model, body, field, what the message says of it
    (RetainRequest, {"scope": "alice", "text": "x"}, "scope", "must be global, or agent:, user:"),
    (RetainRequest, {"scope": "user:a", "text": ""}, "text", "must not be empty"),
    (RetainRequest, {"scope": "user:a", "text": "x", "tags": ["#no"]}, "tags.0", "must start with a letter"),
    (
        RetainRequest,
        {"scope": "user:a", "text": "x", "occurred_at": "soon"},
        "occurred_at",
        "must be an ISO-8601",
    ),
    (RetainRequest, {"scope": "user:a", "text": "x", "mode": "fast"}, "mode", "must be one of"),
    (RecallRequest, {"query": "x", "limit": 0}, "limit", "must be at least 1"),
    (RecallRequest, {"query": "x", "limit": 1000}, "limit", "must be at most 100"),
    (RecallRequest, {"query": "x", "limit": "5"}, "limit", "must be a whole number"),
    (RecallRequest, {}, "query", "is required"),
    (FeedbackRequest, {"signal": "great"}, "signal", "must be one of"),
    (PatchRequest, {"pinned": "yes"}, "pinned", "must be true or false"),
    (ForgetRequest, {"ids": ["m1"]}, "ids.0", "must be a memory id: mem_"),
]


@pytest.mark.parametrize(
    ("model", "body", "field", "words"), BAD, ids=[f"{b[0].__name__}-{b[2]}" for b in BAD]
)
def test_a_bad_field_is_named_with_what_it_must_be_in_words(
    model: type[Any], body: dict[str, Any], field: str, words: str
) -> None:
    # Given a request body with one bad field
    # When it is parsed by the API's model
    with pytest.raises(EngramError) as refused:
        parse(model, body)
    # Then the error is a 400 naming the field and saying what it must be, in words
    assert isinstance(refused.value, ValidationFailedError)
    assert f"{field}: {words}" in refused.value.message, refused.value.message
    assert refused.value.details[0]["field"] == field
    assert not any(inside in refused.value.message for inside in INTERNALS), refused.value.message


def test_an_unknown_field_is_a_422_that_names_it_and_words_the_others() -> None:
    # Given a misspelt field and a bad one
    with pytest.raises(UnprocessableError) as refused:
        parse(RecallRequest, {"query": "x", "limt": 5, "min_score": 2})
    # Then the unknown field comes first, the other in words
    assert refused.value.message == "unknown field(s): limt; min_score: must be at most 1.0"


def test_in_words_says_each_field_once_without_the_outer_location() -> None:
    errors = [
        {"type": "missing", "loc": ("body", "scope"), "msg": "Field required"},
        {"type": "string_type", "loc": ("body", "scope"), "msg": "Input should be a valid string"},
        {"type": "value_error", "loc": ("body", "text"), "msg": "Value error, must not be blank"},
    ]
    assert in_words(errors, outer=("body",)) == "scope: is required; text: must not be blank"
