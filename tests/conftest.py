"""Shared fixtures: a real engine on the embedded default in a temporary data dir; and how the
suite runs in parallel (``make test``: pytest-xdist, ``--dist loadgroup``).

Each xdist worker is its own process with its own session fixtures: its own DynamoDB Local (on
a free port, tables named for the worker), its own servers on port 0, its own ``tmp_path``
folders. What cannot be made per worker, because it builds into the checkout (the Lambda layer
in ``build/``, the wheel and its ``egg-info``), runs in one xdist group, so on one worker; so do the tests of a module with a module-scoped
fixture (a server, a played scenario), which would otherwise set it up on each worker. The
slow end-to-end and benchmark-like modules are marked ``slow`` here (``make test-quick`` leaves
them out; ``make test`` and CI run them) and are collected first, so the long ones start early.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from scripted_llm import ScriptedLLM, corpus_exchanges, load_exchanges
from serve_support import ROOT
from store_support import Backend, open_backend
from suite_layout import BUILDS_IN_CHECKOUT, SLOW_MODULES, uses_a_module_fixture

from engram.engine import Engine
from engram.ports import Clock
from engram.settings import Settings
from engram_cli.main import main


def _join_group(item: pytest.Item, group: str) -> None:
    """Put ``item`` in an xdist group: ``--dist loadgroup`` schedules by the ``@group`` ending of
    the node id. pytest-xdist 3.8 appends it through ``item._nodeid``, which pytest 9.2 no longer
    reads (the id lives in ``item._id``), so the ending is set here, the way this pytest keeps it."""
    item.add_marker(pytest.mark.xdist_group(group))
    if not getattr(item.config.option, "loadgroup", False) or item.nodeid.endswith(f"@{group}"):
        return
    if hasattr(item, "_id"):  # pytest >= 9.2
        from _pytest.nodes import coerce_node_id

        item._id = coerce_node_id(f"{item.nodeid}@{group}")
    else:
        item._nodeid = f"{item.nodeid}@{group}"


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        where = Path(str(item.path)).resolve().relative_to(ROOT).as_posix()
        if where in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        group = next((g for prefix, g in BUILDS_IN_CHECKOUT.items() if where.startswith(prefix)), None)
        if group is None:
            marked = item.get_closest_marker("xdist_group")
            group = str(marked.args[0]) if marked and marked.args else None
        if group is None and uses_a_module_fixture(item):
            group = where  # its module's tests on one worker: the fixture is set up once
        if group is not None:
            _join_group(item, group)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow ones first


@pytest.fixture(scope="session")
def dynamodb_local() -> Iterator[Any]:
    """One DynamoDB Local server for the whole session, started on first use."""
    from dynamodb_local import start

    server = start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "dynamodb"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """Each store backend with two tenants and a fixed clock (the per-port suites in tests/contract)."""
    yield from open_backend(request, tmp_path)


@pytest.fixture(scope="session")
def engram_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once per session outside the checkout from its sdist (what a
    package index would get), as a user would get it."""
    outside = tmp_path_factory.mktemp("wheel")
    # PYTHONPATH and the checkout's venv must not leak into the build.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(outside), str(ROOT)],
        cwd=outside,  # not ROOT: the build leaves nothing in the checkout but its ignored build/
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return next(outside.glob("engram_recall-*.whl"))


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "engram-data"


BACKENDS = ["embedded", "dynamodb"]
"""The service-level suite runs on each: the embedded default, and the AWS store (DynamoDB
Local over real HTTP) paired with the in-process index (no OpenSearch server runs here)."""


def build_engine(
    backend: str, data_dir: Path, request: pytest.FixtureRequest, *, clock: Clock | None = None
) -> Engine:
    """An engine whose reads embed the backlog first (``background_embedding`` off), so that what a
    test retains is searchable by vector at once; the default, where a background thread embeds
    and recall never waits, has its own tests (``test_deferred_embedding``)."""
    if backend == "embedded":
        return Engine.local(Settings(data_dir=data_dir, background_embedding=False), clock=clock)
    from engram.settings import AwsSettings

    server = request.getfixturevalue("dynamodb_local")
    client = server.client()
    table = server.new_table(client)
    settings = Settings(
        backend="aws",
        background_embedding=False,
        data_dir=data_dir,
        operator_token="op-" + table,
        aws=AwsSettings(table=table, index="memory", key_pepper="pepper-for-tests-" + table),
    )
    return Engine.aws(settings, dynamodb=client, clock=clock)


@pytest.fixture(params=BACKENDS)
def engine(data_dir: Path, request: pytest.FixtureRequest) -> Iterator[Engine]:
    engine = build_engine(request.param, data_dir, request)
    engine.create_tenant("acme")
    engine.create_tenant("globex")
    yield engine
    engine.close()
    if request.param == "dynamodb":
        store: Any = engine.store
        store.records.client.delete_table(TableName=store.records.table)


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
