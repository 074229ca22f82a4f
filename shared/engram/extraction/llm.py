"""LLM extraction (DESIGN §5): a conversation -> at most N schema-validated memory candidates.

Before any call: the noise filter and a cheap "worth extracting?" gate; the latest messages up to
a character budget. The conversation goes in as JSON between markers that carry a nonce derived
from its own text (so it cannot close them), under a system prompt that calls it data. The answer
is validated with pydantic; anything off-schema is rejected whole (the caller then falls back to
the rule-based extractor). Each memory's provenance is checked against the messages, and its
trust label comes from the roles it was taken from, never from the model.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from engram.errors import ProviderError
from engram.extraction.guard import provenance, trust_of
from engram.extraction.noise import is_noise
from engram.models import ExtractedMemory, Message
from engram.ports import LLM

logger = logging.getLogger(__name__)

EXTRACTION_SCHEMA_NAME = "engram_extraction"
LLM_CATEGORIES = ("profile", "preference", "entity", "event", "case", "pattern")
MAX_CONTENT_CHARS = 2_000


@cache
def prompt(name: str) -> str:
    """A prompt template shipped in ``engram/extraction/prompts``."""
    return resources.files("engram.extraction").joinpath("prompts", f"{name}.txt").read_text("utf-8")


def nonce(text: str) -> str:
    """Marker suffix derived from the fenced text: the text cannot contain its own closing marker."""
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def extraction_schema(max_memories: int) -> dict[str, Any]:
    """The JSON schema of an ``engram_extraction`` answer."""
    text = {"type": "string"}
    words = {"type": "array", "items": {"type": "string"}}
    unit = {"type": "number", "minimum": 0, "maximum": 1}
    memory = {
        "type": "object",
        "properties": {
            "category": {"type": "string", "enum": list(LLM_CATEGORIES)},
            "abstract": text,
            "overview": text,
            "content": text,
            "key_facts": words,
            "importance": unit,
            "confidence": unit,
            "entities": words,
            "tags": words,
            "occurred_at": {"type": ["string", "null"]},
            "source_messages": {"type": "array", "items": {"type": "integer"}},
        },
        "required": [
            "category",
            "abstract",
            "overview",
            "content",
            "key_facts",
            "importance",
            "confidence",
            "entities",
            "tags",
            "occurred_at",
        ],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"memories": {"type": "array", "maxItems": max_memories, "items": memory}},
        "required": ["memories"],
        "additionalProperties": False,
    }


Short = Annotated[str, Field(max_length=200)]


class LlmMemory(BaseModel):
    """One memory as the model must give it; anything else is a rejected answer."""

    model_config = ConfigDict(extra="forbid")

    category: Literal["profile", "preference", "entity", "event", "case", "pattern"]
    abstract: str = Field(max_length=300)
    overview: str = Field(max_length=1_000)
    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS)
    key_facts: list[Short] = Field(max_length=20)
    importance: float = Field(ge=0, le=1)
    confidence: float = Field(ge=0, le=1)
    entities: list[Short] = Field(max_length=20)
    tags: list[Annotated[str, Field(max_length=64)]] = Field(max_length=10)
    occurred_at: datetime | None
    source_messages: list[int] = Field(default_factory=list, max_length=50)

    @field_validator("occurred_at", mode="before")
    @classmethod
    def _date(cls, value: Any) -> Any:
        """A bare date is midnight UTC; a naive time is UTC."""
        if isinstance(value, str) and len(value) == 10:
            return datetime.combine(date.fromisoformat(value), datetime.min.time(), UTC)
        if isinstance(value, str):
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
        return value

    @field_validator("content")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("content is blank")
        return value.strip()


class ExtractionAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    memories: list[LlmMemory]


@dataclass
class LlmUsage:
    """LLM calls and tokens of one retain (extraction and dedup decisions), counted per tenant."""

    llm_calls: int = 0
    llm_input_tokens: int = 0
    llm_output_tokens: int = 0
    llm_fallbacks: int = 0
    extraction: Literal["llm", "rules"] | None = None
    """Who extracted this retain's memories (None: no extraction ran): ``rules`` if any text fell back."""
    extraction_fallback: str | None = None
    """Why the extraction fell back to the rules (the first failure), None if it did not."""

    def add(self, *, calls: int, input_tokens: int, output_tokens: int, failed: bool) -> None:
        self.llm_calls += calls
        self.llm_input_tokens += input_tokens
        self.llm_output_tokens += output_tokens
        self.llm_fallbacks += int(failed)

    def extracted(self, *, by_llm: bool, error: str | None) -> None:
        """Record who extracted one text: the model, or the rules (``error``: why they had to)."""
        if error is not None and self.extraction_fallback is None:
            self.extraction_fallback = f"llm: {error}"
        if not by_llm or self.extraction is None:
            self.extraction = "llm" if by_llm else "rules"


