"""The AWS engine reads its secrets only when a function uses them: a recall Lambda, which may not
read the operator token or the pepper, must build its engine without touching Secrets Manager."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engram.adapters.secrets import LazySecret
from engram.engine import Engine
from engram.settings import AwsSettings, Settings

ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:engram-dev/{}-AbCdEf"


def test_building_the_aws_engine_reads_no_secret_and_each_is_read_once_when_used(
    dynamodb_local: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given Secrets Manager ARNs for the operator token and the pepper, and a counted reader
    reads: list[str] = []

    def fetch(self: LazySecret) -> str:
        reads.append(str(self._value))
        return "s" * 48

    monkeypatch.setattr(LazySecret, "_fetch", fetch)
    client = dynamodb_local.client()
    table = dynamodb_local.new_table(client)
    settings = Settings(
        backend="aws",
        data_dir=tmp_path,
        operator_token=ARN.format("operatortoken"),
        aws=AwsSettings(
            table=table, index="memory", key_pepper=ARN.format("pepper"), usage_plan_prefix="engram-dev-"
        ),
    )

    # When the engine is built, as every function does at cold start
    engine = Engine.aws(settings, dynamodb=client)

    # Then no secret was read, and no API Gateway client was made
    assert reads == []
    assert engine.deps.usage_plans is not None and engine.deps.usage_plans._client is None  # type: ignore[attr-defined]

    # And each is read once, when first used
    assert engine.operator_credential() == "s" * 48
    assert engine.operator_credential() == "s" * 48
    assert engine.deps.keys is not None
    engine.deps.keys.create("acme")
    engine.deps.keys.create("acme")
    assert sorted(reads) == sorted([ARN.format("operatortoken"), ARN.format("pepper")])
    engine.close()
    client.delete_table(TableName=table)
