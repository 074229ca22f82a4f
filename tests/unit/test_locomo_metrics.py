"""Unit tests for the LoCoMo-format reader and the retrieval metrics, against hand-computed values."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engram_dev.evaluation.locomo import (
    FormatError,
    QuestionResult,
    load,
    parse_date_time,
    parse_evidence,
    summarise,
)
from engram_dev.evaluation.runner import EvalError, parse_variants, scope_of


def _result(evidence: tuple[str, ...], ranked: list[set[str]], category: int = 4) -> QuestionResult:
    return QuestionResult(category=category, evidence=evidence, ranked=[frozenset(r) for r in ranked])


def test_evidence_is_parsed_leniently() -> None:
    # Given evidence written the ways real files write it
    raw = ["D8:6; D9:17", "d1:3", "D 2 : 4", "D8:6", "not an id"]

    # When it is parsed
    # Then every id comes out once, normalised, in order
    assert parse_evidence(raw) == ("D8:6", "D9:17", "D1:3", "D2:4")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("12:00 pm on 1 January, 2024", datetime(2024, 1, 1, 12, 0, tzinfo=UTC)),
        ("12:30 am on 31 Dec, 2022", datetime(2022, 12, 31, 0, 30, tzinfo=UTC)),
        ("9 Sept 2023", datetime(2023, 9, 9, 0, 0, tzinfo=UTC)),
    ],
)
def test_session_times_are_parsed(text: str, expected: datetime) -> None:
    assert parse_date_time(text) == expected


def test_an_unreadable_session_time_is_a_format_error() -> None:
    with pytest.raises(FormatError, match="unreadable session date"):
        parse_date_time("sometime in spring")


def test_fractional_all_any_and_session_recall_by_hand() -> None:
    # Given evidence D1:1, D2:5 and D3:2, and a ranking that finds D2:5 at rank 2 and D1:1 at rank 4
    result = _result(("D1:1", "D2:5", "D3:2"), [{"D3:9"}, {"D2:5"}, {"D2:6"}, {"D1:1"}])

    # Then at k = 1 nothing is found, though rank 1 comes from session 3, which holds evidence
    assert result.fractional_recall(1) == 0.0
    assert result.recall_any(1) == 0.0
    assert result.session_recall_any(1) == 1.0
    # And at k = 2 one of three; at k = 4 two of three, never all
    assert result.fractional_recall(2) == pytest.approx(1 / 3)
    assert result.fractional_recall(4) == pytest.approx(2 / 3)
    assert result.recall_all(4) == 0.0
    assert result.recall_any(2) == 1.0
    # And the first hit is at rank 2
    assert result.reciprocal_rank() == 0.5


def test_session_level_recall_counts_distinct_sessions_at_their_best_turn() -> None:
    # Given evidence in sessions 1 and 2, and a ranking whose turns come from sessions 3, 3, 2, 4, 1
    result = _result(("D1:1", "D2:5"), [{"D3:9"}, {"D3:1"}, {"D2:6"}, {"D4:2"}, {"D1:7"}])

    # Then the distinct sessions, best first, are 3, 2, 4, 1
    assert result.ranked_sessions() == [3, 2, 4, 1]
    # And session R@1 finds neither, R@2 finds session 2 though turn D2:5 itself is not returned,
    # and R@4 finds both
    assert result.session_recall(1) == 0.0
    assert result.session_recall(2) == 0.5
    assert result.session_recall(4) == 1.0
    # While turn-level recall finds none of the evidence turns
    assert result.fractional_recall(5) == 0.0


def test_a_memory_holding_two_turns_counts_for_both() -> None:
    # Given a repeated text stored once, holding D1:2 and D4:1
    result = _result(("D1:2", "D4:1"), [{"D1:2", "D4:1"}])
    # Then it alone recalls all the evidence
    assert result.fractional_recall(1) == 1.0
    assert result.recall_all(1) == 1.0


def test_summary_groups_by_category_with_n_and_percentages() -> None:
    # Given one single-hop hit at rank 1 and one temporal miss
    results = [
        _result(("D1:1",), [{"D1:1"}], category=4),
        _result(("D2:1",), [{"D9:9"}], category=2),
    ]

    # When summarised at k = 1
    table = summarise(results, [1])

    # Then each category and the overall row carry n and their means in percent
    assert table["single-hop"]["n"] == 1 and table["single-hop"]["recall@1"] == 100.0
    assert table["temporal"]["recall@1"] == 0.0
    assert table["overall"]["n"] == 2 and table["overall"]["recall@1"] == 50.0
    assert table["overall"]["mrr"] == 50.0
    assert "multi-hop" not in table


def test_load_reads_turns_captions_dates_and_questions(tmp_path: Path) -> None:
    # Given a one-sample file with a caption and a question of each kind
    data = [
        {
            "sample_id": "s 1",
            "conversation": {
                "speaker_a": "Ana",
                "speaker_b": "Ben",
                "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "Late again."}],
                "session_2_date_time": "9:00 am on 3 March, 2023",
                "session_1": [
                    {"speaker": "Ana", "dia_id": "D1:1", "text": "Look!", "blip_caption": "a red kite"}
                ],
                "session_1_date_time": "8:15 pm on 1 March, 2023",
            },
            "qa": [
                {"question": "What did Ana show?", "answer": "a kite", "evidence": ["D1:1"], "category": 4},
                {"question": "Who is Zed?", "adversarial_answer": "n/a", "evidence": [], "category": 5},
            ],
        }
    ]
    path = tmp_path / "data.json"
    path.write_text(json.dumps(data))

    # When it is loaded
    (sample,) = load(path)

    # Then sessions come in order with their times, the caption is part of the retained text
    assert [t.dia_id for t in sample.turns] == ["D1:1", "D2:1"]
    assert sample.turns[0].document() == "Ana: Look! [shares an image: a red kite]"
    assert sample.turns[1].occurred_at == datetime(2023, 3, 3, 9, 0, tzinfo=UTC)
    assert [q.category for q in sample.questions] == [4, 5]
    # And the scope id is made valid
    assert scope_of(sample.sample_id) == "user:s-1"


def test_load_rejects_what_is_not_the_format(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"sample_id": "x"}))
    with pytest.raises(FormatError, match="conversation"):
        load(path)


def test_variants_are_presets_or_named_recall_settings() -> None:
    variants = parse_variants('bm25,wide={"recall": {"candidate_pool_min": 60}},default')
    assert [v.name for v in variants] == ["bm25", "wide", "default"]
    assert variants[0].settings["recall"]["fusion"] == "bm25"
    assert variants[1].settings == {"recall": {"candidate_pool_min": 60}}
    assert variants[2].settings == {}


def test_the_baselines_switch_off_every_bonus_of_the_default_pipeline() -> None:
    # Given the recall settings' bonus weights (every *_weight but the fusion, lifecycle and rerank ones)
    from engram.settings import RecallSettings

    kept = {"weight_vector", "weight_bm25", "lifecycle_weight", "rerank_weight"}
    bonuses = {name for name in RecallSettings.model_fields if name.endswith("_weight")} - kept

    # Then each one-channel or naive-hybrid preset sets every one of them to 0
    for name in ("bm25", "vector", "weighted", "rrf"):
        recall = parse_variants(name)[0].settings["recall"]
        assert {b: recall.get(b) for b in bonuses} == dict.fromkeys(bonuses, 0.0), name


def test_served_variants_ask_with_the_servers_defaults() -> None:
    # Given the served preset and a JSON variant that asks as it does
    variants = parse_variants('served,bar={"recall": {"min_results": 0}, "served": true},default')

    # Then both are served and tracked, the settings keep only the recall part, and default is not
    assert [(v.name, v.served, v.track_access) for v in variants] == [
        ("served", True, True),
        ("bar", True, True),
        ("default", False, True),
    ]
    assert variants[1].settings == {"recall": {"min_results": 0}}


def test_an_empty_answer_counts_in_the_summary() -> None:
    # Given one question answered and one with nothing returned
    results = [_result(("D1:1",), [{"D1:1"}]), _result(("D1:2",), [])]
    # Then half the answers were empty
    assert summarise(results, [10])["overall"]["empty"] == 50.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nope", "unknown variant"),
        ('x={"retain": {}}', "must be"),
        ("x={broken", "unbalanced"),
        ("x={nope}", "not JSON"),
        ("bm25,bm25", "must differ"),
    ],
)
def test_bad_variants_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(EvalError, match=message):
        parse_variants(text)
