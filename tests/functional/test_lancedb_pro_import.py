"""``engram import --from memory-lancedb-pro``: what ``openclaw memory-pro export`` writes, into a real
local store (SQLite, the bundled embedding model) by the CLI.

The fixture tests/fixtures/peers/memory_lancedb_pro_export.json was written by memory-lancedb-pro's
own code (CortexReach/memory-lancedb-pro at f6e63af): memories put in a real LanceDB store through
its ``MemoryStore.importEntry``, their metadata made by its ``buildSmartMetadata``, then exported
by its ``memory-pro export`` command (``registerMemoryCLI`` in ``cli.ts``); the script beside the
fixture says how. The file is ``{version, exportedAt, count, filters, memories}``, newest first,
each memory a ``MemoryEntry`` of ``src/store.ts`` without its vector, its ``metadata`` string the
``SmartMemoryMetadata`` of ``src/smart-metadata.ts`` (tiers, states, the six categories, the
L0/L1/L2 texts), with legacy rows (``metadata: "{}"``) as older versions left them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliResult = tuple[int, Any, str]
Cli = Callable[..., CliResult]

EXPORT = Path(__file__).resolve().parents[1] / "fixtures" / "peers" / "memory_lancedb_pro_export.json"


@pytest.fixture
def acme(cli: Cli) -> str:
    code, _, err = cli("tenant", "create", "acme")
    assert code == 0, err
    return "acme"


def _memories(cli: Cli, tenant: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for status in ("active", "archived", "superseded"):
        code, page, err = cli("list", "--tenant", tenant, "--limit", "100", "--status", status)
        assert code == 0, err
        found.update({m["content"]: m for m in page["memories"]})
    return found


def test_the_dry_run_accounts_for_every_memory_of_the_export(cli: Cli, acme: str) -> None:
    # Given an export of 12 memories
    rows = json.loads(EXPORT.read_text(encoding="utf-8"))["memories"]
    # When it is imported on a dry run, the invalid one left out
    code, report, err = cli(
        "import", "--tenant", acme, "--from", "memory-lancedb-pro", "--dry-run", "--skip-invalid", str(EXPORT)
    )
    # Then every memory is either to be imported or skipped with its reason
    assert code == 0, err
    assert report["dry_run"] is True
    assert report["read"] == len(rows) == 12
    assert report["imported"] + report["skipped"] == report["read"]
    assert report["imported"] == 10
    reasons = {s["item"]: s["reason"] for s in report["skipped_reasons"]}
    assert reasons.keys() == {2, 4}
    assert "'custom:team notes'" in reasons[2] and "not an Engram scope" in reasons[2]
    assert reasons[4] == "repeats item 1"
    # And the report says how scopes, categories and tiers mapped, and what was left behind
    mapping = report["mapping"]
    assert mapping["scopes"]["custom:support-team -> project:support-team"] == 1
    assert mapping["scopes"]["reflection:agent:main -> agent:main"] == 1
    assert mapping["categories"]["decision/events -> event"] == 1
    assert mapping["categories"]["other/- -> raw"] == 1
    assert mapping["tiers"]["core -> core"] == 1
    assert mapping["tiers"]["peripheral/archived -> archived"] == 1
    assert mapping["fields_not_mapped"] == {
        "bad_recall_count": 8,
        "injected_count": 8,
        "relations": 1,
        "suppressed_until_turn": 8,
    }
    assert sum(mapping["scopes"].values()) == report["imported"]
    # And nothing was written
    assert _memories(cli, acme) == {}


def test_an_invalid_memory_stops_the_import_unless_skipped(cli: Cli, acme: str) -> None:
    code, _, err = cli("import", "--tenant", acme, "--from", "memory-lancedb-pro", str(EXPORT))
    assert code != 0
    assert "1 of 12 items" in err and "nothing was imported" in err
    assert _memories(cli, acme) == {}


def test_scopes_categories_importance_times_and_tiers_are_mapped(cli: Cli, acme: str) -> None:
    # When the export is imported
    code, report, err = cli(
        "import", "--tenant", acme, "--from", "memory-lancedb-pro", "--skip-invalid", str(EXPORT)
    )
    assert code == 0, err
    assert report["imported"] == 10
    memories = _memories(cli, acme)
    # Then the full L2 text is the memory, the L0 abstract its abstract, and its numbers kept
    dark = memories["Alice prefers dark mode in every editor she uses, including the terminal."]
    assert dark["scope"] == "user:alice"
    assert dark["category"] == "preference"
    assert dark["tier"] == "core"
    assert dark["importance"] == pytest.approx(0.8)
    assert dark["created_at"].startswith("2026-01-01T00:00:00")
    assert dark["trust"] == "imported"
    assert dark["metadata"]["lancedb_id"] == "0b6f2c1e-0001-4a1b-9c55-1f0e8d7a0001"
    assert dark["source"]["session_id"] == "agent:main:telegram:direct:42"
    # And custom and reflection scopes land in Engram's kinds
    assert memories["Support hours are 9 to 5 CET"]["scope"] == "project:support-team"
    reflection = memories["When a build fails, check the cache first"]
    assert reflection["scope"] == "agent:main" and "reflection" in reflection["tags"]
    assert memories["Asked about the quarterly report"]["category"] == "raw"
    # And an archived memory stays archived; a superseded one points at its successor
    assert memories["Old onboarding checklist"]["status"] == "archived"
    old, new = memories["Lives in Lisbon"], memories["Lives in Porto"]
    assert old["status"] == "superseded" and old["superseded_by"] == new["id"]
    # And a second import of the same file adds nothing
    code, again, err = cli(
        "import", "--tenant", acme, "--from", "memory-lancedb-pro", "--skip-invalid", str(EXPORT)
    )
    assert code == 0, err
    assert again["imported"] == 0 and again["skipped"] == 12


def test_imported_memories_are_embedded_and_recalled_by_meaning(cli: Cli, acme: str) -> None:
    code, _, err = cli(
        "import", "--tenant", acme, "--from", "memory-lancedb-pro", "--skip-invalid", str(EXPORT)
    )
    assert code == 0, err
    code, answer, err = cli(
        "recall", "--tenant", acme, "--scope", "user:alice", "--query", "which colour theme does alice like?"
    )
    assert code == 0, err
    assert answer["memories"][0]["content"].startswith("Alice prefers dark mode")


def test_a_file_that_is_not_an_export_is_refused(cli: Cli, acme: str, tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"notes": []}', encoding="utf-8")
    code, _, err = cli("import", "--tenant", acme, "--from", "memory-lancedb-pro", str(path))
    assert code != 0
    assert "memories" in err
