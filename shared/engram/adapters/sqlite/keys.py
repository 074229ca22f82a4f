"""``KeyStore`` on ``SqliteDatabase``: the ``api_keys`` table beside the memories (``schema``)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from engram.adapters.matching import iso
from engram.adapters.sqlite.database import SqliteDatabase, insert_new
from engram.records import ApiKeyRecord

_COLUMNS = (
    "key_id, tenant_id, display_prefix, secret_hash, scopes, read_only, "
    "created_at, expires_at, revoked_at, last_used_at"
)


def _time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _record(row: Any) -> ApiKeyRecord:
    created_at = _time(row[6])
    assert created_at is not None  # NOT NULL column
    return ApiKeyRecord(
        key_id=row[0],
        tenant_id=row[1],
        display_prefix=row[2],
        secret_hash=row[3],
        scopes=tuple(json.loads(row[4])),
        read_only=bool(row[5]),
        created_at=created_at,
        expires_at=_time(row[7]),
        revoked_at=_time(row[8]),
        last_used_at=_time(row[9]),
    )


class SqliteKeyStore:
    """API key records in the shared SQLite file; every write in its own transaction.

    >>> store = SqliteKeyStore(SqliteDatabase(":memory:")); store.get_key("nope") is None
    True
    """

    def __init__(self, db: SqliteDatabase) -> None:
        self.db = db

    def put_key(self, record: ApiKeyRecord) -> None:
        values = (
            record.key_id,
            record.tenant_id,
            record.display_prefix,
            record.secret_hash,
            json.dumps(list(record.scopes)),
            int(record.read_only),
            *(iso(t) for t in (record.created_at, record.expires_at, record.revoked_at, record.last_used_at)),
        )
        sql = f"INSERT INTO api_keys({_COLUMNS}) VALUES(?,?,?,?,?,?,?,?,?,?)"
        with self.db.transaction() as conn:
            insert_new(conn, sql, values, f"API key '{record.key_id}' already exists")

    def get_key(self, key_id: str) -> ApiKeyRecord | None:
        row = self.db.one(f"SELECT {_COLUMNS} FROM api_keys WHERE key_id=?", (key_id,))
        return None if row is None else _record(row)

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        with self.db.transaction() as conn:
            cursor = conn.execute(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id=?", (iso(at), key_id)
            )
            return bool(cursor.rowcount > 0)

    def touch_key(self, key_id: str, at: datetime) -> None:
        stamp = iso(at)
        with self.db.transaction() as conn:
            conn.execute(
                "UPDATE api_keys SET last_used_at=? "
                "WHERE key_id=? AND (last_used_at IS NULL OR last_used_at < ?)",
                (stamp, key_id, stamp),
            )

    def list_keys(self, tenant_id: str) -> list[ApiKeyRecord]:
        rows = self.db.rows(
            f"SELECT {_COLUMNS} FROM api_keys WHERE tenant_id=? ORDER BY created_at, key_id", (tenant_id,)
        )
        return [_record(row) for row in rows]

    def delete_tenant_keys(self, tenant_id: str) -> int:
        with self.db.transaction() as conn:
            cursor = conn.execute("DELETE FROM api_keys WHERE tenant_id=?", (tenant_id,))
            return int(cursor.rowcount)
