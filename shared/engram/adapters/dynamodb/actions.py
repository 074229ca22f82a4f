"""The write actions a memory change is made of (for ``TransactWriteItems`` or alone): the
memory item's ``Update`` with every listing key it belongs to, its vector's ``Put`` and a history
``Put``."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engram.adapters.dynamodb.history import BORN, born_value
from engram.adapters.dynamodb.items import (
    NATIVE,
    created_key,
    dim_of,
    memory_key,
    memory_pk,
    n,
    s,
    session_key,
    tenant_pk,
    vector_item,
)
from engram.adapters.matching import iso
from engram.identity import memory_id
from engram.models import HistoryEntry, MemoryRecord
from engram.ports import Vector

SPARSE_TIERS = frozenset({"working", "core", "archived"})
"""The tiers listed in index g3; a peripheral memory (the default tier, most of them) has no entry
there, which saves a write unit per write, and is listed from g1 by its entry's ``tier``."""


def _fields(tenant_id: str, record: MemoryRecord) -> dict[str, dict[str, Any]]:
    """The item's attributes: the record JSON (without what is kept natively), its filter
    fields and its places in the listings g1 (all) and g2 (scope)."""
    created = created_key(record.created_at, record.id)
    prefix = tenant_pk(tenant_id)
    full = json.dumps(record.model_dump(mode="json", exclude={"version", "access_count", "last_accessed_at"}))
    return {
        "tenant_id": s(tenant_id),
        "id": s(record.id),
        "doc": s(slim_doc(record)),
        "doc_size": n(len(full)),  # what the listings count as its size (``stats``): the whole record
        "version": n(record.version),
        "access_count": n(record.access_count),
        "scope": s(record.scope),
        "category": s(record.category),
        "status": s(record.status),
        "tier": s(record.tier),
        "content_hash": s(record.content_hash),
        "created_at": s(iso(record.created_at) or ""),
        "g1pk": s(f"{prefix}#MEMS"),
        "g1sk": s(created),
        "g2pk": s(f"{prefix}#SCOPE#{record.scope}"),
        "g2sk": s(created),
    }


def slim_doc(record: MemoryRecord) -> str:
    """The record's JSON without what the item keeps natively (``items.NATIVE``, the counters),
    its default values, and its abstract when that is its text (a raw memory's): a short memory's
    item is then under 1 KB, one write unit where it took two, for every write and every access
    count (#28). ``items.record_of`` puts them back; the defaults it fills in are pinned by
    ``tests/unit/test_dynamodb_items.py``."""
    doc = record.model_dump(
        mode="json", exclude={*NATIVE, "version", "access_count", "last_accessed_at"}, exclude_defaults=True
    )
    if record.abstract == record.content:
        doc.pop("abstract", None)
    else:
        doc["abstract"] = record.abstract  # also an empty one, which the text would stand in for
    return json.dumps(doc, separators=(",", ":"))


def _sparse(
    tenant_id: str, record: MemoryRecord, vector: Vector | None, pending: bool, fields: dict[str, Any]
) -> list[str]:
    """Add the sparse listings (g3 tier, g4 hash, g6 thread, g5 pending embedding) and the
    vector's mark (``dim``; the vector is its own item, ``vector_put``) to ``fields``; returns the
    attributes to remove."""
    created = created_key(record.created_at, record.id)
    removes: list[str] = []
    if record.id != memory_id(tenant_id, record.scope, record.content):
        # sparse: a memory whose id its text derives is found by that id (``find_by_hash``, #28);
        # only one whose content or scope changed since needs the hash listing
        fields["g4pk"] = s(f"{tenant_pk(tenant_id)}#HASH#{record.scope}#{record.content_hash}")
        fields["g4sk"] = s(record.id)
    else:
        removes += ["g4pk", "g4sk"]
    if record.tier in SPARSE_TIERS:  # sparse: most memories are peripheral, listed from g1 (#28)
        fields["g3pk"] = s(f"{tenant_pk(tenant_id)}#TIER#{record.tier}")
        fields["g3sk"] = s(created)
    else:
        removes += ["g3pk", "g3sk"]
    if record.thread is not None:  # sparse: only turns of a session (or a retain batch) are listed
        fields["g6pk"] = s(session_key(tenant_id, record.scope, record.thread))
        fields["g6sk"] = s(created)
    else:
        removes += ["g6pk", "g6sk"]
    if vector is not None:
        fields["dim"] = dim_of(vector)
        removes += ["g5pk", "g5sk", "embedding"]  # a vector kept in the item before has moved out
    elif pending:
        fields["g5pk"] = s(f"{tenant_pk(tenant_id)}#PENDING")
        fields["g5sk"] = s(created)
    return removes


