"""``MemoryRecords`` on DynamoDB, reads in creation order: selections, pages, every record and
the counts, each from the narrowest listing index the conditions allow (g2 one scope, g3 one
tier, else g1 all of the tenant's memories). The indexes hold the filter fields only
(``projected``): conditions are checked on each entry, and the memory items are read, 100 at a
time, for what is returned or for the conditions only a record answers."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any, Unpack

from engram.adapters.dynamodb.actions import SPARSE_TIERS
from engram.adapters.dynamodb.items import Item, memory_key, owned, record_of, s, tenant_pk, vector_of
from engram.adapters.dynamodb.memories import DynamoMemoryReads
from engram.adapters.dynamodb.projected import entry_matches, needs_record
from engram.adapters.dynamodb.requests import BATCH_GET_LIMIT
from engram.adapters.matching import iso, matches
from engram.adapters.store_policy import decode_cursor, encode_cursor
from engram.models import CATEGORIES, TIERS, MemoryRecord, StatsResponse
from engram.ports import Conditions, Page, Vector
from engram.ports.store import Paging, Selection
from engram.scopes import ScopeSet


def _listing_index(tenant_id: str, conditions: Conditions) -> tuple[str, str]:
    """(index, partition) to list from: the one place this backend reads a scope limit."""
    prefix = tenant_pk(tenant_id)
    scopes = conditions.scopes
    if not scopes.is_every and len(scopes) == 1:
        return "g2", f"{prefix}#SCOPE#{scopes.names[0]}"
    if len(conditions.tiers) == 1 and conditions.tiers[0] in SPARSE_TIERS:
        return "g3", f"{prefix}#TIER#{conditions.tiers[0]}"
    return "g1", f"{prefix}#MEMS"


class DynamoListing(DynamoMemoryReads):
    def listing(
        self, tenant_id: str, conditions: Conditions, *, after: str | None = None, before: str | None = None
    ) -> Iterator[Item]:
        """Memory items in (created_at, id) order from the narrowest index the conditions allow."""
        index, value = _listing_index(tenant_id, conditions)
        sk = f"{index}sk"
        values: dict[str, Any] = {}
        clauses = []
        if after is not None:
            clauses.append(f"{sk} > :after")
            values[":after"] = s(after)
        if before is not None:
            clauses.append(f"{sk} < :before")
            values[":before"] = s(before)
        if len(clauses) == 2:  # a key condition takes one range: BETWEEN is inclusive, so filter below
            clauses = [f"{sk} BETWEEN :after AND :before"]
        for item in self.query(
            index=index, key=f"{index}pk", value=value, sk_condition=" AND ".join(clauses), values=values
        ):
            if item.get("tenant_id", {}).get("S") != tenant_id:
                continue  # defensive: a key of this tenant never holds another's item
            if (before is not None and item[sk]["S"] >= before) or (
                after is not None and item[sk]["S"] <= after
            ):
                continue
            yield item

    def matching(
        self,
        tenant_id: str,
        conditions: Conditions,
        *,
        after: str | None = None,
        before: str | None = None,
        chunk: int = BATCH_GET_LIMIT,
    ) -> Iterator[MemoryRecord]:
        """The records that meet ``conditions``, in the listing's order: entries checked on their
        fields, then the full items read ``chunk`` at a time (and checked again when only a
        record can)."""
        full_check = needs_record(conditions)
        ids: list[str] = []
        for item in self.listing(tenant_id, conditions, after=after, before=before):
            if entry_matches(item, conditions):
                ids.append(item["id"]["S"])
                if len(ids) == chunk:
                    yield from self._records(tenant_id, ids, conditions if full_check else None)
                    ids = []
        yield from self._records(tenant_id, ids, conditions if full_check else None)

    def _records(
        self, tenant_id: str, ids: Sequence[str], conditions: Conditions | None
    ) -> Iterator[MemoryRecord]:
        if not ids:
            return
        found = self.get_many(tenant_id, ids)
        for memory_id in ids:
            record = found.get(memory_id)
            if record is not None and (conditions is None or matches(record, conditions)):
                yield record

    def select_ids(self, tenant_id: str, conditions: Conditions, **selection: Unpack[Selection]) -> list[str]:
        older_than, limit = selection.get("older_than"), selection.get("limit")
        out: list[str] = []
        before = iso(older_than) if older_than is not None else None
        if not needs_record(conditions):  # the entries answer: no item is read
            for item in self.listing(tenant_id, conditions, before=before):
                if entry_matches(item, conditions):
                    out.append(item["id"]["S"])
                    if limit is not None and len(out) >= limit:
                        break
            return out
        for record in self.matching(tenant_id, conditions, before=before):
            out.append(record.id)
            if limit is not None and len(out) >= limit:
                break
        return out

    def list_page(self, tenant_id: str, conditions: Conditions, **paging: Unpack[Paging]) -> Page:
        cursor, limit, tag = paging["cursor"], paging["limit"], paging.get("tag")
        after = "#".join(decode_cursor(cursor)) if cursor else None
        if tag is not None:
            conditions = dataclasses.replace(conditions, tags_all=(*conditions.tags_all, tag))
        listed: list[MemoryRecord] = []
        more = False
        for record in self.matching(
            tenant_id, conditions, after=after, chunk=min(BATCH_GET_LIMIT, limit + 1)
        ):
            if len(listed) == limit:
                more = True
                break
            listed.append(record)
        next_cursor = (
            encode_cursor(iso(listed[-1].created_at) or "", listed[-1].id) if more and listed else None
        )
        return Page(records=listed, next_cursor=next_cursor)

    def iter_records(self, tenant_id: str) -> Iterator[tuple[MemoryRecord, Vector | None]]:
        """Every memory with its vector, in (created_at, id) order, 100 full items per read."""
        ids: list[str] = []
        for item in self.listing(tenant_id, Conditions(scopes=ScopeSet.every())):
            ids.append(item["id"]["S"])
            if len(ids) == BATCH_GET_LIMIT:
                yield from self._full(tenant_id, ids)
                ids = []
        yield from self._full(tenant_id, ids)

    def _full(self, tenant_id: str, ids: Sequence[str]) -> Iterator[tuple[MemoryRecord, Vector | None]]:
        if not ids:
            return
        found = {
            i["id"]["S"]: i
            for i in self.batch_get([memory_key(tenant_id, i) for i in ids])
            if owned(tenant_id, i)
        }
        embedded = [i for i in ids if i in found and "dim" in found[i] and "embedding" not in found[i]]
        vectors = self.get_vectors(tenant_id, embedded) if embedded else {}
        for memory_id in ids:
            if memory_id in found:
                item = found[memory_id]
                yield self._seen(tenant_id, record_of(item)), vectors.get(memory_id, vector_of(item))

    def stats(self, tenant_id: str, *, scopes: Sequence[str] | None = None) -> StatsResponse:
        counts: dict[str, dict[str, int]] = {
            "scope": {},
            "category": dict.fromkeys(CATEGORIES, 0),
            "tier": dict.fromkeys(TIERS, 0),
            "status": {},
        }
        size = 0
        older: list[Item] = []
        for item in self.listing(
            tenant_id, Conditions(scopes=ScopeSet.every() if scopes is None else ScopeSet.of(scopes))
        ):
            for name, counted in counts.items():
                value = item[name]["S"]
                counted[value] = counted.get(value, 0) + 1
            written = item.get("doc_size", {}).get("N")
            if written is None:  # written before the entries carried its size
                older.append(memory_key(tenant_id, item["id"]["S"]))
            size += int(written or 0) + 4 * int(item.get("dim", {}).get("N", 0))
        size += sum(len(i["doc"]["S"]) for i in self.batch_get(older, projection="doc") if "doc" in i)
        pending = self.query(index="g5", key="g5pk", value=f"{tenant_pk(tenant_id)}#PENDING")
        return StatsResponse(
            tenant_id=tenant_id,
            total=sum(counts["status"].values()),
            by_scope=counts["scope"],
            by_category=counts["category"],
            by_tier=counts["tier"],
            by_status=counts["status"],
            storage_bytes=size,
            usage={},
            pending_embedding=sum(1 for _ in pending),
        )
