"""One screening rule, and the prefilter that runs only the rules a text could match.

Python's ``re`` tries every alternative at every position, so sixty patterns would cost ~5 µs
each on every retained text. Each pattern instead names, derived from its own parse tree, the
literal strings one of which every match must contain (``required_literals``); a text runs only
the rules whose literals it contains, found with one set of its 3-character windows.

A rule's pattern is compiled on its first use (``LazyPattern``), and its literals are read from
``rules/literals.json`` when that file holds them for its exact text: a cold Lambda's first
screening then compiles only the rules its text could match instead of parsing all 135 twice
(~120 ms). A pattern the file does not know has its literals derived here, so a stale file costs
time, never a skipped rule.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

try:  # the parser ``re`` itself uses (``sre_parse`` before 3.11)
    from re import _constants as sre_constants  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants
    import sre_parse

__all__ = ["LazyPattern", "Prefilter", "Rule", "digest", "required_literals"]


class LazyPattern:
    """A rule's regular expression (``re.MULTILINE``), compiled on its first search."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern, self.flags = pattern, re.MULTILINE
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:  # two threads may both compile it: the same pattern either way
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.match(text, pos)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)


class Rule(NamedTuple):
    name: str  # the attack class it catches, e.g. "rule-bridge"
    lang: str  # "en", "es", ... or "any"
    pattern: LazyPattern
    unless_user: LazyPattern | None = None  # a user's own wish about form, read after the match


def digest(pattern: str) -> str:
    """The key of a pattern's literals in ``rules/literals.json``: its text's SHA-256, shortened."""
    return hashlib.sha256(pattern.encode("utf-8")).hexdigest()[:20]


_REPEATS = {
    sre_constants.MAX_REPEAT,
    sre_constants.MIN_REPEAT,
    getattr(sre_constants, "POSSESSIVE_REPEAT", None),
}


def _required(items: Any) -> frozenset[str] | None:
    """Literals one of which every match of this sequence contains (None: no such set)."""
    options: list[frozenset[str]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            options.append(frozenset(["".join(run)]))
            run.clear()

    for op, av in items:
        if op is sre_constants.LITERAL:
            run.append(chr(av))
            continue
        flush()
        found: frozenset[str] | None = None
        if op is sre_constants.SUBPATTERN:
            found = _required(av[-1])
        elif op is sre_constants.ATOMIC_GROUP:
            found = _required(av)
        elif op is sre_constants.BRANCH:
            alternatives = [_required(a) for a in av[1]]
            if all(a is not None for a in alternatives):
                found = frozenset().union(*[a for a in alternatives if a is not None])
        elif op in _REPEATS and av[0] >= 1:
            found = _required(av[2])
        if found:
            options.append(found)
    flush()
    # The most selective choice: the set whose shortest literal is longest.
    return max(options, key=lambda s: (min(map(len, s)), -len(s)), default=None)


def required_literals(pattern: re.Pattern[str] | LazyPattern) -> frozenset[str] | None:
    """Strings one of which is in every text ``pattern`` matches, or None if it has none.

    >>> sorted(required_literals(re.compile(r"\\b(?:ignore|disregard)\\s+(?:all\\s+)?previous")))
    ['previous']
    >>> required_literals(re.compile(r"\\w+")) is None
    True
    """
    try:
        return _required(sre_parse.parse(pattern.pattern, pattern.flags))
    except Exception:  # an unknown opcode in another Python: no prefilter, never a wrong skip
        return None


class Prefilter:
    """Which rules a text could match, by the literals it contains; ``known``: literals already
    derived, by ``digest`` of the pattern (None: the pattern has none)."""

    def __init__(
        self, rules: Sequence[Rule], known: Mapping[str, Sequence[str] | None] | None = None
    ) -> None:
        self.always: set[int] = set()
        self.short: list[tuple[str, int]] = []  # literals under 3 characters: searched directly
        self.by_gram: dict[str, list[tuple[str, int]]] = defaultdict(list)
        known = known or {}
        for index, rule in enumerate(rules):
            key = digest(rule.pattern.pattern)
            if key in known:
                stored = known[key]
                literals = None if stored is None else frozenset(stored)
            else:
                literals = required_literals(rule.pattern)
            if not literals:
                self.always.add(index)
                continue
            for literal in literals:
                if len(literal) < 3:
                    self.short.append((literal, index))
                else:
                    self.by_gram[literal[:3]].append((literal, index))
        self.grams = frozenset(self.by_gram)

    def candidates(self, text: str) -> set[int]:
        found = set(self.always)
        for gram in self.grams.intersection(map("".join, zip(text, text[1:], text[2:], strict=False))):
            for literal, index in self.by_gram[gram]:
                if index not in found and literal in text:
                    found.add(index)
        for literal, index in self.short:
            if index not in found and literal in text:
                found.add(index)
        return found
