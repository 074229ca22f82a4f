"""The deploy docs' synth through the CDK CLI itself, not ``python app.py``.

The CLI hands the app its context as JSON (``CDK_CONTEXT_JSON``) and drops every ``null`` member on
the way, so ``usage_plans.enterprise.quota_per_day: null`` reaches the app as an absent key; only the
CLI path shows that. The CLI is the one pinned in ``infra/package.json`` (``make install`` runs
``npm ci`` there), so the test downloads nothing; it only adds an output folder of its own and
``--no-notices`` (the notices are fetched from the network).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INFRA = REPO / "infra"
DEPLOY_DOC = REPO / "docs" / "deploy.md"


def _documented_commands() -> tuple[list[str], list[str]]:
    """The CDK command (``export CDK=...``) and the deploy's arguments, as docs/deploy.md says."""
    text = DEPLOY_DOC.read_text()
    [cli] = re.findall(r'^export CDK="([^"]+)"', text, flags=re.MULTILINE)
    [deploy] = re.findall(r"^\$CDK deploy (.+?)\s+#", text, flags=re.MULTILINE)
    return cli.split(), deploy.split()


def test_the_docs_cli_is_the_one_pinned_in_infra_package_json() -> None:
    cli, _ = _documented_commands()
    assert cli == ["npx", "cdk"]
    package = json.loads((INFRA / "package.json").read_text())
    lock = json.loads((INFRA / "package-lock.json").read_text())
    pinned = package["devDependencies"]["aws-cdk"]
    assert re.fullmatch(r"2\.\d+\.\d+", pinned), "pin an exact CDK CLI 2.x version"
    assert lock["packages"]["node_modules/aws-cdk"]["version"] == pinned


def test_the_documented_cli_synth_succeeds(tmp_path: Path) -> None:
    if shutil.which("npx") is None:
        pytest.fail("npx (Node 20+) is needed: the deploy docs run the CDK CLI through it")
    if not (INFRA / "node_modules" / ".bin" / "cdk").exists():
        pytest.fail("infra/node_modules has no CDK CLI: run `make install` (npm ci in infra/)")
    cli, deploy_args = _documented_commands()
    env = {
        **os.environ,
        # no network besides what synth needs (none): no version check, telemetry or instance metadata
        "CDK_DISABLE_VERSION_CHECK": "1",
        "CDK_DISABLE_CLI_TELEMETRY": "true",
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    command = [*cli, "synth", *deploy_args, "--no-notices", "-q", "-o", str(tmp_path / "cdk.out")]
    done = subprocess.run(command, cwd=INFRA, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    template = json.loads((tmp_path / "cdk.out" / "Engram-dev.template.json").read_text())
    plans = {
        r["Properties"]["UsagePlanName"]: r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::ApiGateway::UsagePlan"
    }
    # the tier whose quota is null in cdk.json has no quota, the others keep theirs
    enterprise = next(props for name, props in plans.items() if name.endswith("enterprise"))
    assert "Quota" not in enterprise
    free = next(props for name, props in plans.items() if name.endswith("free"))
    assert free["Quota"] == {"Limit": 10000, "Period": "DAY"}
