"""``TenantRegistry`` on DynamoDB: the tenant item (``TENANT#<t>`` / ``META``, listed through g1),
and its erasure in resumable steps."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from engram.adapters.dynamodb.items import Item, key, key_of, s, tenant_pk
from engram.adapters.dynamodb.requests import DynamoTable, backoff
from engram.adapters.matching import iso
from engram.errors import ProviderError
from engram.models import Tenant

ERASE_ROUNDS = 10


def _tenant(item: Item) -> Tenant:
    return Tenant(
        tenant_id=item["tenant_id"]["S"],
        name=item["name"]["S"],
        created_at=item["created_at"]["S"],
        settings_overrides=json.loads(item["settings"]["S"]),
        erasing=bool(item.get("erasing", {}).get("BOOL", False)),
    )


class DynamoTenants(DynamoTable):
    def create_tenant(self, tenant: Tenant) -> None:
        item = {
            **key(tenant_pk(tenant.tenant_id), "META"),
            "g1pk": s("TENANTS"),
            "g1sk": s(tenant.tenant_id),
            "tenant_id": s(tenant.tenant_id),
            "name": s(tenant.name),
            "created_at": s(iso(tenant.created_at) or ""),
            "settings": s(json.dumps(tenant.settings_overrides)),
        }
        self.put_new(item, f"tenant '{tenant.tenant_id}' already exists")

    def get_tenant(self, tenant_id: str) -> Tenant | None:
        item = self.client.get_item(
            TableName=self.table, Key=key(tenant_pk(tenant_id), "META"), ConsistentRead=True
        ).get("Item")
        return None if item is None else _tenant(item)

    def overrides_of(self, tenant_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The stored setting overrides of the tenants found, in one eventually consistent
        ``BatchGetItem`` (half a read unit a tenant): the stream consumer's cached read of
        ``events.publish``, whose answer may lag a change by a second."""
        keys = [key(tenant_pk(t), "META") for t in dict.fromkeys(tenant_ids)]
        items = self.batch_get(keys, "tenant_id, settings", consistent=False) if keys else []
        return {i["tenant_id"]["S"]: json.loads(i["settings"]["S"]) for i in items if "settings" in i}

    def set_tenant_settings(self, tenant_id: str, overrides: dict[str, Any]) -> bool:
        return self.update_existing(
            key(tenant_pk(tenant_id), "META"), "SET settings = :s", {":s": s(json.dumps(overrides))}
        )

    def list_tenants(self) -> list[Tenant]:
        return [_tenant(i) for i in self.query(index="g1", key="g1pk", value="TENANTS")]

    def erase_tenant(self, tenant_id: str, *, should_stop: Callable[[], bool] | None = None) -> int:
        """Every item of the tenant goes: memories with their history, jobs, logs, usage, the
        tenant last. The tenant is marked ``erasing`` first, so nothing is served meanwhile; when
        ``should_stop()`` turns true between two batches the erasure stops there (the tenant is
        still there, erasing) and the next call goes on, so a large tenant is erased in steps."""
        stop = should_stop or (lambda: False)
        prefix = tenant_pk(tenant_id)
        if not self.update_existing(key(prefix, "META"), "SET erasing = :t", {":t": {"BOOL": True}}):
            return 0  # erased already (or never there)
        removed = 0
        # The listings are eventually consistent: go round until one finds nothing left.
        for attempt in range(ERASE_ROUNDS):
            found, finished = self._erase_listed(prefix, stop)
            removed += found[0]
            if not finished:
                return removed
            if not sum(found):
                break
            if attempt == ERASE_ROUNDS - 1:
                raise ProviderError(
                    f"tenant '{tenant_id}' still had items after {ERASE_ROUNDS} rounds; retry"
                )
            backoff(attempt)
        for pk in (f"{prefix}#DELLOG", f"{prefix}#LIFECYCLE", prefix):
            self.batch_delete(self.partition_keys(pk))
        return removed

    def _erase_listed(self, prefix: str, stop: Callable[[], bool]) -> tuple[tuple[int, int], bool]:
        """One round over the tenant's listings: each memory with its partition, then its jobs,
        idempotency records and keys. ((memories, other items) deleted, whether it went to the end)."""
        memories = others = 0
        for item in list(self.query(index="g1", key="g1pk", value=f"{prefix}#MEMS", projection="pk")):
            if stop():
                return (memories, others), False
            self.batch_delete(self.partition_keys(item["pk"]["S"]))
            memories += 1
        for kind in ("JOBS", "IDEMS", "KEYS"):
            if stop():
                return (memories, others), False
            keys = [
                key_of(i)
                for i in self.query(index="g1", key="g1pk", value=f"{prefix}#{kind}", projection="pk, sk")
            ]
            self.batch_delete(keys)
            others += len(keys)
        return (memories, others), True
