"""Which tests are slow, and which build into the checkout: read by ``conftest.py``, which marks
and groups them at collection, and by ``tests/unit/test_test_suite.py``."""

from __future__ import annotations

from typing import Any

SLOW_MODULES = (
    "tests/e2e/test_inspector.py",  # a real chromium against a real server
    "tests/functional/test_wheel_install.py",  # builds the wheel, installs it in fresh venvs
    "tests/functional/test_client_install.py",  # the client extra in a fresh venv
    "tests/functional/test_schemathesis.py",  # the API fuzzed from its OpenAPI document
    "tests/functional/test_eval_locomo.py",  # the evaluator over a dev set
    "tests/functional/test_lifecycle_simulation.py",  # months of decay and tiering, simulated
    "tests/functional/test_bench_compare.py",  # benchmark runs on two checkouts
    "tests/functional/test_smoke.py",  # the smoke run end to end
    "tests/infra/test_lambda_layout.py",  # the functions run as Lambda lays them out
)
"""Modules marked ``slow``: end to end or benchmark-like (listed here, not in each file, so
the list is one place to read; ``test_test_suite`` checks that each still exists)."""

BUILDS_IN_CHECKOUT = {
    "tests/infra/": "layer",  # build/layer and build/layer-local
    "tests/functional/test_wheel_install.py": "wheel",  # python -m build on the checkout
    "tests/functional/test_client_install.py": "wheel",
}
"""xdist groups: tests that write the same folder of the checkout run on one worker."""


def uses_a_module_fixture(item: Any) -> bool:
    """Whether a collected test uses a module-scoped fixture (a server, a played scenario, a
    loaded model): spread over two workers, its module would set that fixture up on each, so
    ``conftest.py`` groups such a module's tests on one worker."""
    info = getattr(item, "_fixtureinfo", None)
    chains = info.name2fixturedefs.values() if info is not None else ()
    return any(d.scope == "module" for chain in chains for d in chain)
