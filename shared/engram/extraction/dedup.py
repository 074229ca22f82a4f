"""Dedup decisions (DESIGN §5): one batched LLM call per candidate set, then per-category rules.

The model sees the new memories (``candidate`` i) and the stored active memories of the same
scope that the vector pre-filter found (``existing`` j, cosine >= 0.7), both 0-based in the order
listed, fenced as data. Its ``engram_dedup_decision`` answer is validated; then the rules decide
what is allowed: profile merges (a supersede becomes a merge); preference, entity and fact may
supersede; event and case always append; merge and supersede need a target of the same category.
An invalid answer, or a failed call, leaves every candidate to the rule-based dedup.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engram.errors import ProviderError
from engram.extraction.guard import instruction_like
from engram.extraction.llm import nonce, prompt
from engram.models import MemoryRecord
from engram.ports import LLM

DEDUP_SCHEMA_NAME = "engram_dedup_decision"
DedupAction = Literal["create", "merge", "skip", "supersede"]

APPENDING = frozenset({"event", "case", "raw"})
SUPERSEDING = frozenset({"preference", "entity", "fact"})

DEDUP_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "decisions": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "candidate": {"type": "integer", "minimum": 0},
                    "action": {"type": "string", "enum": ["create", "merge", "skip", "supersede"]},
                    "target": {"type": ["integer", "null"], "minimum": 0},
                    "merged_content": {"type": ["string", "null"]},
                },
                "required": ["candidate", "action", "target", "merged_content"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["decisions"],
    "additionalProperties": False,
}


class DecisionItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    candidate: int = Field(ge=0)
    action: DedupAction
    target: int | None = Field(default=None, ge=0)
    merged_content: str | None = Field(default=None, max_length=2_000)


class DecisionAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    decisions: list[DecisionItem]


@dataclass(frozen=True)
class NewMemory:
    category: str
    content: str


@dataclass(frozen=True)
class Decision:
    action: DedupAction
    target: MemoryRecord | None = None
    merged_content: str | None = None


@dataclass
class DedupOutcome:
    decisions: dict[int, Decision]
    """By candidate index; a candidate left out falls to the rule-based dedup."""
    input_tokens: int = 0
    output_tokens: int = 0
    error: str | None = None


def decision_prompt(new: Sequence[NewMemory], existing: Sequence[MemoryRecord]) -> tuple[str, str]:
    """(system, user) prompts with both lists fenced as JSON data."""
    data = json.dumps(
        {
            "new": [
                {"candidate": i, "category": m.category, "content": m.content} for i, m in enumerate(new)
            ],
            "stored": [
                {
                    "existing": j,
                    "category": r.category,
                    "content": r.content,
                    "since": (r.valid_from or r.created_at).date().isoformat(),
                }
                for j, r in enumerate(existing)
            ],
        },
        ensure_ascii=False,
        indent=1,
    )
    tag = nonce(data)
    return prompt("dedup_system").format(nonce=tag), prompt("dedup_user").format(nonce=tag, memories=data)


def allowed(item: DecisionItem, candidate: NewMemory, target: MemoryRecord | None) -> Decision | None:
    """The per-category rules applied to one validated decision; None leaves it to the rules."""
    if candidate.category in APPENDING:
        return Decision("create")
    if item.action == "create":
        return Decision("create")
    if target is None:
        return None  # skip, merge and supersede need a stored memory to act on
    if item.action == "skip":
        return Decision("skip", target)
    if target.category != candidate.category:
        return Decision("create")
    if item.action == "supersede" and candidate.category in SUPERSEDING:
        return Decision("supersede", target)
    merged = (item.merged_content or "").strip() or None
    if merged is not None and instruction_like(merged, user_said=False):
        merged = None  # a merge may not smuggle instructions in: the candidate's own text is kept
    return Decision("merge", target, merged)


def decide(new: Sequence[NewMemory], existing: Sequence[MemoryRecord], *, llm: LLM) -> DedupOutcome:
    """One call for the whole candidate set; every answer is checked before it counts."""
    system, user = decision_prompt(new, existing)
    try:
        answer = llm.complete_json(
            system=system, user=user, name=DEDUP_SCHEMA_NAME, schema=dict(DEDUP_SCHEMA)
        )
    except ProviderError as exc:
        return DedupOutcome({}, error=str(exc))
    outcome = DedupOutcome({}, input_tokens=answer.input_tokens, output_tokens=answer.output_tokens)
    try:
        parsed = DecisionAnswer.model_validate(answer.data)
    except ValidationError as exc:
        outcome.error = f"answer does not match {DEDUP_SCHEMA_NAME}: {exc.error_count()} error(s)"
        return outcome
    answered: set[int] = set()
    for item in parsed.decisions:
        if item.candidate >= len(new) or item.candidate in answered:
            continue  # out of range, or a second answer for the same candidate: ignored
        answered.add(item.candidate)
        target = existing[item.target] if item.target is not None and item.target < len(existing) else None
        decision = allowed(item, new[item.candidate], target)
        if decision is not None:
            outcome.decisions[item.candidate] = decision
    return outcome
