"""Schemathesis hooks for Engram's schema (loaded with ``SCHEMATHESIS_HOOKS``).

Four rules hold on the server that JSON Schema cannot say. Schema-valid (positive) requests
that break them are skipped or fixed, rather than any check loosened, so every check stays on
for every operation; negative requests are left as generated:
- an ``expires_at`` must lie in the future (a past one is refused with 400, by design);
- a list ``cursor`` must be one the service issued (it is opaque; a made-up one is a 400);
- an import body is an export file (JSONL), so a schema-valid string becomes the smallest
  valid one: the header line (with ``from=``, an empty file of that format);
- an import's ``scope``, ``dry_run`` and ``skip_invalid`` go with ``from`` (else a 400 naming
  them), and a dry run is for a posted file, not an upload: a positive case without ``from``
  drops them, one with an upload drops ``dry_run``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import schemathesis
from schemathesis import GenerationMode

schemathesis.serializer.alias("application/x-ndjson", "text/plain")
EMPTY_EXPORT = json.dumps({"format": "engram.export.v1", "tenant_id": "any"}) + "\n"
EMPTY_PEER_FILE = {"mem0": "[]", "jsonl": "", "memory-lancedb-pro": '{"memories": []}'}
PEER_OPTIONS = ("scope", "dry_run", "skip_invalid")


def _positive(case: Any) -> bool:
    return bool(case.meta is None or case.meta.generation.mode == GenerationMode.POSITIVE)


def _past(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return when.tzinfo is not None and when <= datetime.now(UTC)


@schemathesis.hook
def filter_case(ctx: Any, case: Any) -> bool:
    if not _positive(case):
        return True
    body, query = case.body, case.query
    if isinstance(body, dict) and _past(body.get("expires_at")):
        return False
    return not (isinstance(query, dict) and query.get("cursor"))


@schemathesis.hook
def map_case(ctx: Any, case: Any) -> Any:
    if not (_positive(case) and case.operation.path == "/v1/import"):
        return case
    if case.query is None:
        case.query = {}
    query = case.query
    source = query.get("from")
    if source is None:
        for option in PEER_OPTIONS:
            query.pop(option, None)
    elif query.get("upload"):
        query.pop("dry_run", None)
    if isinstance(case.body, str):
        case.body = EMPTY_PEER_FILE.get(source, EMPTY_EXPORT) if source else EMPTY_EXPORT
    return case
