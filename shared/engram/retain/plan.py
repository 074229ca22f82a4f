"""Retain's middle stages: each candidate's record, vector, stored twins and LLM decision
(``prepare``), then the plan of what each one does (``plan``): create, skip, merge or supersede.

The plan is built in the request's order over one ``RetainState``: a candidate sees what the
candidates before it made (a text sent twice is skipped the second time, a near-duplicate of an
earlier item merges into it). It writes nothing: the write stage commits ``state.batch``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

import numpy as np

from engram.extraction import dedup
from engram.extraction.dedup import Decision
from engram.extraction.llm import LlmUsage
from engram.identity import content_hash
from engram.memories.history import entry
from engram.models import HistoryEntry, MemoryRecord, MemoryView, RetainRequest, RetainResult
from engram.ports import LLM, Conditions, Embedder, MemoryRecords, SearchIndex, Vector
from engram.retain.candidates import Candidate, to_record
from engram.scopes import ScopeSet
from engram.screening.head import marked, second_look
from engram.settings import Settings


@dataclass
class Item:
    """One candidate on its way to the store."""

    candidate: Candidate
    record: MemoryRecord
    vector: Vector | None = None
    nearest: list[tuple[str, float]] | None = None
    """The stored memories of the scope nearest to it (only for categories that merge)."""
    stored: MemoryRecord | None = None
    """The same text, already stored and not superseded."""
    decision: Decision | None = None
    """The LLM's decision on it, when one was made."""


@dataclass
class RetainState:
    """One retain between its stages: the items, then the plan being made of them."""

    tenant_id: str
    request: RetainRequest
    now: datetime
    items: list[Item] = field(default_factory=list)
    batch: dict[str, tuple[MemoryRecord, Vector | None]] = field(default_factory=dict)
    """What the write puts, one row per id, in the order first planned."""
    history: list[HistoryEntry] = field(default_factory=list)
    results: list[RetainResult] = field(default_factory=list)
    accepted: list[tuple[str, Vector]] = field(default_factory=list)
    """(id, vector) this request writes, for near-duplicates within the batch."""
    seen: dict[str, str] = field(default_factory=dict)
    """Content hash -> the id that text went to in this request."""
    index_vectors: dict[str, Vector] = field(default_factory=dict)
    """Stored vectors of records the batch changes without embedding them again."""

    def put(self, record: MemoryRecord, vector: Vector | None) -> None:
        """Add or replace a record in the batch; a replacement without a vector keeps the one planned."""
        previous = self.batch.get(record.id)
        if vector is None and previous is not None:
            vector = previous[1]
        self.batch[record.id] = (record, vector)

    def planned(self, memory_id: str) -> MemoryRecord | None:
        entry = self.batch.get(memory_id)
        return entry[0] if entry is not None else None

    def done(self, item: Item, result: RetainResult) -> None:
        self.seen[item.record.content_hash] = result.id
        self.results.append(result)


Lookup = Callable[[str], MemoryRecord | None]
"""A memory as this request sees it: as planned in the batch, or as stored."""


def records(
    tenant_id: str, candidates: list[Candidate], request: RetainRequest, now: datetime, model: str
) -> list[Item]:
    """Each candidate's record. Turns sent together without a session id are one conversation
    (the call's batch id stands in); each a microsecond after the one before, so that on every
    backend creation order is the order the items came in."""
    batch_id = uuid.uuid4().hex[:16] if request.session_id is None and len(candidates) > 1 else None
    return [
        Item(
            c,
            to_record(
                tenant_id,
                c,
                request=request,
                now=now + timedelta(microseconds=position),
                embedding_model=model,
                batch_id=batch_id,
            ),
        )
        for position, c in enumerate(candidates)
    ]


def merges(item: Item) -> bool:
    return item.record.category in dedup.MERGING_CATEGORIES and not item.candidate.quarantine


