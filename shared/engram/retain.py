"""Retain (DESIGN §5): texts or conversations -> deduplicated memory records, atomically.

Modes: ``raw`` stores each text verbatim (no extraction); ``auto`` and ``smart`` drop noise and
extract memories, with the LLM when one is configured and with the rules otherwise or when the
LLM fails or answers off-schema, keeping an explicitly given ``text`` verbatim when nothing is
found (``smart`` runs as a background job unless ``async`` is false; batches of ``items`` use
the rules). In every mode, a memory that reads as an instruction to a model, or an extracted one
that restates an instruction of its source message, is stored ``quarantined`` (see
``engram.screening`` and ``extraction.guard``). Unless ``retain.defer_embedding`` is off, raw texts, events and cases are written
without a vector and embedded in the background (the engine embeds what is pending before any
read), so a batch is acknowledged as soon as it is durable. Dedup: the same normalised text in the same scope is skipped (its id is
deterministic, so a replay is a no-op). For profile, preference, entity, fact and pattern, a
near-duplicate of the same category (cosine ≥ ``dedup_cosine``) is skipped when its text adds
nothing (contained in the existing one) and merged into it otherwise; raw texts, events and
cases append, since "I have 2 cats" and "I have 3 cats" embed almost alike but differ. With an
LLM, candidates that have stored memories above ``prefilter_cosine`` get one batched decision
(create / merge / skip / supersede, see ``extraction.dedup``); a superseded memory stays, with
``valid_until`` and a link to its successor, which links back.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

import numpy as np

from engram import metering
from engram.errors import ConflictError
from engram.extraction import is_noise
from engram.extraction.guard import derived_from_instruction, instruction_like
from engram.extraction.pipeline import Extraction, LlmUsage, llm_decisions
from engram.identity import content_hash, memory_id, normalise
from engram.models import (
    ExtractedMemory,
    HistoryEntry,
    MemoryRecord,
    MemoryView,
    Message,
    RetainRequest,
    RetainResponse,
    RetainResult,
    Source,
    Trust,
    check_expiry,
)
from engram.ports import (
    LLM,
    Clock,
    Conditions,
    Embedder,
    Extractor,
    MemoryStore,
    SearchIndex,
    Vector,
    WriteBatch,
)
from engram.scopes import ScopeSet
from engram.screening import Hit
from engram.settings import Settings

logger = logging.getLogger(__name__)

MERGING_CATEGORIES = frozenset({"profile", "preference", "entity", "fact", "pattern"})


@dataclass
class _Candidate:
    memory: ExtractedMemory
    metadata: dict[str, Any]
    tags: list[str]
    occurred_at: datetime | None
    quarantine: str | None = None


def fingerprint(request: RetainRequest) -> str:
    """A hash of the request body (without the key) to detect an idempotency key reused for other data."""
    body = request.model_dump(mode="json", exclude={"idempotency_key"})
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _abstract(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= 120 else line[:117].rstrip() + "..."


def _raw(
    text: str, *, role: str | None = None, refs: list[int] | None = None, settings: Settings
) -> ExtractedMemory:
    trust: Trust = (
        "assistant-inferred" if role == "assistant" else "tool" if role == "tool" else "user-stated"
    )
    return ExtractedMemory(
        category="raw",
        content=text.strip(),
        abstract=_abstract(text),
        importance=settings.retain.default_importance,
        confidence=1.0,
        message_refs=refs or [],
        role=role,
        trust=trust,
    )


_Sources = tuple[list[Message], dict[int, Hit | None]]


def _sources(messages: list[Message]) -> _Sources:
    """The messages extracted memories come from, and the screening of each (made once)."""
    return messages, {}


def _candidates(
    request: RetainRequest, *, extractor: Extraction, settings: Settings, now: datetime
) -> list[_Candidate]:
    """What the request asks to keep (noise and texts no rule keeps are left out)."""
    base_meta, base_tags = dict(request.metadata), list(request.tags)
    out: list[_Candidate] = []

    def add(
        memory: ExtractedMemory,
        metadata: dict[str, Any],
        tags: list[str],
        when: datetime | None,
        sources: _Sources | None = None,
    ) -> None:
        merged_tags = list(dict.fromkeys([*tags, *memory.tags]))
        user_said = memory.trust == "user-stated" and memory.role in (None, "user")
        quarantine = instruction_like(memory.content, user_said=user_said)
        if quarantine is None and sources is not None:
            quarantine = derived_from_instruction(memory.content, memory.message_refs, *sources)
        if quarantine:
            merged_tags = list(dict.fromkeys([*merged_tags, "quarantined"]))
        # A date the extractor resolved from the text is more precise than the conversation's time.
        out.append(_Candidate(memory, metadata, merged_tags, memory.occurred_at or when, quarantine))

    mode = "auto" if request.mode == "smart" else request.mode
    if request.items is not None:
        for item in request.items:
            meta, tags = {**base_meta, **item.metadata}, [*base_tags, *item.tags]
            when = item.occurred_at or request.occurred_at
            if mode == "raw":
                add(_raw(item.text, settings=settings), meta, tags, when)
                continue
            # A batch of up to 100 items stays on the rules: one LLM call per item would not fit a request.
            found = _extract_text(
                item.text, extractor=extractor, settings=settings, reference=when or now, use_llm=False
            )
            sources = _sources([Message(role="user", content=item.text)])
            for memory in found:
                add(memory, meta, tags, when, sources)
    elif request.text is not None:
        if mode == "raw":
            add(_raw(request.text, settings=settings), base_meta, base_tags, request.occurred_at)
        else:
            found = _extract_text(
                request.text, extractor=extractor, settings=settings, reference=request.occurred_at or now
            )
            sources = _sources([Message(role="user", content=request.text)])
            for memory in found:
                add(memory, base_meta, base_tags, request.occurred_at, sources)
    else:
        messages = request.messages or []
        if mode == "raw":
            for index, message in enumerate(messages):
                add(
                    _raw(message.content, role=message.role, refs=[index], settings=settings),
                    base_meta,
                    base_tags,
                    request.occurred_at,
                )
        else:
            kept = [m for m in messages if not is_noise(m.content, min_chars=settings.retain.min_chars)]
            found = extractor(messages, request.occurred_at or now) if kept else []
            sources = _sources(messages)
            for memory in found:
                add(memory, base_meta, base_tags, request.occurred_at, sources)
    return out


def _extract_text(
    text: str, *, extractor: Extraction, settings: Settings, reference: datetime, use_llm: bool = True
) -> list[ExtractedMemory]:
    """Extraction first; a text that is not noise but yields nothing is kept verbatim (it was sent on purpose)."""
    if is_noise(text, min_chars=settings.retain.min_chars):
        return []
    found = extractor([Message(role="user", content=text)], reference, use_llm=use_llm)
    return found or [_raw(text, settings=settings)]


def _record(
    tenant_id: str,
    scope: str,
    candidate: _Candidate,
    *,
    request: RetainRequest,
    now: datetime,
    embedding_model: str,
    batch_id: str | None = None,
) -> MemoryRecord:
    memory = candidate.memory
    return MemoryRecord(
        tenant_id=tenant_id,
        id=memory_id(tenant_id, scope, memory.content),
        scope=scope,
        category=memory.category,
        content=memory.content,
        abstract=memory.abstract or _abstract(memory.content),
        overview=memory.overview,
        key_facts=memory.key_facts,
        entities=memory.entities,
        tags=candidate.tags,
        metadata=candidate.metadata,
        importance=memory.importance,
        confidence=memory.confidence,
        created_at=now,
        updated_at=now,
        occurred_at=candidate.occurred_at,
        valid_from=candidate.occurred_at or now,
        status="quarantined" if candidate.quarantine else "active",
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


def _event(
    record: MemoryRecord,
    event: Literal["created", "merged", "superseded"],
    at: datetime,
    detail: dict[str, Any],
) -> HistoryEntry:
    """The history entry of what this retain made of ``record`` (its version and text as written)."""
    return HistoryEntry(
        memory_id=record.id, version=record.version, event=event, at=at, content=record.content, detail=detail
    )


def _merge(existing: MemoryRecord, new: MemoryRecord, now: datetime) -> MemoryRecord:
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


def _replay(tenant_id: str, stored: list[dict[str, Any]], store: MemoryStore) -> RetainResponse:
    """The stored outcome of a retain; memories forgotten since are reported, never re-created."""
    records = store.get_many(tenant_id, [r["id"] for r in stored])
    results = []
    for item in stored:
        record = records.get(item["id"])
        results.append(
            RetainResult(
                id=item["id"],
                action=item["action"],
                reason="forgotten" if record is None else item.get("reason"),
                memory=MemoryView.of(record) if record else None,
            )
        )
    return RetainResponse(results=results, replayed=True)


def retain(
    tenant_id: str,
    request: RetainRequest,
    *,
    store: MemoryStore,
    index: SearchIndex,
    embedder: Embedder,
    extractor: Extractor,
    clock: Clock,
    settings: Settings,
    llm: LLM | None = None,
    usage: Counter[str] | None = None,
) -> RetainResponse:
    """Store what the request asks to keep; all of it in one transaction, or nothing.
    ``usage``, if given, counts the LLM's calls and tokens and the memories retained.

    Every record is built here with the caller's tenant and the request's scope: nothing an
    extractor returns can name another tenant or scope.

    >>> # engine.retain("acme", RetainRequest(scope="user:alice", text="I prefer dark mode"))
    """
    fp = fingerprint(request)
    if request.idempotency_key:
        previous = store.idempotent_result(tenant_id, request.idempotency_key)
        if previous is not None:
            if previous[0] != fp:
                raise ConflictError("this Idempotency-Key was used for a different request")
            return _replay(tenant_id, previous[1], store)

    now = clock.now()
    check_expiry(request.expires_at, now)
    spent = LlmUsage()
    extract = Extraction(extractor, llm, settings, spent)
    candidates = _candidates(request, extractor=extract, settings=settings, now=now)
    scope = request.scope
    # Turns sent together without a session id are one conversation: the call's batch stands in.
    batch_id = uuid.uuid4().hex[:16] if request.session_id is None and len(candidates) > 1 else None
    # A microsecond apart: on every backend, creation order is the order the items came in
    # (listing pages, and a session's neighbours in recall, follow it).
    records = [
        _record(
            tenant_id,
            scope,
            c,
            request=request,
            now=now + timedelta(microseconds=position),
            embedding_model=embedder.model_id,
            batch_id=batch_id,
        )
        for position, c in enumerate(candidates)
    ]
    # Memories that may merge need their vector now (to find a twin); the rest can wait for the
    # background embedder when deferral is on.
    merging = [
        i for i, c in enumerate(candidates) if c.memory.category in MERGING_CATEGORIES and not c.quarantine
    ]
    embed_now = range(len(candidates)) if not settings.retain.defer_embedding else merging
    vector_of: dict[int, Vector] = {}
    if embed_now:
        texts = [candidates[i].memory.content for i in embed_now]
        vector_of = dict(zip(embed_now, embedder.embed(texts), strict=True))
    vectors: list[Vector | None] = [vector_of.get(i) for i in range(len(candidates))]
    batch = WriteBatch()
    results: list[RetainResult] = []
    accepted: list[tuple[str, Vector]] = []  # (id, vector) written by this request, for in-batch near-dups
    seen_hashes: dict[str, str] = {}
    # One batched k-NN against what is stored in the scope, only for categories that can merge.
    k = settings.retain.dedup_candidates if llm is not None else 1
    found = (
        index.knn_many(
            tenant_id, np.stack([vector_of[i] for i in merging]), k, Conditions(scopes=ScopeSet.of([scope]))
        )
        if merging
        else []
    )
    stored_nearest: dict[int, list[tuple[str, float]]] = dict(zip(merging, found, strict=True))
    stored: dict[int, MemoryRecord] = {}  # candidates already stored verbatim
    for position, record in enumerate(records):
        existing = store.find_by_hash(tenant_id, scope, record.content_hash) or store.get(
            tenant_id, record.id
        )
        if existing is not None and existing.status == "superseded":
            # A statement that was replaced is made again ("dark mode" after "light mode"): it comes
            # back as the next version of its old record, and may supersede what replaced it.
            records[position] = record.model_copy(
                update={"version": existing.version + 1, "created_at": existing.created_at}
            )
        elif existing is not None:
            stored[position] = existing
    decisions = (
        llm_decisions(
            tenant_id, records, stored, stored_nearest, llm=llm, store=store, settings=settings, usage=spent
        )
        if llm is not None
        else {}
    )
    index_vectors: dict[str, Vector] = {}  # stored vectors of records this batch changes unembedded

    def put(record: MemoryRecord, vector: Vector | None) -> None:
        """Add or replace a record in the batch (one row per id)."""
        for i, r in enumerate(batch.records):
            if r.id == record.id:
                batch.records[i], batch.vectors[i] = (
                    record,
                    vector if vector is not None else batch.vectors[i],
                )
                return
        batch.records.append(record)
        batch.vectors.append(vector)

    def current(memory_id: str) -> MemoryRecord | None:
        return next((r for r in batch.records if r.id == memory_id), None) or store.get(tenant_id, memory_id)

    for position, (candidate, vector, record) in enumerate(zip(candidates, vectors, records, strict=True)):
        if vector is None:
            record = record.model_copy(update={"embedding_model": ""})
        if record.content_hash in seen_hashes:
            results.append(
                RetainResult(id=seen_hashes[record.content_hash], action="skipped", reason="duplicate")
            )
            continue
        existing = stored.get(position)
        if existing is not None:
            seen_hashes[record.content_hash] = existing.id
            results.append(
                RetainResult(
                    id=existing.id, action="skipped", reason="duplicate", memory=MemoryView.of(existing)
                )
            )
            continue
        decision = decisions.get(position)
        if decision is not None and decision.target is not None:
            target = current(decision.target.id)
            if target is not None and target.status == "active":
                if decision.action == "skip":
                    results.append(RetainResult(id=target.id, action="skipped", reason="near-duplicate"))
                    seen_hashes[record.content_hash] = target.id
                    continue
                if decision.action == "merge":
                    content = decision.merged_content or record.content
                    merged = _merge(target, record.model_copy(update={"content": content}), now)
                    merged = merged.model_copy(update={"content_hash": content_hash(content)})
                    merged_vector = vector if content == record.content else embedder.embed([content])[0]
                    put(merged, merged_vector)
                    batch.history.append(
                        _event(merged, "merged", now, {"previous": target.content, "decided_by": "llm"})
                    )
                    results.append(RetainResult(id=merged.id, action="merged", memory=MemoryView.of(merged)))
                    seen_hashes[record.content_hash] = merged.id
                    continue
                if decision.action == "supersede":
                    since = max(record.valid_from or now, target.valid_from or target.created_at)
                    new = record.model_copy(update={"supersedes": target.id, "valid_from": since})
                    old = target.model_copy(
                        update={
                            "status": "superseded",
                            "valid_until": since,
                            "superseded_by": new.id,
                            "version": target.version + 1,
                            "updated_at": now,
                        }
                    )
                    old_vector = index.vectors(tenant_id, [old.id]).get(old.id)
                    if old_vector is not None:
                        index_vectors[old.id] = old_vector
                    put(old, None)
                    put(new, vector)
                    batch.history.append(_event(old, "superseded", now, {"superseded_by": new.id}))
                    batch.history.append(
                        _event(new, "created", now, {"mode": request.mode, "supersedes": old.id})
                    )
                    if vector is not None:
                        accepted.append((new.id, vector))
                    seen_hashes[record.content_hash] = new.id
                    results.append(
                        RetainResult(
                            id=new.id,
                            action="superseded",
                            reason=f"supersedes {old.id}",
                            memory=MemoryView.of(new),
                        )
                    )
                    continue
        hits = stored_nearest.get(position)
        twin_id, twin_cos = (
            (None, -1.0)
            if hits is None or vector is None or decision is not None
            else _nearest(vector, accepted, hits[0] if hits else None)
        )
        if twin_id is not None and twin_cos >= settings.retain.dedup_cosine:
            twin = current(twin_id)
            if twin is not None and normalise(record.content) in normalise(twin.content):
                results.append(RetainResult(id=twin_id, action="skipped", reason="near-duplicate"))
                seen_hashes[record.content_hash] = twin_id
                continue
            if twin is not None and twin.category == record.category:
                merged = _merge(twin, record, now)
                put(merged, vector)
                batch.history.append(
                    _event(merged, "merged", now, {"previous": twin.content, "cosine": round(twin_cos, 4)})
                )
                results.append(RetainResult(id=merged.id, action="merged", memory=MemoryView.of(merged)))
                seen_hashes[record.content_hash] = merged.id
                continue
        put(record, vector)
        detail: dict[str, Any] = {"mode": request.mode}
        if candidate.quarantine:
            detail["quarantined"] = candidate.quarantine
        batch.history.append(_event(record, "created", now, detail))
        if vector is not None:
            accepted.append((record.id, vector))
        seen_hashes[record.content_hash] = record.id
        results.append(RetainResult(id=record.id, action="created", memory=MemoryView.of(record)))

    if request.idempotency_key:
        outcome = [{"id": r.id, "action": r.action, "reason": r.reason} for r in results]
        batch.idempotency = (request.idempotency_key, fp, outcome)
    if batch.records or batch.idempotency:
        store.write(tenant_id, batch)
        # What waits for its vector goes in too: an index that can, finds it by BM25 meanwhile.
        vectors_now = [
            v if v is not None else index_vectors.get(r.id)
            for r, v in zip(batch.records, batch.vectors, strict=True)
        ]
        index.upsert(tenant_id, batch.records, vectors_now)
    if usage is not None:
        if llm is not None:
            usage.update(
                metering.llm_counters(
                    llm.provider,
                    llm.model_id,
                    calls=spent.llm_calls,
                    input_tokens=spent.llm_input_tokens,
                    output_tokens=spent.llm_output_tokens,
                )
            )
        usage["llm_fallbacks"] += spent.llm_fallbacks
        usage["retained_items"] += sum(r.action in ("created", "merged", "superseded") for r in results)
    logger.info(
        "retained",
        extra={
            "memories_created": sum(r.action == "created" for r in results),
            "memories_seen": len(results),
        },
    )
    return RetainResponse(results=results)


def _nearest(
    vector: Vector, accepted: list[tuple[str, Vector]], stored: tuple[str, float] | None
) -> tuple[str | None, float]:
    """The most similar active memory in the scope, counting those this request is about to write."""
    best_id, best = stored if stored is not None else (None, -1.0)
    for other_id, other in accepted:
        cos = float(np.dot(vector, other))
        if cos > best:
            best_id, best = other_id, cos
    return best_id, best
