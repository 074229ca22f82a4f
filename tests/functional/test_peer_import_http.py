"""``POST /v1/import?from=mem0|jsonl|memory-lancedb-pro`` through real HTTP against ``engram serve``:
another service's export with a dry run, the key's scopes, invalid records and large files as jobs."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_support import Reply, Server, call, new_key, new_tenant, running_server

PEERS = Path(__file__).resolve().parents[1] / "fixtures" / "peers"
MEM0_EXPORT = (PEERS / "mem0_export.json").read_bytes()
LANCEDB_EXPORT = (PEERS / "memory_lancedb_pro_export.json").read_bytes()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("serve")) as running:
        yield running


@pytest.fixture
def key(server: Server) -> str:
    return new_key(server, new_tenant(server))


def _import(server: Server, key: str, query: str, body: bytes) -> Reply:
    return call(server, "POST", f"/v1/import?{query}", raw=body, key=key)


def _contents(server: Server, key: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for status in ("active", "archived", "superseded"):
        page = call(server, "GET", f"/v1/memories?limit=500&status={status}", key=key)
        assert page.status == 200, page.body
        found.update({m["content"]: m for m in page.body["memories"]})
    return found


def _jsonl(texts: list[Any]) -> bytes:
    return "".join(json.dumps(t) + "\n" for t in texts).encode()


def test_a_mem0_export_imports_after_a_dry_run_that_writes_nothing(server: Server, key: str) -> None:
    # Given mem0's get_all saved as JSON
    # When it is posted on a dry run
    dry = _import(server, key, "from=mem0&dry_run=true", MEM0_EXPORT)
    # Then the report says where each memory would go, and nothing is written
    assert dry.status == 200, dry.body
    assert dry.body["dry_run"] is True and dry.body["format"] == "mem0"
    assert (dry.body["read"], dry.body["imported"], dry.body["skipped"]) == (5, 5, 0)
    assert dry.body["by_scope"] == {
        "agent:release-bot": 1,
        "global": 1,
        "session:onboarding-42": 1,
        "user:priya": 2,
    }
    assert _contents(server, key) == {}
    # When it is imported, then again
    first = _import(server, key, "from=mem0", MEM0_EXPORT)
    again = _import(server, key, "from=mem0", MEM0_EXPORT)
    # Then the first writes what the dry run said, in the owners' scopes, and the second skips every one
    assert first.status == 200, first.body
    assert {k: first.body[k] for k in ("dry_run", "imported", "skipped", "by_scope")} == {
        "dry_run": False,
        "imported": 5,
        "skipped": 0,
        "by_scope": dry.body["by_scope"],
    }
    memories = _contents(server, key)
    assert memories["Has a golden retriever named Biscuit"]["scope"] == "user:priya"
    assert memories["Has a golden retriever named Biscuit"]["trust"] == "imported"
    assert again.status == 200 and (again.body["imported"], again.body["skipped"]) == (0, 5)
    assert all(s["reason"].startswith("already in the tenant as mem_") for s in again.body["skipped_reasons"])
    # And what was imported is recalled
    found = call(
        server,
        "POST",
        "/v1/recall",
        {"query": "What is Priya's dog called?", "scopes": ["user:priya"]},
        key=key,
    )
    assert found.status == 200, found.body
    assert "Has a golden retriever named Biscuit" in [m["content"] for m in found.body["memories"]]


def test_a_memory_lancedb_pro_export_is_accounted_for_in_the_dry_run_and_imported(
    server: Server, key: str
) -> None:
    # Given what `openclaw memory-pro export` writes (12 memories, one in a scope Engram cannot hold)
    rows = json.loads(LANCEDB_EXPORT)["memories"]
    # When it is posted on a dry run, invalid records left out
    dry = _import(server, key, "from=memory-lancedb-pro&dry_run=true&skip_invalid=true", LANCEDB_EXPORT)
    # Then every memory of the file is to be imported or skipped with why, and the mapping is told
    assert dry.status == 200, dry.body
    assert dry.body["read"] == len(rows) == 12
    assert dry.body["imported"] + dry.body["skipped"] == 12 and dry.body["imported"] == 10
    assert {s["item"] for s in dry.body["skipped_reasons"]} == {2, 4}
    assert dry.body["mapping"]["tiers"]["core -> core"] == 1
    assert sum(dry.body["mapping"]["scopes"].values()) == dry.body["imported"]
    # When it is imported
    done = _import(server, key, "from=memory-lancedb-pro&skip_invalid=true", LANCEDB_EXPORT)
    # Then the ten land, archived and superseded ones among them, as the dry run said
    assert done.status == 200, done.body
    assert (done.body["imported"], done.body["by_scope"]) == (10, dry.body["by_scope"])
    memories = _contents(server, key)
    assert len(memories) == 10
    assert {m["status"] for m in memories.values()} >= {"active", "archived", "superseded"}


def test_an_invalid_record_refuses_the_file_whole_unless_skipped(server: Server, key: str) -> None:
    # Given a JSONL of texts whose second line is not a memory
    body = _jsonl(["Lives in Lisbon", {"scope": "user:ana"}, {"text": "Likes tea", "scope": "user:ana"}])
    # When it is imported as it is, then with invalid records skipped
    refused = _import(server, key, "from=jsonl&scope=user:ana", body)
    kept = _import(server, key, "from=jsonl&scope=user:ana&skip_invalid=true", body)
    # Then the first is a 400 naming the line and writes nothing; the second imports the valid ones
    assert refused.status == 400, refused.body
    assert (
        refused.body["error"]["details"][0]["line"] == 2
        and "text" in refused.body["error"]["details"][0]["message"]
    )
    assert kept.status == 200, kept.body
    assert (kept.body["imported"], kept.body["skipped"]) == (2, 1)
    assert kept.body["by_scope"] == {"user:ana": 2}
    assert set(_contents(server, key)) == {"Lives in Lisbon", "Likes tea"}


def test_a_key_limited_to_some_scopes_imports_only_into_them(server: Server) -> None:
    # Given a key of the scope user:priya only
    tenant = new_tenant(server)
    scoped = new_key(server, tenant, scopes=["user:priya"])
    # When it imports mem0's export (memories of other owners too), then a file of its own scope
    refused = _import(server, scoped, "from=mem0", MEM0_EXPORT)
    dry = _import(server, scoped, "from=mem0&dry_run=true", MEM0_EXPORT)
    own = _import(server, scoped, "from=jsonl&scope=user:priya", _jsonl(["Prefers aisle seats"]))
    # Then the export is refused with the first record outside its scopes named, and nothing is written
    assert refused.status == 403, refused.body
    assert "scope not allowed for this key" in refused.body["error"]["message"]
    assert dry.status == 403
    # And its own file lands in its scope
    assert own.status == 200 and own.body["by_scope"] == {"user:priya": 1}
    everything = new_key(server, tenant)
    assert set(_contents(server, everything)) == {"Prefers aisle seats"}


def test_options_of_another_services_export_need_from(server: Server, key: str) -> None:
    # Given an Engram export's body
    # When it is posted with a dry run but no format, or with an unknown format
    dry = _import(server, key, "dry_run=true", b"")
    unknown = _import(server, key, "from=zep", b"{}")
    # Then each is a 400 naming the query field
    assert dry.status == 400 and dry.body["error"]["details"][0]["field"] == "dry_run", dry.body
    assert unknown.status == 400, unknown.body
    assert "from" in json.dumps(unknown.body["error"]["details"])


def test_a_file_too_large_for_one_call_becomes_a_job_that_imports_it_all(server: Server, key: str) -> None:
    # Given a JSONL of more texts than an import writes within one call
    count = 520
    body = _jsonl(
        [{"text": f"Note number {n} about the garden", "scope": "project:garden"} for n in range(count)]
    )
    # When it is imported
    accepted = _import(server, key, "from=jsonl", body)
    # Then the answer is a job, and the job imports every line
    assert accepted.status == 202, accepted.body
    job_id = accepted.body["job_id"]
    deadline = time.monotonic() + 120
    job: dict[str, Any] = {}
    while time.monotonic() < deadline:
        job = call(server, "GET", f"/v1/jobs/{job_id}", key=key).body
        if job["status"] in ("succeeded", "failed"):
            break
        time.sleep(0.5)
    assert job["status"] == "succeeded", job
    assert (job["progress"]["total"], job["progress"]["imported"]) == (count, count)
    stats = call(server, "GET", "/v1/stats", key=key)
    assert stats.body["total"] == count
