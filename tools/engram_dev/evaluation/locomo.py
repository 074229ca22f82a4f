"""Conversations in the LoCoMo file format, and the retrieval metrics computed over them.

The format: a JSON list of samples, each with ``sample_id``; ``conversation`` holding
``speaker_a``, ``speaker_b``, ``session_<n>`` (turns with ``speaker``, ``dia_id`` such as ``"D3:7"``,
``text`` and an optional ``blip_caption``) and ``session_<n>_date_time`` (``"1:56 pm on 8 May, 2023"``);
and ``qa`` items with ``question``, ``answer``, ``evidence`` (dia ids, sometimes several in one string,
``"D8:6; D9:17"``) and ``category`` (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop,
5 adversarial). Everything here is pure: no I/O beyond reading the file, no HTTP.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CATEGORIES: dict[int, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
"""The categories recall is judged on; 5 (adversarial: the answer is not in the conversation) is skipped."""

_DIA_ID = re.compile(r"D\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DATE_TIME = re.compile(
    r"^\s*(?:(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?\s*(?:on\s+)?)?(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}


class FormatError(ValueError):
    """The file is not in the LoCoMo format; the message says where."""


@dataclass(frozen=True)
class Turn:
    dia_id: str
    session: int
    speaker: str
    text: str
    caption: str | None
    occurred_at: datetime | None

    def document(self) -> str:
        """The text retained for this turn: ``"<speaker>: <text>"`` plus the image caption."""
        text = f"{self.speaker}: {self.text}".strip()
        if self.caption:
            text += f" [shares an image: {self.caption.strip()}]"
        return text


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    evidence: tuple[str, ...]
    category: int


@dataclass(frozen=True)
class Sample:
    sample_id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]

    def sessions(self) -> dict[int, list[Turn]]:
        grouped: dict[int, list[Turn]] = {}
        for turn in self.turns:
            grouped.setdefault(turn.session, []).append(turn)
        return grouped


def parse_evidence(values: Iterable[Any]) -> tuple[str, ...]:
    """Dia ids from an evidence list, leniently: ``["D8:6; D9:17", "d1:2"]`` → ``("D8:6", "D9:17", "D1:2")``.

    >>> parse_evidence(["D8:6; D9:17", "D 1 : 2", "D8:6"])
    ('D8:6', 'D9:17', 'D1:2')
    """
    found: list[str] = []
    for value in values:
        for session, turn in _DIA_ID.findall(str(value)):
            found.append(f"D{int(session)}:{int(turn)}")
    return tuple(dict.fromkeys(found))


def session_of(dia_id: str) -> int:
    """``"D3:7"`` → 3."""
    match = _DIA_ID.fullmatch(dia_id.strip())
    if match is None:
        raise FormatError(f"not a dia id: {dia_id!r}")
    return int(match.group(1))


def parse_date_time(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` → 2023-05-08 13:56 UTC (a date alone is midnight).

    >>> parse_date_time("1:56 pm on 8 May, 2023").isoformat()
    '2023-05-08T13:56:00+00:00'
    >>> parse_date_time("12:05 am on 1 Jan, 2024").isoformat()
    '2024-01-01T00:05:00+00:00'
    """
    match = _DATE_TIME.match(text)
    month = _MONTHS.get(match.group(5).lower()) if match else None
    if match is None or month is None:
        raise FormatError(f"unreadable session date and time: {text!r}")
    hour_text, minute_text, half, day, _, year = match.groups()
    hour = int(hour_text or 0) % 12 + (12 if (half or "a").lower() == "p" else 0)
    return datetime(int(year), month, int(day), hour, int(minute_text or 0), tzinfo=UTC)


def _sample(raw: Any, position: int) -> Sample:
    if not isinstance(raw, Mapping) or "conversation" not in raw:
        raise FormatError(f"sample {position}: expected an object with 'conversation' and 'qa'")
    sample_id = str(raw.get("sample_id") or f"sample-{position}")
    conversation = raw["conversation"]
    if not isinstance(conversation, Mapping):
        raise FormatError(f"sample {sample_id}: 'conversation' must be an object")
    turns: list[Turn] = []
    sessions = sorted(int(m.group(1)) for key in conversation if (m := _SESSION_KEY.match(key)))
    for number in sessions:
        when_text = conversation.get(f"session_{number}_date_time")
        when = parse_date_time(str(when_text)) if when_text else None
        for index, turn in enumerate(conversation[f"session_{number}"] or [], start=1):
            if not isinstance(turn, Mapping) or "text" not in turn:
                raise FormatError(f"sample {sample_id} session {number} turn {index}: needs 'text'")
            dia_id = parse_evidence([turn.get("dia_id", "")])
            turns.append(
                Turn(
                    dia_id=dia_id[0] if dia_id else f"D{number}:{index}",
                    session=number,
                    speaker=str(turn.get("speaker", "")),
                    text=str(turn["text"]),
                    caption=str(turn["blip_caption"]) if turn.get("blip_caption") else None,
                    occurred_at=when,
                )
            )
    questions = []
    for item in raw.get("qa") or []:
        evidence = item.get("evidence") or []
        questions.append(
            Question(
                question=str(item["question"]),
                answer=str(item.get("answer", item.get("adversarial_answer", ""))),
                evidence=parse_evidence(evidence if isinstance(evidence, list) else [evidence]),
                category=int(item.get("category", 0)),
            )
        )
    return Sample(sample_id=sample_id, turns=tuple(turns), questions=tuple(questions))


