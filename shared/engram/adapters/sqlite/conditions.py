"""``Conditions`` as SQL over the ``memories`` table (the other backends evaluate them in Python,
``engram.adapters.matching``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engram.adapters.matching import iso
from engram.adapters.sqlite.codec import marks
from engram.ports import Conditions
from engram.scopes import ScopeSet


def scope_clause(scopes: ScopeSet, alias: str = "m") -> tuple[str, list[Any]] | None:
    """The SQL that keeps rows of these scopes, or None when every scope is allowed: the one place
    this backend reads a scope limit."""
    if scopes.is_every:
        return None
    return f"{alias}.scope IN ({marks(scopes.names)})", list(scopes.names)


def conditions_sql(conditions: Conditions, alias: str = "m") -> tuple[str, list[Any]]:
    """SQL ``AND`` clauses (without the tenant, which callers always bind first) and parameters."""
    clauses: list[str] = []
    params: list[Any] = []

    def among(column: str, values: Sequence[Any], negate: bool = False) -> None:
        clauses.append(f"{alias}.{column} {'NOT ' if negate else ''}IN ({marks(values)})")
        params.extend(values)

    scoped = scope_clause(conditions.scopes, alias)
    if scoped is not None:
        clauses.append(scoped[0])
        params.extend(scoped[1])
    if conditions.statuses:
        among("status", conditions.statuses)
    if conditions.categories:
        among("category", conditions.categories)
    if conditions.tiers:
        among("tier", conditions.tiers)
    if conditions.exclude_tiers:
        among("tier", conditions.exclude_tiers, negate=True)
    if conditions.session_id is not None:
        clauses.append(f"{alias}.session_id = ?")
        params.append(conditions.session_id)
    if conditions.tags_any:
        clauses.append(
            f"EXISTS (SELECT 1 FROM json_each({alias}.tags) WHERE value IN ({marks(conditions.tags_any)}))"
        )
        params.extend(conditions.tags_any)
    for tag in conditions.tags_all:
        clauses.append(f"EXISTS (SELECT 1 FROM json_each({alias}.tags) WHERE value = ?)")
        params.append(tag)
    for key, values in conditions.metadata:
        clauses.append(f"json_extract({alias}.metadata, ?) IN ({marks(values)})")
        params.append(f'$."{key}"')
        params.extend(values)
    _time_clauses(conditions, alias, clauses, params)
    return " AND ".join(clauses) or "1", params


def _time_clauses(conditions: Conditions, alias: str, clauses: list[str], params: list[Any]) -> None:
    if conditions.valid_at is not None:
        # Validity lives in the record document; julianday() compares the ISO texts as times.
        moment = iso(conditions.valid_at)
        clauses.append(
            f"julianday(COALESCE(json_extract({alias}.doc, '$.valid_from'), {alias}.created_at)) <= julianday(?)"
            f" AND (json_extract({alias}.doc, '$.valid_until') IS NULL"
            f" OR julianday(json_extract({alias}.doc, '$.valid_until')) > julianday(?))"
        )
        params.extend([moment, moment])
    for column, (low, high) in (
        ("occurred_at", conditions.occurred_at),
        ("created_at", conditions.created_at),
    ):
        if low is not None:
            clauses.append(f"{alias}.{column} >= ?")
            params.append(iso(low))
        if high is not None:
            clauses.append(f"{alias}.{column} <= ?")
            params.append(iso(high))
