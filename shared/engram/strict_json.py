"""JSON as the API accepts it: strict where ``json.loads`` is lenient.

``json.loads`` takes duplicate keys (the last wins, silently), ``NaN`` and ``Infinity`` (not JSON),
numbers that overflow to infinity (``1e309``), integers of thousands of digits (slow, and no
store keeps them), lone UTF-16 surrogates (``"\\ud800"``, which no UTF-8 store can write), and
nesting deep enough to exhaust the interpreter's stack. (An integral number written as a float,
``57.0``, is an integer here, as JSON Schema counts it.) Each of these is refused here with a
message that says what and where, so the API can answer 400 instead of storing a surprise or
failing with a 500.

>>> loads('{"a": [1, 2.5, "x"]}')
{'a': [1, 2.5, 'x']}
>>> loads('{"a": 1, "a": 2}')
Traceback (most recent call last):
...
engram.strict_json.StrictJsonError: duplicate key 'a'
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 32
"""Objects and arrays nested deeper than this are refused (no API field needs more than 4)."""
MAX_INT = 2**53 - 1
"""Integers beyond ±(2⁵³ − 1) are refused, as I-JSON (RFC 7493) advises: beyond it a JavaScript
client (or any reader that parses numbers as doubles) silently rounds them."""


class StrictJsonError(ValueError):
    """The text is not JSON the API accepts; the message says why."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise StrictJsonError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise StrictJsonError(f"{name} is not a JSON number")


def _float(text: str) -> float | int:
    """A finite number; an integral one (``57.0``, ``1e3``) is the integer JSON Schema calls it."""
    value = float(text)
    if not math.isfinite(value):
        raise StrictJsonError(f"number {text[:40]} is out of range")
    if value.is_integer() and abs(value) <= MAX_INT:
        return int(value)
    return value


def _int(text: str) -> int:
    if len(text) > 17:
        raise StrictJsonError(f"integer {text[:20]}… is out of range (at most ±{MAX_INT})")
    value = int(text)
    if abs(value) > MAX_INT:
        raise StrictJsonError(f"integer {text} is out of range (at most ±{MAX_INT})")
    return value


def _check_tree(value: Any) -> None:
    """Depth and strings, without recursion (the tree is at most ``MAX_DEPTH`` deep by then)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            _check_text(node)
            continue
        if not isinstance(node, dict | list):
            continue
        if depth >= MAX_DEPTH:
            raise StrictJsonError(f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, dict):
            for key, item in node.items():
                _check_text(key)
                stack.append((item, depth + 1))
        else:
            stack.extend((item, depth + 1) for item in node)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise StrictJsonError("a string holds a lone UTF-16 surrogate (not valid Unicode)") from None


def loads(text: str | bytes) -> Any:
    """Parse ``text`` (UTF-8 if bytes) as strict JSON; ``StrictJsonError`` says what is wrong."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StrictJsonError(f"the body is not UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(
            text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float, parse_int=_int
        )
    except RecursionError:
        raise StrictJsonError(f"nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise StrictJsonError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    _check_tree(value)
    return value
