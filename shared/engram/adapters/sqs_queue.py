"""``JobQueue`` on SQS: one message per accepted retain job, read by the extract worker."""

from __future__ import annotations

import json
from typing import Any

from engram.errors import ProviderError


def job_message(tenant_id: str, job_id: str) -> str:
    """The message body: ids only (the retain body stays in the store, never in the queue).

    >>> job_message("acme", "job_1")
    '{"tenant_id": "acme", "job_id": "job_1"}'
    """
    return json.dumps({"tenant_id": tenant_id, "job_id": job_id})


class SqsJobQueue:
    """Sends ``{"tenant_id", "job_id"}`` to the queue; boto3 is imported on first use."""

    def __init__(self, queue_url: str, *, client: Any | None = None) -> None:
        self.queue_url = queue_url
        self._client = client

    def _sqs(self) -> Any:
        if self._client is None:
            import boto3

            self._client = boto3.client("sqs")
        return self._client

    def enqueue(self, tenant_id: str, job_id: str) -> None:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            self._sqs().send_message(QueueUrl=self.queue_url, MessageBody=job_message(tenant_id, job_id))
        except (ClientError, BotoCoreError) as exc:
            raise ProviderError("could not enqueue the retain job") from exc


class SqsStepQueue:
    """Sends one step (a JSON object) per message to the step queue (``ENGRAM_STEP_QUEUE_URL``)."""

    def __init__(self, queue_url: str, *, client: Any | None = None) -> None:
        self.queue_url = queue_url
        self._client = client

    def send(self, step: dict[str, Any]) -> None:
        from botocore.exceptions import BotoCoreError, ClientError

        if self._client is None:
            import boto3

            self._client = boto3.client("sqs")
        try:
            self._client.send_message(QueueUrl=self.queue_url, MessageBody=json.dumps(step, sort_keys=True))
        except (ClientError, BotoCoreError) as exc:
            raise ProviderError("could not queue the next step of tenant-wide work") from exc
