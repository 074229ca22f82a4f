"""Events out: the stack's EventBridge bus, an example rule that makes it usable, and their queues.

The ``stream`` function, the table stream's one consumer, indexes each batch and then puts its
changes' events on the bus for the tenants that publish them (``events.publish``, off by default:
``PUT /v1/admin/tenants/{t}/settings`` with ``{"events": {"publish": true}}``, or the stage's
``events_publish`` context for every tenant): source ``engram``, detail-type = the event type
(``memory.created`` …), detail = the versioned envelope. The example rule sends every Engram event
to an SQS queue (``<prefix>-events``) a consumer can read, with retries and a dead-letter queue
for what the rule cannot deliver (the stream consumer's own batches go to ``<prefix>-stream-dlq``).
Add your own rules on the bus (``detail-type`` or ``detail.tenant_id`` patterns) for other targets.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_sqs as sqs
from constructs import Construct

SOURCE = "engram"


class Events(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, prefix: str) -> None:
        super().__init__(scope, construct_id)
        self.bus_name = f"{prefix}-events"
        """Known at synth (the functions get it as text, not as a reference)."""
        self.bus = events.EventBus(self, "Bus", event_bus_name=self.bus_name)
        # SQS-managed encryption: EventBridge and Lambda deliver here with no key policy to grant.
        self.dead_letters = sqs.Queue(
            self,
            "DeadLetters",
            queue_name=f"{prefix}-events-dlq",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        self.queue = sqs.Queue(
            self,
            "Queue",
            queue_name=f"{prefix}-events",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(4),
            dead_letter_queue=sqs.DeadLetterQueue(max_receive_count=5, queue=self.dead_letters),
        )
        self.rule = events.Rule(
            self,
            "AllEvents",
            rule_name=f"{prefix}-all-events",
            description="example: every Engram event to the events queue",
            event_bus=self.bus,
            event_pattern=events.EventPattern(source=[SOURCE]),
        )
        self.rule.add_target(
            targets.SqsQueue(
                self.queue,
                dead_letter_queue=self.dead_letters,
                retry_attempts=8,
                max_event_age=Duration.hours(24),
            )
        )

    def grant_put(self, grantee: iam.IGrantable) -> None:
        """``events:PutEvents`` on this bus only."""
        self.bus.grant_put_events_to(grantee)
