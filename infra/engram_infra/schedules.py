"""Schedules: EventBridge rules that run the decay and tiering jobs, with retries and a DLQ.

A rule delivers to its function asynchronously: EventBridge retries a failed delivery and then
parks the event in the DLQ; the function's own asynchronous invocation retries twice and sends a
failed run to the same DLQ (an on-failure destination), so no scheduled run fails unseen. The jobs
are idempotent per run time (the event's ``time``), so a retried run changes nothing twice.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_destinations as destinations
from aws_cdk import aws_sqs as sqs
from constructs import Construct


class Schedules(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        prefix: str,
        jobs: dict[str, tuple[str, lambda_.Function]],
    ) -> None:
        """``jobs``: name -> (schedule expression ``rate(...)``/``cron(...)``, function)."""
        super().__init__(scope, construct_id)
        # SQS-managed encryption: EventBridge and Lambda deliver here with no key policy to grant.
        self.dead_letters = sqs.Queue(
            self,
            "DeadLetters",
            queue_name=f"{prefix}-schedules-dlq",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        self.rules: dict[str, events.Rule] = {}
        for name, (expression, function) in jobs.items():
            rule = events.Rule(
                self,
                f"{name.capitalize()}Rule",
                rule_name=f"{prefix}-{name}",
                description=f"runs the {name} job for every tenant",
                schedule=events.Schedule.expression(expression),
            )
            rule.add_target(
                targets.LambdaFunction(
                    function,
                    event=events.RuleTargetInput.from_object(
                        {"job": name, "time": events.EventField.time, "dry_run": False}
                    ),
                    dead_letter_queue=self.dead_letters,
                    retry_attempts=3,
                    max_event_age=Duration.hours(2),
                )
            )
            function.configure_async_invoke(
                retry_attempts=2,
                max_event_age=Duration.hours(6),
                on_failure=destinations.SqsDestination(self.dead_letters),
            )
            self.rules[name] = rule
