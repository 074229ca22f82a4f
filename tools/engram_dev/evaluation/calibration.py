"""How a LoCoMo-format file's conversations compare with real long ones: the properties that make
recall hard (turn length, session size, photos, evidence spread, speaker names, word overlap,
category mix) and the simple baselines (bm25, vector) measured through ``engram eval locomo``.

``REAL`` holds the aggregate figures of the held-out real conversations the calibrated dev set is
matched to (1,540 questions of categories 1–4); no real data is in the repository.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path

from engram_dev.evaluation.locomo import CATEGORIES, Sample, load

_WORD = re.compile(r"[a-z0-9']+")
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+")

REAL: dict[str, float] = {
    "words per turn, median": 20.0,
    "words per turn, mean": 22.7,
    "turns per session": 21.6,
    "turns that share an image (%)": 20.8,
    "questions with evidence in ≥ 2 turns (%)": 26.6,
    "questions that name a speaker (%)": 98.8,
    "question ↔ evidence content-word overlap, mean": 0.30,
    "questions with no content word in the evidence (%)": 21.9,
    "multi-hop share (%)": 18.3,
    "temporal share (%)": 20.8,
    "open-domain share (%)": 6.2,
    "single-hop share (%)": 54.6,
}
REAL_BASELINES: dict[str, dict[str, float]] = {
    "bm25": {"multi-hop": 35.0, "temporal": 70.5, "open-domain": 30.4, "single-hop": 69.2, "overall": 60.9},
    "vector": {"multi-hop": 24.9, "temporal": 49.3, "open-domain": 25.6, "single-hop": 51.6, "overall": 44.7},
}
TARGETS = {"bm25": (61.0, 3.0), "vector": (45.0, 4.0)}
"""Overall frac@10 each baseline must land in (centre, ±); each category's bm25 within ± 5 of real."""


def _words(text: str) -> list[str]:
    return [w.strip("'") for w in _WORD.findall(text.lower())]


def _names_speaker(question: str, speakers: set[str]) -> bool:
    """A capitalised word that is a speaker's first name or a short form of it (3+ letters)."""
    return any(
        len(word) >= 3 and name.startswith(word.lower())
        for word in _CAPITALISED.findall(question)
        for name in speakers
    )


def properties(samples: Sequence[Sample]) -> dict[str, float]:
    """The figures of ``REAL`` measured on ``samples`` (content words: not stopwords, 2+ letters)."""
    from engram.scoring.words import STOPWORDS

    turns = [t for s in samples for t in s.turns]
    lengths = [len(t.text.split()) for t in turns]
    sessions = [len(v) for s in samples for v in s.sessions().values()]
    asked = [(s, q) for s in samples for q in s.questions if q.category in CATEGORIES and q.evidence]
    overlaps: list[float] = []
    named = 0
    for sample, question in asked:
        speakers = {t.speaker.split()[0].lower() for t in sample.turns if t.speaker}
        named += _names_speaker(question.question, speakers)
        by_id = {t.dia_id: t for t in sample.turns}
        wanted = {w for w in _words(question.question) if w not in STOPWORDS and len(w) > 1}
        found: set[str] = set()
        for dia_id in question.evidence:
            turn = by_id[dia_id]
            found |= set(_words(f"{turn.text} {turn.caption or ''}"))
        overlaps.append(len(wanted & found) / len(wanted) if wanted else 0.0)
    n = max(1, len(asked))
    mix = {name: 100.0 * sum(q.category == c for _, q in asked) / n for c, name in CATEGORIES.items()}
    return {
        "words per turn, median": float(statistics.median(lengths)),
        "words per turn, mean": statistics.fmean(lengths),
        "turns per session": statistics.fmean(sessions),
        "turns that share an image (%)": 100.0 * sum(bool(t.caption) for t in turns) / len(turns),
        "questions with evidence in ≥ 2 turns (%)": 100.0 * sum(len(q.evidence) >= 2 for _, q in asked) / n,
        "questions that name a speaker (%)": 100.0 * named / n,
        "question ↔ evidence content-word overlap, mean": statistics.fmean(overlaps),
        "questions with no content word in the evidence (%)": 100.0 * sum(o == 0 for o in overlaps) / n,
        **{f"{name} share (%)": share for name, share in mix.items()},
    }


def _within(value: float, real: float, tolerance: float = 0.15) -> str:
    return "yes" if abs(value - real) <= tolerance * abs(real) else "**no**"


PLAIN_KEYS = {"retain": {"embed_previous": False}}


def baselines(path: Path) -> dict[str, dict[str, float]]:
    """bm25 and vector frac@10 by category and overall, through a local server (takes minutes).
    Turns are embedded as their own text (``retain.embed_previous`` off): the vector baseline is
    the plain one the set was calibrated against, whatever the default keys are."""
    from engram_dev.evaluation.runner import evaluate, local_server, parse_variants

    with local_server() as (url, token):
        summaries, _ = evaluate(
            url,
            operator_token=token,
            api_key=None,
            samples=load(path),
            variants=parse_variants("bm25,vector"),
            ks=[10],
            ingest_settings=PLAIN_KEYS,
        )
    return {name: {g: row["recall@10"] for g, row in table.items()} for name, table in summaries.items()}


def table(
    path: Path, *, baselines_too: bool = True, measured: Mapping[str, Mapping[str, float]] | None = None
) -> str:
    """The calibration table in Markdown: each property beside the real figure, then the baselines."""
    samples = load(path)
    found = properties(samples)
    turns = sum(len(s.turns) for s in samples)
    asked = sum(1 for s in samples for q in s.questions if q.category in CATEGORIES and q.evidence)
    lines = [
        f"{path.name}: {len(samples)} conversations, {turns} turns, {asked} questions of categories 1–4",
        "",
        "| property | real conversations | this set | within 15 % |",
        "|---|---:|---:|---|",
    ]
    for name, real in REAL.items():
        digits = 2 if real < 1 else 1
        lines.append(
            f"| {name} | {real:.{digits}f} | {found[name]:.{digits}f} | {_within(found[name], real)} |"
        )
    if measured is None and baselines_too:
        measured = baselines(path)
    if measured:
        groups = [*CATEGORIES.values(), "overall"]
        lines += [
            "",
            "| baseline frac@10 | " + " | ".join(groups) + " | on target |",
            "|---|" + "---:|" * len(groups) + "---|",
        ]
        for name, row in measured.items():
            target = REAL_BASELINES[name]
            centre, spread = TARGETS[name]
            ok = abs(row["overall"] - centre) <= spread and (
                name != "bm25" or all(abs(row[g] - target[g]) <= 5.0 for g in CATEGORIES.values())
            )
            cells = [f"{row.get(g, 0.0):.1f} ({target[g]:.1f})" for g in groups]
            lines.append(f"| {name} (real) | " + " | ".join(cells) + f" | {'yes' if ok else '**no**'} |")
    return "\n".join(lines)


def from_report(path: Path) -> dict[str, dict[str, float]]:
    """The bm25 and vector frac@10 of an ``engram eval locomo --out`` report (``locomo.json``)."""
    import json

    results = json.loads(path.read_text(encoding="utf-8"))["results"]
    return {
        name: {g: row["recall@10"] for g, row in results[name].items()}
        for name in ("bm25", "vector")
        if name in results
    }
