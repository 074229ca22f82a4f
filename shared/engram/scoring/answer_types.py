"""What kind of answer a question asks for, and whether a memory holds one (DESIGN §6.2), pure.

A question that asks *where* is answered by a turn that names a place ("We ended up in
Copenhagen", "at the lake house"); one that asks *who* by a turn that names a person other than
the ones the question already names ("Cormac teaches it", "my sister took me"). Turns that only
echo the topic ("Still loving the kayak") name neither, so a small bonus for the kind of answer
asked lets the turn that told the fact outrank its echoes. No named-entity model: capitalised
words inside a sentence, the words that introduce a place, and the words for people one knows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.scoring.channels import _NOT_NAMES

_LABEL = re.compile(r"^\s*[A-Za-z][\w'.-]*(?: [A-Z][\w'.-]*)?:\s+")
# a capitalised word that does not open a sentence (a name, not the first word of a clause)
_INNER_CAPITALISED = re.compile(r"(?<![.!?:\n]\s)(?<!^)(?<=\s)([A-Z][\w'’-]+)")

_PLACE_KINDS = (
    r"city|country|town|village|place|restaurant|caf[eé]|bar|park|beach|lake|island|state|shop|store|"
    r"venue|museum|hotel|school|university|gym|neighbou?rhood|trail|mountain|region|spot|studio"
)
_ASKS_PLACE = re.compile(
    rf"^\W*(?:where\b|(?:what|which|in what|in which|at what|at which) (?:{_PLACE_KINDS})\b)", re.IGNORECASE
)
_PLACE_WORDS = re.compile(
    rf"\b(?:{_PLACE_KINDS}|house|cabin|apartment|flat|downtown|abroad|coast|airport|station|market|"
    r"farm|garden|office|church|library|theat(?:re|er)|stadium|camp(?:site)?|resort|hostel|zoo)s?\b",
    re.IGNORECASE,
)
_PLACE_PREPOSITION = re.compile(
    r"\b(?:in|to|at|from|near|around|visit(?:ed|ing)?|toward|towards)\s+(?:the\s+)?$"
)

_ASKS_PERSON = re.compile(
    r"^\W*(?:who\b|whom\b|with whom\b|(?:which|what) (?:friend|person|relative|family member|teacher|coach|"
    r"colleague|coworker|neighbou?r|partner|kid|child|doctor)\b)",
    re.IGNORECASE,
)
_PERSON_WORDS = re.compile(
    r"\b(?:mom|mum|mother|dad|father|parents?|sister|brother|siblings?|wife|husband|partner|"
    r"girlfriend|boyfriend|son|daughter|kids?|grand(?:ma|pa|mother|father|parents?)|aunt|uncle|"
    r"cousin|niece|nephew|friends?|boss|manager|colleagues?|co-?workers?|neighbou?rs?|coach|"
    r"teacher|roommate|mentor|doctor|therapist|instructor|in-laws?)\b",
    re.IGNORECASE,
)


_ASKS = {"place": _ASKS_PLACE, "person": _ASKS_PERSON}


def asks(kind: str, query: str) -> bool:
    """Whether a question asks for a ``kind`` of answer: ``place`` (where) or ``person`` (who).

    >>> asks("place", "Where did Marisol end up going?"), asks("place", "Which city did Kenji move to?")
    (True, True)
    >>> asks("person", "Who teaches Kenji's class?"), asks("person", "Which friend came along?")
    (True, True)
    >>> asks("place", "When did Marisol go to Sicily?"), asks("person", "What did Kenji make?")
    (False, False)
    """
    return _ASKS[kind].search(query) is not None


def _inner_names(body: str, known: Sequence[str]) -> list[int]:
    """Where the names inside ``body``'s sentences start (the ``known`` ones, and words like "I", left out)."""
    found = []
    for match in _INNER_CAPITALISED.finditer(body):
        word = re.sub(r"['’]s$", "", match.group(1)).lower()
        if word not in _NOT_NAMES and word not in known:
            found.append(match.start())
    return found


def names(kind: str, text: str, known: Sequence[str] = ()) -> float:
    """1 when a memory names a ``kind`` of answer, else 0. A place: a place word, or a name after
    "in", "to", "at", "from" …; a person: a word for someone one knows ("my sister", "our
    neighbour") or any name inside a sentence. Names the question already holds (``known``) do
    not count.

    >>> names("place", "Marisol: We ended up in Copenhagen instead"), names("place", "Kenji: at the lake house")
    (1.0, 1.0)
    >>> names("place", "Marisol: Still loving it, honestly."), names("place", "Marisol: we went to Sicily", ("sicily",))
    (0.0, 0.0)
    >>> names("person", "Kenji: the teacher is great"), names("person", "Kenji: I went with Cormac")
    (1.0, 1.0)
    >>> names("person", "Kenji: I went with Cormac", ("cormac",)), names("person", "Kenji: Loved it. So fun.")
    (0.0, 0.0)
    """
    body = _LABEL.sub("", text, count=1)
    if (_PLACE_WORDS if kind == "place" else _PERSON_WORDS).search(body):
        return 1.0
    starts = _inner_names(body, known)
    if kind == "place":
        return 1.0 if any(_PLACE_PREPOSITION.search(body[:start]) for start in starts) else 0.0
    return 1.0 if starts else 0.0
