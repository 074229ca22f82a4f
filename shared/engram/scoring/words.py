"""Words that carry no topic, and the informative words of a text (pure; used by BM25 and shaping)."""

from __future__ import annotations

import re

# Function words carry no topic; leaving them out keeps BM25 from ranking on "I" and "the".
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "me",
        "my",
        "myself",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "ours",
        "she",
        "should",
        "so",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "too",
        "us",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
    ]
)

_WORD = re.compile(r"\w+", re.UNICODE)
# A transcript line's speaker or role label: "Maya: ...", "Dr. Lee: ...", "assistant: ...".
_LABEL = re.compile(r"^\s*(?P<name>[A-Za-z][\w'.-]*)(?: [A-Z][\w'.-]*)?:\s+")


def has_speaker_label(text: str) -> bool:
    """Whether ``text`` reads as a transcript line, starting with a speaker or role label.

    >>> has_speaker_label("Daniel: A hint?"), has_speaker_label("I prefer dark mode")
    (True, False)
    """
    return _LABEL.match(text) is not None


def speaker_of(text: str) -> str | None:
    """The first name of a transcript turn's speaker label, lower-cased, or None.

    >>> speaker_of("Priya: We drove up to the lake house"), speaker_of("I prefer dark mode")
    ('priya', None)
    """
    match = _LABEL.match(text)
    return match.group("name").lower() if match else None


def informative_words(text: str) -> list[str]:
    """The words of ``text`` that are not function words, without a leading speaker label.

    >>> informative_words("Daniel: A hint?")
    ['hint']
    >>> informative_words("Priya: I sold three bowls at the craft fair!")
    ['sold', 'three', 'bowls', 'craft', 'fair']
    """
    body = _LABEL.sub("", text, count=1)
    return [w for w in _WORD.findall(body.lower()) if w not in STOPWORDS]
