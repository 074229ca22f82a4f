"""The item codec and key scheme of the one table (README, "DynamoDB key design")::

    TENANT#<t>                       META                  the tenant (g1: TENANTS / <t>)
    TENANT#<t>                       USAGE#D#<day>         usage counters of a day (atomic ADD; usage)
    TENANT#<t>#MEM#<id>              MEM                   one memory (record, filter fields, ``dim``)
    TENANT#<t>#MEM#<id>              VEC                   its vector (kept out of MEM: see below)
    TENANT#<t>#MEM#<id>              HIST#<version>#…      its history, deleted with it
    TENANT#<t>#IDEM#<key>            IDEM                  idempotency result (TTL attribute ``ttl``)
    TENANT#<t>#JOB#<id>              JOB                   an asynchronous retain
    TENANT#<t>#DELLOG                <at>#<receipt>        content-free deletion log
    TENANT#<t>#LIFECYCLE             RUN#<run>             a lifecycle run's report
    APIKEY#<key_id>                  APIKEY                an API key record (secret HMAC only)

Every key a store method builds starts with the tenant id handed to it, so no call can read,
change or count another tenant's items. The memory record is kept as JSON (``doc``) beside
native attributes for what conditions and atomic counters need (``version``, ``access_count``,
``last_accessed_at``, scope, status, tier, …). The vector (1.9 KB at 1,024 dimensions, half
precision compressed) is an item of its own beside the memory's, so the memory item that transactions write twice and recalls read
and count is a third of the size; the memory item says it is embedded with ``dim``.
"""

from __future__ import annotations

import json
import zlib
from datetime import datetime
from typing import Any

import numpy as np

from engram.adapters.matching import iso
from engram.models import MemoryRecord
from engram.ports import Vector

Item = dict[str, dict[str, Any]]


def s(value: str) -> dict[str, str]:
    """A string attribute value."""
    return {"S": value}


def n(value: int | float) -> dict[str, str]:
    """A number attribute value."""
    return {"N": repr(value) if isinstance(value, float) else str(value)}


def key(pk: str, sk: str) -> Item:
    return {"pk": s(pk), "sk": s(sk)}


def key_of(item: Item) -> Item:
    """The key of an item read back (a listing's projection holds ``pk`` and ``sk``)."""
    return key(item["pk"]["S"], item["sk"]["S"])


def tenant_pk(tenant_id: str) -> str:
    return f"TENANT#{tenant_id}"


def memory_pk(tenant_id: str, memory_id: str) -> str:
    return f"TENANT#{tenant_id}#MEM#{memory_id}"


def memory_key(tenant_id: str, memory_id: str) -> Item:
    return key(memory_pk(tenant_id, memory_id), "MEM")


def memory_id_of(pk: str) -> str:
    """The memory id in a memory's ``pk`` (``TENANT#<t>#MEM#<id>``)."""
    return pk.rsplit("#", 1)[1]


def session_key(tenant_id: str, scope: str, session_id: str) -> str:
    return f"TENANT#{tenant_id}#SESSION#{scope}#{session_id}"


def created_key(created_at: datetime, item_id: str) -> str:
    """The sort key of a listing in creation order: ``<created>#<id>``."""
    return f"{iso(created_at)}#{item_id}"


def expired(item: Item, now_s: int) -> bool:
    """Whether an item's TTL (epoch seconds) has passed: TTL deletion lags expiry by up to days,
    so an expired item is treated as gone."""
    return "ttl" in item and int(item["ttl"]["N"]) <= now_s


def owned(tenant_id: str, item: Item) -> bool:
    """Whether an item is a memory of this tenant (a defensive check beside the key)."""
    return item.get("tenant_id", {}).get("S") == tenant_id and item["sk"]["S"] == "MEM"


NATIVE = (
    "tenant_id", "id", "scope", "category", "status", "tier",
    "content_hash", "created_at", "occurred_at", "embedding_model",
)  # fmt: skip
"""The record's fields the memory item keeps as attributes of their own (for conditions, listings
and the index entries), which its ``doc`` does not repeat since #28 (``actions.slim_doc``)."""


def record_of(item: Item) -> MemoryRecord:
    """The record of a full item (a listing's projection lacks the counters: 0 there). A ``doc``
    without ``tenant_id`` is slim (``actions.slim_doc``): its native fields come from the item, an
    absent abstract is its text and an absent field its default; one written before holds all."""
    doc = json.loads(item["doc"]["S"])
    if "tenant_id" not in doc:
        for name in NATIVE:
            value = item.get(name, {}).get("S")
            if value:
                doc[name] = value
        doc.setdefault("abstract", doc.get("content", ""))
    doc["version"] = int(item.get("version", {}).get("N", 0))
    doc["access_count"] = int(item.get("access_count", {}).get("N", 0))
    last = item.get("last_accessed_at", {}).get("S")
    doc["last_accessed_at"] = last or None
    model = item.get("embedding_model", {}).get("S")
    if model:  # set by set_embeddings after the record was written unembedded
        doc["embedding_model"] = model
    return MemoryRecord.model_validate(doc)


