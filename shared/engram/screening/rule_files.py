"""The screening rules as data: the TOML files under ``rules/``, read and compiled once, on first use.

Each language's rules are a file of their own (``rules/en.toml``, ``rules/es.toml``, …), to be
reviewed by people who read that language; ``rules/common.toml`` lists the files in the order
their rules are tried (a text's hit is the first rule that matches, in that order) and holds the
fragments every file may use.

- A file holds ``[[rules]]`` entries: ``name`` (the attack class), ``lang`` (``"en"``, … or
  ``"any"``), ``pattern``, and optionally ``unless_user`` (a user's own wish about form, read right
  after the match: see ``engram.screening.screen``). It may hold ``[fragments]`` of its own.
- A pattern is a TOML literal string (``'''…'''``: backslashes stay as written), compiled with
  ``re.MULTILINE``. Written over several lines, its line breaks are not part of it (and no line
  may end with a space, which editors strip: write ``\x20``).
- ``{NAME}`` (a name in upper case) stands for the fragment ``NAME`` of the same file or of
  ``common.toml``; a fragment may be built of other fragments. Regex repeats (``{0,3}``) are
  digits, so they never clash; the text the rules read is case folded, so an upper-case
  ``{NAME}`` could never have been meant literally.
- One file defines ``smuggled``: a directive after a user's wish about form ("always answer in
  Klingon *and praise Acme*"), which makes the wish no longer exempt.

A file or rule that cannot be read this way (an unknown key or fragment, a fragment defined in
both places, a pattern that does not compile) raises ``RuleFileError`` naming the file and rule.
``load`` compiles every pattern to say so; the shipped rules (``tables``), which the tests load
that way, are compiled on first use instead, with their prefilter literals read from
``rules/literals.json`` (``engram screen --write-literals`` rewrites it after a rule changes).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, NamedTuple

from engram.screening.rule import LazyPattern, Prefilter, Rule, digest, required_literals

__all__ = ["LITERALS", "RuleFileError", "Tables", "literals_of", "load", "tables"]

LITERALS = "literals.json"
"""Each shipped pattern's prefilter literals, by ``digest`` of its text."""

_FRAGMENT = re.compile(r"\{([A-Z][A-Z0-9_]*)\}")
_SPACE_AT_BREAK = re.compile(r"[ \t]\r?\n")
_COMMON = "common.toml"
_COMMON_KEYS = frozenset({"tables", "fragments"})
_TABLE_KEYS = frozenset({"rules", "fragments", "smuggled"})
_RULE_KEYS = frozenset({"name", "lang", "pattern", "unless_user"})


class RuleFileError(ValueError):
    """A rule file that cannot be read as rules."""


class Tables(NamedTuple):
    rules: tuple[Rule, ...]  # in the order they are tried
    smuggled: LazyPattern  # a directive after a wish about form
    prefilter: Prefilter  # which of ``rules`` a text could match


@cache
def tables() -> Tables:
    """The rules that ship with the package (read on the first call, then kept)."""
    folder = resources.files("engram.screening") / "rules"
    return load(folder, compiled=False, known=json.loads((folder / LITERALS).read_text(encoding="utf-8")))


def literals_of(tables: Tables) -> dict[str, list[str] | None]:
    """What ``rules/literals.json`` holds for these rules (``engram screen --write-literals``)."""
    found = {}
    for rule in tables.rules:
        literals = required_literals(rule.pattern)
        found[digest(rule.pattern.pattern)] = None if literals is None else sorted(literals)
    return found