@dataclass
class LlmExtraction:
    """What one extraction produced and cost; ``error`` says why the caller must fall back."""

    memories: list[ExtractedMemory] = field(default_factory=list)
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    error: str | None = None
    gated: bool = False
    """True when the gate decided nothing was worth a call."""


def trim(messages: Sequence[Message], budget: int) -> list[tuple[int, Message]]:
    """The latest messages (with their indexes) that fit ``budget`` characters; the oldest one that
    does not fit whole keeps its end.

    >>> [i for i, _ in trim([Message(role="user", content="a" * 10)] * 3, 25)]
    [0, 1, 2]
    >>> trim([Message(role="user", content="a" * 10)] * 3, 25)[0][1].content
    'aaaaa'
    """
    kept: list[tuple[int, Message]] = []
    used = 0
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        room = budget - used
        if room <= 0:
            break
        if len(message.content) > room:
            kept.append((index, message.model_copy(update={"content": message.content[-room:]})))
            break
        kept.append((index, message))
        used += len(message.content)
    return kept[::-1]


def worth_extracting(messages: Sequence[tuple[int, Message]], *, min_chars: int) -> bool:
    """The cheap gate: some non-noise message that is not a bare question and has three words."""
    for _, message in messages:
        text = message.content.strip()
        if is_noise(text, min_chars=min_chars) or len(text.split()) < 3:
            continue
        if text.endswith("?") and len(text) < 200 and "\n" not in text:
            continue
        return True
    return False


def conversation_prompt(
    messages: Sequence[tuple[int, Message]], *, reference_time: datetime, max_memories: int
) -> tuple[str, str]:
    """(system, user) prompts: the rules, then the conversation fenced as JSON data."""
    conversation = json.dumps(
        [{"index": i, "role": m.role, "content": m.content} for i, m in messages],
        ensure_ascii=False,
        indent=1,
    )
    tag = nonce(conversation)
    system = prompt("extraction_system").format(nonce=tag, max_memories=max_memories)
    user = prompt("extraction_user").format(
        nonce=tag, conversation=conversation, reference_time=reference_time.isoformat()
    )
    return system, user


def _candidate(memory: LlmMemory, messages: Sequence[tuple[int, Message]]) -> ExtractedMemory:
    sources = provenance(memory.content, memory.source_messages, messages)
    roles = dict(messages)
    return ExtractedMemory(
        category=memory.category,
        content=memory.content,
        abstract=memory.abstract.strip() or memory.content[:120],
        overview=memory.overview.strip(),
        key_facts=[f for f in memory.key_facts if f.strip()],
        entities=list(dict.fromkeys(e.strip() for e in memory.entities if e.strip())),
        tags=list(dict.fromkeys(t.strip().lower() for t in memory.tags if t.strip())),
        importance=memory.importance,
        confidence=memory.confidence,
        occurred_at=memory.occurred_at,
        message_refs=sources,
        role=",".join(dict.fromkeys(roles[i].role for i in sources)) or None,
        trust=trust_of([roles[i].role for i in sources]),
    )


def llm_extract(
    messages: Sequence[Message],
    *,
    llm: LLM,
    reference_time: datetime,
    max_memories: int,
    char_budget: int,
    min_chars: int,
) -> LlmExtraction:
    """Memories the model finds in the latest messages, or an ``error`` to fall back on."""
    window = [(i, m) for i, m in trim(messages, char_budget) if not is_noise(m.content, min_chars=min_chars)]
    if not worth_extracting(window, min_chars=min_chars):
        return LlmExtraction(gated=True)
    system, user = conversation_prompt(window, reference_time=reference_time, max_memories=max_memories)
    result = LlmExtraction(calls=1)
    try:
        answer = llm.complete_json(
            system=system, user=user, name=EXTRACTION_SCHEMA_NAME, schema=extraction_schema(max_memories)
        )
    except ProviderError as exc:
        result.error = str(exc)
        return result
    result.input_tokens, result.output_tokens = answer.input_tokens, answer.output_tokens
    try:
        parsed = ExtractionAnswer.model_validate(answer.data)
    except ValidationError as exc:
        result.error = f"answer does not match {EXTRACTION_SCHEMA_NAME}: {exc.error_count()} error(s)"
        return result
    ranked = sorted(parsed.memories, key=lambda m: -m.importance)[:max_memories]
    result.memories = [_candidate(m, window) for m in ranked]
    return result
