"""Rule-based extractor: regexes turn user sentences into typed memories, offline and deterministic.

Each sentence of a user message goes through a fixed order of rules: explicit memory requests
("remember that ..."), then preferences, profile facts, dated events and finally plain
first-person facts. Questions, requests to the assistant and noise are dropped. Relative dates
("yesterday", "next Tuesday", "in 3 days") resolve against the reference time.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from engram.extraction.noise import is_noise
from engram.models import Category, ExtractedMemory, Message

__all__ = ["RuleExtractor"]

MAX_CONTENT_CHARS = 2000
MAX_ABSTRACT_CHARS = 120
MAX_ENTITIES = 10

# (importance, confidence) per category; explicit requests override both.
_SCORES: dict[Category, tuple[float, float]] = {
    "preference": (0.7, 0.8),
    "profile": (0.8, 0.85),
    "event": (0.6, 0.75),
    "fact": (0.5, 0.7),
}
_EXPLICIT_SCORES = (0.9, 0.95)


def _rx(pattern: str) -> re.Pattern[str]:
    """Compile case-insensitively; a literal space in the pattern stands for any whitespace run."""
    return re.compile(pattern.replace(" ", r"\s+"), re.IGNORECASE)


# ---------------------------------------------------------------------------------------------
# Sentences

_SPLIT = re.compile(r"(?<=[.!?…\"')\]])\s+")
_TERMINAL = re.compile(r"[.!?…][\"')\]]*$")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,3}[.)])\s+")
_ABBREVIATIONS = frozenset(["mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs", "e.g", "i.e", "inc"])
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def _sentences(text: str) -> list[str]:
    """Split text into whitespace-collapsed sentences, line by line, keeping abbreviations whole."""
    out: list[str] = []
    for raw_line in text.splitlines():
        current = ""
        for piece in _SPLIT.split(_BULLET.sub("", raw_line).strip()):
            current = f"{current} {piece}" if current else piece
            words = piece.rsplit(maxsplit=1)  # scans from the right only; a blank line has none
            last = words[-1].lower().lstrip("(\"'") if words else ""
            if _TERMINAL.search(piece) and not (last.endswith(".") and last[:-1] in _ABBREVIATIONS):
                out.append(current)
                current = ""
        out.append(current)
    return [" ".join(s.split()) for s in out if s.strip()]


# ---------------------------------------------------------------------------------------------
# Dates

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = "|".join(_WEEKDAYS)
_MONTH_NAMES = "january february march april may june july august september october november december"
_MONTH_KEYS = tuple(name[:3] for name in _MONTH_NAMES.split())
_MONTH = r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
_MONTH += r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_NUMBERS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
_COUNTS = {w: n for n, w in enumerate(_NUMBERS, 1)} | {"a": 1, "an": 1, "a couple": 2, "a couple of": 2}
_COUNTS |= {"a few": 3}
_COUNT = rf"(?P<count>\d{{1,4}}|an?|{'|'.join(_NUMBERS)}|a couple(?: of)?|a few)"
_UNIT = r"(?P<unit>minute|hour|day|week|fortnight|month|year)s?"
_DAY_WORDS = {"the day after tomorrow": 2, "the day before yesterday": -2, "tomorrow": 1, "yesterday": -1}
_DAY_WORDS |= {"last night": -1}
_DIRECTIONS = {"next": 1, "coming": 1, "last": -1, "previous": -1, "this": 0}
_PAST = _rx(
    r"\b(?:was|were|went|had|did|got|came|saw|met|took|left|ate|flew|bought|visited|finished|started"
    r"|arrived|returned|happened|ago)\b"
)
_FUTURE = _rx(r"\b(?:will|going to|gonna|plan to|planning|upcoming)\b|'ll\b")

# (kind, pattern): "date" takes year/month/day groups and names a day (at midnight): a missing
# year is the nearest one in the statement's direction (past or not), a missing month January, a
# missing day the 1st; the other kinds are relative to the reference time.
_DATE_RULES = tuple(
    (kind, _rx(pattern))
    for kind, pattern in (
        ("date", r"\b(?P<year>\d{4})[-/](?P<month>\d{1,2})[-/](?P<day>\d{1,2})\b"),
        ("date", rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?: of)? {_MONTH}\b\.?(?:,? (?P<year>\d{{4}})\b)?"),
        ("date", rf"\b{_MONTH}\.? (?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,? (?P<year>\d{{4}})\b)?"),
        ("date", rf"\b(?:in )?{_MONTH} (?P<year>\d{{4}})\b"),
        ("date", r"\bin (?P<year>(?:19|20)\d{2})\b(?![-/]\d)"),
        ("day", r"\b(?:the day (?:after|before) )?(?:today|tonight|tomorrow|yesterday)\b"),
        ("day", r"\blast night\b|\bthis (?:morning|afternoon|evening)\b"),
        (
            "rel",
            rf"\b(?P<rel>next|coming|last|previous|this) (?P<what>week|month|year|weekend|{_WEEKDAY})\b",
        ),
        ("in", rf"\bin {_COUNT} {_UNIT}\b"),
        ("ago", rf"\b{_COUNT} {_UNIT} ago\b"),
        ("weekday", rf"\b(?:on )?(?P<weekday>{_WEEKDAY})\b"),
    )
)


def _add_months(ref: datetime, months: int) -> datetime:
    """Calendar month arithmetic, clamping the day (31 Jan + 1 month = 28/29 Feb)."""
    total = ref.month - 1 + months
    year, month = ref.year + total // 12, total % 12 + 1
    return ref.replace(year=year, month=month, day=min(ref.day, calendar.monthrange(year, month)[1]))


def _shift(ref: datetime, amount: int, unit: str) -> datetime:
    """The reference time moved by ``amount`` units (negative is the past)."""
    if unit in ("month", "year"):
        return _add_months(ref, amount * (12 if unit == "year" else 1))
    days = {"day": 1, "week": 7, "fortnight": 14}.get(unit)
    return ref + (timedelta(days=amount * days) if days else timedelta(**{f"{unit}s": amount}))


def _weekday(ref: datetime, weekday: int, direction: int) -> datetime:
    """The next (1..7 days ahead), last (1..7 back) or this (0..6 ahead) given weekday."""
    ahead = (weekday - ref.weekday()) % 7
    if direction > 0:
        return ref + timedelta(days=ahead or 7)
    if direction < 0:
        return ref - timedelta(days=(7 - ahead) % 7 or 7)
    return ref + timedelta(days=ahead)


def _resolve(kind: str, m: re.Match[str], ref: datetime, text: str) -> datetime | None:
    """One matched date expression as a time; None if it names a day that does not exist."""
    if kind == "date":
        parts = m.groupdict()
        month = parts.get("month") or "1"
        number = int(month) if month.isdigit() else _MONTH_KEYS.index(month[:3].lower()) + 1
        day = int(parts.get("day") or 1)
        try:  # a calendar date names a day, not a time: midnight in the reference's zone
            if parts.get("year"):
                return _midnight(ref, int(parts["year"]), number, day)
            return _nearest_year(ref, number, day, past=_is_past(text))
        except ValueError:
            return None
    if kind == "day":
        return ref + timedelta(days=_DAY_WORDS.get(" ".join(m[0].lower().split()), 0))
    if kind in ("in", "ago"):
        count = " ".join(m["count"].lower().split())
        amount = int(count) if count.isdigit() else _COUNTS[count]
        return _shift(ref, amount if kind == "in" else -amount, m["unit"].lower())
    if kind == "rel":
        direction, what = _DIRECTIONS[m["rel"].lower()], m["what"].lower()
        if what == "weekend":
            return _weekday(ref, 5, direction)  # a weekend is dated by its Saturday
        if what in _WEEKDAYS:
            return _weekday(ref, _WEEKDAYS.index(what), direction)
        return _shift(ref, direction, what)
    past = _is_past(text)  # bare "on Tuesday"
    return _weekday(ref, _WEEKDAYS.index(m["weekday"].lower()), -1 if past else 1)


def _is_past(text: str) -> bool:
    """The text tells of something that happened (a past verb and no future one)."""
    return _PAST.search(text) is not None and _FUTURE.search(text) is None


def _midnight(ref: datetime, year: int, month: int, day: int) -> datetime:
    return ref.replace(year=year, month=month, day=day, hour=0, minute=0, second=0, microsecond=0)


def _nearest_year(ref: datetime, month: int, day: int, *, past: bool) -> datetime:
    """A day named without its year ("12 May"): the last such day on or before the reference
    for a past-tense statement, else the next one on or after it ("a flight to Tokyo for 12 May"
    said on 1 December is next year's 12 May)."""
    today = ref.date()
    for year in (ref.year, ref.year - 1) if past else (ref.year, ref.year + 1):
        try:
            when = _midnight(ref, year, month, day)
        except ValueError:  # 29 February of a year that has none
            continue
        if (when.date() <= today) if past else (when.date() >= today):
            return when
    return _midnight(ref, ref.year, month, day)


def _date_in(text: str, ref: datetime) -> datetime | None:
    """When the first date expression in ``text`` happened; ``ref`` if it cannot be resolved.

    None means the text has no date expression at all. The earliest expression wins, and of
    those starting at the same place the longest ("next Tuesday" over "Tuesday").
    """
    best: tuple[str, re.Match[str]] | None = None
    for kind, pattern in _DATE_RULES:
        m = pattern.search(text)
        if m and (best is None or (m.start(), -m.end()) < (best[1].start(), -best[1].end())):
            best = (kind, m)
    if best is None:
        return None
    try:
        when = _resolve(*best, ref, text)
    except (ValueError, OverflowError):  # e.g. "in 9999 years" leaves the calendar
        when = None
    return ref if when is None else when


# ---------------------------------------------------------------------------------------------
# Classification

_IM = r"i(?:'m| am)"
_NOT_ABOUT = r"(?! (?:when|how|what|where|who|why|if|whether|to)\b)"  # "remember when ..." is a question
_VERBS = (
    rf"(?:remember{_NOT_ABOUT}|note|keep in mind|bear in mind|make a note|take note|(?:don't|do not) forget)"
)
_EXPLICIT = _rx(
    r"^(?:(?:ok|okay|oh|and|also|so|hey|btw|by the way)[\s,]+)*"
    rf"(?:(?:please|(?:can|could|would|will) you(?: please)?) {_VERBS}(?: that\b)?|{_VERBS}(?: that\b|\s*:)"
    rf"|remember{_NOT_ABOUT}|(?:don't|do not|never) forget|for future reference\b)[\s,:]*(?P<body>\S.*)$"
)
_QUESTION_START = _rx(
    r"^(?:what|who|where|why|how|which|whose)\b|^(?:do|does|did|is|are|am|was|were|can|could|would|will"
    r"|shall|should|have|has) (?:i|you|we|my|our|it|they|he|she|there|this|that)\b"
)
# Requests to the assistant and hedges say nothing lasting about the user.
_NOT_MEMORY = _rx(
    r"^(?:please (?!always|never|don't|do not|avoid|stop)\w+|(?:help|write|give|tell|show|explain|find|make"
    r"|create|translate|summari[sz]e|list|generate|draft|book|check|search|remind|send) (?:me|us)\b"
    r"|i (?:want|need|'d like|would like) you to\b|let(?:'s| us| me)\b|i (?:don't|do not) know\b"
    rf"|{_IM} not sure\b|i (?:think|guess|suppose|believe) so\b|i (?:was|am) (?:just )?(?:wondering|asking)"
    r"|i (?:[\w']+ ){1,3}(?:it|that|this|them|these|those)\W*$)"  # "I love it": no object without context
)
_FIRST_PERSON = _rx(r"\b(?:i|me|my|mine|myself|we|our|ours|us|ourselves)\b")
_ADV = r"(?:(?:really|truly|also|just|do|still|absolutely|generally|much|definitely|actually) )*"
_FAMILY = r"(?:wife|husband|partner|spouse|boyfriend|girlfriend|fianc[eé]e?|son|daughter|kids?|child|children"
_FAMILY += r"|baby|mom|mum|mother|dad|father|parents|brother|sister|sibling|grandma|grandpa|dog|cat|pet)"

# (hint tag, pattern) per category; preferences are tried before profile facts, first hit wins.
_PREFERENCE_RULES = (
    ("dislikes", rf"\bi {_ADV}(?:hate|dislike|detest|loathe|can't stand|cannot stand)\b"),
    ("dislikes", rf"\bi (?:don't|do not) (?:like|enjoy)\b|\b{_IM} not (?:a )?(?:\w+ )?fan of\b"),
    ("likes", rf"\bi {_ADV}(?:prefer|like|love|enjoy|adore)\b|\b{_IM} (?:a )?(?:\w+ )?fan of\b"),
    ("likes", r"\bmy (?:all-time |absolute )?favou?rite\b|\bi(?:'d| would) (?:much )?rather\b"),
    ("habit", r"\bi (?:almost )?(?:always|never|usually|normally|typically|tend to|rarely)\b"),
    ("instruction", r"^please (?:always|never|don't|do not|avoid|stop)\b"),
    ("instruction", r"^(?:always|never) (?:use|call|send|reply|answer|write|respond|give)\b"),
)
_PROFILE_RULES = (
    ("name", r"\bmy (?:full |first |last )?name is\b|\bcall me (?-i:[A-Z])"),
    ("age", rf"\b{_IM} \d{{1,3}}\s*(?:years? old|yo|y/o)\b|\b{_IM} \d{{1,3}}[.!]?$"),
    ("age", r"\bi (?:just )?turned \d{1,3}\b"),
    ("birthday", r"\bmy birthday is\b|\bi was born\b"),
    ("occupation", rf"\bi (?:currently |now |still )?work (?:at|as|for)\b|\b{_IM} working (?:at|as|for)\b"),
    ("location", rf"\bi (?:currently |now |still )?live in\b|\b{_IM} (?:originally )?from\b"),
    ("location", r"\bi (?:just |recently )?(?:moved|relocated) to\b|\bi grew up in\b"),
    ("family", rf"\bmy {_FAMILY}(?:'s)?\b[^.!?]{{0,60}}?\b(?:is|are|was|named|called)\b"),
    ("health", rf"\b{_IM} (?:severely |very |mildly )?allergic to\b|\bi have an? (?:\w+ )?allergy\b"),
    ("language", r"\bi (?:also |can |only )?speak\b|\bmy (?:native|first|mother) (?:language|tongue) is\b"),
    ("identity", rf"\b{_IM} an? (?!(?:bit|little|lot|fan|big|huge|few|couple)\b)\w+"),
    ("identity", rf"\b{_IM} (?:vegan|vegetarian|married|single|divorced|engaged|retired|pregnant)\b"),
)
_RULES: list[tuple[Category, str, re.Pattern[str]]] = [
    ("preference", t, _rx(p)) for t, p in _PREFERENCE_RULES
]
_RULES += [("profile", t, _rx(p)) for t, p in _PROFILE_RULES]


def _classify(text: str, ref: datetime) -> tuple[Category, str | None, datetime | None]:
    """Category, hint tag and resolved date of a sentence; ("fact", None, None) when nothing fits."""
    when = _date_in(text, ref)
    for category, tag, pattern in _RULES:
        if pattern.search(text):
            return category, tag, when if category == "profile" else None  # preferences are timeless
    if when is not None:
        return "event", "dated", when
    return "fact", None, None


# ---------------------------------------------------------------------------------------------
# Entities and text shaping

_TOKEN = re.compile(r"[^\W_](?:[\w'’&.-]*[^\W_])?")
_POSSESSIVE = re.compile(r"['’]s$")
_TITLES = frozenset(["dr", "mr", "mrs", "ms", "prof", "st"])
_CODE = re.compile(r"(?=\S*\d)(?=\S*[A-Z])[A-Za-z0-9][A-Za-z0-9-]*")
_CLOCK = re.compile(r"\d{1,2}(?:AM|PM)")
_CONNECTORS = frozenset(["of", "de", "van", "von", "der", "den", "la", "le", "del", "da", "du", "di"])
_NOT_NAMES = frozenset(["i", "i'm", "i've", "i'd", "i'll", "ok", "okay", *_MONTH_NAMES.split(), *_WEEKDAYS])
_NOT_NAMES |= {f"{day}s" for day in _WEEKDAYS}


def _is_code(word: str) -> bool:
    """Product codes and identifiers such as "E4711" or "GPT-4": letters with digits."""
    return bool(_CODE.fullmatch(word)) and not _CLOCK.fullmatch(word)


def _is_name(word: str, at_start: bool) -> bool:
    """A capitalised word that is not the sentence's first, a pronoun, a weekday or a month."""
    if word.lower() in _NOT_NAMES:
        return False
    if word.isupper() and len(word) > 1:  # acronyms count even at the start
        return True
    return not at_start and word[0].isupper()


def _entities(text: str) -> list[str]:
    """Proper nouns (multi-word names kept whole) and product codes, deduplicated, at most 10."""
    spans: list[list[int]] = []
    prev_end, prev_word, bridged = 0, "", False
    for i, m in enumerate(_TOKEN.finditer(text)):
        word = _POSSESSIVE.sub("", m.group())
        start, end = m.start(), m.start() + len(word)
        gap = text[prev_end:start].strip()
        follows = bool(spans) and (spans[-1][1] == prev_end or bridged)
        joined = follows and (not gap or (gap == "." and prev_word.lower() in _TITLES))  # "Dr. Smith"
        bridged = False
        if _is_code(word) or _is_name(word, at_start=i == 0):
            if joined:
                spans[-1][1] = end
            else:
                spans.append([start, end])
        elif joined and word.lower() in _CONNECTORS:
            bridged = True  # "Bank of America", kept only if a name follows
        prev_end, prev_word = end, word
    unique: dict[str, str] = {}
    for first, last in spans:
        unique.setdefault(text[first:last].casefold(), text[first:last])
    return list(unique.values())[:MAX_ENTITIES]


def entities_of(text: str) -> list[str]:
    """The names and codes a text mentions (what the rules put in a memory's ``entities``)."""
    return _entities(text)


def abstract_of(text: str) -> str:
    """A text's one-line abstract, as the rules write it."""
    return _abstract(text)


def _abstract(text: str) -> str:
    """One line of at most 120 characters, cut at a word boundary with an ellipsis."""
    line = " ".join(text.split())
    if len(line) <= MAX_ABSTRACT_CHARS:
        return line
    head = line[: MAX_ABSTRACT_CHARS - 1]
    cut = head.rsplit(" ", 1)[0] if " " in head else head
    return cut.rstrip(" ,;:") + "…"


def _clean_body(body: str) -> str:
    """An explicit request's payload: unquoted, no trailing question mark, first letter capitalised."""
    body = body.strip().strip("\"'“”‘’").strip().rstrip("?").rstrip()
    return body[:1].upper() + body[1:]


def _memory(
    content: str, category: Category, tags: list[str], explicit: bool, when: datetime | None, index: int
) -> ExtractedMemory:
    """Assemble one candidate from a classified sentence."""
    content = content[:MAX_CONTENT_CHARS].rstrip()
    importance, confidence = _EXPLICIT_SCORES if explicit else _SCORES[category]
    return ExtractedMemory(
        category=category,
        content=content,
        abstract=_abstract(content),
        overview=content,
        key_facts=[f"date: {when.date().isoformat()}"] if when is not None else [],
        entities=_entities(content),
        tags=tags,
        importance=importance,
        confidence=confidence,
        occurred_at=when,
        message_refs=[index],
        role="user",
        trust="user-stated",
    )


def _from_sentence(sentence: str, index: int, ref: datetime, min_chars: int) -> ExtractedMemory | None:
    """The memory one user sentence yields, if any."""
    text = sentence.replace("’", "'")  # same length, so match offsets stay valid in `sentence`
    explicit = _EXPLICIT.match(text)
    if explicit:
        body = _clean_body(sentence[explicit.start("body") :])
        if is_noise(body, min_chars=min_chars):
            return None
        category, tag, when = _classify(body.replace("’", "'"), ref)
        return _memory(body, category, ["explicit"] + ([tag] if tag else []), True, when, index)
    if text.rstrip("\"')] ").endswith("?") or _QUESTION_START.search(text) or _NOT_MEMORY.search(text):
        return None
    category, tag, when = _classify(text, ref)
    words = len(_WORD.findall(text))
    if category == "event" and words < 3:
        return None
    if category == "fact" and (words < 4 or not _FIRST_PERSON.search(text)):
        return None
    return _memory(sentence, category, [tag] if tag else [], False, when, index)


class RuleExtractor:
    """Offline, deterministic extraction of memories from the user's side of a conversation.

    Only ``user`` messages count (trust "user-stated"); assistant, system and tool messages are
    skipped. Identical contents within one call are kept once, with their message refs merged.

    >>> from datetime import UTC, datetime
    >>> [m] = RuleExtractor().extract(
    ...     [Message(role="user", content="Hi! I moved to Berlin yesterday.")],
    ...     reference_time=datetime(2023, 5, 8, tzinfo=UTC),
    ... )
    >>> m.category, m.key_facts, m.entities
    ('profile', ['date: 2023-05-07'], ['Berlin'])
    """

    def __init__(self, *, min_chars: int = 5) -> None:
        self._min_chars = min_chars

    def extract(self, messages: Sequence[Message], *, reference_time: datetime) -> list[ExtractedMemory]:
        """Memories worth keeping; relative dates resolve against ``reference_time`` (naive = UTC)."""
        ref = reference_time if reference_time.tzinfo else reference_time.replace(tzinfo=UTC)
        out: list[ExtractedMemory] = []
        positions: dict[str, int] = {}
        for index, message in enumerate(messages):
            if message.role != "user":
                continue
            for sentence in _sentences(message.content):
                if is_noise(sentence, min_chars=self._min_chars):
                    continue
                memory = _from_sentence(sentence, index, ref, self._min_chars)
                if memory is None:
                    continue
                key = " ".join(memory.content.casefold().split()).rstrip(".!…")
                if key not in positions:
                    positions[key] = len(out)
                    out.append(memory)
                    continue
                kept = out[positions[key]]
                best = memory if memory.importance > kept.importance else kept  # an explicit repeat wins
                update = {"message_refs": sorted({*kept.message_refs, index})}
                out[positions[key]] = best.model_copy(update=update)
        return out
