"""What ``engram eval locomo`` prints and writes: Markdown tables and a bar chart (pure but for the file)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engram_dev.evaluation.locomo import CATEGORIES

Summaries = Mapping[str, Mapping[str, Mapping[str, float]]]


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def timing_lines(timing: Mapping[str, Any]) -> list[str]:
    """The ingestion figures: how fast retains were acknowledged, the first recall's wait right
    after them, and how fast the backlog became searchable by vector."""
    return [
        "| turns | retain acknowledged (items/s) | first recall right after (ms) | backlog then "
        "| searchable by vector after (s) | items/s made searchable by vector |",
        "|---:|---:|---:|---:|---:|---:|",
        f"| {timing['turns']} | {timing['retain_items_per_s']:.0f} | {timing['first_recall_ms']:.1f} "
        f"| {timing['backlog_at_first_recall']} | {timing['searchable_after_s']:.1f} "
        f"| {timing['vector_items_per_s']:.0f} |",
    ]


def peer_lines(summaries: Summaries, ks: Sequence[int]) -> list[str]:
    """Overall turn-level frac@k beside session-level R@k, the granularity LLM-free peers publish."""
    shown = [k for k in ks if k in (5, 10)] or list(ks)
    header = ["variant", *[f"frac@{k}" for k in shown], *[f"session R@{k}" for k in shown]]
    lines = [
        "Overall: turn-level fractional recall (the evidence turns found) beside session-level R@k "
        "(the evidence's sessions among the first k distinct sessions of the ranking)",
        "",
        "| " + " | ".join(header) + " |",
        "|---|" + "---:|" * (len(header) - 1),
    ]
    for name, table in summaries.items():
        row = table["overall"]
        cells = [_fmt(row[f"recall@{k}"]) for k in shown]
        cells += [_fmt(row.get(f"session_recall@{k}", 0.0)) for k in shown]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def report(summaries: Summaries, ks: Sequence[int], timing: Mapping[str, Any] | None = None) -> str:
    """Markdown tables: the variants side by side, then each variant's full metrics."""
    head = 10 if 10 in ks else max(ks)
    groups = [*CATEGORIES.values(), "overall"]
    lines = [f"Fractional recall@{head} (%) by category, n questions in brackets", ""]
    first = next(iter(summaries.values()))
    header = [
        "variant",
        *[f"{g} ({int(first[g]['n'])})" for g in groups if g in first],
        "empty answers %",
        "p50 ms",
        "p95 ms",
    ]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, table in summaries.items():
        cells = [name, *[_fmt(table[g][f"recall@{head}"]) for g in groups if g in table]]
        cells += [_fmt(table["overall"].get("empty", 0.0))]
        cells += [_fmt(table["overall"]["latency_p50_ms"]), _fmt(table["overall"]["latency_p95_ms"])]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", *peer_lines(summaries, ks)]
    if timing is not None:
        lines += ["", *timing_lines(timing)]
    columns = [
        *[f"recall@{k}" for k in ks],
        f"all@{head}",
        f"any@{head}",
        f"session_any@{head}",
        *[f"session_recall@{k}" for k in ks],
        "mrr",
        "empty",
        f"context_tokens@{head}",
        "latency_p50_ms",
        "latency_p95_ms",
    ]
    for name, table in summaries.items():
        lines += ["", f"Variant {name}", "", "| category | n | " + " | ".join(columns) + " |"]
        lines.append("|" + "---|" * (len(columns) + 2))
        for group in groups:
            if group in table:
                row = table[group]
                lines.append(
                    f"| {group} | {int(row['n'])} | " + " | ".join(_fmt(row[c]) for c in columns) + " |"
                )
    return "\n".join(lines)


def plot(summaries: Summaries, ks: Sequence[int], path: Path) -> None:
    """A grouped bar chart of fractional recall@10 per category, one bar per variant."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    head = 10 if 10 in ks else max(ks)
    groups = [g for g in [*CATEGORIES.values(), "overall"] if g in next(iter(summaries.values()))]
    width = 0.8 / len(summaries)
    figure, axes = plt.subplots(figsize=(9, 4.5))
    for offset, (name, table) in enumerate(summaries.items()):
        values = [table[g][f"recall@{head}"] for g in groups]
        positions = [i + (offset - (len(summaries) - 1) / 2) * width for i in range(len(groups))]
        bars = axes.bar(positions, values, width, label=name)
        axes.bar_label(bars, fmt="%.0f", fontsize=7)
    name = next(iter(summaries))
    axes.set_xticks(range(len(groups)), [f"{g}\n(n={int(summaries[name][g]['n'])})" for g in groups])
    axes.set_ylabel(f"fractional recall@{head} (%)")
    axes.set_ylim(0, 118)  # room above the bars for the legend
    axes.set_yticks(range(0, 101, 20))
    axes.legend(ncols=min(6, len(summaries)), fontsize=8, loc="upper center")
    axes.set_title("Recall of the evidence turns, per question category")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
