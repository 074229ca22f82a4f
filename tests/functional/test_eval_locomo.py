"""``engram eval locomo`` end to end on a slice of the dev set, through a real local server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engram_dev.evaluation.locomo import CATEGORIES, load

ROOT = Path(__file__).resolve().parents[2]
DEVSET = ROOT / "tests" / "eval" / "devset.json"


def test_the_dev_set_is_well_formed() -> None:
    # Given the dev set
    samples = load(DEVSET)

    # Then it has at least 3 multi-session conversations and 150 questions of categories 1-4,
    # each with evidence that names turns that exist
    assert len(samples) >= 3
    assert all(len(s.sessions()) >= 5 for s in samples)
    questions = [(s, q) for s in samples for q in s.questions if q.category in CATEGORIES]
    assert len(questions) >= 150
    assert {q.category for _, q in questions} == set(CATEGORIES)
    for sample, question in questions:
        turns = {t.dia_id for t in sample.turns}
        assert question.evidence and set(question.evidence) <= turns, question.question


def test_the_evaluator_runs_variants_side_by_side_through_the_api(tmp_path: Path) -> None:
    # Given the first conversation of the dev set, its first 12 questions
    out = tmp_path / "out"

    # When the evaluator runs two variants against a local server it starts itself
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "engram_cli",
            "eval",
            "locomo",
            "--data",
            str(DEVSET),
            "--samples",
            "1",
            "--questions",
            "12",
            "--variants",
            "bm25,default",
            "--k",
            "1,5,10",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )

    # Then it prints the side-by-side table and writes JSON, Markdown and a chart
    assert run.returncode == 0, run.stderr
    assert "| bm25 |" in run.stdout and "| default |" in run.stdout
    report = json.loads((out / "locomo.json").read_text())
    assert (out / "locomo.png").stat().st_size > 10_000
    sample = load(DEVSET)[0]
    asked = [q for q in sample.questions[:12] if q.category in CATEGORIES]
    for variant in ("bm25", "default"):
        overall = report["results"][variant]["overall"]
        # every question of categories 1-4 was asked, and the metrics are consistent
        assert overall["n"] == len(asked)
        assert 0 <= overall["recall@1"] <= overall["recall@5"] <= overall["recall@10"] <= 100
        assert overall["all@10"] <= overall["recall@10"] <= overall["any@10"] <= overall["session_any@10"]
        assert overall["latency_p50_ms"] > 0 and overall["context_tokens@10"] > 0
    # and the default pipeline finds evidence for at least some of them
    assert report["results"]["default"]["overall"]["any@10"] > 0
