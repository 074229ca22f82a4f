"""Retain's first stage: what a request asks to keep, as candidates (noise left out), and the
record each candidate would be."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engram.extraction import is_noise
from engram.extraction.guard import derived_from_instruction, instruction_like
from engram.identity import content_hash, memory_id
from engram.models import ExtractedMemory, MemoryRecord, Message, RetainItem, RetainRequest, Source, Trust
from engram.ports import Extractor
from engram.screening import Hit
from engram.settings import Settings

Sources = tuple[list[Message], dict[int, Hit | None]]
"""The messages extracted memories come from, and the screening of each (made once)."""


def sources_of(messages: list[Message]) -> Sources:
    return messages, {}


@dataclass
class Candidate:
    """One memory the request asks to keep, with what the request adds to it."""

    memory: ExtractedMemory
    metadata: dict[str, Any]
    tags: list[str]
    occurred_at: datetime | None
    quarantine: str | None = None
    """Why it is stored ``quarantined`` (it reads as an instruction to a model), or None."""


def abstract(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= 120 else line[:117].rstrip() + "..."


def raw(
    text: str, *, role: str | None = None, refs: list[int] | None = None, settings: Settings
) -> ExtractedMemory:
    trust: Trust = (
        "assistant-inferred" if role == "assistant" else "tool" if role == "tool" else "user-stated"
    )
    return ExtractedMemory(
        category="raw",
        content=text.strip(),
        abstract=abstract(text),
        importance=settings.retain.default_importance,
        confidence=1.0,
        message_refs=refs or [],
        role=role,
        trust=trust,
    )


def candidate(
    memory: ExtractedMemory,
    metadata: dict[str, Any],
    tags: list[str],
    when: datetime | None,
    sources: Sources | None = None,
) -> Candidate:
    """The candidate of one memory; quarantined when it reads as an instruction, or restates one
    of the messages it was extracted from."""
    merged_tags = list(dict.fromkeys([*tags, *memory.tags]))
    user_said = memory.trust == "user-stated" and memory.role in (None, "user")
    quarantine = instruction_like(memory.content, user_said=user_said)
    if quarantine is None and sources is not None:
        quarantine = derived_from_instruction(memory.content, memory.message_refs, *sources)
    if quarantine:
        merged_tags = list(dict.fromkeys([*merged_tags, "quarantined"]))
    # A date the extractor resolved from the text is more precise than the conversation's time.
    return Candidate(memory, metadata, merged_tags, memory.occurred_at or when, quarantine)


def candidates(
    request: RetainRequest, *, texts: Extractor, items: Extractor, settings: Settings, now: datetime
) -> list[Candidate]:
    """What the request asks to keep: ``texts`` extracts a text or a conversation, ``items`` each
    item of a batch (noise and texts no rule keeps are left out)."""
    meta, tags = dict(request.metadata), list(request.tags)
    raw_mode = request.mode == "raw"
    if request.items is not None:
        return [c for item in request.items for c in _item(request, item, items, settings, now)]
    if request.text is not None:
        if raw_mode:
            return [candidate(raw(request.text, settings=settings), meta, tags, request.occurred_at)]
        found = extract_text(request.text, texts, settings, request.occurred_at or now)
        sources = sources_of([Message(role="user", content=request.text)])
        return [candidate(m, meta, tags, request.occurred_at, sources) for m in found]
    messages = request.messages or []
    if raw_mode:
        return [
            candidate(
                raw(m.content, role=m.role, refs=[i], settings=settings), meta, tags, request.occurred_at
            )
            for i, m in enumerate(messages)
        ]
    kept = [m for m in messages if not is_noise(m.content, min_chars=settings.retain.min_chars)]
    found = texts.extract(messages, reference_time=request.occurred_at or now) if kept else []
    sources = sources_of(messages)
    return [candidate(m, meta, tags, request.occurred_at, sources) for m in found]


def _item(
    request: RetainRequest, item: RetainItem, extractor: Extractor, settings: Settings, now: datetime
) -> list[Candidate]:
    meta, tags = {**request.metadata, **item.metadata}, [*request.tags, *item.tags]
    when = item.occurred_at or request.occurred_at
    if request.mode == "raw":
        return [candidate(raw(item.text, settings=settings), meta, tags, when)]
    found = extract_text(item.text, extractor, settings, when or now)
    sources = sources_of([Message(role="user", content=item.text)])
    return [candidate(m, meta, tags, when, sources) for m in found]


def extract_text(
    text: str, extractor: Extractor, settings: Settings, reference: datetime
) -> list[ExtractedMemory]:
    """Extraction first; a text that is not noise but yields nothing is kept verbatim (it was sent on purpose)."""
    if is_noise(text, min_chars=settings.retain.min_chars):
        return []
    found = extractor.extract([Message(role="user", content=text)], reference_time=reference)
    return found or [raw(text, settings=settings)]


def to_record(
    tenant_id: str,
    c: Candidate,
    *,
    request: RetainRequest,
    now: datetime,
    embedding_model: str,
    batch_id: str | None,
) -> MemoryRecord:
    """The record a candidate becomes, in the caller's tenant and the request's scope (nothing an
    extractor returns can name another tenant or scope)."""
    memory, scope = c.memory, request.scope
    return MemoryRecord(
        tenant_id=tenant_id,
        id=memory_id(tenant_id, scope, memory.content),
        scope=scope,
        category=memory.category,
        content=memory.content,
        abstract=memory.abstract or abstract(memory.content),
        overview=memory.overview,
        key_facts=memory.key_facts,
        entities=memory.entities,
        tags=c.tags,
        metadata=c.metadata,
        importance=memory.importance,
        confidence=memory.confidence,
        created_at=now,
        updated_at=now,
        occurred_at=c.occurred_at,
        valid_from=c.occurred_at or now,
        status="quarantined" if c.quarantine else "active",
        source=Source(
            session_id=request.session_id,
            message_refs=memory.message_refs,
            role=memory.role,
            batch_id=batch_id if memory.category == "raw" else None,
        ),
        trust=memory.trust,
        expires_at=request.expires_at,
        content_hash=content_hash(memory.content),
        embedding_model=embedding_model,
    )
