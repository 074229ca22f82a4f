"""The services of recall, retain and imports name their ports (#29): none takes ``Deps``, and
every port one requires is one ``Deps.call`` can pass it (``engram.deps.PORTS``)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engram
from engram import imports, recall, retain
from engram.deps import PORTS
from engram.imports import transfer
from engram.retain import jobs

SERVICES: list[Callable[..., Any]] = [
    recall.run,
    retain.run,
    jobs.submit_retain,
    jobs.get_job,
    jobs.run_job,
    jobs.execute,
    imports.import_text,
    imports.import_lines,
    imports.import_peer_file,
    imports.submit,
    imports.run_job,
    imports.execute,
    imports.new_upload,
    imports.start_upload,
    transfer.export_lines,
    transfer.export_link,
    transfer.import_lines,
]
ROOMS = ("recall", "retain", "imports")


@pytest.mark.parametrize("service", SERVICES, ids=lambda s: f"{s.__module__}.{s.__name__}")
def test_a_service_names_ports_deps_can_pass(service: Callable[..., Any]) -> None:
    parameters = inspect.signature(service).parameters.values()
    assert all(p.name != "deps" for p in parameters)
    required = [p.name for p in parameters if p.kind is p.KEYWORD_ONLY and p.default is p.empty]
    assert required and set(required) <= PORTS, set(required) - PORTS


@pytest.mark.parametrize("room", ROOMS)
def test_no_module_of_the_room_imports_deps(room: str) -> None:
    for path in sorted((Path(engram.__file__).parent / room).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        named |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "engram.deps" not in named, path.name
        assert "Deps" not in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}, path.name
