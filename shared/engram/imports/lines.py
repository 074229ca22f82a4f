"""Reading an export's lines into memories to write, trusting only what can be checked.

Every line is validated before the first write (a bad file changes nothing); each problem is
told with its line and field (``line 4: memory.created_at: …``). What a line claims and is kept:

- its memory (the tenant is always the caller's; ``content_hash`` is computed again);
- its history, only entries of the line's own memory (an entry naming another id is refused:
  no line adds to another memory's history);
- its vector, when it is of the embedder's model and dimension.

A key limited to some scopes gets less: every memory must be in its scopes, the fields the
server owns start afresh (``as_retained``), the id is derived again in the memory's scope as a
retain would derive it (``engram.identity.memory_id``: a guessed id of another scope cannot be
taken, and a memory another scope holds cannot make a line "skipped"), ``supersedes`` and
``superseded_by`` follow the file's own memories to their new ids (a link out of the file is
dropped), and the vector is computed again from the text.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import ValidationError

from engram import strict_json
from engram.errors import ForbiddenError, PayloadTooLargeError, ValidationFailedError
from engram.identity import content_hash, memory_id
from engram.memories.operations import EXPORT_FORMAT, Imported
from engram.models import MEMORY_ID, HistoryEntry, MemoryRecord
from engram.scopes import ScopeSet

MAX_STORED_BYTES = 350_000
"""What one memory (or one history entry) may take as stored: DynamoDB's item limit is 400 KB,
and a memory's item also holds its vector and its listing keys."""

_MEMORY_ID = re.compile(MEMORY_ID)


@dataclass
class Plan:
    """The memories a file holds, in file order, and how many lines repeated an earlier id."""

    items: list[Imported] = field(default_factory=list)
    repeated: int = 0


def read(tenant_id: str, lines: Iterable[str], *, scopes: ScopeSet, model_id: str, dimension: int) -> Plan:
    """Validate every line (``ValidationFailedError``, ``ForbiddenError`` or
    ``PayloadTooLargeError`` naming the line and field); nothing is written."""
    plan, renamed, seen = Plan(), {}, set()
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        data = _json(number, text)
        if "format" in data:
            if data["format"] != EXPORT_FORMAT:
                raise _invalid(number, "format", f"unknown export format {data['format']!r}")
            continue
        record, history, vector = _item(number, data, tenant_id, scopes, model_id, dimension)
        if not scopes.is_every:
            claimed = record.id
            record, history = _in_own_scope(record, history, tenant_id)
            renamed[claimed] = record.id
        _check_size(number, record, history)
        if record.id in seen:
            plan.repeated += 1  # the first line with an id wins; a repeat writes nothing
            continue
        seen.add(record.id)
        plan.items.append((record, history, vector))
    if not scopes.is_every:
        plan.items = [(_relinked(r, renamed), h, v) for r, h, v in plan.items]
    return plan


def as_retained(record: MemoryRecord) -> MemoryRecord:
    """A memory imported by a key limited to some scopes: what the server owns (tier, pinning,
    trust, use, feedback, the archive) is reset, so such a key cannot give its text more weight
    than a retain would; a status that keeps it out of recall (quarantined, superseded) stays."""
    return record.model_copy(
        update={
            "tier": "peripheral",
            "pinned": False,
            "trust": "imported",
            "access_count": 0,
            "last_accessed_at": None,
            "feedback_weight": 0.5,
            "status": "active" if record.status == "archived" else record.status,
        }
    )


