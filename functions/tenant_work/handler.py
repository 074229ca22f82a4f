"""SQS -> tenant-wide work in resumable steps (``engram.tenants.steps``): erasures, per-tenant lifecycle runs
and import jobs.

Each message is one step. The step does what fits before the invocation's time runs low, then
the steps that carry on are sent to the same queue before the message is acknowledged; if sending
fails, the message fails and SQS delivers it again (steps are idempotent), and a message failing
three times lands in the step DLQ, which an alarm watches.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from engram.tenants import steps, work
from engram_http.runtime import deps, invocation_budget, logger, metrics, tracer

STOP_MARGIN_MS = 60_000  # a step stops starting new batches a minute before the timeout
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)
_context: list[Any] = [None]


def _should_stop() -> bool:
    remaining = getattr(_context[0], "get_remaining_time_in_millis", None)
    return callable(remaining) and remaining() < STOP_MARGIN_MS


@tracer.capture_method
def run(record: SQSRecord) -> None:
    step = steps.Step.model_validate_json(record.body)
    logger.append_keys(step=step.kind, tenant_id=step.tenant_id)
    current = deps()
    following = work.run(step, call=current.call, should_stop=_should_stop)
    current.call(steps.send, following)
    logger.info("step done", continues=bool(following))


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    _context[0] = context
    with invocation_budget(context):
        response = process_partial_response(
            event=event, record_handler=run, processor=processor, context=context
        )
    return dict(response)