def embed(items: list[Item], embedder: Embedder, *, defer: bool) -> None:
    """Vectors now for what may merge (to find a twin), and for everything unless deferred (the
    background embedder does the rest); an item left without one is marked unembedded."""
    now = [item for item in items if not defer or merges(item)]
    if now:
        for item, vector in zip(now, embedder.embed([i.record.content for i in now]), strict=True):
            item.vector = vector
    for item in items:
        if item.vector is None:
            item.record = item.record.model_copy(update={"embedding_model": ""})


def second_screen(items: list[Item], model_id: str) -> None:
    """The screening head on the vectors ``embed`` just made (the patterns read every text
    before): a hit is quarantined like a pattern's, a near miss stays active but marked.
    What waits for its vector is screened when the background embedder makes it."""
    ready = [item for item in items if item.vector is not None and not item.candidate.quarantine]
    if not ready:
        return
    vectors = np.stack([item.vector for item in ready if item.vector is not None])
    for item, verdict in zip(
        ready, second_look([i.record.content for i in ready], vectors, model_id), strict=True
    ):
        if verdict is None:
            continue
        candidate = item.candidate
        candidate.tags = marked(candidate.tags, verdict)
        update: dict[str, Any] = {"tags": candidate.tags}
        if verdict.action == "quarantine":
            candidate.quarantine = verdict.reason
            update["status"] = "quarantined"
        item.record = item.record.model_copy(update=update)


def find_twins(state: RetainState, store: MemoryRecords, index: SearchIndex, k: int) -> None:
    """One batched k-NN in the scope for the items that may merge, and a look-up of each text."""
    merging = [item for item in state.items if merges(item)]
    if merging:
        vectors = np.stack([item.vector for item in merging if item.vector is not None])
        found = index.knn_many(
            state.tenant_id, vectors, k, Conditions(scopes=ScopeSet.of([state.request.scope]))
        )
        for item, hits in zip(merging, found, strict=True):
            item.nearest = hits
    for item in state.items:
        record = item.record
        existing = store.find_by_hash(state.tenant_id, record.scope, record.content_hash) or store.get(
            state.tenant_id, record.id
        )
        if existing is not None and existing.status == "superseded":
            # A statement that was replaced is made again ("dark mode" after "light mode"): it comes
            # back as the next version of its old record, and may supersede what replaced it.
            item.record = record.model_copy(
                update={"version": existing.version + 1, "created_at": existing.created_at}
            )
        elif existing is not None:
            item.stored = existing


def ask_llm(state: RetainState, llm: LLM, store: MemoryRecords, settings: Settings, usage: LlmUsage) -> None:
    """The LLM's batched decision for the items with stored memories above the pre-filter cosine."""
    items = state.items
    decisions = dedup.llm_decisions(
        state.tenant_id,
        [item.record for item in items],
        {p: item.stored for p, item in enumerate(items) if item.stored is not None},
        {p: item.nearest for p, item in enumerate(items) if item.nearest is not None},
        llm=llm,
        store=store,
        prefilter_cosine=settings.retain.prefilter_cosine,
        usage=usage,
    )
    for position, decision in decisions.items():
        items[position].decision = decision


Action = Literal["create", "skip", "merge", "supersede"]


@dataclass(frozen=True)
class Step:
    """What one item does: ``target`` is the memory it skips to, merges into or supersedes."""

    action: Action
    target: MemoryRecord | None = None
    reason: str | None = None
    content: str | None = None
    """An LLM merge's text (None: the item's own)."""
    detail: dict[str, Any] = field(default_factory=dict)


