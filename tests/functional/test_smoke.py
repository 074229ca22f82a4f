"""``engram smoke`` against ``engram serve``: every step passes and is timed, a failure is exit 1."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
from serve_support import ROOT, running_server


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    # serve_support keeps reading the server's output: a pipe left unread blocks it once full.
    with running_server(tmp_path_factory.mktemp("smoke-serve"), "--no-lifecycle") as server:
        yield server.url, server.operator_token


def smoke(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engram_cli", "smoke", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_the_smoke_check_passes_every_step_against_a_running_server(served: tuple[str, str]) -> None:
    url, token = served
    done = smoke("--url", url, "--operator-token", token)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:4] == ["step", "result", "status", "ms"]
    steps = [line.split()[0:2] for line in lines[1:-1]]
    assert [s[0] for s in steps] == [
        "create",
        "create",
        "retain",
        "recall",
        "smart",
        "forget",
        "docs",
        "erase",
    ]
    assert all(" ok " in line and "FAILED" not in line for line in lines[1:-1])
    assert lines[-1] == "smoke check passed"


def test_the_smoke_check_reports_each_steps_latency_as_json_and_leaves_no_tenant(
    served: tuple[str, str],
) -> None:
    url, token = served
    done = smoke("--json", "--url", url, "--operator-token", token)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["ok"] is True, done.stdout
    assert [s["name"] for s in report["steps"]] == [
        "create tenant", "create key", "retain", "recall", "smart retain", "forget", "docs", "erase tenant",
    ]  # fmt: skip
    assert all(s["ok"] and s["ms"] > 0 for s in report["steps"])
    # the throwaway tenant is gone
    import httpx

    gone = httpx.delete(
        f"{url}/v1/admin/tenants/{report['tenant']}", headers={"Authorization": f"Bearer {token}"}
    )
    assert gone.status_code == 404


def test_a_wrong_operator_token_fails_the_smoke_check_with_exit_1(served: tuple[str, str]) -> None:
    url, _ = served
    done = smoke("--json", "--url", url, "--operator-token", "not-the-token")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["ok"] is False
    [create, docs] = report["steps"]  # nothing to erase when no tenant was made
    assert (create["name"], create["ok"]) == ("create tenant", False) and "401" in create["note"]
    assert docs["ok"] is True
