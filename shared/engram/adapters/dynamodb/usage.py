"""``UsageLedger`` on the DynamoDB table: one item per tenant and day, one number per counter.

Item ``pk = TENANT#<t>``, ``sk = USAGE#D#<day>``; every counter is a top-level number
``c:<counter>`` raised by ``UpdateItem`` ``ADD`` (atomic, so concurrent functions never lose a
count). The tenant's erasure deletes the items with the rest of its partition.

Inside an invocation the counters of a tenant's day are added up and written once, when the
invocation ends (``write_behind``): a request's operation counters and its HTTP counters are
one write, not two. Reads of this process include what still waits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, cast

from engram.adapters.dynamodb.items import key, n, s
from engram.adapters.dynamodb.requests import DynamoTable
from engram.adapters.dynamodb.write_behind import WriteBehind

_PREFIX = "USAGE#D#"


def _summed(old: Counter[str], new: Counter[str]) -> Counter[str]:
    return old + new


class DynamoUsage(DynamoTable):
    _behind: WriteBehind | None = None

    def _buffer(self) -> WriteBehind:
        if self._behind is None:
            self._behind = WriteBehind(
                lambda k, v: self._write(k[0], k[1], v),
                _summed,
                max_age_s=5.0,
                max_keys=50,
                each_invocation=True,
            )
        return self._behind

    def add(self, tenant_id: str, day: str, counters: Mapping[str, int]) -> None:
        given = Counter({name: int(amount) for name, amount in counters.items() if amount})
        if given:
            self._buffer().add((tenant_id, day), given)

    def _write(self, tenant_id: str, day: str, counters: Mapping[str, int]) -> None:
        given = [(name, int(amount)) for name, amount in counters.items() if amount]
        if not given:
            return
        names = {f"#c{i}": f"c:{name}" for i, (name, _) in enumerate(given)}
        values: dict[str, Any] = {f":c{i}": n(amount) for i, (_, amount) in enumerate(given)}
        self.client.update_item(
            TableName=self.table,
            Key=key(f"TENANT#{tenant_id}", _PREFIX + day),
            UpdateExpression="SET tenant_id = :t ADD " + ", ".join(f"#c{i} :c{i}" for i in range(len(given))),
            ExpressionAttributeNames=names,
            ExpressionAttributeValues={":t": s(tenant_id), **values},
        )

    def _items(self, tenant_id: str, since: str, until: str) -> Iterator[dict[str, Any]]:
        return self.query(
            key="pk",
            value=f"TENANT#{tenant_id}",
            sk_condition="sk BETWEEN :a AND :b",
            values={":a": s(_PREFIX + since), ":b": s(_PREFIX + until)},
        )

    def days(self, tenant_id: str, *, since: str, until: str) -> dict[str, dict[str, int]]:
        out: dict[str, Counter[str]] = {
            item["sk"]["S"].removeprefix(_PREFIX): Counter(
                {
                    name.removeprefix("c:"): int(value["N"])
                    for name, value in item.items()
                    if name.startswith("c:")
                }
            )
            for item in self._items(tenant_id, since, until)
        }
        for waiting_key, waiting in self._buffer().waiting().items():
            tenant, day = cast(tuple[str, str], waiting_key)
            if tenant == tenant_id and since <= day <= until:
                out[day] = out.get(day, Counter()) + waiting
        return {day: dict(sorted(counters.items())) for day, counters in sorted(out.items())}

    def totals(self, tenant_id: str) -> dict[str, int]:
        from engram.metering.counters import totals

        return totals(self.days(tenant_id, since="0000-00-00", until="9999-99-99"))

    def forget_tenant(self, tenant_id: str) -> None:
        """Nothing to do: the items live in the tenant's partition, which its erasure deletes."""