def choose(item: Item, state: RetainState, current: Lookup, threshold: float) -> Step:
    """The dedup policy on one item, in order: a text this request already placed, a text
    already stored, the LLM's decision (on an active target), the rules on its nearest twin."""
    record = item.record
    if record.content_hash in state.seen:
        return Step("skip", reason="duplicate", detail={"id": state.seen[record.content_hash]})
    if item.stored is not None:
        return Step("skip", item.stored, "duplicate", detail={"shown": True})
    decision = item.decision
    if decision is not None:
        target = current(decision.target.id) if decision.target is not None else None
        if target is None or target.status != "active" or decision.action == "create":
            return Step("create")
        if decision.action == "skip":
            return Step("skip", target, "near-duplicate")
        if decision.action == "merge":
            return Step("merge", target, content=decision.merged_content, detail={"decided_by": "llm"})
        return Step("supersede", target)
    if item.nearest is None or item.vector is None:
        return Step("create")
    twin_id, cosine = dedup.nearest(item.vector, state.accepted, item.nearest[0] if item.nearest else None)
    if twin_id is None or cosine < threshold:
        return Step("create")
    rule = dedup.rule_decision(record, current(twin_id), cosine, threshold)
    if rule.action == "skip":
        return Step("skip", rule.target, "near-duplicate")
    return Step(rule.action, rule.target, detail={"cosine": round(cosine, 4)})


def plan(
    state: RetainState, *, store: MemoryRecords, index: SearchIndex, embedder: Embedder, settings: Settings
) -> None:
    """Every item's step, in the request's order, applied to the batch being planned."""

    def current(memory_id: str) -> MemoryRecord | None:
        return state.planned(memory_id) or store.get(state.tenant_id, memory_id)

    for item in state.items:
        step = choose(item, state, current, settings.retain.dedup_cosine)
        if step.action == "skip":
            skip(state, item, step)
        elif step.action == "merge":
            merge(state, item, step, embedder)
        elif step.action == "supersede":
            supersede(state, item, step, index)
        else:
            create(state, item)


def skip(state: RetainState, item: Item, step: Step) -> None:
    target = step.target
    if target is None:  # the same text earlier in this request
        state.done(item, RetainResult(id=step.detail["id"], action="skipped", reason=step.reason))
        return
    shown = MemoryView.of(target) if target is item.stored else None
    state.done(item, RetainResult(id=target.id, action="skipped", reason=step.reason, memory=shown))


def merge(state: RetainState, item: Item, step: Step, embedder: Embedder) -> None:
    assert step.target is not None
    record, vector, target = item.record, item.vector, step.target
    content = step.content or record.content
    merged = dedup.merge(target, record.model_copy(update={"content": content}), state.now)
    if content != record.content:  # the LLM's merged text: its own hash and vector
        merged = merged.model_copy(update={"content_hash": content_hash(content)})
        vector = embedder.embed([content])[0]
    state.put(merged, vector)
    state.history.append(entry(merged, "merged", state.now, {"previous": target.content, **step.detail}))
    state.done(item, RetainResult(id=merged.id, action="merged", memory=MemoryView.of(merged)))


def supersede(state: RetainState, item: Item, step: Step, index: SearchIndex) -> None:
    """The item replaces ``target``, which stays with ``valid_until`` and a link to it."""
    assert step.target is not None
    record, target, now = item.record, step.target, state.now
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
    old_vector = index.vectors(state.tenant_id, [old.id]).get(old.id)
    if old_vector is not None:
        state.index_vectors[old.id] = old_vector
    state.put(old, None)
    state.put(new, item.vector)
    state.history.append(entry(old, "superseded", now, {"superseded_by": new.id}))
    state.history.append(entry(new, "created", now, {"mode": state.request.mode, "supersedes": old.id}))
    if item.vector is not None:
        state.accepted.append((new.id, item.vector))
    result = RetainResult(
        id=new.id, action="superseded", reason=f"supersedes {old.id}", memory=MemoryView.of(new)
    )
    state.done(item, result)


def create(state: RetainState, item: Item) -> None:
    record = item.record
    state.put(record, item.vector)
    detail: dict[str, Any] = {"mode": state.request.mode}
    if item.candidate.quarantine:
        detail["quarantined"] = item.candidate.quarantine
    state.history.append(entry(record, "created", state.now, detail))
    if item.vector is not None:
        state.accepted.append((record.id, item.vector))
    state.done(item, RetainResult(id=record.id, action="created", memory=MemoryView.of(record)))
