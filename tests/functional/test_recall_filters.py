"""Filters apply before ranking: a recall only ever sees memories that match them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.engine import Engine
from engram.errors import ForbiddenError, UnprocessableError
from engram.models import RecallRequest, RetainItem, RetainRequest, parse


def _seed(engine: Engine) -> None:
    items = [
        RetainItem(
            text="Alice booked a flight to Lisbon for the conference",
            metadata={"source": "email"},
            tags=["travel"],
            occurred_at=datetime(2026, 3, 2, tzinfo=UTC),
        ),
        RetainItem(
            text="Alice booked a hotel in Lisbon near the river",
            metadata={"source": "chat"},
            tags=["travel", "hotel"],
            occurred_at=datetime(2026, 5, 10, tzinfo=UTC),
        ),
        RetainItem(
            text="Alice booked a table for dinner in Lisbon",
            metadata={"source": "chat"},
            tags=["food"],
            occurred_at=datetime(2026, 7, 1, tzinfo=UTC),
        ),
    ]
    engine.retain("acme", RetainRequest(scope="user:alice", items=items, mode="raw"))
    engine.retain("acme", RetainRequest(scope="user:bob", text="Bob booked a flight to Lisbon", mode="raw"))


def _recall(engine: Engine, **body: object) -> list[str]:
    request = parse(
        RecallRequest, {"query": "what did Alice book in Lisbon?", "min_score": 0, "limit": 10, **body}
    )
    return [m.content for m in engine.recall("acme", request).memories]


def test_a_metadata_filter_keeps_only_matching_memories(engine: Engine) -> None:
    # Given memories from email and chat
    _seed(engine)
    # When recalling with metadata source = email
    found = _recall(engine, filters={"metadata": {"source": "email"}})
    # Then only the email one comes back
    assert found == ["Alice booked a flight to Lisbon for the conference"]


def test_tag_filters_match_any_or_all(engine: Engine) -> None:
    # Given tagged memories
    _seed(engine)
    # When filtering by any of two tags, and by all of two tags
    any_of = _recall(engine, filters={"tags_any": ["hotel", "food"]})
    all_of = _recall(engine, filters={"tags_all": ["travel", "hotel"]})
    # Then any matches two memories and all matches one
    assert sorted(any_of) == [
        "Alice booked a hotel in Lisbon near the river",
        "Alice booked a table for dinner in Lisbon",
    ]
    assert all_of == ["Alice booked a hotel in Lisbon near the river"]


def test_a_time_range_on_occurred_at_keeps_only_memories_inside_it(engine: Engine) -> None:
    # Given memories from March, May and July
    _seed(engine)
    # When asking for April to June
    found = _recall(
        engine, filters={"occurred_at": {"gte": "2026-04-01T00:00:00Z", "lte": "2026-06-30T00:00:00Z"}}
    )
    # Then only May's memory comes back
    assert found == ["Alice booked a hotel in Lisbon near the river"]


def test_scopes_limit_recall_to_the_named_scopes(engine: Engine) -> None:
    # Given memories of alice and bob
    _seed(engine)
    # When recalling in bob's scope only
    found = _recall(engine, scopes=["user:bob"])
    # Then only bob's memory comes back
    assert found == ["Bob booked a flight to Lisbon"]


def test_a_key_limited_to_one_scope_cannot_read_another(engine: Engine) -> None:
    # Given memories of alice and bob
    _seed(engine)
    # When a caller allowed only user:alice asks for user:bob
    request = parse(RecallRequest, {"query": "flight", "scopes": ["user:bob"]})
    # Then it is refused, and without scopes it only sees alice
    with pytest.raises(ForbiddenError):
        engine.recall("acme", request, allowed_scopes=["user:alice"])
    seen = engine.recall(
        "acme", parse(RecallRequest, {"query": "flight", "min_score": 0}), allowed_scopes=["user:alice"]
    )
    assert {m.scope for m in seen.memories} == {"user:alice"}


def test_an_unknown_filter_key_is_refused_naming_it(engine: Engine) -> None:
    # Given any recall body with a filter key that is not on the whitelist
    body = {"query": "flight", "filters": {"owner": "alice"}}
    # When it is parsed
    with pytest.raises(UnprocessableError) as caught:
        parse(RecallRequest, body)
    # Then the error names the key
    assert "filters.owner" in caught.value.message