def load(path: Path) -> list[Sample]:
    """The samples of a LoCoMo-format file."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise FormatError(f"{path}: not JSON ({exc})") from None
    if isinstance(raw, Mapping):
        raw = [raw]
    if not isinstance(raw, list):
        raise FormatError(f"{path}: expected a JSON list of samples")
    return [_sample(item, position) for position, item in enumerate(raw)]


# -- metrics -------------------------------------------------------------------------------------


@dataclass
class QuestionResult:
    """One question's ranking: the dia ids of each returned memory, best first."""

    category: int
    evidence: tuple[str, ...]
    ranked: list[frozenset[str]]
    context_tokens: dict[int, int] = field(default_factory=dict)
    latency_ms: float = 0.0

    def top(self, k: int) -> set[str]:
        return set().union(*self.ranked[:k]) if self.ranked else set()

    def fractional_recall(self, k: int) -> float:
        """|evidence ∩ top-k| / |evidence|."""
        return len(set(self.evidence) & self.top(k)) / len(self.evidence)

    def recall_all(self, k: int) -> float:
        return 1.0 if set(self.evidence) <= self.top(k) else 0.0

    def recall_any(self, k: int) -> float:
        return 1.0 if set(self.evidence) & self.top(k) else 0.0

    def session_recall_any(self, k: int) -> float:
        """1 when any top-k memory comes from a session that holds evidence."""
        wanted = {session_of(d) for d in self.evidence}
        return 1.0 if wanted & {session_of(d) for d in self.top(k)} else 0.0

    def ranked_sessions(self) -> list[int]:
        """The sessions of the returned memories, each at its best rank, best first."""
        order: dict[int, None] = {}
        for dia_ids in self.ranked:
            for session in sorted({session_of(d) for d in dia_ids}):
                order.setdefault(session, None)
        return list(order)

    def session_recall(self, k: int) -> float:
        """Session-level R@k, as LLM-free peers publish it: the share of the evidence's sessions
        among the first k distinct sessions of the ranking (a session counts once, at its best turn)."""
        wanted = {session_of(d) for d in self.evidence}
        return len(wanted & set(self.ranked_sessions()[:k])) / len(wanted)

    def reciprocal_rank(self) -> float:
        for rank, dia_ids in enumerate(self.ranked, start=1):
            if dia_ids & set(self.evidence):
                return 1.0 / rank
        return 0.0


def approx_tokens(text: str) -> int:
    """A model-free token estimate, about four characters a token (as English text averages).

    >>> approx_tokens("Maya: I adopted a cat")
    6
    """
    return max(1, -(-len(text) // 4)) if text else 0


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def summarise(results: Sequence[QuestionResult], ks: Sequence[int]) -> dict[str, dict[str, float]]:
    """Per category (by name) and ``overall``: n and the mean of every metric, in percent."""
    groups: dict[str, list[QuestionResult]] = {name: [] for name in CATEGORIES.values()}
    for result in results:
        groups[CATEGORIES[result.category]].append(result)
    groups["overall"] = list(results)
    head = max(ks)
    table: dict[str, dict[str, float]] = {}
    for name, members in groups.items():
        if not members:
            continue
        n = len(members)
        row: dict[str, float] = {"n": n}
        for k in ks:
            row[f"recall@{k}"] = 100.0 * sum(r.fractional_recall(k) for r in members) / n
        for k in ks:
            row[f"all@{k}"] = 100.0 * sum(r.recall_all(k) for r in members) / n
            row[f"any@{k}"] = 100.0 * sum(r.recall_any(k) for r in members) / n
            row[f"session_any@{k}"] = 100.0 * sum(r.session_recall_any(k) for r in members) / n
            row[f"session_recall@{k}"] = 100.0 * sum(r.session_recall(k) for r in members) / n
        row["mrr"] = 100.0 * sum(r.reciprocal_rank() for r in members) / n
        row["empty"] = 100.0 * sum(not r.ranked for r in members) / n
        for k in ks:
            row[f"context_tokens@{k}"] = sum(r.context_tokens.get(k, 0) for r in members) / n
        row["latency_p50_ms"] = _percentile([r.latency_ms for r in members], 0.5)
        row["latency_p95_ms"] = _percentile([r.latency_ms for r in members], 0.95)
        row["k_max"] = head
        table[name] = row
    return table
