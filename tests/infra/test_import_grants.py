"""What an import job needs in the stack: the memories function queues it as a step; the step
worker reads the upload, embeds the texts and removes the upload (asserted on the template)."""

from __future__ import annotations

from typing import Any

from engram_infra.config import Config
from infra_support import Synth
from infra_support import refs as _refs

CONFIG = Config.from_values({})


def _statements(synth: Synth, function: str) -> list[dict[str, Any]]:
    fn = next(
        r
        for r in synth.resources("AWS::Lambda::Function").values()
        if r["Properties"]["FunctionName"] == f"{CONFIG.prefix}-{function.replace('_', '-')}"
    )
    role = _refs(fn["Properties"]["Role"]).pop()
    return [
        statement
        for policy in synth.resources("AWS::IAM::Policy").values()
        if role in _refs(policy["Properties"]["Roles"])
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def _granted(statements: list[dict[str, Any]], action: str, resource: str) -> bool:
    for s in statements:
        actions = s["Action"] if isinstance(s["Action"], list) else [s["Action"]]
        if action in actions and resource in _refs(s["Resource"]):
            return True
    return False


def test_the_memories_function_queues_import_jobs_on_the_step_queue(synth: Synth) -> None:
    queues = {q["Properties"]["QueueName"]: lid for lid, q in synth.resources("AWS::SQS::Queue").items()}
    steps = queues[f"{CONFIG.prefix}-steps"]
    assert _granted(_statements(synth, "memories"), "sqs:SendMessage", steps)


def test_the_step_worker_reads_removes_and_embeds_an_import(synth: Synth) -> None:
    [bucket] = synth.resources("AWS::S3::Bucket")
    statements = _statements(synth, "tenant_work")
    assert _granted(statements, "s3:GetObject*", bucket) and _granted(statements, "s3:DeleteObject*", bucket)
    invoke = [
        s
        for s in statements
        if "bedrock:InvokeModel" in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])
    ]
    assert any(CONFIG.embedding_model_id in str(s["Resource"]) for s in invoke)