def memory_update(
    table: str,
    tenant_id: str,
    record: MemoryRecord,
    vector: Vector | None,
    *,
    pending: bool,
    condition: str = "",
    condition_values: dict[str, Any] | None = None,
    keep_access: bool = False,
    cause: str | None = None,
    born: HistoryEntry | None = None,
) -> dict[str, Any]:
    """An ``Update`` action that writes the whole record (and the vector, if given);
    ``keep_access``: all but the access bookkeeping, which recalls add to atomically, unless
    the record moves the last access itself (a restore restarts the decay clock); ``born``: the
    creation entry the item carries (``history``); a later version removes it."""
    fields = _fields(tenant_id, record)
    if born is not None:
        fields[BORN] = born_value(born)
    optional = {
        "last_accessed_at": iso(record.last_accessed_at),
        "occurred_at": iso(record.occurred_at),
        "session_id": record.source.session_id,
        # the history event of this change, on the item itself: the stream consumer reads it from
        # the stream's new image, whether or not the history entry is in the same stream batch
        "cause": cause,
    }
    if record.embedding_model:  # an empty one never hides the model of a stored vector
        fields["embedding_model"] = s(record.embedding_model)
    if keep_access:
        del fields["access_count"]
        if record.last_accessed_at is None:
            del optional["last_accessed_at"]
    removes = [name for name, value in optional.items() if value is None]
    fields.update({name: s(value) for name, value in optional.items() if value is not None})
    removes += _sparse(tenant_id, record, vector, pending, fields)
    if record.version > 1:
        removes.append(BORN)  # its writer wrote it out first (``born_entries``)
    expression = "SET " + ", ".join(f"#{k} = :{k}" for k in fields)
    if removes:
        expression += " REMOVE " + ", ".join(f"#{k}" for k in removes)
    action: dict[str, Any] = {
        "TableName": table,
        "Key": memory_key(tenant_id, record.id),
        "UpdateExpression": expression,
        "ExpressionAttributeNames": {f"#{k}": k for k in fields} | {f"#{k}": k for k in removes},
        "ExpressionAttributeValues": {f":{k}": v for k, v in fields.items()} | (condition_values or {}),
    }
    if condition:
        action["ConditionExpression"] = condition
    return {"Update": action}


def vector_put(table: str, tenant_id: str, memory_id: str, vector: Vector) -> dict[str, Any]:
    """A ``Put`` of a memory's vector item (``VEC`` beside ``MEM``)."""
    return {"Put": {"TableName": table, "Item": vector_item(tenant_id, memory_id, vector)}}


def history_put(table: str, tenant_id: str, entry: HistoryEntry) -> dict[str, Any]:
    """A ``Put`` of one history entry, in its memory's partition (deleted with it). Its key is
    the version, the event and a digest of the entry without its time: writing the same change
    again (a replay after the history write failed) overwrites it instead of adding a second."""
    digest = hashlib.sha256(entry.model_dump_json(exclude={"at"}).encode()).hexdigest()[:16]
    sk = f"HIST#{entry.version:012d}#{entry.event}#{digest}"
    return {
        "Put": {
            "TableName": table,
            "Item": {
                "pk": s(memory_pk(tenant_id, entry.memory_id)),
                "sk": s(sk),
                "tenant_id": s(tenant_id),
                "doc": s(entry.model_dump_json()),
            },
        }
    }
