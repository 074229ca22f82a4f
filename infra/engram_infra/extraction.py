"""Extraction: the queue that carries smart and async retains to the extract worker, and its DLQ
(the same construct makes the step queue of tenant-wide work, read by the ``tenant_work`` function).

The visibility timeout is six times the worker's timeout (the AWS guidance for Lambda event
sources), so a message is never handed to a second worker while the first still runs it; a message
that fails ``max_receive_count`` times moves to the dead-letter queue, which an alarm watches.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sqs as sqs
from constructs import Construct

VISIBILITY_FACTOR = 6


class Extraction(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        prefix: str,
        key: kms.IKey,
        worker_timeout: Duration,
        max_receive_count: int = 3,
        name: str = "extract",
    ) -> None:
        """``name``: ``extract`` (smart and async retains) or ``steps`` (tenant-wide work in steps)."""
        super().__init__(scope, construct_id)
        self.dead_letters = sqs.Queue(
            self,
            "DeadLetters",
            queue_name=f"{prefix}-{name}-dlq",
            encryption=sqs.QueueEncryption.KMS,
            encryption_master_key=key,
            enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        self.queue = sqs.Queue(
            self,
            "Queue",
            queue_name=f"{prefix}-{name}",
            encryption=sqs.QueueEncryption.KMS,
            encryption_master_key=key,
            enforce_ssl=True,
            visibility_timeout=Duration.seconds(worker_timeout.to_seconds() * VISIBILITY_FACTOR),
            retention_period=Duration.days(4),
            dead_letter_queue=sqs.DeadLetterQueue(
                max_receive_count=max_receive_count, queue=self.dead_letters
            ),
        )
