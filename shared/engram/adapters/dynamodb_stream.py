"""The table's change stream (DynamoDB Streams) read as memory changes.

The key scheme and the item codec are the DynamoDB store's (``engram.adapters.dynamodb.items``); this module is the one place that
reads a stream record, so the services that react to changes (the search indexer) see records,
never items. Only memory items (``sk = MEM``) are changes; every other item is ``None``.

A memory's vector is an item of its own (``VEC``, written just before the memory's transaction):
a change of an embedded memory takes it from the same batch when the batch holds it, else from
``vectors`` (the table's ``BatchGetItem``, one per tenant and batch: the indexer's one read).
"""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from engram.adapters.dynamodb.items import Item, record_of, vector_of, vector_owned
from engram.models import MemoryRecord
from engram.ports import MemoryChange, Vector

INDEXED = (
    "doc",
    "embedding",
    "dim",
    "embedding_model",
    "status",
    "scope",
    "tier",
    "category",
    "content_hash",
)
"""What the search index holds is derived from these attributes alone (``doc`` carries the rest)."""

VectorReader = Callable[[str, Sequence[str]], Mapping[str, Vector]]
"""(tenant, memory ids) -> their stored vectors (``DynamoStore.records.get_vectors``)."""


def memory_changes(
    records: Sequence[Mapping[str, Any]], *, vectors: VectorReader | None = None
) -> list[MemoryChange | None]:
    """Each stream record as a memory change, in stream order (``None``: not a memory item), an
    embedded memory's with its vector (from the batch's vector items, else read by ``vectors``)."""
    changes = [memory_change(raw) for raw in records]
    in_batch: dict[tuple[str, str], Vector] = {}
    for raw in records:
        data = raw["dynamodb"]
        if data["Keys"]["sk"]["S"] == "VEC" and raw["eventName"] != "REMOVE":
            image = _binary_decoded(data.get("NewImage")) or {}
            vector = vector_of(image)
            tenant_id, memory_id = data["Keys"]["pk"]["S"].removeprefix("TENANT#").split("#MEM#", 1)
            if vector is not None and vector_owned(tenant_id, {**data["Keys"], **image}):
                in_batch[(tenant_id, memory_id)] = vector
    wanted: dict[str, list[str]] = {}
    for i, (raw, change) in enumerate(zip(records, changes, strict=True)):
        if change is None or change.vector is not None or change.new is None or not _embedded(raw):
            continue
        found = in_batch.get((change.tenant_id, change.memory_id))
        if found is not None:
            changes[i] = dataclasses.replace(change, vector=found)
        else:
            wanted.setdefault(change.tenant_id, []).append(change.memory_id)
    if vectors is None or not wanted:
        return changes
    read = {tenant_id: vectors(tenant_id, ids) for tenant_id, ids in wanted.items()}
    for i, change in enumerate(changes):
        if (
            change is not None
            and change.vector is None
            and change.memory_id in read.get(change.tenant_id, {})
        ):
            changes[i] = dataclasses.replace(change, vector=read[change.tenant_id][change.memory_id])
    return changes


def _embedded(raw: Mapping[str, Any]) -> bool:
    """Whether a memory record's new image says it has a vector (``dim``)."""
    return "dim" in (raw["dynamodb"].get("NewImage") or {})


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
