"""``KeyStore`` on the DynamoDB table: one item per key, found by one ``GetItem``.

Item ``pk = APIKEY#<key_id>``, ``sk = APIKEY``; listed per tenant through index g1
(``TENANT#<t>#KEYS`` / ``<created>#<key_id>``). Only the secret's HMAC is stored; the authorizer
reads the item by the key id in the presented key and compares the HMAC in constant time.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from engram.adapters.dynamodb_store import _key, _s, index_name
from engram.adapters.matching import iso
from engram.auth import ApiKeyRecord
from engram.errors import ConflictError

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


class DynamoKeyStore:
    def __init__(self, client: Any, table_name: str) -> None:
        self.client = client
        self.table = table_name

    def put_key(self, record: ApiKeyRecord) -> None:
        item: dict[str, Any] = {
            **_key(f"APIKEY#{record.key_id}", "APIKEY"),
            "g1pk": _s(f"TENANT#{record.tenant_id}#KEYS"),
            "g1sk": _s(f"{iso(record.created_at)}#{record.key_id}"),
            "key_id": _s(record.key_id),
            "tenant_id": _s(record.tenant_id),
            "display_prefix": _s(record.display_prefix),
            "secret_hash": _s(record.secret_hash),
            "scopes": _s(json.dumps(list(record.scopes))),
            "read_only": {"BOOL": record.read_only},
            "created_at": _s(iso(record.created_at) or ""),
        }
        for name in _OPTIONAL:
            value = iso(getattr(record, name))
            if value is not None:
                item[name] = _s(value)
        try:
            self.client.put_item(
                TableName=self.table, Item=item, ConditionExpression="attribute_not_exists(pk)"
            )
        except self.client.exceptions.ConditionalCheckFailedException as exc:
            raise ConflictError(f"API key '{record.key_id}' already exists") from exc

    def get_key(self, key_id: str) -> ApiKeyRecord | None:
        item = self.client.get_item(
            TableName=self.table, Key=_key(f"APIKEY#{key_id}", "APIKEY"), ConsistentRead=True
        ).get("Item")
        return None if item is None else _record(item)

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        try:
            self.client.update_item(
                TableName=self.table,
                Key=_key(f"APIKEY#{key_id}", "APIKEY"),
                UpdateExpression="SET revoked_at = if_not_exists(revoked_at, :at)",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues={":at": _s(iso(at) or "")},
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            return False
        return True

    def touch_key(self, key_id: str, at: datetime) -> None:
        stamp = iso(at) or ""
        try:
            self.client.update_item(
                TableName=self.table,
                Key=_key(f"APIKEY#{key_id}", "APIKEY"),
                UpdateExpression="SET last_used_at = :at",
                ConditionExpression="attribute_exists(pk) AND "
                "(attribute_not_exists(last_used_at) OR last_used_at < :at)",
                ExpressionAttributeValues={":at": _s(stamp)},
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            return

    def _items(self, tenant_id: str) -> list[dict[str, Any]]:
        request: dict[str, Any] = {
            "TableName": self.table,
            "IndexName": index_name("g1"),
            "KeyConditionExpression": "g1pk = :p",
            "ExpressionAttributeValues": {":p": _s(f"TENANT#{tenant_id}#KEYS")},
        }
        items: list[dict[str, Any]] = []
        while True:
            page = self.client.query(**request)
            items.extend(i for i in page.get("Items", []) if i["tenant_id"]["S"] == tenant_id)
            if not page.get("LastEvaluatedKey"):
                return items
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def list_keys(self, tenant_id: str) -> list[ApiKeyRecord]:
        return [_record(i) for i in self._items(tenant_id)]

    def delete_tenant_keys(self, tenant_id: str) -> int:
        deleted = 0
        for item in self._items(tenant_id):
            try:
                self.client.delete_item(
                    TableName=self.table,
                    Key=_key(item["pk"]["S"], "APIKEY"),
                    ConditionExpression="attribute_exists(pk)",
                )
                deleted += 1
            except self.client.exceptions.ConditionalCheckFailedException:
                continue
        return deleted
