"""Dedup policy (DESIGN §5): what a new memory does to the stored ones, in one place.

Without an LLM (and for what it leaves undecided), the rules: the same normalised text in a
scope is a duplicate; for profile, preference, entity, fact and pattern (``MERGING_CATEGORIES``)
a near-duplicate (cosine >= ``dedup_cosine``) is skipped when its text adds nothing (contained
in the existing one) and merged into it otherwise, if it is of the same category; raw texts,
events and cases append ("I have 2 cats" and "I have 3 cats" embed almost alike but differ).

With an LLM: one batched call per candidate set, then per-category rules.

The model sees the new memories (``candidate`` i) and the stored active memories of the same
scope that the vector pre-filter found (``existing`` j, cosine >= 0.7), both 0-based in the order
listed, fenced as data. Its ``engram_dedup_decision`` answer is validated; then the rules decide
what is allowed: profile merges (a supersede becomes a merge); preference, entity and fact may
supersede; event and case always append; merge and supersede need a target of the same category.
An invalid answer, or a failed call, leaves every candidate to the rule-based dedup.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engram.errors import ProviderError
from engram.extraction.guard import instruction_like
from engram.extraction.llm import LlmUsage, nonce, prompt
from engram.identity import normalise
from engram.models import MemoryRecord
from engram.ports import LLM, MemoryRecords, Vector

logger = logging.getLogger(__name__)

DEDUP_SCHEMA_NAME = "engram_dedup_decision"
DedupAction = Literal["create", "merge", "skip", "supersede"]

APPENDING = frozenset({"event", "case", "raw"})
SUPERSEDING = frozenset({"preference", "entity", "fact"})
MERGING_CATEGORIES = frozenset({"profile", "preference", "entity", "fact", "pattern"})
"""The categories whose near-duplicates merge (the others append)."""

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


def llm_decisions(
    tenant_id: str,
    records: list[MemoryRecord],
    stored: dict[int, MemoryRecord],
    nearest: dict[int, list[tuple[str, float]]],
    *,
    llm: LLM,
    store: MemoryRecords,
    prefilter_cosine: float,
    usage: LlmUsage,
) -> dict[int, Decision]:
    """One decision call for the candidates (by position) with stored memories above the
    pre-filter cosine; those already ``stored`` verbatim are not asked about."""
    asking = {
        position: [i for i, cos in hits if cos >= prefilter_cosine]
        for position, hits in nearest.items()
        if position not in stored
    }
    asking = {p: ids for p, ids in asking.items() if ids}
    if not asking:
        return {}
    existing = store.get_many(tenant_id, list(dict.fromkeys(i for ids in asking.values() for i in ids)))
    shown = [r for r in existing.values() if r.status == "active"]
    if not shown:
        return {}
    positions = list(asking)
    new = [NewMemory(records[p].category, records[p].content) for p in positions]
    outcome = decide(new, shown, llm=llm)
    usage.add(
        calls=1,
        input_tokens=outcome.input_tokens,
        output_tokens=outcome.output_tokens,
        failed=outcome.error is not None,
    )
    if outcome.error is not None:
        logger.warning("LLM dedup failed; using the rules", extra={"reason": outcome.error})
    return {positions[i]: d for i, d in outcome.decisions.items()}


def nearest(
    vector: Vector, accepted: list[tuple[str, Vector]], stored: tuple[str, float] | None
) -> tuple[str | None, float]:
    """The most similar active memory in the scope, counting those this request is about to write."""
    best_id, best = stored if stored is not None else (None, -1.0)
    for other_id, other in accepted:
        cos = float(np.dot(vector, other))
        if cos > best:
            best_id, best = other_id, cos
    return best_id, best


def rule_decision(new: MemoryRecord, twin: MemoryRecord | None, cosine: float, threshold: float) -> Decision:
    """The rules on a new memory and its nearest twin: skip what adds nothing, merge the same
    category, create otherwise.

    >>> from datetime import UTC, datetime
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> old = MemoryRecord(tenant_id="t", id="m1", scope="s", category="preference",
    ...     content="I prefer dark mode in my editor", created_at=t, updated_at=t, content_hash="h")
    >>> new = old.model_copy(update={"id": "m2", "content": "I prefer dark mode"})
    >>> rule_decision(new, old, 0.97, 0.95).action, rule_decision(new, old, 0.9, 0.95).action
    ('skip', 'create')
    """
    if twin is None or cosine < threshold:
        return Decision("create")
    if normalise(new.content) in normalise(twin.content):
        return Decision("skip", twin)
    if twin.category == new.category:
        return Decision("merge", twin)
    return Decision("create")


def merge(existing: MemoryRecord, new: MemoryRecord, now: datetime) -> MemoryRecord:
    """The newer statement wins the text; tags and metadata are united; importance never drops."""
    return existing.model_copy(
        update={
            "content": new.content,
            "abstract": new.abstract,
            "overview": new.overview,
            "content_hash": new.content_hash,
            "key_facts": list(dict.fromkeys([*existing.key_facts, *new.key_facts])),
            "entities": list(dict.fromkeys([*existing.entities, *new.entities])),
            "tags": list(dict.fromkeys([*existing.tags, *new.tags])),
            "metadata": {**existing.metadata, **new.metadata},
            "importance": max(existing.importance, new.importance),
            "confidence": max(existing.confidence, new.confidence),
            "occurred_at": new.occurred_at or existing.occurred_at,
            "updated_at": now,
            "version": existing.version + 1,
        }
    )
