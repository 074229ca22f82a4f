"""Extra relevance signals beside the vector and BM25 channels (DESIGN §6.2), all pure.

- **Session neighbours**: in a conversation the answer often sits in the turn after the one that
  matches the question ("What did you paint?" — "A sunrise over the lake"). A memory next to a
  strong hit in the same session inherits a share of that hit's score.
- **Entities**: names in the query (capitalised words that are not question words) should appear in
  what is recalled; the share of them a memory mentions is a bonus.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*\b")
_WORD = re.compile(r"\w+")
# Capitalised only because they open a question or a clause: never taken as names.
_NOT_NAMES = frozenset(
    """
    a about after all also am an and any are as at be been before both but by can could did do does
    during for from had has have he her here hers him his how i if in into is it its me my no nor not
    of on once or our out over she should so some such than that the their them then there these they
    this those through to under until up very was we were what when where which while who whom why
    will with would you your yours
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july
    august september october november december today tomorrow yesterday last next ok okay yes hey hi
    """.split()  # noqa: SIM905 - a word list reads better as words
)


def query_entities(query: str) -> tuple[str, ...]:
    """The names a query mentions, lower-cased, possessives dropped, first seen first.

    >>> query_entities("What did Caroline's sister give Melanie in May?")
    ('caroline', 'melanie')
    >>> query_entities("when is the Postgres upgrade?")
    ('postgres',)
    """
    found: list[str] = []
    for match in _CAPITALISED.finditer(query):
        word = re.sub(r"['’]s$", "", match.group(0)).lower()
        if word not in _NOT_NAMES and len(word) > 1:
            found.append(word)
    return tuple(dict.fromkeys(found))


def entity_share(entities: Sequence[str], text: str) -> float:
    """The share of ``entities`` that occur as whole words in ``text`` (0 when there are none).

    >>> entity_share(("caroline", "melanie"), "Caroline: I met Mel at the park")
    0.5
    """
    if not entities:
        return 0.0
    words = set(_WORD.findall(text.lower()))
    return sum(1 for e in entities if all(part in words for part in _WORD.findall(e))) / len(entities)


def with_bonus(score: float, bonus: float, weight: float) -> float:
    """``(score + weight·bonus) / (1 + weight)``: stays in [0, 1]; weight 0 changes nothing.

    >>> round(with_bonus(0.6, 1.0, 0.25), 6)
    0.68
    """
    return (score + weight * bonus) / (1.0 + weight)


def propagate(
    scores: Mapping[str, float], neighbours: Mapping[str, Iterable[str]], weight: float
) -> dict[str, tuple[float, str]]:
    """What each neighbour inherits: ``weight × `` the best score among the seeds it is next to,
    with that seed. Seeds are the keys of ``neighbours``; a memory never inherits from itself.

    >>> propagate({"a": 0.9, "b": 0.5}, {"a": ["x", "b"], "b": ["x"]}, 0.8)
    {'x': (0.72, 'a'), 'b': (0.72, 'a')}
    """
    inherited: dict[str, tuple[float, str]] = {}
    for seed, around in neighbours.items():
        share = round(weight * scores.get(seed, 0.0), 12)
        for memory_id in around:
            if memory_id != seed and share > inherited.get(memory_id, (0.0, ""))[0]:
                inherited[memory_id] = (share, seed)
    return inherited
