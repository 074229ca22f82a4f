"""The OpenSearch query and document pieces every request is built from (pure functions).

``tenant_filter`` is the one ``bool`` filter every query uses, tenant term first; the k-NN query
carries it inside its ``filter`` (efficient filtering during the graph search).
"""

from __future__ import annotations

import json
from typing import Any

from engram.adapters.matching import iso
from engram.errors import ValidationFailedError
from engram.models import MemoryRecord
from engram.ports import Conditions

VERSION_BITS = 20


def external_version(record: MemoryRecord) -> int:
    """The document version of a record's state: its creation time (ms) above its version.

    A memory's id is derived from its content, so a text forgotten and retained again gets the same
    id back with a record starting at version 1. Versions alone would then lose to the tombstone
    the delete left (OpenSearch keeps one for ``index.gc_deletes``, 60 s), and the new memory would
    never become searchable. With the creation time in the upper bits every later life of an id
    outranks every state of an earlier one, and within one life the store's version orders the
    states (2^20 of them per millisecond between two lives; good until the year 2248).

    >>> from datetime import datetime, UTC
    >>> r = MemoryRecord(tenant_id="t", id="m", scope="global", category="raw", content="x",
    ...     content_hash="h", created_at=datetime(2026, 1, 1, tzinfo=UTC),
    ...     updated_at=datetime(2026, 1, 1, tzinfo=UTC), version=3)
    >>> external_version(r) == (1767225600000 << 20) + 3
    True
    """
    created_ms = int(record.created_at.timestamp() * 1000)
    return (created_ms << VERSION_BITS) + record.version


def metadata_terms(metadata: dict[str, Any]) -> list[str]:
    """Metadata as ``key=<JSON value>`` keywords (one per list element), filterable everywhere.

    >>> metadata_terms({"source": "email", "n": [1, 2]})
    ['source="email"', 'n=1', 'n=2']
    """
    out: list[str] = []
    for key, value in metadata.items():
        for item in value if isinstance(value, list) else [value]:
            out.append(f"{key}={json.dumps(item)}")
    return out


def tenant_filter(tenant_id: str, conditions: Conditions) -> dict[str, Any]:
    """The one ``bool`` filter every query uses: the tenant first, then the conditions."""
    if not tenant_id:
        raise ValidationFailedError("every index query needs a tenant")
    if not conditions.scopes:
        raise ValidationFailedError("a search must name at least one scope")
    clauses: list[dict[str, Any]] = [{"term": {"tenant_id": tenant_id}}]
    must_not: list[dict[str, Any]] = []
    if not conditions.scopes.is_every:
        clauses.append({"terms": {"scope": list(conditions.scopes.names)}})
    for name, values in (
        ("status", conditions.statuses),
        ("category", conditions.categories),
        ("tier", conditions.tiers),
    ):
        if values:
            clauses.append({"terms": {name: list(values)}})
    if conditions.exclude_tiers:
        must_not.append({"terms": {"tier": list(conditions.exclude_tiers)}})
    if conditions.session_id is not None:
        clauses.append({"term": {"session_id": conditions.session_id}})
    if conditions.tags_any:
        clauses.append({"terms": {"tags": list(conditions.tags_any)}})
    for tag in conditions.tags_all:
        clauses.append({"term": {"tags": tag}})
    for key, values in conditions.metadata:
        clauses.append({"terms": {"metadata_kv": [f"{key}={json.dumps(v)}" for v in values]}})
    for name, (low, high) in (("occurred_at", conditions.occurred_at), ("created_at", conditions.created_at)):
        bounds = {op: iso(v) for op, v in (("gte", low), ("lte", high)) if v is not None}
        if bounds:
            clauses.append({"range": {name: bounds}})
    if conditions.valid_at is not None:  # what was true then: valid_from <= t < valid_until (or open)
        moment = iso(conditions.valid_at)
        clauses.append({"range": {"valid_from": {"lte": moment}}})
        clauses.append(
            {
                "bool": {
                    "should": [
                        {"bool": {"must_not": [{"exists": {"field": "valid_until"}}]}},
                        {"range": {"valid_until": {"gt": moment}}},
                    ],
                    "minimum_should_match": 1,
                }
            }
        )
    query: dict[str, Any] = {"filter": clauses}
    if must_not:
        query["must_not"] = must_not
    return {"bool": query}


def tenant_only(tenant_id: str, *extra: dict[str, Any]) -> dict[str, Any]:
    if not tenant_id:
        raise ValidationFailedError("every index query needs a tenant")
    return {"bool": {"filter": [{"term": {"tenant_id": tenant_id}}, *extra]}}
