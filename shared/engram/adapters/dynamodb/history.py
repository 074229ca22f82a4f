"""``MemoryHistory`` on DynamoDB: ``HIST#<version>#…`` items in the memory's own partition, so a
memory's hard delete takes its history with it (written by ``actions.history_put``).

A plain creation's entry (``created`` at version 1, of the text the record holds) is no item of
its own: the memory item carries it as ``born`` (its time and detail; its text is the record's
while ``born`` is there), which saves the write unit of a history item on every new memory (#28).
The first change of the memory writes it out as the history item it would have been (same key,
``history_put``) before the change replaces the text (``born_entries``, in the writer), and the
change removes ``born``. A memory written before keeps its ``HIST`` item for its creation.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from engram.adapters.dynamodb.items import Item, memory_pk, s
from engram.adapters.dynamodb.requests import DynamoTable
from engram.adapters.matching import iso
from engram.models import HistoryEntry, MemoryRecord

BORN = "born"


def inline_creation(record: MemoryRecord, entries: Sequence[HistoryEntry]) -> HistoryEntry | None:
    """The entry among ``entries`` that ``record``'s item can carry as ``born``: its creation at
    version 1, of the text it holds."""
    if record.version != 1:
        return None
    return next(
        (
            e
            for e in entries
            if e.memory_id == record.id
            and e.version == 1
            and e.event == "created"
            and e.content == record.content
        ),
        None,
    )


def born_value(entry: HistoryEntry) -> dict[str, str]:
    """The ``born`` attribute of a creation entry (its text is the record's)."""
    return s(json.dumps({"at": iso(entry.at), "detail": entry.detail}, separators=(",", ":")))


def born_entry(item: Item) -> HistoryEntry | None:
    """The creation entry a memory item carries (``born``, with the text of its ``doc``), if any."""
    born = item.get(BORN, {}).get("S")
    if born is None or "doc" not in item:
        return None
    value = json.loads(born)
    content = json.loads(item["doc"]["S"]).get("content", "")
    memory_id = item["pk"]["S"].rsplit("#", 1)[1]
    return HistoryEntry(
        memory_id=memory_id,
        version=1,
        event="created",
        at=value["at"],
        content=content,
        detail=value["detail"],
    )


class DynamoHistory(DynamoTable):
    def history(self, tenant_id: str, memory_id: str) -> list[HistoryEntry]:
        """The ``HIST`` items and the memory item's ``born`` (one query: ``HIST#…`` sorts just
        before ``MEM``), in version order; ``born`` yields to a ``HIST`` item of the same
        creation (written out by a change that then failed before removing it)."""
        items = list(
            self.query(
                key="pk",
                value=memory_pk(tenant_id, memory_id),
                sk_condition="sk BETWEEN :h AND :m",
                values={":h": s("HIST#"), ":m": s("MEM")},
            )
        )
        entries = [HistoryEntry.model_validate_json(i["doc"]["S"]) for i in items if i["sk"]["S"] != "MEM"]
        memory = next(
            (i for i in items if i["sk"]["S"] == "MEM" and i.get("tenant_id", {}).get("S") == tenant_id), None
        )
        born = born_entry(memory) if memory is not None else None
        if born is not None and not any(e.version == 1 and e.event == "created" for e in entries):
            entries.append(born)
        return sorted(entries, key=lambda e: e.version)
