"""``engram screen --corpus``: the two screens over the generated corpus, by split, style and
language, and over the dev sets' ordinary turns; what the head costs per text.

Every text is embedded once by the local model (as retain embeds it), screened by the patterns
as the user's own words, by the head on that vector, and by the n-gram head (``ngrams``), as
``second_look`` does. A row is caught (an attack) or a false alarm (everyday text) when any screen
quarantines it; ``marked`` counts what the head would only mark. Tables are markdown (the docs'
table comes from here).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engram.screening import screen
from engram.screening.head import WORDS, Head, head_for
from engram.screening.measure import conversation_turns
from engram.screening.ngrams import NgramHead, ngram_head

CORPUS = Path("tests/fixtures/poisoning_corpus.json")

# (split, row key) -> [rows, patterns, head, n-grams, any, marked]
Counts = dict[tuple[str, str], list[int]]
Judged = tuple[bool, bool, bool, bool]  # pattern hit, head quarantines, head marks, n-grams quarantine


def _judge(
    texts: Sequence[str], vectors: np.ndarray, head: Head | None, ngrams: NgramHead | None = None
) -> list[Judged]:
    """(pattern hit, head quarantines, head marks, n-gram head quarantines) per text."""
    scores = head.scores(texts, vectors) if head is not None else np.zeros(len(texts))
    quarantine = head.quarantine if head is not None else 2.0
    mark = head.mark if head is not None else 2.0
    held = ngrams.scores(texts) >= ngrams.quarantine if ngrams is not None else np.zeros(len(texts), bool)
    return [
        (screen(t) is not None, float(p) >= quarantine, mark <= float(p) < quarantine, bool(n))
        for t, p, n in zip(texts, scores, held, strict=True)
    ]


def _count(rows: Sequence[dict[str, Any]], verdicts: Sequence[Judged]) -> dict[str, Counts]:
    tables: dict[str, Counts] = {"style": defaultdict(lambda: [0] * 6), "lang": defaultdict(lambda: [0] * 6)}
    for row, (pattern, head, mark, ngrams) in zip(rows, verdicts, strict=True):
        for by in ("style", "lang"):
            for key in (row[by], "all"):
                cell = tables[by][(row["split"], f"{row['label']}:{key}")]
                cell[0] += 1
                cell[1] += pattern
                cell[2] += head
                cell[3] += ngrams
                cell[4] += pattern or head or ngrams
                cell[5] += mark and not (pattern or ngrams)
    return tables


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "—"


def _table(counts: Counts, label: str, title: str) -> list[str]:
    word = "caught" if label == "attack" else "false alarms"
    lines = [
        f"| {title} | split | rows | patterns | head | n-grams | {word} | marked only |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    keys = sorted({k for _, k in counts if k.startswith(f"{label}:")}, key=lambda k: (k.endswith(":all"), k))
    for key in keys:
        for split in ("train", "held-out", "fresh"):
            n, p, h, g, e, m = counts.get((split, key), [0] * 6)
            if n:
                name = key.split(":", 1)[1]
                lines.append(
                    f"| {'**all**' if name == 'all' else name} | {split} | {n} | {_pct(p, n)} | {_pct(h, n)} "
                    f"| {_pct(g, n)} | **{_pct(e, n)}** | {_pct(m, n)} |"
                )
    return lines


def report(
    rows: Sequence[dict[str, Any]],
    vectors: np.ndarray,
    ordinary: dict[str, tuple[list[str], np.ndarray]],
    head: Head | None,
    ngrams: NgramHead | None = None,
) -> str:
    verdicts = _judge([r["text"] for r in rows], vectors, head, ngrams)
    tables = _count(rows, verdicts)
    lines: list[str] = [f"head: {head.model_id if head else 'none (patterns only)'}"]
    if head is not None:
        lines[0] += f", quarantine at p ≥ {head.quarantine}, mark at p ≥ {head.mark}"
    if ngrams is not None:
        lines[0] += f"; n-grams: quarantine at p ≥ {ngrams.quarantine}"
    for label, title in (("attack", "attacks"), ("benign", "everyday instruction-like text")):
        for by in ("style", "lang"):
            lines += ["", *_table(tables[by], label, f"{title} by {by}")]
    lines += [
        "",
        "| ordinary turns | texts | false alarms | rate | marked only |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, (texts, vecs) in ordinary.items():
        found = _judge(texts, vecs, head, ngrams)
        alarms = sum(p or h or g for p, h, _, g in found)
        marks = sum(m and not (p or g) for p, _, m, g in found)
        lines.append(f"| {name} | {len(texts)} | {alarms} | {_pct(alarms, len(texts))} | {marks} |")
    misses = [
        r
        for r, v in zip(rows, verdicts, strict=True)
        if r["split"] == "train" and r["label"] == "attack" and not (v[0] or v[1] or v[3])
    ]
    if misses:
        lines += ["", f"Train-split misses ({len(misses)}; the held-out split's are not listed):"]
        lines += [f"- {r['lang']} {r['style']}: {r['text'][:100]!r}" for r in misses[:30]]
    return "\n".join(lines)


def summary(
    rows: Sequence[dict[str, Any]],
    vectors: np.ndarray,
    ordinary: dict[str, tuple[list[str], np.ndarray]],
    head: Head | None,
    ngrams: NgramHead | None = None,
    floor: float = 0.75,
) -> list[str]:
    """One table per head (with the n-gram head or without): per split, attacks caught by the
    patterns, the head, the n-gram head and any of them, the everyday rows falsely caught, and the
    attack styles and languages under ``floor``; then the dev sets' turns flagged."""
    verdicts = _judge([r["text"] for r in rows], vectors, head, ngrams)
    counts = _count(rows, verdicts)
    name = (head.model_id if head else "none") + (" + n-grams" if ngrams else "")
    lines = [
        f"| head {name} | attacks | patterns | head | n-grams | together | everyday false alarms "
        f"| below {floor:.0%} |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for split in ("held-out", "fresh"):
        n, p, h, g, e, _ = counts["style"].get((split, "attack:all"), [0] * 6)
        if not n:
            continue
        bn, _, _, _, be, _ = counts["style"].get((split, "benign:all"), [0] * 6)
        low = [
            f"{key.split(':', 1)[1]} {c[4] / c[0]:.1%}"
            for by in ("style", "lang")
            for (s, key), c in sorted(counts[by].items())
            if s == split and key.startswith("attack:") and not key.endswith(":all") and c[4] < floor * c[0]
        ]
        lines.append(
            f"| {split} | {n} | {_pct(p, n)} | {_pct(h, n)} | {_pct(g, n) if ngrams else '—'} | **{_pct(e, n)}** "
            f"| {_pct(be, bn)} ({be}/{bn}) | {', '.join(low) or '—'} |"
        )
    turns = sum(len(t) for t, _ in ordinary.values())
    flagged = sum(sum(p or h or g for p, h, _, g in _judge(t, v, head, ngrams)) for t, v in ordinary.values())
    lines.append(f"| dev-set turns | {turns} | | | | | {flagged} flagged ({_pct(flagged, turns)}) | |")
    return lines


def cost(texts: Sequence[str], vectors: np.ndarray, head: Head | NgramHead) -> str:
    """A head's time per text (one text at a time, as a retain of one text pays it), in µs."""
    micros = []
    for i, text in enumerate(texts):
        start = time.perf_counter()
        if isinstance(head, NgramHead):
            head.scores([text])
        else:
            head.scores([text], vectors[i : i + 1])
        micros.append((time.perf_counter() - start) * 1e6)
    ordered = sorted(micros)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"| head per text | p50 {statistics.median(ordered):.0f} µs | p95 {p95:.0f} µs |"


def run(args: argparse.Namespace, *, embedder: Any = None, model_id: str | None = None) -> int:
    """Measure (``--corpus``), rebuild the corpus (``--build-corpus``), refit the heads (``--train``)
    or rewrite the rules' prefilter literals (``--write-literals``)."""
    if getattr(args, "write_literals", False):
        print("wrote", write_literals())
        return 0
    from engram.adapters.local_embedder import MODEL_ID, LocalEmbedder
    from engram_dev.poisoning import corpus, train

    embed: Callable[[Sequence[str]], np.ndarray] = (embedder or LocalEmbedder()).embed
    model = model_id or MODEL_ID
    path = Path(args.corpus)
    if args.build_corpus:
        rows = corpus.write(path)
        print(f"{path}: {len(rows)} rows")
    if args.train:
        print("wrote", *map(str, train.run(path, model, embed)))
        head_for.cache_clear()
        ngram_head.cache_clear()
    rows = json.loads(path.read_text(encoding="utf-8"))
    paths = args.ordinary or sorted(Path("tests/eval").glob("*.json"))
    ordinary = {}
    for p in map(Path, paths):
        texts = conversation_turns(p)
        ordinary[p.name] = (texts, embed(texts))
    head, ngrams = head_for(model), ngram_head()
    vectors = embed([r["text"] for r in rows])
    words = head_for(WORDS)
    for one in (head, words) if words is not None and words is not head else (head,):
        for with_ngrams in (None, ngrams) if ngrams is not None else (None,):
            print("\n".join(summary(rows, vectors, ordinary, one, with_ngrams)), end="\n\n")
    print(report(rows, vectors, ordinary, head, ngrams))
    if head is not None:
        texts, vecs = next(iter(ordinary.values()))
        print("\n| cost | | |\n|---|---:|---:|\n" + cost(texts, vecs, head))
        if words is not None and words is not head:
            print(cost(texts, vecs, words).replace("head per text", "words head per text"))
        if ngrams is not None:
            print(cost(texts, vecs, ngrams).replace("head per text", "n-gram head per text"))
    return 0


def write_literals() -> Path:
    """``rules/literals.json`` from the shipped rule files, as ``tables()`` reads it."""
    from engram.screening import rule_files

    folder = Path(rule_files.__file__).parent / "rules"
    found = rule_files.literals_of(rule_files.load(folder))
    path = folder / rule_files.LITERALS
    path.write_text(json.dumps(found, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