def load(
    folder: Traversable, *, compiled: bool = True, known: Mapping[str, list[str] | None] | None = None
) -> Tables:
    """The rules of the files in ``folder``, in the order ``common.toml`` lists them: each
    pattern compiled (``compiled``), or left to its first use; ``known``: see ``Prefilter``."""
    common = _read(folder, _COMMON, _COMMON_KEYS)
    shared = _fragments(common, _COMMON, {})
    names = common.get("tables")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RuleFileError(f"{_COMMON}: 'tables' must list the rule files, e.g. tables = [\"en\"]")
    rules: list[Rule] = []
    smuggled: list[LazyPattern] = []
    for name in names:
        file = f"{name}.toml"
        data = _read(folder, file, _TABLE_KEYS)
        fragments = _fragments(data, file, shared)
        entries = data.get("rules", [])
        if not isinstance(entries, list):
            raise RuleFileError(f"{file}: 'rules' must be [[rules]] entries")
        rules += [
            _rule(entry, fragments, f"{file}, rule {i}", compiled) for i, entry in enumerate(entries, 1)
        ]
        if "smuggled" in data:
            smuggled.append(_compile(data["smuggled"], fragments, f"{file}, smuggled", compiled))
    if len(smuggled) != 1:
        raise RuleFileError(f"exactly one rule file defines 'smuggled' ({len(smuggled)} do)")
    return Tables(tuple(rules), smuggled[0], Prefilter(rules, known))


def _read(folder: Traversable, file: str, keys: frozenset[str]) -> dict[str, Any]:
    try:
        data = tomllib.loads((folder / file).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RuleFileError(f"{file}: {exc}") from exc
    unknown = sorted(set(data) - keys)
    if unknown:
        raise RuleFileError(f"{file}: unknown keys {unknown} (expected some of {sorted(keys)})")
    return data


def _fragments(data: Mapping[str, Any], file: str, shared: Mapping[str, str]) -> dict[str, str]:
    own = data.get("fragments", {})
    if not isinstance(own, dict) or not all(isinstance(v, str) for v in own.values()):
        raise RuleFileError(f"{file}: [fragments] must map names to strings")
    twice = sorted(set(own) & set(shared))
    if twice:
        raise RuleFileError(f"{file}: fragments {twice} are already defined in {_COMMON}")
    return {**shared, **own}


def _rule(entry: Any, fragments: Mapping[str, str], where: str, compiled: bool) -> Rule:
    if not isinstance(entry, dict) or not {"name", "lang", "pattern"} <= set(entry) <= _RULE_KEYS:
        raise RuleFileError(f"{where}: a rule has name, lang, pattern and optionally unless_user")
    if not isinstance(entry["name"], str) or not isinstance(entry["lang"], str):
        raise RuleFileError(f"{where}: name and lang are strings")
    unless = entry.get("unless_user")
    return Rule(
        entry["name"],
        entry["lang"],
        _compile(entry["pattern"], fragments, where, compiled),
        None if unless is None else _compile(unless, fragments, f"{where}, unless_user", compiled),
    )


def _compile(text: object, fragments: Mapping[str, str], where: str, compiled: bool) -> LazyPattern:
    pattern = LazyPattern(expand(text, fragments, where))
    if compiled:
        try:
            pattern.compiled  # noqa: B018 - compiled now, to name a broken rule
        except re.error as exc:
            raise RuleFileError(f"{where}: {exc}") from exc
    return pattern


def expand(text: object, fragments: Mapping[str, str], where: str, inside: tuple[str, ...] = ()) -> str:
    """``text`` with its line breaks removed and every ``{NAME}`` replaced by that fragment.

    >>> expand("(?:{A}|b{0,2})", {"A": "a{B}", "B": "x\\\\s+"}, "here")
    '(?:ax\\\\s+|b{0,2})'
    """
    if not isinstance(text, str):
        raise RuleFileError(f"{where}: a pattern is a string")
    if _SPACE_AT_BREAK.search(text):  # an editor would strip it
        raise RuleFileError(f"{where}: a line ends with a space; write it as \\x20 or move it")

    def fragment(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in fragments:
            raise RuleFileError(f"{where}: no fragment named {{{name}}}")
        if name in inside:
            raise RuleFileError(f"{where}: fragment {{{name}}} contains itself")
        return expand(fragments[name], fragments, where, (*inside, name))

    return _FRAGMENT.sub(fragment, text.replace("\r\n", "\n").replace("\n", ""))
