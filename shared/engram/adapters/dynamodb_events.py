"""The table's change stream read as events (the cloud's events out).

Memory items go through the stream adapter the index's part of the stream consumer uses (``engram.adapters.dynamodb_stream``);
besides them, three kinds of item matter: a history entry (its event tells a merge from a content edit;
the memory item carries the same event as ``cause``, which is read first, and an item written
before that is explained by its entry in the same batch), a deletion-log entry
(the content-free receipt of a forget or an expiry) and a job. Everything else (keys, usage,
idempotency records, lifecycle reports) implies no event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engram.adapters.dynamodb_stream import memory_change
from engram.events.changes import Event, deletion_events, job_events, memory_events
from engram.models import DeletionLogEntry, Job


def stream_events(records: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Event]]]:
    """Each stream record's sequence number and the events it implies, in stream order."""
    causes = _causes(records)
    out: list[tuple[str, list[Event]]] = []
    for raw in records:
        out.append((str(raw["dynamodb"]["SequenceNumber"]), _events(raw, causes)))
    return out


def _events(raw: Mapping[str, Any], causes: Mapping[tuple[str, str, int], str]) -> list[Event]:
    data = raw["dynamodb"]
    pk, sk = data["Keys"]["pk"]["S"], data["Keys"]["sk"]["S"]
    if sk == "MEM":
        change = memory_change(raw)
        if change is None or change.new is None:
            return []
        written = data.get("NewImage", {}).get("cause", {}).get("S")  # on the item since #28
        cause = written or causes.get((change.tenant_id, change.memory_id, change.new.version))
        return memory_events(change, cause=cause)
    if sk == "JOB" and "#JOB#" in pk:
        tenant_id = pk.removeprefix("TENANT#").split("#JOB#", 1)[0]
        old, new = _job(data.get("OldImage")), _job(data.get("NewImage"))
        return job_events(tenant_id, old, new)
    if pk.endswith("#DELLOG") and raw["eventName"] == "INSERT":
        tenant_id = pk.removeprefix("TENANT#").removesuffix("#DELLOG")
        entry = DeletionLogEntry.model_validate_json(data["NewImage"]["doc"]["S"])
        return deletion_events(entry) if entry.tenant_id == tenant_id else []
    return []


def _causes(records: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, int], str]:
    """The history entries the batch inserts, by (tenant, memory, version): what each change was."""
    found: dict[tuple[str, str, int], str] = {}
    for raw in records:
        data = raw["dynamodb"]
        if raw["eventName"] != "INSERT" or not data["Keys"]["sk"]["S"].startswith("HIST#"):
            continue
        # Keys: TENANT#<tenant>#MEM#<id> / HIST#<version, 12 digits>#<event>#<digest>
        tenant_id, memory_id = data["Keys"]["pk"]["S"].removeprefix("TENANT#").split("#MEM#", 1)
        version = int(data["Keys"]["sk"]["S"].split("#")[1])
        event = json.loads(data["NewImage"]["doc"]["S"]).get("event")
        if isinstance(event, str):
            found[(tenant_id, memory_id, version)] = event
    return found


def _job(image: Mapping[str, Any] | None) -> Job | None:
    doc = (image or {}).get("doc", {}).get("S")
    return Job.model_validate_json(doc) if doc else None
