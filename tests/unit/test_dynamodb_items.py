"""The DynamoDB memory item's codec: the slim ``doc`` (no field stored twice, no defaults, no
abstract that is its text) reads back as the record written, and an item written before (a whole
``doc``) still reads."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from engram.adapters.dynamodb.actions import memory_update
from engram.adapters.dynamodb.items import Item, record_of
from engram.identity import content_hash, memory_id
from engram.models import MemoryRecord
from engram.records import Source

T0 = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
TEXT = "I moved to Lisbon last spring and now work remotely for a design studio in Berlin."


def _record(**fields: Any) -> MemoryRecord:
    values: dict[str, Any] = {
        "tenant_id": "acme",
        "id": memory_id("acme", "user:alice", TEXT),
        "scope": "user:alice",
        "content": TEXT,
        "abstract": TEXT,
        "created_at": T0,
        "updated_at": T0,
        "content_hash": content_hash(TEXT),
    }
    return MemoryRecord(**(values | fields))


def _item(record: MemoryRecord, **kwargs: Any) -> Item:
    """The item one ``UpdateItem`` of ``memory_update`` leaves (on an empty key)."""
    action = memory_update("t", "acme", record, np.ones(4, dtype=np.float32), pending=False, **kwargs)[
        "Update"
    ]
    names, values = action["ExpressionAttributeNames"], action["ExpressionAttributeValues"]
    assigned = action["UpdateExpression"].removeprefix("SET ").split(" REMOVE ")[0].split(", ")
    item = dict(action["Key"])
    for assignment in assigned:
        name, value = assignment.split(" = ")
        item[names[name]] = values[value]
    return item


def _size(item: Item) -> int:
    """DynamoDB's item size, near enough: names and values in UTF-8 (numbers as their digits)."""
    return sum(len(k) + len(str(next(iter(v.values()))).encode()) for k, v in item.items())


def test_a_raw_memory_item_is_under_one_kilobyte_and_reads_back_whole() -> None:
    record = _record(embedding_model="amazon.titan-embed-text-v2:0@1024")
    item = _item(record, cause="created")
    # Then its doc repeats none of the native fields, and the item is one write unit
    assert json.loads(item["doc"]["S"]) == {"content": TEXT, "updated_at": "2026-12-03T09:00:00Z"}
    assert _size(item) < 1024
    assert record_of(item) == record


@pytest.mark.parametrize(
    "fields",
    [
        {"abstract": "Lisbon, remote work"},
        {"abstract": ""},
        {
            "category": "preference",
            "overview": "Where I live and work",
            "key_facts": ["Lisbon"],
            "entities": ["Lisbon", "Berlin"],
            "tags": ["home"],
            "metadata": {"source": "chat", "n": 3},
            "importance": 0.9,
            "confidence": 0.7,
            "tier": "core",
            "feedback_weight": 0.8,
            "access_count": 4,
            "last_accessed_at": T0 + timedelta(hours=2),
            "occurred_at": T0 - timedelta(days=300),
            "valid_from": T0 - timedelta(days=1),
            "valid_until": T0 + timedelta(days=1),
            "status": "superseded",
            "supersedes": "mem_" + "1" * 32,
            "superseded_by": "mem_" + "2" * 32,
            "version": 3,
            "source": Source(session_id="s1", message_refs=[0, 2], agent="a", role="user", batch_id="b"),
            "trust": "tool",
            "pinned": True,
            "expires_at": T0 + timedelta(days=30),
            "embedding_model": "m",
        },
    ],
    ids=["own-abstract", "empty-abstract", "every-field"],
)
def test_every_field_reads_back_as_written(fields: dict[str, Any]) -> None:
    record = _record(**fields)
    assert record_of(_item(record)) == record


def test_an_item_written_before_with_the_whole_record_in_its_doc_still_reads() -> None:
    record = _record(abstract="Lisbon", tags=["home"], importance=0.7, embedding_model="m")
    item = _item(record)
    item["doc"] = {
        "S": json.dumps(
            record.model_dump(mode="json", exclude={"version", "access_count", "last_accessed_at"})
        )
    }
    assert record_of(item) == record


def test_the_defaults_a_slim_item_omits_are_pinned() -> None:
    # A slim doc leaves out a field at its default: changing a default of MemoryRecord would change
    # what every item written since reads as, so it needs a migration of the table first.
    defaults = {
        name: field.get_default(call_default_factory=True)
        for name, field in MemoryRecord.model_fields.items()
        if not field.is_required()
    }
    assert defaults == {
        "category": "raw",
        "abstract": "",
        "overview": "",
        "key_facts": [],
        "entities": [],
        "tags": [],
        "metadata": {},
        "importance": 0.5,
        "confidence": 1.0,
        "tier": "peripheral",
        "feedback_weight": 0.5,
        "access_count": 0,
        "last_accessed_at": None,
        "occurred_at": None,
        "valid_from": None,
        "valid_until": None,
        "status": "active",
        "supersedes": None,
        "superseded_by": None,
        "version": 1,
        "source": Source(),
        "trust": "user-stated",
        "pinned": False,
        "expires_at": None,
        "embedding_model": "",
    }
