"""``KeyStore`` on the DynamoDB table: one item per key, found by one ``GetItem``.

Item ``pk = APIKEY#<key_id>``, ``sk = APIKEY``; listed per tenant through index g1
(``TENANT#<t>#KEYS`` / ``<created>#<key_id>``). Only the secret's HMAC is stored; the authorizer
reads the item by the key id in the presented key and compares the HMAC in constant time.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from engram.adapters.dynamodb.items import key, s
from engram.adapters.dynamodb.requests import DynamoTable
from engram.adapters.matching import iso
from engram.records import ApiKeyRecord

_OPTIONAL = ("expires_at", "revoked_at", "last_used_at")


def _time(item: dict[str, Any], name: str) -> datetime | None:
    value = item.get(name, {}).get("S")
    return None if value is None else datetime.fromisoformat(value)


def _record(item: dict[str, Any]) -> ApiKeyRecord:
    created_at = _time(item, "created_at")
    assert created_at is not None  # always written
    return ApiKeyRecord(
        key_id=item["key_id"]["S"],
        tenant_id=item["tenant_id"]["S"],
        display_prefix=item["display_prefix"]["S"],
        secret_hash=item["secret_hash"]["S"],
        scopes=tuple(json.loads(item["scopes"]["S"])),
        read_only=bool(item["read_only"]["BOOL"]),
        created_at=created_at,
        expires_at=_time(item, "expires_at"),
        revoked_at=_time(item, "revoked_at"),
        last_used_at=_time(item, "last_used_at"),
    )


def _key(key_id: str) -> dict[str, Any]:
    return key(f"APIKEY#{key_id}", "APIKEY")


class DynamoKeyStore(DynamoTable):
    def put_key(self, record: ApiKeyRecord) -> None:
        item: dict[str, Any] = {
            **_key(record.key_id),
            "g1pk": s(f"TENANT#{record.tenant_id}#KEYS"),
            "g1sk": s(f"{iso(record.created_at)}#{record.key_id}"),
            "key_id": s(record.key_id),
            "tenant_id": s(record.tenant_id),
            "display_prefix": s(record.display_prefix),
            "secret_hash": s(record.secret_hash),
            "scopes": s(json.dumps(list(record.scopes))),
            "read_only": {"BOOL": record.read_only},
            "created_at": s(iso(record.created_at) or ""),
        }
        for name in _OPTIONAL:
            value = iso(getattr(record, name))
            if value is not None:
                item[name] = s(value)
        self.put_new(item, f"API key '{record.key_id}' already exists")

    def get_key(self, key_id: str) -> ApiKeyRecord | None:
        item = self.client.get_item(TableName=self.table, Key=_key(key_id), ConsistentRead=True).get("Item")
        return None if item is None else _record(item)

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        return self.update_existing(
            _key(key_id), "SET revoked_at = if_not_exists(revoked_at, :at)", {":at": s(iso(at) or "")}
        )

    def touch_key(self, key_id: str, at: datetime) -> None:
        self.update_existing(
            _key(key_id),
            "SET last_used_at = :at",
            {":at": s(iso(at) or "")},
            condition="(attribute_not_exists(last_used_at) OR last_used_at < :at)",
        )

    def _items(self, tenant_id: str) -> list[dict[str, Any]]:
        listed = self.query(index="g1", key="g1pk", value=f"TENANT#{tenant_id}#KEYS")
        return [i for i in listed if i["tenant_id"]["S"] == tenant_id]

    def list_keys(self, tenant_id: str) -> list[ApiKeyRecord]:
        return [_record(i) for i in self._items(tenant_id)]

    def delete_tenant_keys(self, tenant_id: str) -> int:
        deleted = 0
        for item in self._items(tenant_id):
            try:
                self.client.delete_item(
                    TableName=self.table,
                    Key=key(item["pk"]["S"], "APIKEY"),
                    ConditionExpression="attribute_exists(pk)",
                )
                deleted += 1
            except self.client.exceptions.ConditionalCheckFailedException:
                continue
        return deleted
