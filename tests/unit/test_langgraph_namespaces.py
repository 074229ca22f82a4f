"""LangGraph namespaces as Engram scopes: the mapping is reversible, always a valid scope, and
never shared by two namespaces; the adapter reaches Engram through the SDK only."""

from __future__ import annotations

import ast
import doctest
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("langgraph.store.base", reason="the langgraph extra is part of make test's install")
from langgraph.store.base import InvalidNamespaceError

from engram.integrations import _namespaces, langgraph
from engram.integrations._namespaces import check_root, to_namespace, to_scope
from engram.models import Scope

ROOT = "project:langgraph"
SCOPE = re.compile(Scope.__metadata__[0].pattern)  # type: ignore[attr-defined]
labels = st.text(min_size=1, max_size=12).filter(lambda s: "." not in s)
namespaces = st.lists(labels, min_size=1, max_size=4).map(tuple)


def test_the_modules_examples_hold() -> None:
    for module in (_namespaces, langgraph):
        assert doctest.testmod(module).failed == 0


@given(namespaces)
def test_every_namespace_maps_to_a_valid_scope_and_back(namespace: tuple[str, ...]) -> None:
    # Given any namespace LangGraph allows, when it fits a scope
    try:
        scope = to_scope(ROOT, namespace)
    except InvalidNamespaceError as refused:
        assert "too long" in str(refused)
        return
    # Then the scope is one Engram accepts, and reads back as the same namespace
    assert SCOPE.match(scope)
    assert to_namespace(ROOT, scope) == namespace


@given(namespaces, namespaces)
def test_two_namespaces_never_share_a_scope(first: tuple[str, ...], second: tuple[str, ...]) -> None:
    try:
        a, b = to_scope(ROOT, first), to_scope(ROOT, second)
    except InvalidNamespaceError:
        return
    assert (a == b) == (first == second)


def test_labels_keep_what_a_scope_allows_and_escape_the_rest() -> None:
    assert to_scope(ROOT, ("users", "ann", "memories")) == "project:langgraph.users.ann.memories"
    assert to_scope(ROOT, ("a+b", "c/d", "x y", "é")) == "project:langgraph.a+2Bb.c+2Fd.x+20y.+C3+A9"
    assert to_scope(ROOT, ("user:ann@example-1_2",)) == "project:langgraph.user:ann@example-1_2"


def test_namespaces_langgraph_forbids_or_a_scope_cannot_hold_are_refused() -> None:
    for bad in [(), ("a.b",), ("",), ("ok", "")]:
        with pytest.raises(InvalidNamespaceError):
            to_scope(ROOT, bad)
    with pytest.raises(InvalidNamespaceError, match="too long"):
        to_scope(ROOT, ("x" * 120,))
    for root in ("global", "users/ann", "project:"):
        with pytest.raises(ValueError, match="root"):
            check_root(root)


def test_scopes_outside_the_root_are_no_namespace() -> None:
    assert to_namespace(ROOT, "user:alice") is None
    assert to_namespace(ROOT, "project:langgraphs.x") is None
    assert to_namespace(ROOT, ROOT) is None


def test_the_adapter_reaches_engram_through_the_sdk_only() -> None:
    # The store is a client of the API: it imports the SDK and the API's models, no server code.
    allowed = ("engram.client", "engram.models", "engram.integrations", "langgraph.")
    folder = Path(_namespaces.__file__).parent
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.split(".")[0] in ("engram", "langgraph")
            ):
                assert node.module.startswith(allowed), f"{path.name} imports {node.module}"
