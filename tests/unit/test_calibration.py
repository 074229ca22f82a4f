"""The calibration table's properties of a conversation file, against hand-computed values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engram_dev.evaluation.calibration import REAL, properties, table
from engram_dev.evaluation.locomo import load


def _file(tmp_path: Path) -> Path:
    sample = {
        "sample_id": "s1",
        "conversation": {
            "speaker_a": "Priya",
            "speaker_b": "Tom",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Priya", "dia_id": "D1:1", "text": "We finally drove up to the lake house"},
                {"speaker": "Tom", "dia_id": "D1:2", "text": "Did you swim?"},
                {
                    "speaker": "Priya",
                    "dia_id": "D1:3",
                    "text": "Yes, twice!",
                    "blip_caption": "a photo of a lake",
                },
            ],
            "session_2_date_time": "9 June 2023",
            "session_2": [{"speaker": "Tom", "dia_id": "D2:1", "text": "My sister got a puppy"}],
        },
        "qa": [
            {
                "question": "When did Priya go to the lake house?",
                "answer": "x",
                "evidence": ["D1:1"],
                "category": 2,
            },
            {
                "question": "Did Pri swim in the lake?",
                "answer": "x",
                "evidence": ["D1:2", "D1:3"],
                "category": 1,
            },
            {"question": "What did the sister get?", "answer": "x", "evidence": ["D2:1"], "category": 4},
            {"question": "Anything else?", "answer": "x", "evidence": ["D2:1"], "category": 3},
        ],
    }
    path = tmp_path / "one.json"
    path.write_text(json.dumps([sample]))
    return path


def test_properties_by_hand(tmp_path: Path) -> None:
    # Given one conversation: turns of 8, 3, 2 and 5 words in sessions of 3 and 1, one photo,
    # and four questions, one with two evidence turns, two naming a speaker (one by a short name)
    found = properties(load(_file(tmp_path)))

    # Then the figures are the hand-counted ones
    assert found["words per turn, median"] == 4.0
    assert found["words per turn, mean"] == pytest.approx(4.5)
    assert found["turns per session"] == 2.0
    assert found["turns that share an image (%)"] == 25.0
    assert found["questions with evidence in ≥ 2 turns (%)"] == 25.0
    assert found["questions that name a speaker (%)"] == 50.0
    # content words (the speaker label is not the turn's text): {priya, go, lake, house}: lake and
    # house; {pri, swim, lake}: swim, and lake from the caption; {sister, get}: sister;
    # {anything, else}: none → (2/4 + 2/3 + 1/2 + 0) / 4
    assert found["question ↔ evidence content-word overlap, mean"] == pytest.approx((0.5 + 2 / 3 + 0.5) / 4)
    assert found["questions with no content word in the evidence (%)"] == 25.0
    assert [found[f"{c} share (%)"] for c in ("multi-hop", "temporal", "open-domain", "single-hop")] == [
        25.0
    ] * 4


def test_the_table_sets_each_property_beside_the_real_figure(tmp_path: Path) -> None:
    # Given measured baselines (not run here)
    measured = {
        "bm25": {
            "multi-hop": 36.0,
            "temporal": 70.0,
            "open-domain": 31.0,
            "single-hop": 69.0,
            "overall": 61.0,
        },
        "vector": {
            "multi-hop": 20.0,
            "temporal": 40.0,
            "open-domain": 20.0,
            "single-hop": 50.0,
            "overall": 52.0,
        },
    }

    # When the table is drawn
    text = table(_file(tmp_path), measured=measured)

    # Then every property has its row, and each baseline says whether it is on target
    assert all(f"| {name} |" in text for name in REAL)
    assert "| bm25 (real) | 36.0 (35.0) |" in text and text.count("| yes |") >= 1
    assert "| vector (real) |" in text and text.rstrip().endswith("| **no** |")  # 52 is off 45 ± 4


def test_the_baselines_embed_each_turn_as_its_own_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the evaluator's server and run replaced by a recorder of what they are asked
    from contextlib import contextmanager

    import engram_dev.evaluation.runner as runner
    from engram_dev.evaluation import calibration

    asked: dict[str, object] = {}

    @contextmanager
    def server():  # type: ignore[no-untyped-def]
        yield "http://127.0.0.1:1", "token"

    def evaluate(url: str, **options: object) -> tuple[dict[str, object], dict[str, object]]:
        asked.update(options)
        return {}, {}

    monkeypatch.setattr(runner, "local_server", server)
    monkeypatch.setattr(runner, "evaluate", evaluate)

    # When the baselines are measured
    calibration.baselines(_file(tmp_path))

    # Then the turns are retained with context keys off, whatever the default keys are
    assert asked["ingest_settings"] == {"retain": {"embed_previous": False}}
    assert [v.name for v in asked["variants"]] == ["bm25", "vector"]  # type: ignore[attr-defined]
