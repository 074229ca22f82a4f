"""ScopeSet: every scope, or a non-empty set of named ones, and its authorizer-context form."""

from __future__ import annotations

import json

import pytest

from engram.errors import ForbiddenError
from engram.scopes import EVERY_SCOPE, ScopeSet


def test_every_scope_allows_any_scope_and_has_no_list() -> None:
    every = ScopeSet.every()
    assert every is EVERY_SCOPE and every.is_every
    assert every.allows("user:ann") and "team:x" in every
    with pytest.raises(ValueError):
        every.names  # noqa: B018 - the property raises


def test_a_named_set_allows_only_its_scopes_in_the_order_given() -> None:
    named = ScopeSet.of(["user:ann", "team:x", "user:ann"])
    assert named.names == ("user:ann", "team:x") and list(named) == ["user:ann", "team:x"]
    assert len(named) == 2 and not named.is_every
    assert named.allows("team:x") and not named.allows("user:bob")


@pytest.mark.parametrize("names", [[], ["*"], ("user:ann", "*")])
def test_no_names_or_the_wildcard_are_refused(names: list[str]) -> None:
    with pytest.raises(ValueError):
        ScopeSet.of(names)
    with pytest.raises(TypeError):
        ScopeSet.of("user:ann")


def test_a_key_without_stored_scopes_may_touch_every_scope() -> None:
    assert ScopeSet.of_key(()) == ScopeSet.every()
    assert ScopeSet.of_key(("user:ann",)) == ScopeSet.of(["user:ann"])


def test_narrowing_names_the_denied_scopes() -> None:
    named = ScopeSet.of(["user:ann", "team:x"])
    assert named.narrow(None) is named and named.narrow([]) is named
    assert named.narrow(["team:x", "team:x"]) == ScopeSet.of(["team:x"])
    assert ScopeSet.every().narrow(["user:bob"]) == ScopeSet.of(["user:bob"])
    with pytest.raises(ForbiddenError, match="scope not allowed for this key: user:bob, team:y"):
        named.narrow(["user:ann", "user:bob", "team:y"])


def test_the_authorizer_context_form_is_star_or_a_json_list() -> None:
    assert ScopeSet.every().encode() == "*"
    assert json.loads(ScopeSet.of(["user:ann", "team:x"]).encode()) == ["user:ann", "team:x"]
    for value in (ScopeSet.every(), ScopeSet.of(["user:ann"]), ScopeSet.of(["a:b", "c:d"])):
        assert ScopeSet.decode(value.encode()) == value
    # What deployed authorizers wrote before (and a context without scopes) reads the same.
    assert ScopeSet.decode(None) == ScopeSet.decode("") == ScopeSet.decode("*") == ScopeSet.every()
    assert ScopeSet.decode(json.dumps(["user:ann"])) == ScopeSet.of(["user:ann"])
