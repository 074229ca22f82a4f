"""The readings of a text the screening rules look at: normalised, de-obfuscated and decoded.

An attacker hides an instruction from a pattern by changing its letters, not its meaning:
``Ｉｇｎｏｒｅ``, ``Ig\u200bnore``, ``1gn0r3``, ``Іgnоrе`` (Cyrillic), ``i g n o r e``, or by encoding it
(base64, hex, rot13, %-escapes, HTML entities, invisible Unicode tag characters). Each reading
undoes one family of tricks, so a rule written once for plain text matches them all, and the
reading that matched is named in the hit (``via``).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import unicodedata
from collections.abc import Iterator
from typing import NamedTuple
from urllib.parse import unquote

__all__ = ["View", "normalise", "views"]


class View(NamedTuple):
    via: str  # how the text was read: "text", "folded", "spaced", "base64", "hex", ...
    text: str


# Invisible characters that split a word for a pattern but not for a reader: zero-width space,
# joiners, word joiner, BOM, soft hyphen, bidi controls, variation selectors, fillers.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0]"
)
_TAG_CHARS = re.compile("[\U000e0020-\U000e007e]+")  # "ASCII smuggling": invisible copies of ASCII
_SPACES = re.compile(r"\s+")
_LATIN_MARKS = re.compile(r"(?<=[a-z])[\u0300-\u036f]+")
_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201b": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"'}
)

# Letters of other scripts that look like Latin ones (after case folding). NFKC already folds
# fullwidth, mathematical and circled letters; these cross-script look-alikes it leaves alone.
_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k",
        "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
        "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ь": "b", "п": "n", "г": "r",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ς": "s", "σ": "o",
        # Latin look-alikes NFKC keeps
        "ı": "i", "ɡ": "g", "ɑ": "a", "ʟ": "l", "ᴀ": "a", "ᴇ": "e", "ɪ": "i", "ᴏ": "o", "ʀ": "r",
    }
)  # fmt: skip
# Leetspeak, applied only inside words that mix letters with these characters ("1gn0r3").
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
                       "@": "a", "$": "s", "|": "l", "+": "t", "€": "e"})  # fmt: skip
_LEET_WORD = re.compile(r"[\w@$|+€]*[a-z][\w@$|+€]*")
_HAS_LEET = re.compile(r"[a-z][0-9@$|+€]|[0-9@$|+€][a-z]")
# "!" for "i", only inside a word or before one ("!gnore", "prev!ous"), never after it ("wow!").
_BANG_I = re.compile(r"(?<=[a-z])!(?=[a-z])|(?<![\w!])!(?=[a-z]{2})")
# Letters spaced out ("i g n o r e", "i.g.n.o.r.e"): three or more single letters in a row ("/"
# is not a spacer: it would join the ends of links, "…/c y envia").
_SPACED = re.compile(r"(?<!\w)(?:\w[ .\-_*]){2,}\w(?!\w)")
_SPACED_SEP = re.compile(r"(?<=\w)[ .\-_*](?=\w)")
# The whitespace between two single letters ("i  g  n": two), to tell letters from words apart.
_LETTER_GAP = re.compile(r"(?<!\w)\w(\s+)(?=\w(?!\w))")

# Encoded payloads worth decoding: long base64 / hex runs, %-escapes, HTML character references.
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX = re.compile(r"(?:\\x[0-9a-fA-F]{2}){4,}|[0-9a-fA-F]{16,}")
_PERCENT = re.compile(r"(?:%[0-9a-fA-F]{2}){3,}")
_ENTITY = re.compile(r"(?:&#x?[0-9a-fA-F]+;){3,}")
# The commonest English words, and what they become in rot13 and written backwards: a text with
# more of the latter is read deciphered (reading every text three ways would triple the cost).
_COMMON = frozenset(("the", "and", "you", "to", "of", "is", "that", "it", "for", "in", "all", "this", "be", "are",
                     "on", "with", "not", "your", "as"))  # fmt: skip
_ROT13_COMMON = frozenset(codecs.encode(w, "rot13") for w in _COMMON)
_REVERSED_COMMON = frozenset(w[::-1] for w in _COMMON if w[::-1] not in _COMMON)


def _fold_accents(text: str) -> str:
    """Latin letters without their accents ("précédentes" -> "precedentes"); other scripts kept
    whole (a kana's voicing mark or a Cyrillic breve is part of the letter)."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", _LATIN_MARKS.sub("", unicodedata.normalize("NFD", text)))


def _clean(text: str) -> str:
    if text.isascii():  # nothing to normalise, hide or fold but the case
        return text.casefold()
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).translate(_QUOTES)
    return _fold_accents(text.casefold())


