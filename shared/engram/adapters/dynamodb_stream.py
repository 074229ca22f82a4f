"""The table's change stream (DynamoDB Streams) read as memory changes.

The key scheme and the item codec are the DynamoDB store's (``engram.adapters.dynamodb.items``); this module is the one place that
reads a stream record, so the services that react to changes (the search indexer) see records,
never items. Only memory items (``sk = MEM``) are changes; every other item is ``None``.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import Any, cast

from engram.adapters.dynamodb.items import Item, record_of, vector_of
from engram.models import MemoryRecord
from engram.ports import MemoryChange

INDEXED = ("doc", "embedding", "status", "scope", "tier", "category", "content_hash")
"""What the search index holds is derived from these attributes alone (``doc`` carries the rest)."""


def memory_changes(records: Sequence[Mapping[str, Any]]) -> list[MemoryChange | None]:
    """Each stream record as a memory change, in stream order (``None``: not a memory item)."""
    return [memory_change(raw) for raw in records]


def memory_change(raw: Mapping[str, Any]) -> MemoryChange | None:
    data = raw["dynamodb"]
    keys = data["Keys"]
    if keys["sk"]["S"] != "MEM":
        return None
    pk = keys["pk"]["S"]  # TENANT#<tenant>#MEM#<id>
    tenant_id, memory_id = pk.removeprefix("TENANT#").split("#MEM#", 1)
    event = cast(Any, raw["eventName"])
    new_image, old_image = _binary_decoded(data.get("NewImage")), _binary_decoded(data.get("OldImage"))
    new = _record_of(tenant_id, new_image) if event != "REMOVE" else None
    return MemoryChange(
        sequence=str(data["SequenceNumber"]),
        event=event,
        tenant_id=tenant_id,
        memory_id=memory_id,
        new=new,
        vector=vector_of(new_image) if new is not None and new_image is not None else None,
        old=_record_of(tenant_id, old_image),
        index_changed=not (event == "MODIFY" and _same_for_the_index(old_image, new_image)),
    )


def _record_of(tenant_id: str, image: Item | None) -> MemoryRecord | None:
    """The image's record, if it has one and it belongs to the tenant its key names."""
    if image is None or image.get("doc") is None:
        return None
    record = record_of(image)
    return record if record.tenant_id == tenant_id else None


def _same_for_the_index(old: Item | None, new: Item | None) -> bool:
    if old is None or new is None:
        return False
    return all(old.get(name) == new.get(name) for name in INDEXED)


def _binary_decoded(image: Mapping[str, Any] | None) -> Item | None:
    """A stream image with its binary attributes as bytes (a Lambda event carries base64 text)."""
    if image is None:
        return None
    out = dict(image)
    for name, value in image.items():
        blob = value.get("B") if isinstance(value, Mapping) else None
        if isinstance(blob, str):
            out[name] = {"B": base64.b64decode(blob)}
    return out
