"""Every function of the synthesised stack, run as Lambda lays it out, against local stand-ins.

``Deployment.start`` builds the layer with the stack's own builder for this machine's platform
and Python, copies each function's staged asset (``cdk.out/asset.*``, what ``cdk deploy`` would
upload) into a task root of its own, and resolves the template's environment variables to the
stand-ins: DynamoDB Local for the table, an OpenSearch domain stand-in over HTTPS for the domain
(``opensearch_standin``), moto's server for S3, SQS, Secrets Manager and API Gateway, and a
Bedrock stand-in. Each function then runs in a process of its own (``lambda_runtime.py``) whose
``sys.path`` is its task root, the layer's ``python/`` and the standard library; the endpoints
are given the way the AWS SDK reads them (``AWS_ENDPOINT_URL_<SERVICE>``), never by changing
what the template says.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from engram_infra.layer import REPO_ROOT, build_layer, machine_platforms

TESTS = Path(__file__).resolve().parents[1]
RUNTIME = TESTS / "lambda_runtime.py"
LOCAL_LAYER = REPO_ROOT / "build" / "layer-local"
REGION = "eu-west-1"
ACCOUNT = "123456789012"
PSEUDO = {
    "AWS::Region": REGION,
    "AWS::AccountId": ACCOUNT,
    "AWS::Partition": "aws",
    "AWS::URLSuffix": "amazonaws.com",
}


def build_local_layer() -> Path:
    """The stack's layer, built by its builder for this machine (``python/`` is ``/opt/python``)."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    return build_layer(LOCAL_LAYER, python_version=version, platforms=machine_platforms()).path / "python"


class Resolver:
    """CloudFormation intrinsics of a template, resolved to the stand-ins' physical names."""

    def __init__(self, refs: dict[str, str], attrs: dict[tuple[str, str], str]) -> None:
        self.refs = refs
        self.attrs = attrs

    def __call__(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self(v) for v in value]
        if not isinstance(value, dict):
            return value
        if "Ref" in value:
            name = value["Ref"]
            if name in PSEUDO:
                return PSEUDO[name]
            return self.refs[name]
        if "Fn::GetAtt" in value:
            lid, attr = value["Fn::GetAtt"]
            return self.attrs[(lid, attr)]
        if "Fn::Join" in value:
            separator, parts = value["Fn::Join"]
            return separator.join(str(self(p)) for p in parts)
        if "Fn::Select" in value:
            index, items = value["Fn::Select"]
            return self(items)[int(index)]
        if "Fn::Split" in value:
            separator, text = value["Fn::Split"]
            return str(self(text)).split(separator)
        return {k: self(v) for k, v in value.items()}


@dataclass
class Function:
    name: str
    function_name: str
    handler: str
    timeout_s: int
    memory_mb: int
    env: dict[str, str]
    task_root: Path
    role_arn: str
    access_key: str


@dataclass
class Runner:
    """One warm container: a process that imported the handler once and serves invocations."""

    function: Function
    process: subprocess.Popen[str]
    init: dict[str, Any]
    lock: threading.Lock = field(default_factory=threading.Lock)

    def invoke(self, event: dict[str, Any]) -> Any:
        with self.lock:
            assert self.process.stdin is not None and self.process.stdout is not None
            request = {
                "event": event,
                "timeout_s": self.function.timeout_s,
                "memory_mb": self.function.memory_mb,
            }
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise InvocationError(self.function.name, answer["error"])
        return answer["result"]

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class InvocationError(Exception):
    def __init__(self, function: str, error: dict[str, Any]) -> None:
        super().__init__(f"{function}: {error['type']}: {error['message']} {error.get('stand_ins') or ''}")
        self.error = error


def start_runner(
    function: Function, opt_python: Path, logs: Path, env: dict[str, str] | None = None
) -> Runner:
    process = subprocess.Popen(
        [
            sys.executable,
            "-I",
            "-S",
            str(RUNTIME),
            str(function.task_root),
            str(opt_python),
            function.handler,
        ],
        env=env if env is not None else function.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=(logs / f"{function.name}.log").open("a"),
        text=True,
        cwd=function.task_root,
    )
    assert process.stdout is not None
    init = json.loads(process.stdout.readline() or '{"init_error": {"type": "exited", "message": ""}}')
    return Runner(function=function, process=process, init=init)


def lambda_json(value: Any) -> Any:
    """A record as boto3 returns it, as Lambda's event JSON carries it (bytes base64, times epoch)."""
    if isinstance(value, dict):
        return {k: lambda_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [lambda_json(v) for v in value]
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, datetime):
        return value.timestamp()
    return value


def function_assets(raw: dict[str, Any], outdir: Path) -> dict[str, tuple[str, dict[str, Any], Path]]:
    """ENGRAM_FUNCTION -> (logical id, properties, staged asset folder) of the stack's functions:
    the folder the cloud assembly's asset manifest names for the function's code (what a deploy
    zips and uploads)."""
    [manifest] = outdir.glob("*.assets.json")
    files = json.loads(manifest.read_text())["files"]
    out = {}
    for lid, resource in raw["Resources"].items():
        if resource["Type"] != "AWS::Lambda::Function":
            continue
        env = resource["Properties"].get("Environment", {}).get("Variables", {})
        if "ENGRAM_FUNCTION" in env:
            out[env["ENGRAM_FUNCTION"]] = (
                lid,
                resource["Properties"],
                outdir
                / files[resource["Properties"]["Code"]["S3Key"].removesuffix(".zip")]["source"]["path"],
            )
    return out


def iam_methods(raw: dict[str, Any], role: str) -> set[str]:
    """The HTTP methods a role's IAM policies allow on the search domain (es:ESHttp<Method>)."""
    methods: set[str] = set()
    for resource in raw["Resources"].values():
        if resource["Type"] != "AWS::IAM::Policy":
            continue
        if {"Ref": role} not in resource["Properties"].get("Roles", []):
            continue
        for statement in resource["Properties"]["PolicyDocument"]["Statement"]:
            actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
            methods |= {a.removeprefix("es:ESHttp").upper() for a in actions if a.startswith("es:ESHttp")}
    return methods


def copy_task_root(asset: Path, target: Path) -> Path:
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(asset, target)
    return target


def environ_base() -> dict[str, str]:
    """What every Lambda process starts with (besides the template's variables)."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TZ": ":UTC", "LANG": "C.UTF-8"}


def records_of_stream(streams: Any, arn: str, after: dict[str, str]) -> Iterator[dict[str, Any]]:
    """New records of every shard since the last call (``after``: shard -> last sequence number)."""
    for shard in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
        shard_id = shard["ShardId"]
        if shard_id in after:
            iterator = streams.get_shard_iterator(
                StreamArn=arn,
                ShardId=shard_id,
                ShardIteratorType="AFTER_SEQUENCE_NUMBER",
                SequenceNumber=after[shard_id],
            )["ShardIterator"]
        else:
            iterator = streams.get_shard_iterator(
                StreamArn=arn, ShardId=shard_id, ShardIteratorType="TRIM_HORIZON"
            )["ShardIterator"]
        while iterator:
            page = streams.get_records(ShardIterator=iterator)
            for record in page["Records"]:
                after[shard_id] = record["dynamodb"]["SequenceNumber"]
                yield record
            if not page["Records"]:
                break
            iterator = page.get("NextShardIterator")