def normalise(text: str) -> str:
    """NFKC, invisible characters removed, case folded, Latin accents dropped, spaces collapsed.

    >>> normalise("Ｉg\u200bnore  PRÉCÉDENTES")
    'ignore precedentes'
    """
    return _SPACES.sub(" ", _clean(text)).strip()


def _folded(text: str) -> str:
    """Look-alike letters of other scripts and leetspeak read as the Latin letters they imitate."""
    if not text.isascii():
        # a mark left on a look-alike ("ı̇", dotless i and a dot) goes with it
        text = _LATIN_MARKS.sub("", text.translate(_LOOKALIKES))
    if "!" in text:
        text = _BANG_I.sub("i", text)
    if not _HAS_LEET.search(text):
        return text

    def unleet(match: re.Match[str]) -> str:
        word = match.group(0)
        return word.translate(_LEET) if _HAS_LEET.search(word) else word

    return _LEET_WORD.sub(unleet, text)


def _spaced(text: str) -> str:
    """Spaced-out letters joined again; a wider gap than the letters' ("a l l   p r e v",
    "a  l  l   p  r  e  v") separates words.

    >>> _spaced("i  g  n  o  r  e   a  l  l")
    'ignore all'
    """
    gaps = [len(m.group(1)) for m in _LETTER_GAP.finditer(text)]
    # the commonest gap, the narrower of two as common
    unit = max(set(gaps), key=lambda n: (gaps.count(n), -n)) if gaps else 1
    text = re.sub(rf"(?<=\w)\s{{{unit + 1},}}(?=\w)", " / ", text)
    if unit > 1:
        text = re.sub(rf"(?<=\w)\s{{{unit}}}(?=\w)", " ", text)
    joined = _SPACED.sub(lambda m: _SPACED_SEP.sub("", m.group(0)), text).replace(" / ", " ")
    return _SPACES.sub(" ", joined).strip()


def _readable(raw: bytes) -> str | None:
    """Decoded bytes that are text a model would read (UTF-8, mostly letters and spaces)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 8 or any(unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in text):
        return None
    letters = sum(c.isalpha() or c.isspace() for c in text)
    return text if letters >= 0.7 * len(text) and " " in text.strip() else None


def _base64(token: str) -> str | None:
    token = token.rstrip("=")
    if len(token) % 4 == 1:
        return None
    padded = token + "=" * (-len(token) % 4)
    try:
        return _readable(base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True))
    except (binascii.Error, ValueError):
        return None


def _hex(token: str) -> str | None:
    digits = re.sub(r"\\x|0x|[\s:,]", "", token)
    if len(digits) % 2:
        digits = digits[:-1]
    try:
        return _readable(bytes.fromhex(digits))
    except ValueError:
        return None


def _decoded(text: str, plain: str, *, ciphers: bool) -> Iterator[View]:
    """Every payload hidden in ``text`` that decodes to readable text; with ``ciphers``, the
    whole text read as rot13 and backwards too when it looks enciphered (``plain``: normalised)."""
    if not text.isascii():
        tags = "".join(chr(ord(c) - 0xE0000) for run in _TAG_CHARS.findall(text) for c in run)
        if tags:
            yield View("tag-characters", tags)
    for token in _BASE64.findall(text):
        found = _base64(token)
        if found:
            yield View("base64", found)
    for token in _HEX.findall(text):
        found = _hex(token)
        if found:
            yield View("hex", found)
    if "%" in text and _PERCENT.search(text):
        yield View("url-encoding", unquote(text))
    if "&#" in text and _ENTITY.search(text):
        yield View("html-entities", html.unescape(text))
    if ciphers:
        words = plain.split()
        common = sum(map(_COMMON.__contains__, words))
        if sum(map(_ROT13_COMMON.__contains__, words)) > common:
            yield View("rot13", codecs.encode(text, "rot13"))
        if sum(map(_REVERSED_COMMON.__contains__, words)) > common:
            yield View("reversed", text[::-1])


def views(text: str, *, depth: int = 2) -> Iterator[View]:
    """The readings of ``text``, plainest first; decoded payloads are read the same way again
    (``depth`` levels: base64 of leetspeak is still found).

    >>> [v.via for v in views("Ig\u200bn0re")]
    ['text', 'folded']
    """
    clean = _clean(text)
    plain = _SPACES.sub(" ", clean).strip()
    yield View("text", plain)
    folded = _folded(plain)
    if folded != plain:
        yield View("folded", folded)
    if _SPACED.search(plain):
        yield View("spaced", _spaced(_folded(clean)))
    if depth <= 0:
        return
    for payload in _decoded(text, plain, ciphers=depth >= 2):
        for inner in views(payload.text, depth=depth - 1):
            via = payload.via if inner.via == "text" else f"{payload.via}+{inner.via}"
            yield View(via, inner.text)
