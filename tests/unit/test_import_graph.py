"""The import graph's rules that import-linter's contracts (pyproject.toml, ``lint-imports``) do not
express: no cycle between modules, and the Lambda handlers' imports.

- No import cycle between two modules of ``engram``, ``engram_http``, ``engram_cli``,
  ``engram_dev`` or ``engram_infra``, counting imports inside functions and under
  ``TYPE_CHECKING``: the strongly connected components of grimp's graph (the one import-linter
  reads) must all be single modules.
- A handler (``functions/*/handler.py``, a folder of its own, not a package, so import-linter
  does not see it) imports services and the HTTP glue: never an adapter, ``Deps`` or the
  ``Engine``, nor the command, the tools or the stack; from the composition root only the
  builders of its one client and the readers of its input; no relative import; and it reaches no
  port of ``Deps`` behind the services' back (``deps().store``...).
"""

from __future__ import annotations

import ast
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
HANDLERS = sorted((ROOT / "functions").glob("*/handler.py"))
ROOT_PACKAGES = ("engram", "engram_http", "engram_cli", "engram_dev", "engram_infra")

BUILDERS = {
    "build_search_index",
    "build_event_publisher",
    "stream_changes",
    "build_vector_reader",
    "stream_events",
    "check_configuration",
}
"""What a handler may take from the composition root (``engram.app``): its one client's builder,
the reader of its input (the stream's records), the configuration check at init."""


@pytest.fixture(autouse=True)
def _infra_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """``engram_infra`` is not installed: it is read from the checkout, as ``make lint`` reads it,
    whether or not the infra tests' conftest ran first in this process."""
    monkeypatch.syspath_prepend(str(ROOT / "infra"))


def graph_of(*packages: str) -> grimp.ImportGraph:
    return grimp.build_graph(*packages, exclude_type_checking_imports=False, cache_dir=None)


def cycles(graph: grimp.ImportGraph) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.find_modules_directly_imported_by(target)))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.add(frozenset(component))
    return found


def chain(graph: grimp.ImportGraph, cycle: frozenset[str]) -> str:
    """One way round a cycle, with the lines: ``a:12 -> b:30 -> a``."""
    first = min(cycle)
    back = min(m for m in graph.find_modules_directly_imported_by(first) if m in cycle)
    path = graph.find_shortest_chain(importer=back, imported=first) or (back, first)
    steps = [first, *path]
    lines = [
        f"{a}:{graph.get_import_details(importer=a, imported=b)[0]['line_number']}"
        for a, b in itertools.pairwise(steps)
    ]
    return " -> ".join([*lines, first])


def test_no_import_cycle() -> None:
    graph = graph_of(*ROOT_PACKAGES)
    assert len(graph.modules) > 200  # the packages are really read
    found = [chain(graph, c) for c in sorted(cycles(graph), key=sorted)]
    assert found == []


def test_the_cycle_check_counts_lazy_and_type_checking_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a package whose modules import each other only inside a function and under TYPE_CHECKING
    package = tmp_path / "probe_cycle"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from probe_cycle import b\n    return b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from probe_cycle.c import C\n"
    )
    (package / "c.py").write_text("import probe_cycle.a\nclass C: ...\n")
    (package / "d.py").write_text("import probe_cycle.c\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    # Then the cycle a -> b -> c -> a is found, and d, which only imports it, is not in it
    graph = graph_of("probe_cycle")
    assert cycles(graph) == {frozenset({"probe_cycle.a", "probe_cycle.b", "probe_cycle.c"})}
    assert chain(graph, frozenset({"probe_cycle.a", "probe_cycle.b", "probe_cycle.c"})) == (
        "probe_cycle.a:2 -> probe_cycle.b:3 -> probe_cycle.c:1 -> probe_cycle.a"
    )
    sys.modules.pop("probe_cycle", None)


def imported(path: Path) -> Iterator[tuple[int, str, int]]:
    """Every module a file imports (line, absolute name, relative level), lazy ones and
    ``importlib.import_module("...")`` with a literal name too."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, 0
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            yield node.lineno, module, node.level
            for alias in node.names:  # "from engram import adapters" names a module too
                yield node.lineno, f"{module}.{alias.name}" if module else alias.name, node.level
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value, 0


FORBIDDEN_TO_HANDLERS = (
    "engram.adapters",
    "engram.deps",
    "engram.engine",
    "engram_cli",
    "engram_dev",
    "engram_infra",
)


def test_handlers_are_found() -> None:
    # The rules below would pass over no handler: the API's and the workers' handlers are read.
    assert len(HANDLERS) >= 10


@pytest.mark.parametrize("path", HANDLERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_handler_calls_services_not_adapters_or_ports(path: Path) -> None:
    names = list(imported(path))
    assert [(line, n) for line, n, _ in names if n.startswith(FORBIDDEN_TO_HANDLERS)] == []
    assert [(line, n) for line, n, level in names if level] == []
    from_root = {n.removeprefix("engram.app.") for _, n, _ in names if n.startswith("engram.app.")}
    assert from_root <= BUILDERS
    source = path.read_text()
    reached = [p for p in ("store", "keys", "index", "embedder", "ledger") if f"deps().{p}" in source]
    assert reached == []


def test_handlers_reach_the_services() -> None:
    # The rule above would pass over handlers that import nothing: the API's handlers do call services.
    rooms = ("engram.recall", "engram.retain", "engram.forget", "engram.memories", "engram.tenants")
    serving = [p for p in HANDLERS if any(n.startswith(rooms) for _, n, _ in imported(p))]
    assert len(serving) >= 5


def test_the_handlers_reader_catches_lazy_relative_and_importlib_imports(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import importlib\n"
        "def f():\n    from engram.adapters.sqlite.store import SqliteStore\n"
        "from . import sibling\n"
        "store = importlib.import_module('engram.deps')\n"
    )
    names = list(imported(probe))
    assert (3, "engram.adapters.sqlite.store", 0) in names
    assert (4, "sibling", 1) in names
    assert (5, "engram.deps", 0) in names


def test_make_lint_checks_the_contracts_over_every_import() -> None:
    # The contracts count TYPE_CHECKING imports, cover the five packages, and make lint runs them.
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert config["exclude_type_checking_imports"] is False
    assert tuple(config["root_packages"]) == ROOT_PACKAGES
    assert {c["type"] for c in config["contracts"]} >= {
        "forbidden",
        "protected",
        "layers",
        "acyclic_siblings",
    }
    lint = (ROOT / "Makefile").read_text().split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert "lint-imports" in lint
