"""Shared fixtures: a real engine on the embedded default in a temporary data dir."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from scripted_llm import ScriptedLLM, corpus_exchanges, load_exchanges

from engram.app import Engine
from engram.cli import main
from engram.settings import Settings


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "engram-data"


@pytest.fixture
def engine(data_dir: Path) -> Engine:
    engine = Engine.local(Settings(data_dir=data_dir))
    engine.create_tenant("acme")
    engine.create_tenant("globex")
    return engine


CliResult = tuple[int, Any, str]


@pytest.fixture
def cli(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run ``engram --json --data-dir <tmp> ARGS``; returns (exit code, parsed stdout, stderr)."""

    def run(*args: str) -> CliResult:
        code = main(["--data-dir", str(data_dir), "--json", *args])
        out, err = capsys.readouterr()
        parsed = json.loads(out) if out.strip() else None
        return code, parsed, err

    return run


@pytest.fixture(scope="session")
def scripted_llm_server() -> Iterator[ScriptedLLM]:
    """The scripted OpenAI-compatible server, one per session (its recorded answers never change)."""
    server = ScriptedLLM([*load_exchanges("smart"), *corpus_exchanges()]).start()
    yield server
    server.stop()


@pytest.fixture
def scripted_llm(scripted_llm_server: ScriptedLLM) -> ScriptedLLM:
    """The scripted server with no requests seen and no outage scripted yet."""
    scripted_llm_server.reset()
    return scripted_llm_server
