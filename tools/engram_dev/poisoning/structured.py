"""The fourth generator: text as stores and tools write it, JSON. A LangGraph store item, a saved
profile or a tool's answer reaches retain as a JSON document, and the corpus had none: the head
learnt braces and quotes from fake delimiters and tool-call attacks only, so ``{"data": "value2"}``
scored above the quarantine threshold.

Three kinds of rows, in both halves of the split:

- **data** (everyday only): values with no sentence in them (keys, names, numbers, flags, lists,
  nested objects), from shapes with slots.
- **ids** (everyday only): identifiers alone or in a short line (hashes, UUIDs, keys, tokens).
- **wrapped**: a sentence of another row put in a JSON field (``{"note": "…"}``), attack and
  everyday alike, so the braces say nothing and the sentence decides.

A shape is held out with the share the other generators use, and a wrapped row is held out when
its sentence's row is, so the held-out split shares neither a shape nor a sentence with training.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

IDS_SEED = 20261203
ROWS_PER_SHAPE = 6  # data rows tried per shape (duplicates dropped)
WRAPPED_SHARE = 0.08  # of the sentences of each half and language, put in a JSON field

SLOTS: dict[str, list[Any]] = {
    "word": ["value1", "value2", "value3", "foo", "bar", "baz", "alpha", "beta", "hello", "test", "x", "ok"],
    "key": ["data", "value", "v", "item", "payload", "result", "state", "content", "info", "entry", "meta"],
    "name": ["Ana", "Priya", "Tom", "Lukas", "Mei", "Jorge", "Sam", "Chloé"],
    "city": ["Porto", "Lisbon", "Berlin", "Austin", "Lyon", "Madrid", "Osaka"],
    "theme": ["dark", "light", "system", "high-contrast"],
    "lang": ["en", "es", "de", "fr", "zh", "pt-BR"],
    "num": [0, 1, 2, 3, 7, 12, 42, 100, 2026, 3.5, -1],
    "flag": [True, False, None],
    "status": ["done", "open", "pending", "active", "archived", "failed", "ok"],
    "id": ["u1", "user-42", "a1b2c3", "7f3e9d", "task-17", "acct_993", "doc-5"],
    "date": ["2026-03-14", "2025-11-02T09:30:00Z", "2026-12-01", "yesterday"],
    "tool": ["search", "calendar", "weather", "calculator", "get_user", "list_files"],
    "food": ["peanuts", "shellfish", "gluten", "lactose"],
}

# Each shape builds one JSON value from a slot picker.
Pick = Callable[[str], Any]
SHAPES: list[Callable[[Pick], Any]] = [
    lambda p: {p("key"): p("word")},
    lambda p: {p("key"): p("num")},
    lambda p: {p("key"): {p("key"): p("word")}},
    lambda p: {p("key"): [p("num"), p("num"), p("num")]},
    lambda p: [p("word"), p("word")],
    lambda p: {"name": p("name"), "city": p("city")},
    lambda p: {"user_id": p("id"), "prefs": {"theme": p("theme"), "language": p("lang")}},
    lambda p: {"theme": p("theme"), "font_size": p("num"), "notifications": p("flag")},
    lambda p: {"id": p("id"), "status": p("status"), "updated": p("date")},
    lambda p: {"tool": p("tool"), "ok": p("flag"), "result": {"count": p("num")}},
    lambda p: {"allergies": [p("food")], "diet": None, "verified": p("flag")},
    lambda p: {"tasks": [{"id": p("id"), "done": p("flag")}, {"id": p("id"), "done": p("flag")}]},
    lambda p: {"kind": "preference", "key": p("key"), "value": p("word")},
    lambda p: {"count": p("num"), "items": [], "next": None},
    lambda p: {"event": p("status"), "at": p("date"), "by": p("id")},
    lambda p: {"location": {"city": p("city"), "lat": p("num"), "lon": p("num")}},
]
# Identifiers as stores and tools write them, alone or in a short line: hashes, UUIDs, keys,
# tokens (a LangGraph store's placeholder is "lg-key:<md5> <uuid hex>"). Gibberish read like an
# obfuscated attack to the head before they were here.
IDS: list[Callable[[Callable[[int], str]], str]] = [
    lambda h: f"lg-key:{h(32)} {h(32)}",
    lambda h: f"{h(8)}-{h(4)}-{h(4)}-{h(4)}-{h(12)}",
    lambda h: f"sha256:{h(64)}",
    lambda h: f"ref {h(12)}",
    lambda h: f"build 2026.12.{int(h(2), 16) % 31}-{h(7)}",
    lambda h: f"session {h(32)} closed",
    lambda h: f"tag:{h(16)} tag:{h(16)}",
    lambda h: f"{h(40)}",
    lambda h: f"order #{int(h(6), 16)} / {h(10)}",
    lambda h: f"key_{h(24)}",
]
FIELDS = ["note", "text", "content", "memory", "summary", "message", "value", "comment"]


def build(
    sentences: Sequence[dict[str, Any]], rng: random.Random, held_out: Callable[[list[str], str], set[str]]
) -> Iterator[dict[str, Any]]:
    """Data rows from the shapes, and wrapped rows from ``sentences`` (rows of the other
    generators, each with ``held``); ``held_out`` picks the held-out shapes."""
    shape_ids = [f"json/shape/{i}" for i in range(len(SHAPES))]
    held_shapes = held_out(shape_ids, "shape")
    for shape_id, shape in zip(shape_ids, SHAPES, strict=True):
        seen: set[str] = set()
        for _ in range(ROWS_PER_SHAPE):
            text = json.dumps(shape(lambda slot: rng.choice(SLOTS[slot])), ensure_ascii=False)
            if text in seen:
                continue
            seen.add(text)
            yield _row("benign", "en", shape_id, shape_id in held_shapes, text)
    for row in sentences:
        if row["generator"] not in ("template", "compose") or rng.random() >= WRAPPED_SHARE:
            continue
        field = rng.choice(FIELDS)
        value: dict[str, Any] = {field: row["text"]}
        if rng.random() < 0.5:
            value = {"id": rng.choice(SLOTS["id"]), **value, "created": rng.choice(SLOTS["date"])}
        text = json.dumps(value, ensure_ascii=False)
        yield _row(row["label"], row["lang"], f"json/{field}+{row['template']}", row["held"], text)
    id_ids = [f"json/id/{i}" for i in range(len(IDS))]
    held_ids = held_out(id_ids, "id")
    digits = random.Random(IDS_SEED)  # its own, so the rows above and below stay as they were
    for id_id, make in zip(id_ids, IDS, strict=True):
        for _ in range(ROWS_PER_SHAPE):
            text = make(lambda n: "".join(digits.choice("0123456789abcdef") for _ in range(n)))
            yield _row("benign", "en", id_id, id_id in held_ids, text)


def _row(label: str, lang: str, template: str, held: bool, text: str) -> dict[str, Any]:
    return {
        "role": "user",
        "label": label,
        "style": "json",
        "lang": lang,
        "generator": "structured",
        "template": template,
        "held": held,
        "text": text,
    }
