"""``as_of`` recall on every backend: a record counts when valid_from <= t < valid_until."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.adapters.matching import matches
from engram.adapters.opensearch_queries import tenant_filter
from engram.models import MemoryRecord
from engram.ports import Conditions
from engram.scopes import ScopeSet

T0 = datetime(2026, 1, 1, tzinfo=UTC)
T1 = datetime(2026, 2, 1, tzinfo=UTC)
T2 = datetime(2026, 3, 1, tzinfo=UTC)


def _record(**fields: object) -> MemoryRecord:
    return MemoryRecord.model_validate(
        {
            "tenant_id": "acme",
            "id": "mem_a",
            "scope": "user:alice",
            "category": "preference",
            "content": "I prefer dark mode",
            "content_hash": "h",
            "created_at": T0,
            "updated_at": T0,
            **fields,
        }
    )


def test_a_superseded_record_matches_only_inside_its_validity() -> None:
    # Given a record valid from T0 until T2, as of before, inside and at the end of that span
    record = _record(valid_from=T0, valid_until=T2, status="superseded")
    scopes = ScopeSet.of(["user:alice"])

    def at(moment: datetime) -> bool:
        return matches(record, Conditions(scopes=scopes, statuses=("active", "superseded"), valid_at=moment))

    # Then it matches inside only (the end is exclusive)
    assert (at(datetime(2025, 12, 1, tzinfo=UTC)), at(T1), at(T2)) == (False, True, False)


def test_an_open_ended_record_matches_from_its_start_on() -> None:
    record = _record(valid_from=T1)
    assert not matches(record, Conditions(scopes=ScopeSet.of(["user:alice"]), valid_at=T0))
    assert matches(record, Conditions(scopes=ScopeSet.of(["user:alice"]), valid_at=T2))


def test_the_opensearch_filter_carries_the_validity_window_beside_the_tenant() -> None:
    # Given conditions as of T1
    query = tenant_filter("acme", Conditions(scopes=ScopeSet.of(["user:alice"]), valid_at=T1))

    # Then the tenant comes first, and validity is a start bound and an open-or-later end
    clauses = query["bool"]["filter"]
    assert clauses[0] == {"term": {"tenant_id": "acme"}}
    assert {"range": {"valid_from": {"lte": "2026-02-01T00:00:00.000000Z"}}} in clauses
    assert {
        "bool": {
            "should": [
                {"bool": {"must_not": [{"exists": {"field": "valid_until"}}]}},
                {"range": {"valid_until": {"gt": "2026-02-01T00:00:00.000000Z"}}},
            ],
            "minimum_should_match": 1,
        }
    } in clauses
