"""Pydantic's validation errors in words a caller can act on: each says what the named field
must be (``limit: must be at least 1``, ``scope: must be global, or agent:, user:, …``), never a
regular expression, an input value, a model's class name or a link to pydantic's site.

``engram.errors.from_validation`` words every error it turns into an ``EngramError``, so any
surface that validates with pydantic (the API, the SDK, imports, the CLI, the MCP tools) can call
it, or call ``problem`` / ``in_words`` for one error or a list of them.

>>> problem({"type": "greater_than_equal", "msg": "...", "ctx": {"ge": 1}})
'must be at least 1'
>>> in_words([{"type": "missing", "loc": ("body", "query"), "msg": "Field required"}], outer=("body",))
'query: is required'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

Ctx = Mapping[str, Any]

# The patterns of the API's fields (the records' types use them), and what each means in words.
SCOPE = r"^(global|(agent|user|project|session):[A-Za-z0-9][A-Za-z0-9._@:+-]{0,127})$"
TAG = r"^[A-Za-z0-9][A-Za-z0-9 _.:/+-]{0,63}$"
METADATA_KEY = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$"
TENANT_ID = r"^[a-z0-9][a-z0-9-]{2,62}$"
MEMORY_ID = r"^mem_[0-9a-f]{32}$"
JOB_ID = r"^job_[0-9a-f]{32}$"
PATTERN_WORDS: dict[str, str] = {
    SCOPE: (
        "must be global, or agent:, user:, project: or session: followed by an id that starts with a "
        "letter or digit (letters, digits and . _ @ : + -, at most 128), e.g. user:alice"
    ),
    TAG: "must start with a letter or digit and hold letters, digits, spaces and _ . : / + - (at most 64)",
    METADATA_KEY: "must start with a letter, digit or _ and hold letters, digits and _ . - (at most 64)",
    TENANT_ID: "must be 3 to 63 lowercase letters, digits or -, starting with a letter or digit, e.g. acme",
    MEMORY_ID: "must be a memory id: mem_ followed by 32 hexadecimal digits",
    JOB_ID: "must be a job id: job_ followed by 32 hexadecimal digits",
}
"""What each pattern of the API's fields means, in words (said instead of the regular expression)."""


_ISO = "must be an ISO-8601 date and time with a time zone, e.g. 2026-01-31T09:00:00Z"
_FIXED: dict[str, str] = {
    "missing": "is required",
    "extra_forbidden": "is not a field here (unknown field)",
    "string_type": "must be a string",
    "int_type": "must be a whole number (not a string)",
    "int_parsing": "must be a whole number (not a string)",
    "int_from_float": "must be a whole number",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "none_required": "must be null",
    "datetime_type": _ISO,
    "datetime_parsing": _ISO,
    "datetime_from_date_parsing": _ISO,
    "timezone_aware": _ISO,
    "json_invalid": "is not valid JSON",
    "url_parsing": "must be a URL such as https://example.com/hook",
    "url_scheme": "must be an http or https URL",
    "finite_number": "must be a finite number",
    "union_tag_invalid": "has a kind that is not one of the allowed ones",
}


def _pattern(ctx: Ctx) -> str:
    return PATTERN_WORDS.get(str(ctx.get("pattern", "")), "has characters or a form that is not allowed")


def _length(ctx: Ctx, bound: str, what: str) -> str:
    n = ctx.get(f"{bound}_length")
    if bound == "min" and n == 1:
        return "must not be empty"
    plural = "" if n == 1 else "s"
    return f"must have {'at least' if bound == 'min' else 'at most'} {n} {what}{plural}"


_WORDED: dict[str, Callable[[Ctx], str]] = {
    "string_pattern_mismatch": _pattern,
    "string_too_short": lambda c: _length(c, "min", "character"),
    "string_too_long": lambda c: _length(c, "max", "character"),
    "too_short": lambda c: _length(c, "min", "item"),
    "too_long": lambda c: _length(c, "max", "item"),
    "greater_than_equal": lambda c: f"must be at least {c.get('ge')}",
    "greater_than": lambda c: f"must be greater than {c.get('gt')}",
    "less_than_equal": lambda c: f"must be at most {c.get('le')}",
    "less_than": lambda c: f"must be less than {c.get('lt')}",
    "literal_error": lambda c: f"must be one of {c.get('expected')}",
    "enum": lambda c: f"must be one of {c.get('expected')}",
}


def problem(error: Mapping[str, Any]) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) as what the field must be."""
    kind = str(error.get("type", ""))
    if kind in _FIXED:
        return _FIXED[kind]
    if kind in _WORDED:
        return _WORDED[kind](error.get("ctx") or {})
    message = str(error.get("msg", "is invalid"))
    for prefix in ("Value error, ", "Assertion failed, "):  # a validator's own words, as written
        message = message.removeprefix(prefix)
    return message


def field_name(error: Mapping[str, Any], outer: tuple[str, ...] = ()) -> str:
    """The field an error is about, dotted (``items.0.text``), without ``outer`` parts such as
    ``body``, and without the names pydantic gives the arms of a union."""
    parts = [str(p) for p in error.get("loc", ()) if p not in outer]
    return ".".join(parts) or "(body)"


def in_words(errors: Iterable[Mapping[str, Any]], *, outer: tuple[str, ...] = ()) -> str:
    """Every error as ``field: problem``, joined by ``; `` (each field once)."""
    said: dict[str, str] = {}
    for error in errors:
        said.setdefault(field_name(error, outer), problem(error))
    return "; ".join(f"{name}: {text}" for name, text in said.items())
