"""The layers as the import graph shows them, read from the source (every import, lazy ones too).

- The domain library (``engram``) imports none of the code around it: not the HTTP glue
  (``engram_http``), not the command (``engram_cli``), not the developer tools (``engram_dev``),
  not a Lambda handler, not the stack.
- A service (the modules that carry an operation's logic) imports ports, models and pure code,
  never an adapter: which adapter serves a port is the composition root's choice (``engram.app``),
  and only the composition root picks one (no other module of the library imports an adapter
  but the adapters themselves).
- A handler imports services, never an adapter nor the composition root's builders of them; and
  no handler reaches the ports of ``Deps`` behind the services' back (``deps().store``...).
- Nothing deployed (the library, the HTTP glue, the handlers) imports the command or the tools.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "shared" / "engram"
HANDLERS = sorted((ROOT / "functions").glob("*/handler.py"))
GLUE = ROOT / "functions" / "engram_http"

OUTSIDE_THE_LIBRARY = ("engram_http", "engram_cli", "engram_dev", "engram_infra", "aws_cdk", "functions")
# Composition roots choose adapters; the library's services do not.
COMPOSITION = {"app"}
SERVICE_PACKAGES = {
    "extraction",
    "scoring",
    "screening",
    "background",
    "recall",
    "retain",
    "forget",
    "memories",
    "lifecycle",
    "tenants",
    "webhooks",
    "events",
    "metering",
    "indexing",
    "embedding",
    "imports",
}
NOT_SERVICES = {"adapters", "models", "ports", "settings", "errors", "auth", *COMPOSITION}
FACADE = {"engine"}
"""``engram.engine``: the scripts' façade over the services; it imports the composition root."""


def imported(path: Path) -> Iterator[tuple[int, str]]:
    """Every module a file imports (absolute names), with its line."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            for alias in node.names:  # "from engram import adapters" names a module too
                yield node.lineno, f"{node.module}.{alias.name}"


def library_modules() -> list[Path]:
    return sorted(LIBRARY.rglob("*.py"))


def is_service(path: Path) -> bool:
    parts = path.relative_to(LIBRARY).with_suffix("").parts
    return parts[0] in SERVICE_PACKAGES or (len(parts) == 1 and parts[0] not in NOT_SERVICES)


def test_the_graph_is_read_from_real_files() -> None:
    # The rules below would pass over an empty tree: make sure they see the code.
    services = [p for p in library_modules() if is_service(p)]
    names = {p.relative_to(LIBRARY).parts[0].removesuffix(".py") for p in services}
    assert {"retain", "recall", "forget", "memories", "lifecycle", "indexing", "tenants"} <= names
    assert len(HANDLERS) >= 10
    assert any(name == "engram.adapters.sqlite.store" for _, name in imported(LIBRARY / "app.py"))


@pytest.mark.parametrize("path", library_modules(), ids=lambda p: str(p.relative_to(LIBRARY)))
def test_the_domain_library_imports_nothing_around_it(path: Path) -> None:
    leaks = [
        f"{path.name}:{line} imports {name}"
        for line, name in imported(path)
        if name.split(".")[0] in OUTSIDE_THE_LIBRARY
    ]
    assert leaks == []


@pytest.mark.parametrize(
    "path", [p for p in library_modules() if is_service(p)], ids=lambda p: str(p.relative_to(LIBRARY))
)
def test_a_service_never_imports_an_adapter(path: Path) -> None:
    leaks = [
        f"{path.name}:{line} imports {name}"
        for line, name in imported(path)
        if name.startswith("engram.adapters")
    ]
    assert leaks == []


@pytest.mark.parametrize(
    "path",
    [*HANDLERS, *sorted(GLUE.rglob("*.py"))],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_nothing_deployed_imports_the_command_or_the_tools(path: Path) -> None:
    leaks = [
        f"{path.name}:{line} imports {name}"
        for line, name in imported(path)
        if name.split(".")[0] in ("engram_cli", "engram_dev")
    ]
    assert leaks == []


@pytest.mark.parametrize(
    "path",
    [p for p in library_modules() if p.relative_to(LIBRARY).parts[0] != "adapters"],
    ids=lambda p: str(p.relative_to(LIBRARY)),
)
def test_only_the_composition_root_picks_an_adapter(path: Path) -> None:
    parts = path.relative_to(LIBRARY).with_suffix("").parts
    picks = [name for _, name in imported(path) if name.startswith("engram.adapters")]
    if parts[0] in COMPOSITION:
        assert picks  # the root does pick them
        return
    allowed = {"engram.adapters.clock"} if parts[0] in FACADE else set()
    assert [p for p in picks if p not in allowed] == []


@pytest.mark.parametrize("path", HANDLERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_handler_calls_services_not_adapters_or_ports(path: Path) -> None:
    names = [name for _, name in imported(path)]
    assert [n for n in names if n.startswith("engram.adapters") or n.startswith("engram.engine")] == []
    source = path.read_text()
    reached = [
        port for port in ("store", "keys", "index", "embedder", "ledger") if f"deps().{port}" in source
    ]
    assert reached == []


def test_handlers_reach_the_services() -> None:
    # The rule above would pass over handlers that import nothing: the API's handlers do call services.
    rooms = tuple(f"engram.{room}" for room in SERVICE_PACKAGES)
    serving = [p for p in HANDLERS if any(n.startswith(rooms) for _, n in imported(p))]
    assert len(serving) >= 5


def test_an_import_of_an_adapter_by_a_service_is_caught(tmp_path: Path) -> None:
    # The checker itself: a lazy import inside a function counts as much as a top-level one.
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from engram.adapters.sqlite.store import SqliteStore\n")
    assert (2, "engram.adapters.sqlite.store") in list(imported(probe))
