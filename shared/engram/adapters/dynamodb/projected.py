"""What the listing indexes (g1, g2, g3, g6) hold of a memory: its filter fields, not its record.

An index entry of ~300 bytes is one write unit where the record (``doc``, ~1.5 KB) made it two,
at the transactional rate each (#28): a listing checks the conditions these fields answer on
the entry, and reads the memory items (``BatchGetItem``) only for what it returns or for the
conditions only the record answers (tags, metadata, validity).
"""

from __future__ import annotations

from datetime import datetime

from engram.adapters.dynamodb.items import Item
from engram.adapters.matching import matches
from engram.models import MemoryRecord
from engram.ports import Conditions
from engram.records import Source


def needs_record(conditions: Conditions) -> bool:
    """Whether only the record answers some of ``conditions``."""
    return bool(conditions.tags_any or conditions.tags_all or conditions.metadata or conditions.valid_at)


def _time(item: Item, name: str) -> datetime | None:
    value = item.get(name, {}).get("S")
    return datetime.fromisoformat(value) if value else None


def entry_matches(item: Item, conditions: Conditions) -> bool:
    """Whether an index entry meets the conditions its fields answer (all but ``needs_record``'s)."""
    created = _time(item, "created_at")
    assert created is not None  # always written
    light = MemoryRecord.model_construct(
        tenant_id=item["tenant_id"]["S"],
        id=item["id"]["S"],
        content="",
        updated_at=created,
        content_hash=item.get("content_hash", {}).get("S", ""),
        scope=item["scope"]["S"],
        category=item["category"]["S"],
        status=item["status"]["S"],
        tier=item["tier"]["S"],
        created_at=created,
        occurred_at=_time(item, "occurred_at"),
        source=Source.model_construct(session_id=item.get("session_id", {}).get("S")),
    )
    bare = Conditions(
        scopes=conditions.scopes,
        statuses=conditions.statuses,
        categories=conditions.categories,
        tiers=conditions.tiers,
        session_id=conditions.session_id,
        occurred_at=conditions.occurred_at,
        created_at=conditions.created_at,
        exclude_tiers=conditions.exclude_tiers,
    )
    return matches(light, bare)
