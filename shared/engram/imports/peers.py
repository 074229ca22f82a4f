"""Memories kept by another service, as Engram memories: a mem0 export, or a JSONL of texts.

**mem0** (what ``Memory.get_all`` / ``MemoryClient.get_all`` return, saved as a JSON array, as
``{"results": [...]}`` or one record a line): ``memory`` is the text; the scope is
``user:<user_id>``, else ``agent:<agent_id>``, else ``session:<run_id>``, else ``global`` (the ids
not used for the scope are kept in the source and the metadata); ``categories`` become tags, and
the category where one names a kind Engram knows (``user_preferences`` → ``preference``);
``metadata`` is kept, nested objects flattened to dotted keys, with ``mem0_id``; ``created_at``
and ``updated_at`` are kept (a time without a zone is read as UTC); ``expiration_date`` becomes
``expires_at``.

**jsonl**: one memory a line, a JSON string or ``{"text", "scope"?, "metadata"?, "tags"?,
"occurred_at"?}`` (no other key).

Every record is validated before the first write; an invalid one is reported with its line (or
item) number and, unless told to skip it, nothing is written. A memory whose id exists already
(the same text in the same scope: a second import of one file) or repeats an earlier record is
skipped with its reason (``engram.imports.formats`` checks a plan and reports it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engram import strict_json
from engram.errors import from_validation
from engram.identity import content_hash, memory_id
from engram.models import (
    Category,
    HistoryEntry,
    IsoDatetime,
    MemoryRecord,
    Metadata,
    Request,
    Scope,
    Source,
    Tag,
    Text,
)
from engram.responses import ImportReport

PeerFormat = Literal["mem0", "jsonl", "memory-lancedb-pro"]
PEER_FORMATS: tuple[str, ...] = ("mem0", "jsonl", "memory-lancedb-pro")
MAX_REPORTED = 100
"""Invalid or skipped records named one by one in a report or an error; the counts cover all."""

MEM0_CATEGORY: dict[str, Category] = {
    "user_preferences": "preference",
    "personal_details": "profile",
    "professional_details": "profile",
    "family": "profile",
    "milestones": "event",
}
"""mem0 categories that name a kind of memory Engram knows; the others are topics (tags only)."""

_SCOPE = TypeAdapter(Scope)
_TAGS = TypeAdapter(list[Tag])
_METADATA = TypeAdapter(Metadata)


class TextLine(Request):
    """One line of a plain JSONL import."""

    text: Text
    scope: Scope | None = None
    metadata: Metadata = Field(default_factory=dict)
    tags: list[Tag] = Field(default_factory=list, max_length=32)
    occurred_at: IsoDatetime | None = None


class Mem0Memory(BaseModel):
    """One memory of a mem0 export; the fields Engram has no use for (score, owner...) are ignored."""

    model_config = ConfigDict(extra="ignore")

    id: str | None = None
    memory: Text
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    app_id: str | None = None
    metadata: dict[str, Any] | None = None
    categories: list[str] | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    expiration_date: date | None = None


@dataclass
class Plan:
    """What a file holds: the memories to write, each with its line, and what cannot be imported."""

    format: PeerFormat
    unit: str  # "line" (one record a line) or "item" (a JSON array)
    read: int = 0
    memories: list[tuple[int, MemoryRecord, HistoryEntry]] = field(default_factory=list)
    invalid: list[dict[str, Any]] = field(default_factory=list)
    repeated: list[dict[str, Any]] = field(default_factory=list)
    mapping: dict[str, Any] = field(default_factory=dict)
    """How the source's scopes, categories, tiers... mapped, when the format says (the report's)."""


def parse(
    fmt: PeerFormat, text: str, *, tenant_id: str, now: datetime, default_scope: str = "global"
) -> Plan:
    """Read a whole file of ``fmt`` into a plan; nothing is written."""
    units = _records(text) if fmt == "mem0" else None
    plan = Plan(fmt, "item" if units is not None else "line")
    numbered = units if units is not None else _lines(text)
    seen: dict[str, int] = {}
    for number, raw in numbered:
        plan.read += 1
        try:
            record = (
                _mem0(raw, tenant_id, now) if fmt == "mem0" else _text(raw, tenant_id, now, default_scope)
            )
        except (ValueError, ValidationError) as exc:
            plan.invalid.append({plan.unit: number, "message": _message(exc)})
            continue
        if record.id in seen:
            plan.repeated.append({plan.unit: number, "reason": f"repeats {plan.unit} {seen[record.id]}"})
            continue
        seen[record.id] = number
        detail = {"by": "import", "from": fmt, **({"source_id": raw["id"]} if _has_id(raw) else {})}
        entry = HistoryEntry(
            memory_id=record.id, version=1, event="created", at=now, content=record.content, detail=detail
        )
        plan.memories.append((number, record, entry))
    return plan


# -- reading -------------------------------------------------------------------------------------


def _lines(text: str) -> list[tuple[int, Any]]:
    """(line number, the line's JSON) of each non-blank line; a line that is not JSON is kept as
    its text, so it is reported as invalid where it stands."""
    numbered: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                numbered.append((number, strict_json.loads(line)))
            except ValueError as exc:
                numbered.append((number, _NotJson(str(exc))))
    return numbered


def _records(text: str) -> list[tuple[int, Any]] | None:
    """The items of a mem0 export saved as one JSON document (an array, or ``{"results": [...]}``);
    None when the file is one record a line."""
    try:
        document = strict_json.loads(text)
    except ValueError:
        return None
    if isinstance(document, dict) and isinstance(document.get("results"), list):
        document = document["results"]
    if not isinstance(document, list):
        return None
    return list(enumerate(document, start=1))


class _NotJson(str):
    """A line that is not JSON, with the parser's message."""


def _text(raw: Any, tenant_id: str, now: datetime, default_scope: str) -> MemoryRecord:
    if isinstance(raw, _NotJson):
        raise ValueError(f"not valid JSON ({raw})")
    line = TextLine.model_validate({"text": raw} if isinstance(raw, str) else raw)
    return _record(
        tenant_id,
        now,
        text=line.text,
        scope=line.scope or default_scope,
        category="raw",
        tags=line.tags,
        metadata=line.metadata,
        created_at=now,
        updated_at=now,
        occurred_at=_utc(line.occurred_at),
    )


def _mem0(raw: Any, tenant_id: str, now: datetime) -> MemoryRecord:
    if isinstance(raw, _NotJson):
        raise ValueError(f"not valid JSON ({raw})")
    if not isinstance(raw, dict):
        raise ValueError("a mem0 memory is a JSON object with a 'memory' text")
    memory = Mem0Memory.model_validate(raw)
    owners = [("user", memory.user_id), ("agent", memory.agent_id), ("session", memory.run_id)]
    kind, owner = next(((k, v) for k, v in owners if v), ("global", None))
    extra = {
        f"mem0_{name}": value
        for name, value in (
            ("id", memory.id),
            ("agent_id", memory.agent_id if kind != "agent" else None),
            ("run_id", memory.run_id if kind != "session" else None),
            ("app_id", memory.app_id),
        )
        if value
    }
    categories = memory.categories or []
    created = _utc(memory.created_at) or now
    expires = memory.expiration_date
    return _record(
        tenant_id,
        now,
        text=memory.memory,
        scope="global" if owner is None else f"{kind}:{owner}",
        category=next((MEM0_CATEGORY[c] for c in categories if c in MEM0_CATEGORY), "fact"),
        tags=categories,
        metadata={**_flat(memory.metadata or {}), **extra},
        created_at=created,
        updated_at=_utc(memory.updated_at) or created,
        source=Source(session_id=memory.run_id, agent=memory.agent_id),
        expires_at=datetime.combine(expires, time(), UTC) if expires else None,
        scope_from=f"scope {kind}:{owner} (from {kind.replace('session', 'run')}_id)" if owner else "scope",
        tags_from="categories",
    )


def _record(
    tenant_id: str,
    now: datetime,
    *,
    text: str,
    scope: str,
    category: Category,
    tags: Sequence[str],
    metadata: dict[str, Any],
    created_at: datetime,
    updated_at: datetime,
    occurred_at: datetime | None = None,
    source: Source | None = None,
    expires_at: datetime | None = None,
    scope_from: str = "scope",
    tags_from: str = "tags",
) -> MemoryRecord:
    """The memory a raw retain of ``text`` would make, with the times and labels it came with."""
    scope = _valid(_SCOPE, scope, scope_from)
    first = text.strip().splitlines()[0]
    return MemoryRecord(
        tenant_id=tenant_id,
        id=memory_id(tenant_id, scope, text),
        scope=scope,
        category=category,
        content=text,
        abstract=first if len(first) <= 120 else first[:117].rstrip() + "...",
        tags=list(dict.fromkeys(_valid(_TAGS, list(tags), tags_from))),
        metadata=_valid(_METADATA, metadata, "metadata"),
        created_at=created_at,
        updated_at=updated_at,
        occurred_at=occurred_at,
        valid_from=occurred_at or created_at,
        source=source or Source(),
        trust="imported",
        expires_at=expires_at,
        content_hash=content_hash(text),
    )


def _valid(adapter: TypeAdapter[Any], value: Any, name: str) -> Any:
    """``value`` as ``adapter`` reads it; a ValueError naming ``name`` if it cannot."""
    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        raise ValueError(f"{name}: {_message(exc)}") from None


def _flat(metadata: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested objects as dotted keys (``{"a": {"b": 1}}`` → ``{"a.b": 1}``): Engram's metadata is flat."""
    flat: dict[str, Any] = {}
    for key, value in metadata.items():
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _utc(value: datetime | None) -> datetime | None:
    """In UTC, as Engram keeps every time; a time without a zone is taken to be UTC."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _has_id(raw: Any) -> bool:
    return isinstance(raw, dict) and isinstance(raw.get("id"), str) and bool(raw["id"])


def _message(exc: Exception) -> str:
    """An invalid record's problem in one sentence naming the fields (``user_id: Input should be
    a valid string``), the fields named as the API names them (``errors.from_validation``)."""
    if not isinstance(exc, ValidationError):
        return str(exc)
    details = from_validation(exc.errors(include_url=False)).details
    return "; ".join(
        f"{d['field']}: {d['problem']}" if d["field"] != "(body)" else d["problem"] for d in details
    )


def summary(report: ImportReport) -> str:
    """The report in a few lines, for a person."""
    verb = "would import" if report.dry_run else "imported"
    scopes = ", ".join(f"{scope} {n}" for scope, n in report.by_scope.items())
    lines = [f"{verb} {report.imported} of {report.read}" + (f" ({scopes})" if scopes else "")]
    if report.skipped:
        lines.append(f"skipped {report.skipped}:")
        for skip in report.skipped_reasons:
            unit = next(k for k in skip if k != "reason")
            lines.append(f"  {unit} {skip[unit]}: {skip['reason']}")
    for kind, counts in (report.mapping or {}).items():
        lines.append(f"{kind.replace('_', ' ')}: " + ", ".join(f"{k} ({n})" for k, n in counts.items()))
    return "\n".join(lines)