def vector_of(item: Item) -> Vector | None:
    """The vector of a vector item, as float32: ``z16`` (half precision, compressed), ``e16`` (half
    precision), or ``embedding`` (single precision: a vector item, or a memory item, written before
    vectors were stored halved)."""
    packed = item.get("z16", {}).get("B")
    if packed is not None:
        return np.frombuffer(unpack16(bytes(packed)), dtype="<f2").astype(np.float32)
    half = item.get("e16", {}).get("B")
    if half is not None:
        return np.frombuffer(half, dtype="<f2").astype(np.float32)
    blob = item.get("embedding", {}).get("B")
    return None if blob is None else np.frombuffer(blob, dtype=np.float32).copy()


def pack16(half: bytes) -> bytes:
    """Little-endian float16 components, losslessly smaller: their high bytes (sign, exponent, two
    bits of mantissa: about 5.8 bits of information each in a unit vector's components) as a raw
    Huffman-only deflate stream, then their low bytes as they are (mantissa bits: incompressible).
    1,024 components: ~1,770 bytes where ``e16`` is 2,048."""
    pairs = np.frombuffer(half, dtype=np.uint8).reshape(-1, 2)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_HUFFMAN_ONLY)
    return deflate.compress(pairs[:, 1].tobytes()) + deflate.flush() + pairs[:, 0].tobytes()


def unpack16(packed: bytes) -> bytes:
    """``pack16``'s input again, bit for bit (the deflate stream ends where the low bytes begin)."""
    inflate = zlib.decompressobj(-15)
    try:
        high = inflate.decompress(packed)
    except zlib.error as error:
        raise ValueError(f"a z16 vector whose deflate stream is broken: {error}") from error
    low = inflate.unused_data
    if not inflate.eof or len(low) != len(high):
        raise ValueError("a z16 vector that is not high bytes deflated then as many low bytes")
    pairs = np.empty((len(high), 2), dtype=np.uint8)
    pairs[:, 0] = np.frombuffer(low, dtype=np.uint8)
    pairs[:, 1] = np.frombuffer(high, dtype=np.uint8)
    return pairs.tobytes()


def item_bytes(item: Item) -> int:
    """DynamoDB's size of an item of scalar attributes (S, N, B: what a vector item holds): each
    attribute's name and value (UTF-8 text, bytes; a number at its digits, at least what DynamoDB
    counts)."""
    size = 0
    for name, value in item.items():
        kind, content = next(iter(value.items()))
        size += len(name.encode()) + (len(content) if kind == "B" else len(str(content).encode()))
    return size


def write_units(item: Item) -> int:
    """What a write of the item costs: one unit per kilobyte begun."""
    return max(1, -(-item_bytes(item) // 1024))


def vector_key(tenant_id: str, memory_id: str) -> Item:
    return key(memory_pk(tenant_id, memory_id), "VEC")


def vector_owned(tenant_id: str, item: Item) -> bool:
    """Whether a vector item read back is one of this tenant's memories' (its key says so; items
    written before the key alone named it also carry ``tenant_id``, which must agree)."""
    mine = item["pk"]["S"].startswith(f"{tenant_pk(tenant_id)}#MEM#") and item["sk"]["S"] == "VEC"
    return mine and bool(item.get("tenant_id", {}).get("S", tenant_id) == tenant_id)


def dim_of(vector: Vector) -> dict[str, str]:
    """The memory item's mark of a stored vector: its dimension."""
    return n(int(np.asarray(vector).shape[0]))


def vector_item(tenant_id: str, memory_id: str, vector: Vector) -> Item:
    """The item of a memory's vector, in the memory's partition (deleted with it), at half
    precision: compressed (``z16``, ``pack16``) when that takes fewer write units, else as it is
    (``e16``). 512 dimensions (the stack's default): ~0.9 KB and its key, one write unit for a
    tenant id of up to 52 characters; 1,024: ~1.9 KB, 2 units, where ``e16``'s 2.1 KB took 3 and
    single precision's 4 KB 5 (#28). Its tenant and memory id are its key's (``vector_owned``,
    ``memory_id_of``): no attribute repeats them. Search ranks on the index's copy; a unit
    vector's components lose at most 2^-11 of themselves, which moves a cosine by ~1e-4
    (``tests/integration/test_dynamodb_store.py``)."""
    half = np.asarray(vector, dtype=np.float32).astype("<f2").tobytes()
    base = vector_key(tenant_id, memory_id)
    plain, packed = {**base, "e16": {"B": half}}, {**base, "z16": {"B": pack16(half)}}
    return packed if write_units(packed) < write_units(plain) else plain
