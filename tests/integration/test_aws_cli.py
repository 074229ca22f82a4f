"""The operator CLI on the AWS backend, configured only by environment, as a Lambda would be:
DynamoDB Local for the store and a scripted OpenSearch endpoint that sees SigV4-signed requests."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engram_cli.main import main


@pytest.fixture
def fake() -> Iterator[Any]:
    from opensearch_fake import start

    server = start()
    yield server
    server.stop()


@pytest.fixture
def aws_cli(
    dynamodb_local: Any, fake: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> Iterator[Callable[..., tuple[int, Any]]]:
    client = dynamodb_local.client()
    table = dynamodb_local.new_table(client)
    for name, value in {
        "ENGRAM_BACKEND": "aws",
        "AWS_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "AKIDLOCAL",
        "AWS_SECRET_ACCESS_KEY": "local-secret",
        "ENGRAM_DYNAMODB_ENDPOINT": dynamodb_local.endpoint,
        "ENGRAM_TABLE": table,
        "ENGRAM_OPENSEARCH_ENDPOINT": fake.url,
        "ENGRAM_DEFER_EMBEDDING": "false",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_SESSION_TOKEN", raising=False)
    monkeypatch.delenv("AWS_PROFILE", raising=False)

    def run(*args: str) -> tuple[int, Any]:
        code = main(["--data-dir", str(tmp_path), "--json", *args])
        out, _ = capsys.readouterr()
        return code, json.loads(out) if out.strip() else None

    yield run
    client.delete_table(TableName=table)


@pytest.mark.parametrize("service", ["es", "aoss"])
def test_retain_and_reindex_from_the_environment_sign_their_index_requests(
    aws_cli: Callable[..., tuple[int, Any]], fake: Any, monkeypatch: pytest.MonkeyPatch, service: str
) -> None:
    monkeypatch.setenv("ENGRAM_OPENSEARCH_SERVICE", service)
    assert aws_cli("tenant", "create", "acme")[0] == 0
    code, retained = aws_cli(
        "retain", "--tenant", "acme", "--scope", "user:alice", "--text", "I prefer dark mode", "--mode", "raw"
    )
    assert code == 0 and retained["results"][0]["action"] == "created"
    fake.requests.clear()
    code, out = aws_cli("reindex", "--all")
    assert (code, out) == (0, {"reindexed": {"acme": 1}})
    template, _exists, mapping, *replicas, bulk = fake.requests  # the index exists (200 to HEAD): no create
    assert template.path == "/_index_template/engram-memories"
    assert (mapping.method, mapping.path) == ("GET", "/engram-memories/_mapping")  # its vector size checked
    # a domain's index gets the configured replica count; a collection manages its own
    assert [r.path for r in replicas] == (["/engram-memories/_settings"] if service == "es" else [])
    # SigV4 for the configured service, in the configured region
    assert f"/us-east-1/{service}/aws4_request" in bulk.headers["authorization"]
    assert bulk.headers["authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIDLOCAL/")
    action, document = bulk.body
    assert document["content"] == "I prefer dark mode"
    assert ("routing" in action["index"]) == (service == "es")


def test_reindex_of_an_unknown_tenant_is_refused(aws_cli: Callable[..., tuple[int, Any]]) -> None:
    assert aws_cli("reindex", "--tenant", "nobody")[0] == 1
