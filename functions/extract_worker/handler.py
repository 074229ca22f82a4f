"""SQS -> asynchronous retains (smart extraction): one job per message, partial batch failures.

Each message names a job (``{"tenant_id", "job_id"}``); the job's body waits in the store. A job
that already succeeded is skipped, so a redelivered message is a no-op; a failed message is
reported in ``batchItemFailures`` and retried by SQS until its redrive policy moves it to the DLQ.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from pydantic import BaseModel, ConfigDict

from engram.errors import EngramError
from engram.models import TenantId
from engram.retain.jobs import run_job
from engram_http.runtime import count_extraction, deps, logger, metrics, tracer

# A batch that fails whole is reported item by item too (same response shape, same SQS retries).
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


class JobMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tenant_id: TenantId
    job_id: str


class JobFailedError(EngramError):
    """The job's retain failed; SQS retries the message."""

    code = "job_failed"


@tracer.capture_method
def run(record: SQSRecord) -> None:
    message = JobMessage.model_validate(json.loads(record.body))
    logger.append_keys(tenant_id=message.tenant_id, job_id=message.job_id)
    job = deps().call(run_job, message.tenant_id, message.job_id)
    if job is None:
        logger.warning("job not found; dropping the message")
    elif job.status != "succeeded":
        raise JobFailedError(f"job {message.job_id} failed: {job.error}")
    else:
        count_extraction(job.extraction, job.fallback)


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    response = process_partial_response(event=event, record_handler=run, processor=processor, context=context)
    return dict(response)
