"""The one query builder: request filters -> ``Conditions`` (the tenant is bound by every adapter call)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from engram.models import ForgetFilter, RecallFilters
from engram.ports import Conditions
from engram.scopes import ScopeSet


def _many(value: Any) -> tuple[Any, ...]:
    """None -> (), a list -> its items, one value -> a 1-tuple."""
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


def recall_conditions(
    scopes: ScopeSet, filters: RecallFilters | None, *, as_of: datetime | None = None
) -> Conditions:
    """Active, non-archived memories in ``scopes`` that satisfy ``filters``; with ``as_of``, the
    active and superseded ones that were valid at that time instead."""
    if as_of is not None:
        current = recall_conditions(scopes, filters)
        return replace(current, statuses=("active", "superseded"), valid_at=as_of)
    if filters is None:
        return Conditions(scopes=scopes)
    metadata: tuple[tuple[str, tuple[Any, ...]], ...] = tuple(
        (key, _many(value)) for key, value in sorted((filters.metadata or {}).items())
    )
    occurred = filters.occurred_at
    created = filters.created_at
    return Conditions(
        scopes=scopes,
        categories=_many(filters.category),
        tiers=_many(filters.tier),
        tags_any=tuple(filters.tags_any or ()),
        tags_all=tuple(filters.tags_all or ()),
        session_id=filters.session_id,
        metadata=metadata,
        occurred_at=(occurred.gte or occurred.gt, occurred.lte or occurred.lt) if occurred else (None, None),
        created_at=(created.gte or created.gt, created.lte or created.lt) if created else (None, None),
    )


def forget_conditions(scopes: ScopeSet, selector: ForgetFilter) -> Conditions:
    """Every memory (any status or tier) in ``scopes`` matching the forget filter.

    ``scopes`` must already be narrowed to ``selector.scope`` when the filter names one.
    """
    return Conditions(
        scopes=scopes,
        statuses=(),
        exclude_tiers=(),
        categories=_many(selector.category),
        tiers=_many(selector.tier),
        tags_any=tuple(selector.tags_any or ()),
        session_id=selector.session_id,
    )
