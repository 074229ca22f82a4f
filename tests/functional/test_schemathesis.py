"""Schemathesis against a running ``engram serve``: the API does what its OpenAPI document says.

Every check (``--checks all``: no 5xx, status codes, content types, headers and bodies as
documented, schema-invalid requests refused, schema-valid ones accepted, auth enforced, 405 for
undocumented methods …) over every operation, in every phase (examples, coverage, fuzzing,
stateful), with a bounded number of examples and a fixed seed so a failure reproduces. Tenant
routes run with a tenant key, admin routes with the operator token. The hooks in
``tests/schemathesis/hooks.py`` skip only the positive requests that break a rule JSON Schema
cannot state (a past ``expires_at``, a made-up cursor) and give import a valid body.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_support import ROOT, Server, new_key, new_tenant, running_server

EXAMPLES = 25
SEED = 20261201


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("schemathesis"), "--no-lifecycle") as running:
        yield running


def _schemathesis(
    server: Server, token: str, *selection: str, report: Path
) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "run",
        f"{server.url}/v1/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        str(EXAMPLES),
        "--seed",
        str(SEED),
        "--workers",
        "1",
        "--header",
        f"Authorization: Bearer {token}",
        "--no-color",
        *selection,
    ]
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "hooks",
        "PYTHONPATH": str(ROOT / "tests" / "schemathesis"),
        "HYPOTHESIS_STORAGE_DIRECTORY": str(report.parent / "hypothesis"),
    }
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=report.parent, timeout=900)
    report.write_text(done.stdout + done.stderr)
    return done


def test_every_tenant_operation_behaves_as_documented(server: Server, tmp_path: Path) -> None:
    # Given a tenant key
    key = new_key(server, new_tenant(server))
    # When schemathesis runs every check over every tenant operation
    done = _schemathesis(server, key, "--exclude-path-regex", "^/v1/admin/", report=tmp_path / "tenant.txt")
    # Then there is no failure and no error
    assert done.returncode == 0, done.stdout[-6000:]
    assert " passed" in done.stdout


def test_every_admin_operation_behaves_as_documented(server: Server, tmp_path: Path) -> None:
    # Given the operator token
    # When schemathesis runs every check over every admin operation
    done = _schemathesis(
        server, server.operator_token, "--include-path-regex", "^/v1/admin/", report=tmp_path / "admin.txt"
    )
    # Then there is no failure and no error
    assert done.returncode == 0, done.stdout[-6000:]
    assert " passed" in done.stdout
