"""LangGraph namespaces as Engram scopes, and LangGraph's matching rules, as pure functions.

A namespace ``("users", "ann", "memories")`` under the root scope ``project:langgraph`` is the
scope ``project:langgraph.users.ann.memories``: labels joined by ``.`` (LangGraph forbids ``.``
inside a label), each label kept as it is where a scope allows its characters
(``A-Z a-z 0-9 _ @ : -``) and every other character written as ``+`` and the hex of its UTF-8
bytes (``"ann smith"`` -> ``ann+20smith``), so the mapping is reversible and two namespaces never
share a scope.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.store.base import InvalidNamespaceError, MatchCondition

_KEPT = frozenset(string.ascii_letters + string.digits + "_@:-")
_ESCAPED = re.compile(r"\+([0-9A-F]{2})")
_SCOPE = re.compile(r"^(global|(agent|user|project|session):[A-Za-z0-9][A-Za-z0-9._@:+-]{0,127})$")


def check_root(root: str) -> str:
    """The root scope every namespace lives under (a scope other than ``global``)."""
    if root == "global" or not _SCOPE.match(root):
        raise ValueError(f"root must be an Engram scope such as 'project:langgraph', not {root!r}")
    return root


def _escape(label: str) -> str:
    return "".join(c if c in _KEPT else "".join(f"+{b:02X}" for b in c.encode()) for c in label)


def _unescape(label: str) -> str:
    raw = bytearray()
    at = 0
    for found in _ESCAPED.finditer(label):
        raw += label[at : found.start()].encode() + bytes([int(found.group(1), 16)])
        at = found.end()
    raw += label[at:].encode()
    return raw.decode()


def to_scope(root: str, namespace: Sequence[str]) -> str:
    """The scope of ``namespace``.

    >>> to_scope("project:langgraph", ("users", "ann smith", "memories"))
    'project:langgraph.users.ann+20smith.memories'
    >>> to_scope("user:ann", ("prefs", "ü"))
    'user:ann.prefs.+C3+BC'
    """
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    for label in namespace:
        if not isinstance(label, str) or not label or "." in label:
            raise InvalidNamespaceError(
                f"Invalid namespace label {label!r} in {tuple(namespace)}: labels are non-empty strings without '.'"
            )
    scope = ".".join([root, *(_escape(label) for label in namespace)])
    if not _SCOPE.match(scope):
        raise InvalidNamespaceError(
            f"Namespace {tuple(namespace)} is too long for an Engram scope ({scope!r} is over 128 characters after the kind)"
        )
    return scope


def to_namespace(root: str, scope: str) -> tuple[str, ...] | None:
    """The namespace a scope stands for, or None when the scope is not under ``root``.

    >>> to_namespace("project:langgraph", "project:langgraph.users.ann+20smith.memories")
    ('users', 'ann smith', 'memories')
    >>> to_namespace("project:langgraph", "user:alice") is None
    True
    """
    if not scope.startswith(root + "."):
        return None
    return tuple(_unescape(label) for label in scope[len(root) + 1 :].split("."))


def namespace_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """LangGraph's namespace match: a prefix or suffix of labels, ``*`` standing for any one label.

    >>> namespace_matches(MatchCondition("prefix", ("a", "*")), ("a", "b", "c"))
    True
    >>> namespace_matches(MatchCondition("suffix", ("c",)), ("a", "b"))
    False
    """
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise ValueError(f"Unsupported match type: {condition.match_type}")
    return all(want in ("*", label) for label, want in pairs)


def value_matches(value: Mapping[str, Any], conditions: Mapping[str, Any] | None) -> bool:
    """LangGraph's search filter: each field equal to the condition (nested dicts and lists
    compared element by element), or passing its operators ``$eq $ne $gt $gte $lt $lte``.

    >>> value_matches({"color": "red", "score": 4.5}, {"color": "red", "score": {"$gt": 4}})
    True
    >>> value_matches({"meta": {"lang": "en"}}, {"meta": {"lang": "fr"}})
    False
    """
    return all(_compare(value.get(name), wanted) for name, wanted in (conditions or {}).items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(actual, op, operand) for op, operand in wanted.items())
        return isinstance(actual, dict) and all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return bool(actual == wanted)


def _operator(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(actual == operand)
    if op == "$ne":
        return bool(actual != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"Unsupported operator: {op}")
    if actual is None:
        return False
    left, right = float(actual), float(operand)
    return {"$gt": left > right, "$gte": left >= right, "$lt": left < right, "$lte": left <= right}[op]
