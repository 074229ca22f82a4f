"""The synthesised app as the infra tests see it (kept apart from conftest so tests can import it)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aws_cdk.assertions import Template
from engram_infra.stack import EngramStack, build_app


@dataclass
class Synth:
    stack: EngramStack
    template: Template
    raw: dict[str, Any]
    outdir: Path
    error: Exception | None
    seconds: float

    def resources(self, kind: str) -> dict[str, dict[str, Any]]:
        """Logical id -> resource of one CloudFormation type (ids are only used to follow Refs)."""
        return {k: v for k, v in self.raw["Resources"].items() if v["Type"] == kind}

    def validation_report(self) -> dict[str, Any] | None:
        path = self.outdir / "validation-report.json"
        return json.loads(path.read_text()) if path.exists() else None


def synthesise(context: dict[str, Any], outdir: Path) -> Synth:
    started = time.perf_counter()
    app, stack = build_app(context, outdir=str(outdir))
    error: Exception | None = None
    try:
        app.synth()
    except RuntimeError as exc:  # cdk-nag's "ValidationFailed" (checked by the nag test)
        error = exc
    seconds = time.perf_counter() - started
    raw = json.loads((outdir / f"{stack.stack_name}.template.json").read_text())
    return Synth(
        stack=stack, template=Template.from_json(raw), raw=raw, outdir=outdir, error=error, seconds=seconds
    )


def refs(value: Any) -> set[str]:
    """Every logical id a template value points at through Ref or Fn::GetAtt."""
    found: set[str] = set()
    if isinstance(value, dict):
        if "Ref" in value:
            found.add(value["Ref"])
        if "Fn::GetAtt" in value:
            found.add(value["Fn::GetAtt"][0])
        for item in value.values():
            found |= refs(item)
    elif isinstance(value, list):
        for item in value:
            found |= refs(item)
    return found


def alarm_metrics(synth: Synth) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """The alarms, and the (namespace, metric) of each single-metric one."""
    alarms = [a["Properties"] for a in synth.resources("AWS::CloudWatch::Alarm").values()]
    return alarms, [(a["Namespace"], a["MetricName"]) for a in alarms if "Namespace" in a]


def billed_alarm_metrics(alarms: list[dict[str, Any]]) -> int:
    """What CloudWatch bills alarms for: each metric one watches (a math alarm's inputs)."""
    return sum(len([m for m in a["Metrics"] if "MetricStat" in m]) if "Metrics" in a else 1 for a in alarms)
