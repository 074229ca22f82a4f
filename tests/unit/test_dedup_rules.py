"""The per-category rules applied to the model's dedup decisions, and the answer's validation."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from engram.extraction.dedup import DEDUP_SCHEMA_NAME, DecisionItem, NewMemory, allowed, decide
from engram.models import MemoryRecord
from engram.ports import LlmAnswer

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def stored(category: str, content: str = "The user prefers dark mode.") -> MemoryRecord:
    return MemoryRecord(
        tenant_id="acme",
        id="mem_" + "0" * 32,
        scope="user:alice",
        category=category,  # type: ignore[arg-type]
        content=content,
        created_at=NOW,
        updated_at=NOW,
        content_hash="h",
    )


@pytest.mark.parametrize(
    ("category", "action", "expected"),
    [
        ("preference", "supersede", "supersede"),
        ("entity", "supersede", "supersede"),
        ("fact", "supersede", "supersede"),
        ("profile", "supersede", "merge"),
        ("pattern", "supersede", "merge"),
        ("profile", "merge", "merge"),
        ("preference", "skip", "skip"),
        ("event", "supersede", "create"),
        ("event", "skip", "create"),
        ("case", "merge", "create"),
        ("preference", "create", "create"),
    ],
)
def test_each_category_allows_only_its_actions(category: str, action: str, expected: str) -> None:
    # Given the model's decision about a new memory of some category against one of the same category
    item = DecisionItem(candidate=0, action=action, target=0)  # type: ignore[arg-type]

    # When the rules are applied
    decision = allowed(item, NewMemory(category, "new"), stored(category))

    # Then the action is the one the category allows
    assert decision is not None and decision.action == expected


def test_merge_or_supersede_across_categories_creates_instead() -> None:
    # Given a preference the model wants to supersede an entity with
    item = DecisionItem(candidate=0, action="supersede", target=0)

    # When the rules are applied
    decision = allowed(item, NewMemory("preference", "new"), stored("entity"))

    # Then the new memory is created and the entity left alone
    assert decision is not None and (decision.action, decision.target) == ("create", None)


class Answering:
    """An LLM double answering one fixed JSON object, counting its calls."""

    provider = "fixed"
    model_id = "fixed"

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.names: list[str] = []

    def complete_json(self, *, system: str, user: str, name: str, schema: dict[str, Any]) -> LlmAnswer:
        self.names.append(name)
        return LlmAnswer(self.data, 10, 5)


def test_out_of_range_and_repeated_decisions_are_ignored() -> None:
    # Given an answer naming a candidate that does not exist, a target that does not exist, and a repeat
    llm = Answering(
        {
            "decisions": [
                {"candidate": 3, "action": "skip", "target": 0, "merged_content": None},
                {"candidate": 0, "action": "supersede", "target": 9, "merged_content": None},
                {"candidate": 0, "action": "skip", "target": 0, "merged_content": None},
            ]
        }
    )

    # When the decisions are made for one candidate against one stored memory
    outcome = decide([NewMemory("preference", "new")], [stored("preference")], llm=llm)

    # Then one call was made, and candidate 0 is left to the rules (its first answer had no valid target)
    assert llm.names == [DEDUP_SCHEMA_NAME]
    assert outcome.decisions == {} and outcome.error is None


def test_an_answer_with_unknown_fields_is_rejected_whole() -> None:
    # Given an answer with a field the schema does not have
    llm = Answering(
        {
            "decisions": [
                {"candidate": 0, "action": "skip", "target": 0, "merged_content": None, "scope": "global"}
            ]
        }
    )

    # When the decisions are made
    outcome = decide([NewMemory("preference", "new")], [stored("preference")], llm=llm)

    # Then none counts, and the error says why
    assert outcome.decisions == {}
    assert outcome.error is not None and DEDUP_SCHEMA_NAME in outcome.error
