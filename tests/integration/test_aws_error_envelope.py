"""No boto error reaches a caller raw: the DynamoDB adapter translates what DynamoDB (Local, or
botocore's Stubber for what DynamoDB Local never does) answers into Engram's errors, and the
handlers' catch-all answers anything else as the envelope with the request id."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from botocore.stub import Stubber

from engram.adapters.dynamodb.store import DynamoStore
from engram.adapters.dynamodb.table import dynamodb_client
from engram.engine import Engine
from engram.errors import PayloadTooLargeError, UnavailableError
from engram.identity import content_hash, memory_id
from engram.models import MemoryRecord, Tenant
from engram.ports import WriteBatch
from engram.settings import AwsSettings, RetainSettings, Settings
from engram_http.apigw import build_event, invoke
from engram_http.errors import http_status
from engram_http.routes import ROUTES

T0 = datetime(2026, 12, 1, tzinfo=UTC)
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


@pytest.fixture(autouse=True)
def quiet_powertools(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")


@pytest.fixture
def engine(dynamodb_local: Any, tmp_path: Path) -> Iterator[tuple[Engine, Any]]:
    from engram_http.runtime import use_engine

    client = dynamodb_local.client()
    table = dynamodb_local.new_table(client)
    settings = Settings(
        backend="aws",
        data_dir=tmp_path,
        background_embedding=False,
        retain=RetainSettings(defer_embedding=False),
        aws=AwsSettings(table=table, index="memory"),
    )
    engine = Engine.aws(settings, dynamodb=client)
    engine.create_tenant("acme")
    use_engine(engine)
    try:
        yield engine, client
    finally:
        use_engine(None)
        engine.close()
        client.delete_table(TableName=table)


def _recall_event() -> dict[str, Any]:
    [route] = [r for r in ROUTES if r.path == "/v1/recall"]
    event = build_event(
        route,
        method="POST",
        path="/v1/recall",
        params={},
        query="",
        headers={"content-type": "application/json"},
        body=json.dumps({"query": "dark mode"}).encode(),
        source_ip="127.0.0.1",
    )
    event["requestContext"]["authorizer"] = {"tenant_id": "acme", "key_id": "k1", "permission": "read-write"}
    return event


def test_a_memory_over_the_item_limit_is_a_413_not_a_boto_error(dynamodb_local: Any) -> None:
    client = dynamodb_local.client()
    store = DynamoStore(client, dynamodb_local.new_table(client))
    store.tenants.create_tenant(Tenant(tenant_id="acme", name="acme", created_at=T0))
    text = "x" * 450_000  # DynamoDB Local enforces the 400 KB item limit as DynamoDB does
    big = MemoryRecord(
        tenant_id="acme",
        id=memory_id("acme", "user:a", text),
        scope="user:a",
        category="fact",
        content=text,
        created_at=T0,
        updated_at=T0,
        content_hash=content_hash(text),
    )
    with pytest.raises(PayloadTooLargeError, match="400 KB item size limit"):
        store.records.write("acme", WriteBatch(records=[big], vectors=[None]))


def test_throttling_is_a_503_with_retry_after(dynamodb_local: Any) -> None:
    client = dynamodb_local.client()
    store = DynamoStore(client, dynamodb_local.new_table(client))
    with Stubber(client) as stubber:
        stubber.add_client_error("get_item", "ProvisionedThroughputExceededException", http_status_code=400)
        with pytest.raises(UnavailableError, match="throttling get_item") as raised:
            store.tenants.get_tenant("acme")
    assert http_status(raised.value) == 503 and raised.value.retry_after == 1


def test_an_unreachable_table_is_a_503() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = dynamodb_client(
        region="us-east-1",
        endpoint_url=f"http://127.0.0.1:{port}",
        max_attempts=1,
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    with pytest.raises(UnavailableError, match="DynamoDB did not answer get_item"):
        DynamoStore(client, "nowhere").tenants.get_tenant("acme")


def test_an_unhandled_error_in_a_handler_is_the_envelope_with_the_request_id(
    engine: tuple[Engine, Any],
) -> None:
    found, client = engine
    store: Any = found.store
    # Given a table that is gone (a raw ResourceNotFoundException, which no adapter translates)
    client.delete_table(TableName=store.records.table)
    event = _recall_event()
    # When recall is invoked as API Gateway would
    answer = invoke("recall", event)
    # Then the caller gets a 500 in the envelope that quotes API Gateway's request id
    body = json.loads(answer["body"])
    assert answer["statusCode"] == 500
    rid = event["requestContext"]["requestId"]
    assert body == {
        "error": {"code": "internal_error", "message": f"internal error (request {rid})", "request_id": rid}
    }
    client.create_table(**_definition(store.records.table))


def test_a_throttled_table_in_a_handler_is_a_503_envelope_with_retry_after(
    engine: tuple[Engine, Any],
) -> None:
    _, client = engine
    event = _recall_event()
    with Stubber(client) as stubber:
        stubber.add_client_error("get_item", "ThrottlingException", http_status_code=400)
        answer = invoke("recall", event)
    body = json.loads(answer["body"])
    headers = {k: v[-1] for k, v in (answer.get("multiValueHeaders") or {}).items()} | (
        answer.get("headers") or {}
    )
    assert answer["statusCode"] == 503 and headers["Retry-After"] == "1"
    assert body["error"]["code"] == "unavailable"
    assert body["error"]["request_id"] == event["requestContext"]["requestId"]


def _definition(table: str) -> dict[str, Any]:
    from engram.adapters.dynamodb.table import table_definition

    return table_definition(table)
