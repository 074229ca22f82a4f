"""memory-lancedb-pro's export (``openclaw memory-pro export``) as Engram memories.

The file is what that command writes (memory-lancedb-pro ``cli.ts``, ``memory-pro export``):
``{"version": "1.0", "exportedAt", "count", "filters", "memories": [...]}`` where each memory is
its store's row (``src/store.ts`` ``MemoryEntry``) without the vector: ``id``, ``text``,
``category`` (``preference|fact|decision|entity|other|reflection``), ``scope``, ``importance``
(0–1), ``timestamp`` (ms since the epoch) and ``metadata``, a JSON string of its smart metadata
(``src/smart-metadata.ts`` ``SmartMemoryMetadata``: ``l0_abstract``, ``l1_overview``,
``l2_content``, ``memory_category`` (its six categories), ``tier``, ``state``, ``confidence``,
``access_count``, ``last_accessed_at``, ``valid_from``, ``invalidated_at``, ``superseded_by``,
``source_session``...). A bare array of such rows is read too.

How it maps:

- the text: ``l2_content`` (the full memory) when there is one, else ``text``; ``l0_abstract``
  and ``l1_overview`` become the abstract and overview;
- scopes: ``global``, ``agent:X``, ``user:X`` and ``project:X`` are Engram's own; ``custom:X``
  becomes ``project:X`` and ``reflection:agent:X`` becomes ``agent:X`` (tagged ``reflection``);
  any other scope, or an id Engram's scopes cannot hold, is not imported (the report says why);
- categories: the six smart ones (``profile``, ``preferences``, ``entities``, ``events``,
  ``cases``, ``patterns``) are Engram's six; a row with only the legacy column maps
  ``preference``, ``fact``, ``decision`` → ``event``, ``entity``, ``reflection`` → ``pattern``,
  ``other`` → ``raw``;
- importance, confidence, access count and times (``timestamp`` → created, ``last_accessed_at``,
  ``valid_from``, ``invalidated_at`` → valid until) keep their values; tiers (``core``,
  ``working``, ``peripheral``) are Engram's; ``state: archived`` is an archived memory;
  ``superseded_by`` naming another memory of the file makes this one superseded by it;
- the source session becomes the memory's session; the row's id, scope, category and source are
  kept in the metadata (``lancedb_*``); the other smart-metadata fields (injection counters,
  relations, suppression windows...) have no Engram counterpart and are counted in the report;
- every memory is embedded again with Engram's model (the export carries no vectors).

The dry run reports, beside the counts, how each scope, category and tier mapped and which fields
were left behind, so every memory of the file is accounted for.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engram import strict_json
from engram.imports.peers import Plan, _message, _record
from engram.models import Category, HistoryEntry, Source, Tier

FORMAT: Final = "memory-lancedb-pro"

SMART_CATEGORY: dict[str, Category] = {
    "profile": "profile",
    "preferences": "preference",
    "entities": "entity",
    "events": "event",
    "cases": "case",
    "patterns": "pattern",
}
LEGACY_CATEGORY: dict[str, Category] = {
    "preference": "preference",
    "fact": "fact",
    "decision": "event",
    "entity": "entity",
    "reflection": "pattern",
    "other": "raw",
}
_ENGRAM_SCOPE = re.compile(r"global|(agent|user|project|session):[A-Za-z0-9][A-Za-z0-9._@:+-]{0,127}")
TIERS: dict[str, Tier] = {"core": "core", "working": "working", "peripheral": "peripheral"}

MAPPED_METADATA = {
    "l0_abstract",
    "l1_overview",
    "l2_content",
    "memory_category",
    "tier",
    "state",
    "confidence",
    "access_count",
    "last_accessed_at",
    "valid_from",
    "invalidated_at",
    "superseded_by",
    "supersedes",
    "source_session",
    "source",
    "memory_layer",
    "fact_key",
}
"""Smart-metadata fields that land somewhere in Engram; any other is counted as not mapped."""


class LanceRow(BaseModel):
    """One memory of the export (the store row, its vector left out by the export)."""

    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1)
    text: str
    category: str = "other"
    scope: str = "global"
    importance: float = 0.7
    timestamp: float = 0
    metadata: str | dict[str, Any] | None = None


def parse(text: str, *, tenant_id: str, now: datetime) -> Plan:
    """The export as a plan; nothing is written. Every row is a memory to write, invalid (with
    why) or a repeat; ``plan.mapping`` says how the rest mapped."""
    plan = Plan(FORMAT, "item")
    rows = _rows(text)
    mapping: dict[str, Counter[str]] = {
        "scopes": Counter(),
        "categories": Counter(),
        "tiers": Counter(),
        "fields_not_mapped": Counter(),
        "states": Counter(),
    }
    seen: dict[str, int] = {}
    by_source_id: dict[str, str] = {}
    superseded: list[tuple[int, str]] = []
    for number, raw in enumerate(rows, start=1):
        plan.read += 1
        try:
            row = LanceRow.model_validate(raw)
            record, notes = _memory(row, tenant_id, now)
        except (ValueError, ValidationError) as exc:
            plan.invalid.append({"item": number, "message": _message(exc)})
            continue
        if record.id in seen:
            plan.repeated.append({"item": number, "reason": f"repeats item {seen[record.id]}"})
            continue
        seen[record.id] = number
        by_source_id[row.id] = record.id
        for key in ("scopes", "categories", "tiers"):
            mapping[key][notes[key]] += 1
        mapping["fields_not_mapped"].update(notes["fields_not_mapped"])
        if isinstance(notes.get("superseded_by"), str):
            superseded.append((len(plan.memories), notes["superseded_by"]))
        detail = {"by": "import", "from": FORMAT, "source_id": row.id}
        entry = HistoryEntry(
            memory_id=record.id, version=1, event="created", at=now, content=record.content, detail=detail
        )
        plan.memories.append((number, record, entry))
    for position, source_id in superseded:
        newer = by_source_id.get(source_id)
        number, record, entry = plan.memories[position]
        later = next((i for i, (_, r, _) in enumerate(plan.memories) if r.id == newer), None)
        if later is None or newer == record.id:
            continue
        plan.memories[position] = (
            number,
            record.model_copy(update={"status": "superseded", "superseded_by": newer}),
            entry,
        )
        n, successor, e = plan.memories[later]
        plan.memories[later] = (n, successor.model_copy(update={"supersedes": record.id}), e)
        mapping["states"]["superseded"] += 1
    plan.mapping = {key: dict(sorted(counts.items())) for key, counts in mapping.items() if counts}
    return plan


def _rows(text: str) -> list[Any]:
    try:
        document = strict_json.loads(text)
    except ValueError as exc:
        raise _invalid_file(f"not JSON ({exc})") from None
    if isinstance(document, dict) and isinstance(document.get("memories"), list):
        return list(document["memories"])
    if isinstance(document, list):
        return document
    raise _invalid_file("expected the object `openclaw memory-pro export` writes, with a 'memories' array")


def _invalid_file(message: str) -> Exception:
    from engram.errors import ValidationFailedError

    return ValidationFailedError(f"the memory-lancedb-pro file is not an export: {message}")


def _memory(row: LanceRow, tenant_id: str, now: datetime) -> tuple[Any, dict[str, Any]]:
    meta = _metadata(row.metadata)
    scope, scope_note, extra_tags = _scope(row.scope)
    scope = _checked_scope(row.scope, scope)
    category = _category(row.category, meta.get("memory_category"))
    tier = TIERS.get(str(meta.get("tier")), "working") if "tier" in meta else "working"
    archived = meta.get("state") == "archived"
    created = _time(row.timestamp) or now
    content = _text(meta.get("l2_content")) or row.text
    kept = {
        "lancedb_id": row.id,
        "lancedb_scope": row.scope,
        "lancedb_category": row.category,
        **{f"lancedb_{k}": meta[k] for k in ("source", "memory_layer", "fact_key") if _scalar(meta.get(k))},
    }
    record = _record(
        tenant_id,
        now,
        text=content,
        scope=scope,
        category=category,
        tags=extra_tags,
        metadata=kept,
        created_at=created,
        updated_at=created,
        source=Source(session_id=_text(meta.get("source_session"))),
        scope_from="scope",
    )
    record = record.model_copy(
        update={
            "abstract": (_text(meta.get("l0_abstract")) or record.abstract)[:400],
            "overview": (_text(meta.get("l1_overview")) or "")[:2000],
            "importance": _unit(row.importance, 0.5),
            "confidence": _unit(meta.get("confidence"), 1.0),
            "tier": "archived" if archived else tier,
            "status": "archived" if archived else "active",
            "access_count": max(0, int(meta["access_count"])) if _number(meta.get("access_count")) else 0,
            "last_accessed_at": _time(meta.get("last_accessed_at")),
            "valid_from": _time(meta.get("valid_from")) or created,
            "valid_until": _time(meta.get("invalidated_at")),
        }
    )
    notes: dict[str, Any] = {
        "scopes": scope_note,
        "categories": f"{row.category}/{meta.get('memory_category', '-')} -> {category}",
        "tiers": f"{meta.get('tier', '-')}{'/archived' if archived else ''} -> {record.tier}",
        "fields_not_mapped": [k for k in meta if k not in MAPPED_METADATA],
    }
    if isinstance(meta.get("superseded_by"), str):
        notes["superseded_by"] = meta["superseded_by"]
    return record, notes


def _metadata(value: str | dict[str, Any] | None) -> dict[str, Any]:
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return value
    try:
        parsed = json.loads(value)
    except ValueError:
        raise ValueError("metadata: not a JSON object string") from None
    if not isinstance(parsed, dict):
        raise ValueError("metadata: not a JSON object string")
    return parsed


def _scope(scope: str) -> tuple[str, str, list[str]]:
    """Engram's scope for a memory-lancedb-pro scope, the mapping as the report says it, and tags."""
    if scope == "global" or scope.split(":", 1)[0] in ("agent", "user", "project"):
        return scope, scope, []
    if scope.startswith("custom:"):
        mapped = "project:" + scope.removeprefix("custom:")
        return mapped, f"{scope} -> {mapped}", ["custom-scope"]
    if scope.startswith("reflection:agent:"):
        mapped = "agent:" + scope.removeprefix("reflection:agent:")
        return mapped, f"{scope} -> {mapped}", ["reflection"]
    raise ValueError(f"scope: {scope!r} has no Engram counterpart (global, agent:, user:, project:, custom:)")


def _checked_scope(scope: str, mapped: str) -> str:
    """``mapped`` if Engram can hold it; else a ValueError saying which scope could not map."""
    if _ENGRAM_SCOPE.fullmatch(mapped):
        return mapped
    shown = f"{scope!r}" if scope == mapped else f"{scope!r} (as {mapped!r})"
    raise ValueError(
        f"scope: {shown} is not an Engram scope: its id must be letters, digits and ._@:+- (at most 128)"
    )


def _category(legacy: str, smart: Any) -> Category:
    if isinstance(smart, str) and smart in SMART_CATEGORY:
        return SMART_CATEGORY[smart]
    if legacy in SMART_CATEGORY:
        return SMART_CATEGORY[legacy]
    return LEGACY_CATEGORY.get(legacy, "raw")


def _time(value: Any) -> datetime | None:
    """A time in ms since the epoch (memory-lancedb-pro's unit) as a UTC datetime; 0 is none."""
    if not _number(value) or float(value) <= 0:
        return None
    try:
        return datetime.fromtimestamp(float(value) / 1000, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def _unit(value: Any, default: float) -> float:
    return min(1.0, max(0.0, float(value))) if _number(value) else default


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) and value != ""


def _text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None
