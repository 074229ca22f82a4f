"""The extract worker: the SQS sample event, invoked on its Lambda handler against a real local
engine whose accepted jobs go to a queue instead of the local job thread."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber
from store_support import with_parts

from engram.adapters.sqs_queue import SqsJobQueue, job_message
from engram.engine import Engine
from engram.errors import ProviderError
from engram.models import RetainRequest
from engram_http.loader import load_handler

EVENTS_DIR = Path(__file__).resolve().parents[2] / "events"
SCOPE = "user:alice"
QUEUE_URL = "https://sqs.eu-west-1.amazonaws.com/123456789012/engram-extract"

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


class QueueOfRecord:
    """A JobQueue that keeps what it is given (SQS is exercised below with botocore's Stubber)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def enqueue(self, tenant_id: str, job_id: str) -> None:
        self.sent.append((tenant_id, job_id))


@pytest.fixture
def queued(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Engine, QueueOfRecord]]:
    """acme's engine with a queue, installed for the handlers; Powertools quiet and offline."""
    from engram_http.runtime import use_engine

    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "WARNING")
    logging.getLogger("engram").setLevel(logging.WARNING)
    queue = QueueOfRecord()
    engine = engine.with_ports(queue=queue)
    use_engine(engine)
    try:
        yield engine, queue
    finally:
        use_engine(None)
        engine.close()


def sqs_event(*bodies: str) -> dict[str, Any]:
    """The sample SQS event with one record per body (message ids made unique)."""
    sample = json.loads((EVENTS_DIR / "queue" / "extract_worker.sqs.json").read_text(encoding="utf-8"))
    template = sample["Records"][0]
    records = [
        {**template, "messageId": f"{template['messageId'][:-2]}{i:02d}", "body": b}
        for i, b in enumerate(bodies)
    ]
    return {"Records": records}


def invoke(event: dict[str, Any]) -> dict[str, Any]:
    from engram_http.apigw import LocalContext

    context = LocalContext(
        function_name="engram-extract-worker", aws_request_id="req-1", deadline=time.monotonic() + 30
    )
    result: dict[str, Any] = load_handler("extract_worker").lambda_handler(event, context)
    return result


def test_the_sample_event_is_an_sqs_event_naming_a_job() -> None:
    # Given the sample
    sample = json.loads((EVENTS_DIR / "queue" / "extract_worker.sqs.json").read_text(encoding="utf-8"))

    # When its record is read
    [record] = sample["Records"]

    # Then it is an SQS record whose body names a tenant and a job
    assert record["eventSource"] == "aws:sqs"
    assert set(json.loads(record["body"])) == {"tenant_id", "job_id"}


def test_an_accepted_retain_waits_in_the_queue_and_the_worker_runs_it(
    queued: tuple[Engine, QueueOfRecord],
) -> None:
    # Given a retain accepted while a queue is configured
    engine, queue = queued
    accepted = engine.submit_retain("acme", RetainRequest(scope=SCOPE, text="I live in Porto", mode="smart"))
    assert queue.sent == [("acme", accepted.job_id)]
    assert engine.get_job("acme", accepted.job_id).status == "queued"

    # When the worker gets the queue's message
    response = invoke(sqs_event(job_message("acme", accepted.job_id)))

    # Then no item failed, the job succeeded and its memory is stored
    assert response == {"batchItemFailures": []}
    job = engine.get_job("acme", accepted.job_id)
    assert job.status == "succeeded" and job.results is not None
    assert engine.get("acme", job.results[0].id).content == "I live in Porto"


def test_a_redelivered_message_changes_nothing(queued: tuple[Engine, QueueOfRecord]) -> None:
    # Given a job the worker has run
    engine, _ = queued
    accepted = engine.submit_retain("acme", RetainRequest(scope=SCOPE, text="I live in Porto", mode="smart"))
    event = sqs_event(job_message("acme", accepted.job_id))
    invoke(event)
    before = engine.stats("acme")

    # When SQS delivers the same message again
    response = invoke(event)

    # Then it succeeds without running the retain again
    assert response == {"batchItemFailures": []}
    after = engine.stats("acme")
    assert (after.total, after.usage["retain_calls"]) == (before.total, before.usage["retain_calls"])


