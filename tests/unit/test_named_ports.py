"""Services name their ports (#29): in the rooms converted so far no function takes ``deps``,
names ``Deps`` or imports ``engram.deps``, and their handlers reach nothing of ``Deps`` but
``call`` (read from the source, lazy imports and ``TYPE_CHECKING`` blocks included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "shared" / "engram"
ROOMS = ("forget", "memories", "lifecycle", "tenants", "webhooks", "events", "indexing")
MODULES = sorted(p for room in ROOMS for p in (LIBRARY / room).glob("*.py"))
HANDLERS = sorted(
    ROOT / "functions" / name / "handler.py"
    for name in ("forget", "feedback", "admin", "lifecycle", "tenant_work", "webhooks", "authorizer")
)


def _deps_uses(tree: ast.AST) -> list[str]:
    """Where a module takes ``deps``, names ``Deps`` or imports ``engram.deps``."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "engram.deps":
            found.append(f"line {node.lineno}: from engram.deps import …")
        elif isinstance(node, ast.Import) and any(a.name == "engram.deps" for a in node.names):
            found.append(f"line {node.lineno}: import engram.deps")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            if any(a.arg == "deps" for a in every):
                found.append(f"line {node.lineno}: {node.name} takes deps")
        elif isinstance(node, ast.Name) and node.id == "Deps":
            found.append(f"line {node.lineno}: names Deps")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(LIBRARY)))
def test_no_service_of_these_rooms_takes_deps(path: Path) -> None:
    assert _deps_uses(ast.parse(path.read_text())) == []


@pytest.mark.parametrize("path", HANDLERS, ids=lambda p: p.parent.name)
def test_these_handlers_only_call_services_through_deps(path: Path) -> None:
    reached = [
        f"line {node.lineno}: .{node.attr}"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Call | ast.Name)
        and (
            (isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "deps")
            or (isinstance(node.value, ast.Name) and node.value.id == "current")
        )
        and node.attr != "call"
    ]
    assert reached == []


def test_a_service_taking_deps_is_caught() -> None:
    source = "from engram.deps import Deps\n\ndef forget(deps: Deps, context: object) -> None: ...\n"
    assert len(_deps_uses(ast.parse(source))) == 3
