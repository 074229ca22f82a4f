"""A listing page answers at most 5 MB of UTF-8 JSON (Lambda answers at most 6 MB): a page of
large memories holds fewer than ``limit`` and its cursor goes on from there; non-ASCII text is
sent as UTF-8, not as ``\\u`` escapes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engram.adapters.sqlite.database import SqliteDatabase
from engram.adapters.sqlite.store import SqliteStore
from engram.identity import content_hash, memory_id
from engram.memories.operations import LIST_MAX_BYTES, list_memories
from engram.models import ListRequest, MemoryRecord, Tenant
from engram.ports import WriteBatch
from engram.scopes import EVERY_SCOPE
from engram_http.runtime import json_response

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def _record(i: int, text: str) -> MemoryRecord:
    return MemoryRecord(
        tenant_id="acme",
        id=memory_id("acme", "user:a", text),
        scope="user:a",
        category="fact",
        content=text,
        created_at=T0 + timedelta(seconds=i),
        updated_at=T0 + timedelta(seconds=i),
        content_hash=content_hash(text),
    )


def test_a_page_of_large_cjk_memories_stays_under_5_mb_and_its_cursor_reaches_them_all(
    tmp_path: Path,
) -> None:
    # Given 80 memories of 30,000 CJK characters each (90 KB of UTF-8; 180 KB as \u escapes)
    store = SqliteStore(SqliteDatabase(tmp_path / "engram.db"))
    store.tenants.create_tenant(Tenant(tenant_id="acme", name="acme", created_at=T0))
    records = [_record(i, f"{i:03d} " + "記憶" * 15_000) for i in range(80)]
    store.records.write("acme", WriteBatch(records=records, vectors=[None] * 80))
    # When they are listed 500 at a time
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = list_memories(
            "acme", ListRequest(limit=500, cursor=cursor), scopes=EVERY_SCOPE, records=store.records
        )
        body = json_response(page).body
        assert isinstance(body, str)
        size = len(body.encode())
        # Then each answer is within 5 MB, and UTF-8 as it is
        assert size <= LIST_MAX_BYTES, size
        assert "記憶" in body and "\\u8a18" not in body
        seen += [m["id"] for m in json.loads(body)["memories"]]
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            break
    # and the pages, each shorter than asked, hold every memory once
    assert pages >= 2 and sorted(seen) == sorted(r.id for r in records) and len(seen) == 80
