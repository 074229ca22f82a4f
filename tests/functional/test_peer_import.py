"""``engram import --from mem0|jsonl``: another service's export into a real local store, by the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engram_cli.main import main

CliResult = tuple[int, Any, str]
Cli = Callable[..., CliResult]

MEM0_EXPORT = Path(__file__).resolve().parents[1] / "fixtures" / "peers" / "mem0_export.json"


@pytest.fixture
def acme(cli: Cli) -> str:
    code, _, err = cli("tenant", "create", "acme")
    assert code == 0, err
    return "acme"


def _memories(cli: Cli, tenant: str) -> dict[str, dict[str, Any]]:
    code, page, err = cli("list", "--tenant", tenant, "--limit", "100")
    assert code == 0, err
    return {m["content"]: m for m in page["memories"]}


def _jsonl(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "memories.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_mem0_export_lands_in_the_scopes_of_its_owners(cli: Cli, acme: str) -> None:
    # Given mem0's get_all saved as JSON
    # When it is imported
    code, report, err = cli("import", "--tenant", acme, "--from", "mem0", str(MEM0_EXPORT))
    # Then every memory is in the scope of its user, else its agent, else its run, else global
    assert code == 0, err
    assert report["imported"] == 5 and report["skipped"] == 0
    assert report["by_scope"] == {
        "agent:release-bot": 1,
        "global": 1,
        "session:onboarding-42": 1,
        "user:priya": 2,
    }
    memories = _memories(cli, acme)
    assert memories["Has a golden retriever named Biscuit"]["scope"] == "user:priya"
    assert memories["Deploys go out on Tuesdays after the change review"]["scope"] == "agent:release-bot"
    assert memories["Asked for a summary of the onboarding call"]["scope"] == "session:onboarding-42"
    assert memories["The office is closed on public holidays"]["scope"] == "global"


def test_mem0_categories_metadata_and_times_are_kept(cli: Cli, acme: str) -> None:
    # Given a mem0 memory with categories, nested metadata and its own times
    # When the export is imported
    code, _, err = cli("import", "--tenant", acme, "--from", "mem0", str(MEM0_EXPORT))
    assert code == 0, err
    seat = _memories(cli, acme)["Prefers window seats on long flights"]
    # Then its categories are tags and name the kind, its metadata is flat with the mem0 id,
    # and its times are mem0's (in UTC)
    assert seat["category"] == "preference"
    assert seat["tags"] == ["user_preferences", "travel"]
    assert seat["metadata"] == {
        "source": "chat",
        "channel.name": "mobile",
        "channel.version": 3,
        "mem0_id": "6f1c2a8e-3b7d-4c55-9a0e-1d2f3a4b5c6d",
    }
    assert seat["created_at"] == "2025-03-04T17:15:00Z"
    assert seat["updated_at"] == "2025-03-05T18:00:00Z"
    assert seat["trust"] == "imported"
    dog = _memories(cli, acme)["Has a golden retriever named Biscuit"]
    assert dog["category"] == "profile" and dog["source"]["session_id"] == "trip-planning-7"
    assert dog["metadata"]["mem0_run_id"] == "trip-planning-7"


def test_imported_memories_are_recalled(cli: Cli, acme: str) -> None:
    # Given an imported mem0 export
    cli("import", "--tenant", acme, "--from", "mem0", str(MEM0_EXPORT))
    # When the user asks about their pet
    code, result, err = cli(
        "recall", "--tenant", acme, "--query", "what is my dog called?", "--scope", "user:priya"
    )
    # Then the imported memory answers
    assert code == 0, err
    assert result["memories"][0]["content"] == "Has a golden retriever named Biscuit"


def test_a_dry_run_reports_what_it_would_import_and_writes_nothing(cli: Cli, acme: str) -> None:
    # When a dry run reads the export
    code, report, err = cli("import", "--tenant", acme, "--from", "mem0", "--dry-run", str(MEM0_EXPORT))
    # Then it says all five would be imported, and the tenant is still empty
    assert code == 0, err
    assert report["dry_run"] is True and report["imported"] == 5 and report["read"] == 5
    assert _memories(cli, acme) == {}


def test_importing_the_same_export_twice_skips_every_memory_with_its_reason(cli: Cli, acme: str) -> None:
    # Given an export imported once
    cli("import", "--tenant", acme, "--from", "mem0", str(MEM0_EXPORT))
    # When it is imported again
    code, report, err = cli("import", "--tenant", acme, "--from", "mem0", str(MEM0_EXPORT))
    # Then nothing new is written and each item says it is already there
    assert code == 0, err
    assert report["imported"] == 0 and report["skipped"] == 5
    assert [s["item"] for s in report["skipped_reasons"]] == [1, 2, 3, 4, 5]
    assert all(s["reason"].startswith("already in the tenant as mem_") for s in report["skipped_reasons"])
    assert len(_memories(cli, acme)) == 5


def test_a_mem0_export_one_record_a_line_is_read_too(cli: Cli, acme: str, tmp_path: Path) -> None:
    # Given the same records written one a line
    records = json.loads(MEM0_EXPORT.read_text())["results"]
    path = _jsonl(tmp_path, [json.dumps(r) for r in records])
    # When imported
    code, report, err = cli("import", "--tenant", acme, "--from", "mem0", str(path))
    # Then all five are imported
    assert code == 0, err
    assert report["imported"] == 5


def test_a_jsonl_of_texts_takes_strings_and_objects(cli: Cli, acme: str, tmp_path: Path) -> None:
    # Given bare strings and objects with a scope, metadata, tags and a time
    path = _jsonl(
        tmp_path,
        [
            json.dumps("Likes oat milk in coffee"),
            "",
            json.dumps(
                {
                    "text": "Moved to Lisbon in 2024",
                    "scope": "user:ana",
                    "metadata": {"origin": "notes"},
                    "tags": ["moves"],
                    "occurred_at": "2024-06-01T00:00:00Z",
                }
            ),
            json.dumps({"text": "Likes oat milk in coffee"}),
        ],
    )
    # When imported with a default scope for the lines that name none
    code, report, err = cli("import", "--tenant", acme, "--from", "jsonl", "--scope", "user:bo", str(path))
    # Then each line is a raw memory where it belongs, and the repeated line is skipped by number
    assert code == 0, err
    assert report["imported"] == 2 and report["by_scope"] == {"user:ana": 1, "user:bo": 1}
    assert report["skipped_reasons"] == [{"line": 4, "reason": "repeats line 1"}]
    memories = _memories(cli, acme)
    lisbon = memories["Moved to Lisbon in 2024"]
    assert lisbon["metadata"] == {"origin": "notes"} and lisbon["tags"] == ["moves"]
    assert lisbon["occurred_at"] == "2024-06-01T00:00:00Z" and lisbon["category"] == "raw"
    assert memories["Likes oat milk in coffee"]["scope"] == "user:bo"


def test_bad_lines_are_named_by_number_and_nothing_is_written(cli: Cli, acme: str, tmp_path: Path) -> None:
    # Given a JSONL with one good line and three bad ones
    path = _jsonl(
        tmp_path,
        [
            json.dumps("A perfectly good memory"),
            "{not json",
            json.dumps({"text": "Wrong scope", "scope": "team:x"}),
            json.dumps({"txt": "a typo in the key"}),
        ],
    )
    # When imported
    code, _, err = cli("import", "--tenant", acme, "--from", "jsonl", str(path))
    # Then the import fails naming lines 2, 3 and 4 and the field, and writes nothing
    assert code == 2
    error = json.loads(err)["error"]
    assert error["code"] == "validation_error" and "nothing was imported" in error["message"]
    assert [d["line"] for d in error["details"]] == [2, 3, 4]
    assert "not valid JSON" in error["details"][0]["message"]
    assert error["details"][1]["message"].startswith("scope:")
    assert "txt" in error["details"][2]["message"]
    assert _memories(cli, acme) == {}


def test_skip_invalid_imports_the_good_lines_and_lists_the_bad(cli: Cli, acme: str, tmp_path: Path) -> None:
    # Given a mem0 export whose second item has a user id that cannot name a scope
    records = json.loads(MEM0_EXPORT.read_text())["results"][:2]
    records[1]["user_id"] = "priya smith"
    path = tmp_path / "mem0.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    # When imported with --skip-invalid
    code, report, err = cli("import", "--tenant", acme, "--from", "mem0", "--skip-invalid", str(path))
    # Then the first is imported and the second is reported with the field at fault
    assert code == 0, err
    assert report["imported"] == 1 and report["skipped"] == 1
    [skip] = report["skipped_reasons"]
    assert skip["item"] == 2 and "from user_id" in skip["reason"]


def test_the_progress_bar_counts_the_memories_written(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a tenant
    main(["--data-dir", str(data_dir), "tenant", "create", "acme"])
    capsys.readouterr()
    # When a person (no --json) imports the mem0 export
    code = main(
        ["--data-dir", str(data_dir), "import", "--tenant", "acme", "--from", "mem0", str(MEM0_EXPORT)]
    )
    out, err = capsys.readouterr()
    # Then the bar ends at 5 of 5 and the summary names the scopes
    assert code == 0
    assert "5/5" in err
    assert out.startswith("imported 5 of 5 (agent:release-bot 1, global 1")


def test_dry_run_with_an_engram_export_is_refused(cli: Cli, acme: str, tmp_path: Path) -> None:
    # When --dry-run is given for the native export format
    with pytest.raises(SystemExit) as exit_info:
        cli("import", "--tenant", acme, "--dry-run", str(tmp_path / "x.jsonl"))
    # Then the command line is refused
    assert exit_info.value.code == 2