def _json(number: int, text: str) -> dict[str, Any]:
    try:
        data = strict_json.loads(text)
    except ValueError as exc:
        raise ValidationFailedError(f"line {number}: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not ("format" in data or "memory" in data):
        raise ValidationFailedError(
            f"line {number}: an export line is a JSON object with a 'memory' (or the header's 'format')"
        )
    return data


def _item(
    number: int,
    data: dict[str, Any],
    tenant_id: str,
    scopes: ScopeSet,
    model_id: str,
    dimension: int,
) -> Imported:
    """One line's memory, history and vector, as the line gives them (checked, not yet trusted)."""
    memory = data["memory"]
    if not isinstance(memory, dict):
        raise _invalid(number, "memory", "must be an object")
    record = _validated(number, "memory", MemoryRecord, {**memory, "tenant_id": tenant_id})
    if not _MEMORY_ID.match(record.id):
        raise _invalid(number, "memory.id", "should be mem_ and 32 hexadecimal digits, as export writes it")
    if not scopes.allows(record.scope):
        raise ForbiddenError(f"line {number}: scope not allowed for this key: {record.scope}")
    record = record.model_copy(update={"content_hash": content_hash(record.content)})
    if not scopes.is_every:
        record = as_retained(record)
    entries = data.get("history") or []
    if not isinstance(entries, list):
        raise _invalid(number, "history", "must be a list")
    history = [_validated(number, f"history[{i}]", HistoryEntry, h) for i, h in enumerate(entries)]
    for i, entry in enumerate(history):
        if entry.memory_id != record.id:
            raise _invalid(
                number,
                f"history[{i}].memory_id",
                "names another memory than the line's own ('memory.id'): a line imports only"
                " the history of its own memory",
            )
    vector = None
    if data.get("embedding") and record.embedding_model == model_id and scopes.is_every:
        vector = _vector(number, data["embedding"])
        if vector.shape[0] != dimension:
            vector = None
    return record, history, vector


def _validated(number: int, where: str, model: Any, value: Any) -> Any:
    """``value`` as ``model``; a 400 naming the line and each field in words."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join([where, *(str(p) for p in e['loc'])])}: {_problem(e)}"
            for e in exc.errors(include_url=False, include_input=False)
        )
        raise ValidationFailedError(f"line {number}: {problems}") from None


def _problem(error: Any) -> str:
    kind = error.get("type", "")
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a field of an export"
    return str(error.get("msg", "is not valid")).replace("Input should be", "should be")


def _vector(number: int, raw: Any) -> np.ndarray:
    try:
        data = base64.b64decode(raw, validate=True)
        return np.frombuffer(data, dtype=np.float32)
    except (TypeError, ValueError, binascii.Error):
        raise _invalid(number, "embedding", "is not base64 of float32 values") from None


def _in_own_scope(
    record: MemoryRecord, history: list[HistoryEntry], tenant_id: str
) -> tuple[MemoryRecord, list[HistoryEntry]]:
    """The memory under the id a retain of its text in its scope gets, its history moved along."""
    new_id = memory_id(tenant_id, record.scope, record.content)
    moved = [h.model_copy(update={"memory_id": new_id}) for h in history]
    return record.model_copy(update={"id": new_id}), moved


def _relinked(record: MemoryRecord, renamed: dict[str, str]) -> MemoryRecord:
    """Links to memories of the same file, under their new ids; any other link is dropped."""
    return record.model_copy(
        update={
            "supersedes": renamed.get(record.supersedes or ""),
            "superseded_by": renamed.get(record.superseded_by or ""),
        }
    )


def _check_size(number: int, record: MemoryRecord, history: list[HistoryEntry]) -> None:
    """A 413 naming the largest field of a memory (or history entry) too large to store."""
    parts: list[tuple[str, dict[str, Any]]] = [("memory", record.model_dump(mode="json"))]
    parts += [(f"history[{i}]", h.model_dump(mode="json")) for i, h in enumerate(history)]
    for where, doc in parts:
        size = len(json.dumps(doc))  # as the store writes it (non-ASCII escaped: the worst case)
        if size <= MAX_STORED_BYTES:
            continue
        name, value = max(doc.items(), key=lambda kv: len(json.dumps(kv[1])))
        problem = (
            f"is {len(json.dumps(value)):,} bytes stored, and makes the {where.split('[')[0]} "
            f"{size:,} bytes; one may hold at most {MAX_STORED_BYTES:,}"
        )
        detail = {"field": f"{where}.{name}", "problem": problem, "type": "too_large", "line": number}
        raise PayloadTooLargeError(f"line {number}: {where}.{name} {problem}", details=[detail])


def _invalid(number: int, name: str, problem: str) -> ValidationFailedError:
    detail = {"field": name, "problem": problem, "type": "invalid", "line": number}
    return ValidationFailedError(f"line {number}: {name} {problem}", details=[detail])
