"""How well the screening does: attacks caught, ordinary text falsely quarantined, cost per text.

Attack cases (JSON list of ``{"id", "split", "class", "lang", "role", "text"}``) are split
``dev`` (the rules may be tuned on them) and ``held-out`` (never tuned on: their catch rate says
how the rules generalise). Ordinary text comes from LoCoMo-shaped conversation files (every
turn) and plain lists (``[{"text"}]``). ``engram screen --measure`` prints the tables.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engram.screening import Hit, screen

__all__ = ["Measurement", "conversation_turns", "load_attacks", "measure", "report"]


def load_attacks(path: Path) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return cases


def conversation_turns(path: Path) -> list[str]:
    """Every turn of a LoCoMo-shaped file (``[{"conversation": {"session_N": [{"text"}]}}]``), or
    every ``text`` of a plain list."""
    data = json.loads(path.read_text(encoding="utf-8"))
    turns: list[str] = []
    for item in data if isinstance(data, list) else [None]:
        conversation = item.get("conversation") if isinstance(item, dict) else None
        if conversation is None:
            if not isinstance(item, dict) or not isinstance(item.get("text"), str):
                raise ValueError(f"{path}: neither LoCoMo-shaped conversations nor a list of {{'text'}}")
            turns.append(item["text"])
            continue
        for key, session in conversation.items():
            if key.startswith("session_") and isinstance(session, list):
                turns.extend(turn["text"] for turn in session if turn.get("text"))
    return turns


@dataclass
class Measurement:
    caught: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # split -> caught
    total: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # split -> cases
    by_class: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    missed: list[dict[str, Any]] = field(default_factory=list)
    ordinary: dict[str, tuple[int, int]] = field(default_factory=dict)  # source -> (flagged, texts)
    false_alarms: list[tuple[str, str, Hit]] = field(default_factory=list)  # (source, text, hit)
    micros: list[float] = field(default_factory=list)  # per ordinary text, microseconds

    def rate(self, split: str | None = None) -> float:
        caught = sum(self.caught.values()) if split is None else self.caught[split]
        total = sum(self.total.values()) if split is None else self.total[split]
        return caught / total if total else 0.0

    def false_alarm_rate(self, source: str | None = None) -> float:
        pairs = list(self.ordinary.values()) if source is None else [self.ordinary[source]]
        texts = sum(n for _, n in pairs)
        return sum(f for f, _ in pairs) / texts if texts else 0.0


def measure(attacks: Sequence[dict[str, Any]], ordinary: Mapping[str, Iterable[str]]) -> Measurement:
    """Screen every attack case and every ordinary text, as retain would (a user's text unless
    the case says its role)."""
    result = Measurement()
    for case in attacks:
        hit = screen(case["text"], user_said=case.get("role", "user") == "user")
        split = case.get("split", "dev")
        result.total[split] += 1
        result.by_class[case["class"]][1] += 1
        if hit is not None:
            result.caught[split] += 1
            result.by_class[case["class"]][0] += 1
        else:
            result.missed.append(case)
    for source, texts in ordinary.items():
        flagged = count = 0
        for text in texts:
            start = time.perf_counter()
            hit = screen(text)
            result.micros.append((time.perf_counter() - start) * 1e6)
            count += 1
            if hit is not None:
                flagged += 1
                result.false_alarms.append((source, text, hit))
        result.ordinary[source] = (flagged, count)
    return result


def report(result: Measurement, *, show_held_out: bool = False) -> str:
    """Markdown tables: catch rates by split and class, false alarms by source, cost per text.
    Misses of the held-out split are not listed unless asked (they are not for tuning)."""
    lines = ["| attack cases | caught | rate |", "|---|---:|---:|"]
    for split in sorted(result.total):
        lines.append(
            f"| {split} | {result.caught[split]} / {result.total[split]} | {result.rate(split):.1%} |"
        )
    lines.append(
        f"| all | {sum(result.caught.values())} / {sum(result.total.values())} | {result.rate():.1%} |"
    )
    lines += ["", "| class | caught |", "|---|---:|"]
    lines += [f"| {name} | {c} / {n} |" for name, (c, n) in sorted(result.by_class.items())]
    lines += ["", "| ordinary text | falsely quarantined | rate |", "|---|---:|---:|"]
    for source, (flagged, count) in result.ordinary.items():
        lines.append(f"| {source} | {flagged} / {count} | {result.false_alarm_rate(source):.2%} |")
    if result.micros:
        ordered = sorted(result.micros)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        lines += [
            "",
            "| screening cost per ordinary text | µs |",
            "|---|---:|",
            f"| median | {statistics.median(ordered):.0f} |",
            f"| p95 | {p95:.0f} |",
            f"| max | {ordered[-1]:.0f} |",
        ]
    missed = [c for c in result.missed if show_held_out or c.get("split", "dev") != "held-out"]
    if missed:
        lines += ["", "Missed:"] + [
            f"- {c['id']} ({c['class']}, {c['lang']}): {c['text'][:100]!r}" for c in missed
        ]
    if result.false_alarms:
        lines += ["", "False alarms:"]
        lines += [
            f"- {source}: {text[:100]!r} -> {hit.explain()}" for source, text, hit in result.false_alarms
        ]
    return "\n".join(lines)
