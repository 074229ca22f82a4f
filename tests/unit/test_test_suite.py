"""How the suite runs in parallel (``make test``): pytest-xdist on every core, the slowest 20
listed, a slow group that still runs, per-worker DynamoDB tables, and one worker for the tests
that build into the checkout."""

from __future__ import annotations

import re
import tomllib

import pytest
from dynamodb_local import table_name
from serve_support import ROOT
from suite_layout import BUILDS_IN_CHECKOUT, SLOW_MODULES, uses_a_module_fixture


def _recipe(target: str) -> str:
    makefile = (ROOT / "Makefile").read_text()
    variables = dict(re.findall(r"^([A-Z_]+)\s*[:?]?=\s*(.*)$", makefile, re.MULTILINE))
    body = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert body, target
    recipe = body.group(1)
    for _ in range(3):  # variables that name variables
        recipe = re.sub(r"\$\(([A-Z_]+)\)", lambda m: variables.get(m.group(1), m.group(0)), recipe)
    return recipe


def test_make_test_runs_pytest_on_every_core_and_lists_the_20_slowest() -> None:
    # Given the Makefile's test recipe, Then pytest runs with xdist, grouped, with durations
    pytest_line = next(line for line in _recipe("test").splitlines() if "-m pytest" in line)
    assert "-n auto" in pytest_line and "--dist loadgroup" in pytest_line
    assert "--durations=20" in pytest_line
    assert "not slow" not in pytest_line  # the slow group still runs in make test (and CI)


def test_the_quick_run_leaves_out_only_the_slow_group() -> None:
    assert '-m "not slow"' in _recipe("test-quick")


def test_pytest_xdist_is_a_dev_dependency() -> None:
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    assert any(d.startswith("pytest-xdist") for d in dev)


def test_every_module_named_slow_or_grouped_still_exists() -> None:
    for module in (*SLOW_MODULES, *BUILDS_IN_CHECKOUT):
        assert (ROOT / module).exists(), module


def test_a_dynamodb_table_is_named_for_its_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given two xdist workers, When each names a table, Then the names differ by worker and by test
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    first, second = table_name(), table_name()
    assert first.startswith("engram-gw1-") and first != second
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert table_name().startswith("engram-main-")


@pytest.mark.xdist_group("suite-probe")
def test_a_grouped_test_carries_its_group_in_its_node_id_under_loadgroup(
    request: pytest.FixtureRequest,
) -> None:
    # Given a test in an xdist group, run by make test (pytest-xdist, --dist loadgroup)
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("only under pytest-xdist with --dist loadgroup (make test)")
    # Then its node id ends with the group, which is what the scheduler groups by
    assert request.node.nodeid.endswith("@suite-probe"), request.node.nodeid


@pytest.fixture(scope="module")
def module_probe() -> str:
    return "set up once per module"


def test_a_module_fixtures_tests_run_in_their_modules_group(
    request: pytest.FixtureRequest, module_probe: str
) -> None:
    # Given a test using a module-scoped fixture, and one using none
    assert uses_a_module_fixture(request.node)
    # Then, under make test's loadgroup, it carries its module's group (one worker sets it up)
    if getattr(request.config.option, "loadgroup", False):
        assert request.node.nodeid.endswith("@tests/unit/test_test_suite.py"), request.node.nodeid


def test_a_test_without_a_module_fixture_is_not_grouped(request: pytest.FixtureRequest) -> None:
    assert not uses_a_module_fixture(request.node)
    assert "@" not in request.node.nodeid
