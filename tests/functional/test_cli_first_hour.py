"""What a newcomer reads from the ``engram`` command in the first hour: ``--help`` without reST
markup, doctor fixes that are commands (no placeholders), counts in the right number, and a
note when a tenant or key goes into a data dir no server has used (the quick start after
``make run DATA_DIR=…``)."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from serve_support import ROOT, call, running_server

from engram_cli.doctor import checks
from engram_cli.main import build_parser


def _engram(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engram_cli", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def test_every_help_text_reads_without_restructuredtext_backticks() -> None:
    # Given the CLI's parser and every subcommand's
    parser = build_parser()
    subcommands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    # When each help is formatted, Then none shows reST's double backticks
    for name, sub in [("engram", parser), *subcommands.choices.items()]:
        assert "``" not in sub.format_help(), name


def test_doctors_fixes_are_commands_not_placeholders(tmp_path: Path) -> None:
    # Given doctor on an environment without any LLM setting
    found = checks(tmp_path / "data", environ={})
    # Then each fix it gives is a whole command or value, never an ellipsis
    fixes = [c.fix for c in found if c.fix]
    assert fixes and not any("…" in fix or "..." in fix for fix in fixes), fixes
    llm = next(c for c in found if c.name == "llm")
    assert "ENGRAM_LLM_PROVIDER=openai" in llm.fix and "ENGRAM_LLM_MODEL=" in llm.fix


def test_doctor_needs_the_bundled_model_only_when_it_embeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engram_cli import doctor

    # Given an install whose model package is gone
    gone = SimpleNamespace(name="model", path=None, ok=False, actual_sha256=None, expected_sha256="0" * 64)
    monkeypatch.setattr(doctor.local_model, "files", lambda: [gone])
    # Then with the bundled model as the embedder the embedded default is not ready
    text, code = doctor.report(checks(tmp_path / "data", environ={}), as_json=False)
    assert code == 1 and re.search(r"model file +missing +its package is not installed\n", text)
    # But with an OpenAI-compatible embedder configured it is, and the file is said not to be used
    found = checks(tmp_path / "data", environ={"ENGRAM_EMBEDDER": "openai"})
    [model] = [c for c in found if c.name == "model file"]
    assert (model.status, model.required) == ("off", False)
    assert model.detail.endswith("(not used: ENGRAM_EMBEDDER=openai)")
    assert doctor.report(found, as_json=False)[1] == 0


def test_a_key_created_in_a_data_dir_no_server_used_says_so_and_names_the_option(tmp_path: Path) -> None:
    # Given a server on one data dir (as after make run DATA_DIR=…)
    served = tmp_path / "served"
    with running_server(served, "--quiet", "--no-lifecycle") as server:
        # When the quick start's CLI commands run without --data-dir (ENGRAM_DATA_DIR unset → another dir)
        other = tmp_path / "home" / ".engram"
        created = _engram("--data-dir", other, "tenant", "create", "acme")
        # Then the command says the folder was new and names the option that points at the server's
        assert created.returncode == 0, created.stderr
        assert str(other) in created.stderr and "--data-dir" in created.stderr, created.stderr
        # And with the server's data dir (here through ENGRAM_DATA_DIR) there is no note and the key works
        env = {"ENGRAM_DATA_DIR": str(served)}
        _engram("tenant", "create", "acme", env=env)
        made = _engram("key", "create", "acme", "--json", env=env)
        assert made.returncode == 0 and made.stderr == "", made.stderr
        key = json.loads(made.stdout)["api_key"]
        assert call(server, "GET", "/v1/stats", key=key).status == 200


def test_an_erase_of_one_memory_says_memory(tmp_path: Path) -> None:
    # Given a tenant with one memory
    data = tmp_path / "data"
    _engram("--data-dir", data, "tenant", "create", "solo")
    kept = _engram(
        "--data-dir", data, "retain", "--tenant", "solo", "--scope", "user:a", "--text", "I like tea"
    )
    assert kept.returncode == 0, kept.stderr
    # When the tenant is erased
    erased = _engram("--data-dir", data, "tenant", "erase", "solo")
    # Then the count reads in the singular
    assert erased.stdout.strip() == "erased solo: 1 memory", erased.stdout + erased.stderr
