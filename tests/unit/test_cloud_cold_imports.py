"""What a cloud function's cold start builds: the AWS clients of the request path without boto3,
and no local job runner where jobs go on a queue (#28: the retain function's cold start)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code`` (the checkout's ``engram``)."""
    program = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))\n"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "shared"),
        "AWS_ACCESS_KEY_ID": "cold",
        "AWS_SECRET_ACCESS_KEY": "cold",
        "AWS_DEFAULT_REGION": "eu-west-1",
    }
    done = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_the_request_paths_clients_are_made_without_importing_boto3() -> None:
    # Given a fresh interpreter
    # When it makes the DynamoDB, bedrock-runtime and OpenSearch clients a raw retain uses
    loaded = _modules_after(
        "from engram.adapters.dynamodb.table import dynamodb_client\n"
        "from engram.adapters.providers import bedrock_client\n"
        "from engram.adapters.opensearch_client import opensearch_client\n"
        "dynamodb_client(region='eu-west-1')\n"
        "bedrock_client('eu-west-1')\n"
        "opensearch_client('https://search-x.eu-west-1.es.amazonaws.com', None)\n"
    )

    # Then botocore made them, and neither boto3 nor its s3transfer came along
    assert "botocore.client" in loaded
    assert {m.split(".")[0] for m in loaded} & {"boto3", "s3transfer"} == set()


def test_the_clients_share_one_session_and_take_its_region() -> None:
    # Given the process's session
    from engram.adapters import aws_session
    from engram.adapters.dynamodb.table import dynamodb_client

    # When a client is made without a region, and another one after it
    first = dynamodb_client(region="eu-west-1", aws_access_key_id="a", aws_secret_access_key="b")
    second = aws_session.client(
        "dynamodb", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )

    # Then both come from the one session, each in its region
    assert aws_session.session() is aws_session.session()
    assert (first.meta.region_name, second.meta.region_name) == ("eu-west-1", "us-east-1")


def test_a_stage_with_a_job_queue_builds_no_local_job_runner() -> None:
    # Given the cloud's settings with an extract queue (jobs go to the extract worker)
    # When a fresh interpreter builds the cloud's dependencies
    loaded = _modules_after(
        "from engram.app import build_aws\n"
        "from engram.settings import AwsSettings, Settings\n"
        "settings = Settings(backend='aws', embedder='bedrock', "
        "extract_queue_url='https://sqs.eu-west-1.amazonaws.com/123456789012/q', "
        "aws=AwsSettings(table='t', index='memory'))\n"
        "deps = build_aws(settings)\n"
        "assert deps.runner is None and deps.queue is not None\n"
    )

    # Then the local runner's module (and the sweep it imports) is not loaded
    assert "engram.background.jobs" not in loaded
