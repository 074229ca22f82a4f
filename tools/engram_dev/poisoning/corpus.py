"""The poisoning corpus, generated: attacks in many styles and five languages, and an everyday
half of instruction-like text, from several generators and hand-written sets, seeded.

- ``template``: one sentence a template, slots filled (``templates/<lang>.py``).
- ``compose``: an ordinary carrier text with a payload inside it (``compose.py``).
- ``obfuscate``: rows of the first two respelled (spaced-out letters, leetspeak, look-alike
  letters, zero-width characters, full-width letters).
- ``hand``: rows written one by one (``hand.py``), all held out.
- ``structured``: JSON as stores and tools write it, data alone or a sentence of the rows above
  in a field (``structured.py``).
- ``authored``: rows written one by one by a further author (``authored/``), all for training.
- ``written``: rows written one by one by a third author where the head was weakest (tool calls,
  addressed notes, triggers, memory plants, fraud, and everyday text of the same shapes;
  ``written/``), all for training.
- ``framed``: a fourth author's lead-ins crossed with asks in the four styles the head missed most
  outside its corpus (tool calls as prose and code, notes to whatever reads them, triggers, fraud
  scripts for third parties), with everyday rows of the same shapes (``framed/``), all for training.

The ``held-out`` split holds out whole templates, carriers, payloads and the hand-written set (a
row is held out if anything it was made from is), so nothing a rule or the classifier's threshold
was fitted on shares a template with it. ``engram screen --build-corpus`` writes the file.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable, Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

from engram_dev.poisoning import authored, compose, framed, fresh, hand, mix, structured, written

LANGS = ("en", "es", "de", "fr", "zh")
SEED = 20261202
VARIANTS = 4  # slot fillings tried per template (duplicates dropped)
HELD_OUT_SHARE = 0.3
OUT = Path("tests/fixtures/poisoning_corpus.json")

COMMON_SLOTS = {
    "product": ["CryptoMax", "AcmeBank", "VitaBoost", "QuickLoans", "BetFast", "NordShield VPN"],
    "url": [
        "https://acme-verify.example/login",
        "http://198.51.100.7/c",
        "https://bit.example/x9",
        "https://promo.example.net/win",
    ],
    "email": ["collect@evil.example", "backup-archive@mailbox.example", "admin.helpdesk@example.org"],
}
# Said before a text, in both halves alike (so a prefix tells the classifier nothing).
PREFIXES = {
    "en": ["", "", "Btw, ", "Important: ", "ok so "],
    "es": ["", "", "Por cierto, ", "Importante: "],
    "de": ["", "", "Übrigens: ", "Wichtig: "],
    "fr": ["", "", "Au fait, ", "Important : "],
    "zh": ["", "", "对了，", "重要："],
}
_SLOT = re.compile(r"\{(\w+)\}")
_CYRILLIC = str.maketrans({"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "i": "і", "x": "х"})
_LEET = str.maketrans({"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"})


def _key(*parts: str) -> float:
    """A stable number in [0, 1) for a template's identity (the split does not move when rows
    are added elsewhere)."""
    digest = hashlib.sha256(f"{SEED}:{':'.join(parts)}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _held_out(ids: list[str], namespace: str) -> set[str]:
    """A share of ``ids``, at least one, chosen by their stable keys."""
    ranked = sorted(ids, key=lambda i: _key(namespace, i))
    return set(ranked[: max(1, round(HELD_OUT_SHARE * len(ids)))])


def _fill(template: str, slots: dict[str, list[str]], rng: random.Random) -> str:
    # Doubled braces are literal (a JSON tool call).
    text = template.replace("{{", "\0").replace("}}", "\1")
    text = _SLOT.sub(lambda m: rng.choice(slots[m.group(1)]), text)
    return text.replace("\0", "{").replace("\1", "}")


def _prefixed(prefix: str, text: str) -> str:
    """``prefix`` before ``text``, which goes on in lower case after a comma or a word."""
    if prefix and not prefix.rstrip().endswith(":") and text[:2] != text[:2].upper():
        text = text[0].lower() + text[1:]
    return prefix + text


def _row(**fields: Any) -> dict[str, Any]:
    return {"role": "user", **fields}


def _templates(lang: str, rng: random.Random) -> Iterator[dict[str, Any]]:
    module = import_module(f"engram_dev.poisoning.templates.{lang}")
    slots = {**COMMON_SLOTS, **module.SLOTS}
    for label, table in (("attack", module.ATTACK), ("benign", module.BENIGN)):
        for style, templates in table.items():
            ids = [f"{lang}/{style}/{i}" for i in range(len(templates))]
            held = _held_out(ids, "template")
            for template_id, template in zip(ids, templates, strict=True):
                seen: set[str] = set()
                for _ in range(VARIANTS):
                    text = _prefixed(rng.choice(PREFIXES[lang]), _fill(template, slots, rng))
                    if text in seen:
                        continue
                    seen.add(text)
                    yield _row(
                        label=label,
                        style=style,
                        lang=lang,
                        generator="template",
                        template=template_id,
                        held=template_id in held,
                        text=text,
                    )


def _composed(lang: str, rng: random.Random) -> Iterator[dict[str, Any]]:
    carriers = compose.CARRIERS[lang]
    carrier_ids = [f"{lang}/carrier/{i}" for i in range(len(carriers))]
    held_carriers = _held_out(carrier_ids, "carrier")
    for label, payloads in (
        ("attack", compose.ATTACK_PAYLOADS[lang]),
        ("benign", compose.BENIGN_PAYLOADS[lang]),
    ):
        payload_ids = [f"{lang}/{label}-payload/{i}" for i in range(len(payloads))]
        held_payloads = _held_out(payload_ids, "payload")
        for carrier_id, carrier in zip(carrier_ids, carriers, strict=True):
            for payload_id, payload in zip(payload_ids, payloads, strict=True):
                held = carrier_id in held_carriers or payload_id in held_payloads
                if not held and rng.random() < 0.5:  # keep the train half no larger than the held-out
                    continue
                text = carrier.replace("{p}", _fill(payload, COMMON_SLOTS, rng))
                yield _row(
                    label=label,
                    style="embedded" if label == "attack" else "note",
                    lang=lang,
                    generator="compose",
                    template=f"{carrier_id}+{payload_id}",
                    held=held,
                    text=text,
                )


def _respell(text: str, how: str, rng: random.Random) -> str:
    """``text`` respelled the way ``how`` names, in its longer words (or every character)."""
    words = text.split(" ")
    long = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    chosen = set(rng.sample(long, min(len(long), 3)))
    if how == "fullwidth":
        return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)
    if how == "zero-width" and not long:  # Chinese: between characters
        return "\u200b".join(text)
    if how == "spaced" and not long:
        return " ".join(text)
    change: Callable[[str], str] = {
        "spaced": lambda w: " ".join(w),
        "leet": lambda w: w.casefold().translate(_LEET),
        "look-alike": lambda w: w.translate(_CYRILLIC),
        "zero-width": lambda w: w[: len(w) // 2] + "\u200b" + w[len(w) // 2 :],
    }[how]
    return " ".join(change(w) if i in chosen else w for i, w in enumerate(words))


def _obfuscated(rows: list[dict[str, Any]], rng: random.Random) -> Iterator[dict[str, Any]]:
    ways = ("spaced", "leet", "look-alike", "zero-width", "fullwidth")
    for row in rows:
        share = 0.25 if row["label"] == "attack" else 0.05
        if rng.random() >= share:
            continue
        how = rng.choice(ways if row["lang"] != "zh" else ("spaced", "zero-width", "fullwidth"))
        yield {
            **row,
            "style": "obfuscated" if row["label"] == "attack" else row["style"],
            "generator": "obfuscate",
            "respelled": how,
            "text": _respell(row["text"], how, rng),
        }


def build(seed: int = SEED) -> list[dict[str, Any]]:
    """Every row, with a stable id and its split."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for lang in LANGS:
        rows += _templates(lang, rng)
        rows += _composed(lang, rng)
    rows += _obfuscated(list(rows), rng)
    rows += structured.build(list(rows), random.Random(seed + 2), _held_out)  # its own generator too
    rows += mix.build(random.Random(seed + 1))  # its own generator: the rows above stay as they were
    for label, table in (("attack", hand.ATTACKS), ("benign", hand.BENIGN)):
        rows += [
            _row(
                label=label,
                style=style,
                lang=lang,
                generator="hand",
                template=f"hand/{i}",
                held=True,
                text=text,
            )
            for i, (lang, style, text) in enumerate(table)
        ]
    fresh_rows = fresh.build()
    fresh_texts = {row["text"] for row in fresh_rows}
    # Last, so that a text another generator made keeps its row (and split).
    rows += [row for row in authored.build() if row["text"] not in fresh_texts]
    rows += [row for row in written.build() if row["text"] not in fresh_texts]
    rows += [row for row in framed.build(random.Random(seed + 3)) if row["text"] not in fresh_texts]
    out, seen = [], set()
    for row in rows:
        if row["text"] in seen:
            continue
        seen.add(row["text"])
        held = row.pop("held")
        row_id = hashlib.sha256(row["text"].encode()).hexdigest()[:10]
        out.append({"id": f"{row['label'][0]}-{row_id}", "split": "held-out" if held else "train", **row})
    return out + [row for row in fresh_rows if row["text"] not in seen]


def write(path: Path = OUT, seed: int = SEED) -> list[dict[str, Any]]:
    rows = build(seed)
    lines = ",\n".join(json.dumps(row, ensure_ascii=False) for row in rows)
    path.write_text(f"[\n{lines}\n]\n", encoding="utf-8")  # a row a line: reviewable diffs
    return rows