def test_only_the_bad_message_of_a_batch_is_reported_failed(queued: tuple[Engine, QueueOfRecord]) -> None:
    # Given a batch with a good job, a body naming no valid tenant, and a body that is not JSON
    engine, _ = queued
    accepted = engine.submit_retain("acme", RetainRequest(scope=SCOPE, text="I live in Porto", mode="smart"))
    event = sqs_event(
        job_message("acme", accepted.job_id),
        json.dumps({"tenant_id": "NOT A TENANT", "job_id": "x"}),
        "{oops",
    )

    # When the worker runs the batch
    response = invoke(event)

    # Then exactly the two bad messages are reported for retry, and the good job succeeded
    ids = [r["messageId"] for r in event["Records"]]
    assert response == {"batchItemFailures": [{"itemIdentifier": ids[1]}, {"itemIdentifier": ids[2]}]}
    assert engine.get_job("acme", accepted.job_id).status == "succeeded"


class RecordsThatFailOnce:
    """The engine's real memory records, except that their first ``write`` fails (a storage outage)."""

    def __init__(self, records: Any) -> None:
        self._records = records
        self.failed = False

    def write(self, tenant_id: str, batch: Any) -> None:
        if not self.failed:
            self.failed = True
            raise OSError("disk I/O error")
        self._records.write(tenant_id, batch)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._records, name)


def test_a_failed_job_is_reported_for_retry_and_succeeds_on_redelivery(
    queued: tuple[Engine, QueueOfRecord],
) -> None:
    # Given a queued job whose first attempt meets a storage outage
    engine, _ = queued
    accepted = engine.submit_retain("acme", RetainRequest(scope=SCOPE, text="I live in Porto", mode="smart"))
    from engram_http.runtime import use_engine

    engine = engine.with_ports(
        store=with_parts(engine.store, records=RecordsThatFailOnce(engine.store.records))
    )
    use_engine(engine)  # the handlers read the engine's ports (the fixture uninstalls it)
    event = sqs_event(job_message("acme", accepted.job_id))

    # When the worker runs it, then SQS delivers the message again
    first = invoke(event)
    failed = engine.get_job("acme", accepted.job_id)
    second = invoke(event)

    # Then the first delivery is reported failed, with the job's error, and the second succeeds once
    assert first == {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}
    assert failed.status == "failed" and failed.error == "disk I/O error"
    assert second == {"batchItemFailures": []}
    assert engine.get_job("acme", accepted.job_id).status == "succeeded"
    assert engine.stats("acme").total == 1


def test_the_sqs_queue_sends_ids_only() -> None:
    # Given an SQS client expecting one message
    client = boto3.client(
        "sqs", region_name="eu-west-1", aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="x"
    )
    with Stubber(client) as stubber:
        stubber.add_response(
            "send_message",
            {
                "MessageId": "5fea7756-0ea4-451a-a703-a558b933e274",
                "MD5OfMessageBody": "e4e68fb7bd0e697a0ae8f1bb342846b3",
            },
            expected_params={
                "QueueUrl": QUEUE_URL,
                "MessageBody": '{"tenant_id": "acme", "job_id": "job_1"}',
            },
        )

        # When a job is enqueued
        SqsJobQueue(QUEUE_URL, client=client).enqueue("acme", "job_1")

        # Then the message carried the ids and nothing of the retain's content
        stubber.assert_no_pending_responses()


def test_a_queue_that_refuses_the_job_fails_the_retain_and_marks_the_job(engine: Engine) -> None:
    # Given SQS refusing messages
    client = boto3.client(
        "sqs", region_name="eu-west-1", aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="x"
    )
    with Stubber(client) as stubber:
        stubber.add_client_error("send_message", service_error_code="AWS.SimpleQueueService.NonExistentQueue")
        engine = engine.with_ports(queue=SqsJobQueue(QUEUE_URL, client=client))

        # When an async retain is submitted
        # Then the caller gets a provider error to retry on
        with pytest.raises(ProviderError, match="queue"):
            engine.submit_retain("acme", RetainRequest(scope=SCOPE, text="I live in Porto", mode="smart"))
