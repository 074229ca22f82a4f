"""Extra relevance signals beside the vector and BM25 channels (DESIGN §6.2), all pure.

- **Session neighbours**: in a conversation the answer often sits in the turn after the one that
  matches the question ("What did you paint?" — "A sunrise over the lake"). A memory next to a
  strong hit in the same session inherits a share of that hit's score.
- **Entities**: names in the query (capitalised words that are not question words) should appear in
  what is recalled; the share of them a memory mentions is a bonus.
- **Time**: a date, month or year in the query ("in May 2023", "on 8 May", "last week") is a window;
  memories that happened inside it get a bonus, and recall also looks for candidates inside it.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

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


_MONTH_NAMES = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTH_NAMES.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTH_NAMES["sept"] = 9
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTH_NAMES, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_PATTERNS = [
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+{_DAY}(?:,?\s+{_YEAR})?\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b(?:in|during|of|since)\s+{_MONTH}\b", re.IGNORECASE),
    re.compile(rf"\b(?:in|during|of)\s+{_YEAR}\b", re.IGNORECASE),
]
_RELATIVE = re.compile(
    r"\b(?P<what>yesterday|today|(?:last|this|past)\s+(?:week|month|year)|(?P<n>\d+|a|one|two|three)\s+"
    r"(?P<unit>days?|weeks?|months?|years?)\s+ago)\b",
    re.IGNORECASE,
)
_SMALL = {"a": 1, "one": 1, "two": 2, "three": 3}


def _month_span(year: int, month: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1)
    return start, start + timedelta(days=calendar.monthrange(year, month)[1])


def time_window(query: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The period a query asks about, as ``[start, end)`` in ``now``'s time zone, or None.

    A date without a year, or a month alone, is the latest such date on or before ``now``;
    "last week" spans the fortnight up to today, "last month" two months, "last year" two years.

    >>> now = datetime(2024, 3, 15, 12, 0)
    >>> [d.date().isoformat() for d in time_window("What did Maya do on 8 May, 2023?", now)]
    ['2023-05-08', '2023-05-09']
    >>> [d.date().isoformat() for d in time_window("plans in June", now)]
    ['2023-06-01', '2023-07-01']
    >>> [d.date().isoformat() for d in time_window("what happened last week?", now)]
    ['2024-03-02', '2024-03-16']
    >>> time_window("what does Maya like?", now) is None
    True
    >>> time_window("that was 4997 years ago", now) is None
    True
    """
    tz = now.tzinfo
    for pattern in _PATTERNS:
        match = pattern.search(query)
        if match is None:
            continue
        fields = match.groupdict()
        month = _MONTH_NAMES[fields["month"].lower()] if fields.get("month") else None
        year = int(fields["year"]) if fields.get("year") else None
        day = int(fields["day"]) if fields.get("day") else None
        if month is None and year is not None:
            return datetime(year, 1, 1, tzinfo=tz), datetime(year + 1, 1, 1, tzinfo=tz)
        if month is None:
            continue
        if year is None:
            year = now.year if (month, day or 1) <= (now.month, now.day) else now.year - 1
        if day is not None:
            try:
                start = datetime(year, month, day, tzinfo=tz)
            except ValueError:
                continue
            return start, start + timedelta(days=1)
        start, end = _month_span(year, month)
        return start.replace(tzinfo=tz), end.replace(tzinfo=tz)
    relative = _RELATIVE.search(query)
    if relative is None:
        return None
    what = relative.group("what").lower()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    end = midnight + timedelta(days=1)
    if what == "today":
        return midnight, end
    if what == "yesterday":
        return midnight - timedelta(days=1), midnight
    if relative.group("unit"):
        count = _SMALL.get(relative.group("n").lower()) or int(relative.group("n"))
        unit = relative.group("unit").lower().rstrip("s")
        days = {"day": 1, "week": 7, "month": 30, "year": 365}[unit] * count
        if days > 200 * 365:  # "4997 years ago" names no period this service could hold
            return None
        centre = midnight - timedelta(days=days)
        slack = timedelta(days=max(1, days // 4))
        return centre - slack, centre + slack + timedelta(days=1)
    # "last week" may mean the calendar week before this one or the last seven days: cover both.
    unit = what.split()[-1]
    days = {"week": 14, "month": 62, "year": 731}[unit]
    return end - timedelta(days=days), end


def inside(when: datetime | None, window: tuple[datetime, datetime]) -> float:
    """1 when ``when`` falls in ``[start, end)``, else 0 (no time, no bonus)."""
    return 1.0 if when is not None and window[0] <= when < window[1] else 0.0


_ASKS_WHEN = re.compile(
    r"\b(?:when|what (?:date|day|time|month|year|week)|which (?:day|date|month|year|week)|how long ago|since when)\b",
    re.IGNORECASE,
)
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_TIME_EXPRESSION = re.compile(
    rf"\b(?:yesterday|today|tonight|tomorrow|recently|the other day|this (?:morning|afternoon|evening)"
    rf"|(?:last|next|this|past) (?:night|week|weekend|month|year|summer|winter|spring|fall|autumn|{_WEEKDAY})"
    rf"|(?:\d+|a|an|one|two|three|four|five|six|a few|a couple of|several) (?:days?|weeks?|months?|years?) ago"
    rf"|in (?:a|an|one|two|three|a few|a couple of) (?:days?|weeks?|months?)"
    rf"|{_WEEKDAY}|{_MONTH}|(?:19|20)\d\d|\d{{1,2}}(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)


def asks_when(query: str) -> bool:
    """Whether a question asks for a time ("When did ...", "What year ...", "How long ago ...").

    >>> asks_when("When did Maya adopt Pickle?"), asks_when("Where did Maya go?")
    (True, False)
    """
    return _ASKS_WHEN.search(query) is not None


def has_time_expression(text: str) -> float:
    """1 when a text says when something happened ("last weekend", "on Saturday", "in May",
    "two weeks ago", "2023"), else 0.

    >>> has_time_expression("We got back from Lisbon last weekend"), has_time_expression("I love Lisbon")
    (1.0, 0.0)
    """
    return 1.0 if _TIME_EXPRESSION.search(text) else 0.0


def names_speaker(entities: Sequence[str], speaker: str | None) -> float:
    """1 when the query's ``entities`` name the turn's ``speaker`` (in full, or by a short name of
    3+ letters: "Mari" for Marisol), else 0.

    >>> names_speaker(("priya", "lisbon"), "priya"), names_speaker(("mari",), "marisol")
    (1.0, 1.0)
    >>> names_speaker(("tom",), "priya"), names_speaker(("priya",), None)
    (0.0, 0.0)
    """
    if speaker is None:
        return 0.0
    return 1.0 if any(e == speaker or (len(e) >= 3 and speaker.startswith(e)) for e in entities) else 0.0


def named_speakers(entities: Sequence[str], speakers: Iterable[str | None]) -> tuple[str, ...]:
    """The speakers (of the candidates' labels) that the query's ``entities`` name.

    >>> named_speakers(("mari", "lisbon"), {"marisol", "kenji", None})
    ('marisol',)
    """
    return tuple(sorted(s for s in set(speakers) if s is not None and names_speaker(entities, s)))


def without_speakers(query: str, speakers: Sequence[str]) -> str:
    """``query`` without the names (and their possessive) that name one of ``speakers``, for the
    words channel: a speaker's label is on every one of their turns, so the name matches half a
    conversation and says nothing of the topic (the speaker bonus stands for it).

    >>> without_speakers("What big purchases has Hannah made?", ("hannah",))
    'What big purchases has made?'
    >>> without_speakers("Where does Nadia want Mari's friend?", ("marisol",))
    'Where does Nadia want friend?'
    """
    names = [e for e in query_entities(query) if any(names_speaker((e,), s) for s in speakers)]
    for name in names:
        query = re.sub(rf"\b{re.escape(name)}(?:['’]s)?\b", " ", query, flags=re.IGNORECASE)
    return " ".join(query.split())


def speaker_share(named: Sequence[str], speaker: str | None, text: str) -> float:
    """A labelled turn's share is 1 when its speaker is one of the ``named``; a memory without a
    label (a fact stored on its own) gets 1 when it mentions one of them, so it is not put below
    the speaker's turns for want of a label.

    >>> speaker_share(("priya",), "priya", "Priya: hi"), speaker_share(("priya",), "tom", "Tom: Priya!")
    (1.0, 0.0)
    >>> speaker_share(("priya",), None, "Priya lives in Lisbon"), speaker_share(("priya",), None, "Tea")
    (1.0, 0.0)
    """
    if speaker is not None:
        return 1.0 if speaker in named else 0.0
    return 1.0 if entity_share(named, text) > 0 else 0.0


_ASKS_AMOUNT = re.compile(
    r"\b(?:how (?:much|many)|what (?:price|amount|number)|what did \w+ (?:pay|spend|cost))\b",
    re.IGNORECASE,
)
_AMOUNT = re.compile(
    r"[$€£]\s?\d|\b\d[\d,.]*\b|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fifteen|twenty|thirty|forty|fifty|hundred|thousand|dozen)\b",
    re.IGNORECASE,
)


def asks_amount(query: str) -> bool:
    """Whether a question asks for a quantity ("How much ...", "How many ...").

    >>> asks_amount("How much did Maya pay for the kayak?"), asks_amount("Where did Maya go?")
    (True, False)
    """
    return _ASKS_AMOUNT.search(query) is not None


def has_amount(text: str) -> float:
    """1 when a text states a number or an amount ("$400", "5 nights", "two kids"), else 0.

    >>> has_amount("Yes! From a neighbour. $400."), has_amount("Still loving the kayak")
    (1.0, 0.0)
    """
    return 1.0 if _AMOUNT.search(text) else 0.0
