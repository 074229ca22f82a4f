"""Being returned must never make a memory outrank what answers the next query.

A fixed question set is ranked, 300 recalls are made as an agent makes them (access tracked),
and the same set is ranked again: recall@10 must stay within one point, also after the lifecycle
job has promoted what those recalls touched.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from engram.engine import Engine
from engram.models import RecallRequest, RetainItem, RetainRequest
from engram.settings import Settings
from engram_dev.evaluation.locomo import CATEGORIES, QuestionResult, Sample, load

DEVSET = Path(__file__).resolve().parents[2] / "tests" / "eval" / "devset.json"
SCOPE = "user:conversation"


@pytest.fixture(scope="module")
def sample() -> Sample:
    return load(DEVSET)[0]


@pytest.fixture
def conversation(data_dir: Path, sample: Sample) -> Iterator[tuple[Engine, dict[str, str]]]:
    """An engine holding the sample's turns, one retain per session; memory id -> dia id."""
    engine = Engine.local(Settings(data_dir=data_dir, background_embedding=False))
    engine.create_tenant("acme")
    dia_of: dict[str, str] = {}
    for number, turns in sample.sessions().items():
        request = RetainRequest(
            scope=SCOPE,
            mode="raw",
            session_id=f"session-{number}",
            items=[
                RetainItem(text=t.document(), metadata={"dia_id": t.dia_id}, occurred_at=t.occurred_at)
                for t in turns
            ],
        )
        for turn, result in zip(turns, engine.retain("acme", request).results, strict=True):
            dia_of[result.id] = turn.dia_id
    yield engine, dia_of
    engine.close()


def _recall_at_10(engine: Engine, sample: Sample, dia_of: dict[str, str]) -> float:
    """Fractional recall@10 (%) of the sample's questions, asked without tracking access."""
    results = []
    for question in sample.questions:
        if question.category not in CATEGORIES:
            continue
        request = RecallRequest(query=question.question, limit=10, min_score=0.0, track_access=False)
        memories = engine.recall("acme", request).memories
        ranked = [frozenset({dia_of[m.id]}) for m in memories if m.id in dia_of]
        results.append(QuestionResult(question.category, question.evidence, ranked))
    return 100.0 * sum(r.fractional_recall(10) for r in results) / len(results)


def _tracked_recalls(engine: Engine, sample: Sample, count: int) -> None:
    """``count`` recalls as an agent makes them (no ``track_access``), questions in a seeded shuffle."""
    questions = [q.question for q in sample.questions]
    order = random.Random(14).choices(questions, k=count)
    for query in order:
        engine.recall("acme", RecallRequest(query=query, limit=10, min_score=0.0))


def test_three_hundred_tracked_recalls_leave_recall_at_10_within_a_point(
    conversation: tuple[Engine, dict[str, str]], sample: Sample
) -> None:
    # Given a conversation and the recall@10 of its questions
    engine, dia_of = conversation
    before = _recall_at_10(engine, sample, dia_of)

    # When 300 recalls are made with access tracked
    _tracked_recalls(engine, sample, 300)

    # Then the same questions rank as well as before (within one point), and access was recorded
    after = _recall_at_10(engine, sample, dia_of)
    assert abs(after - before) <= 1.0, (before, after)
    counts = [r.access_count for r, _ in engine.store.records.iter_records("acme")]
    assert sum(counts) == 300 * engine.settings.recall.access_top


def test_the_lifecycle_job_promoting_what_was_returned_leaves_recall_at_10_within_a_point(
    conversation: tuple[Engine, dict[str, str]], sample: Sample
) -> None:
    # Given a conversation, its recall@10, and 300 tracked recalls
    engine, dia_of = conversation
    before = _recall_at_10(engine, sample, dia_of)
    _tracked_recalls(engine, sample, 300)

    # When the lifecycle job runs and promotes the memories those recalls used most
    report = engine.run_lifecycle("acme")

    # Then some were promoted, and the questions still rank within one point of before
    assert report.promoted > 0
    after = _recall_at_10(engine, sample, dia_of)
    assert abs(after - before) <= 1.0, (before, after)
