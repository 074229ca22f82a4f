"""Observability: alarms on what needs a human, and one dashboard.

Alarms (``alarms: all``): API 5xx, throttles of every function, errors of the workers, messages in
any dead-letter queue, the stream consumer falling behind (iterator age), the share of extractions
that fell back to the rules, and the search domain's health. ``alarms: essential`` (a dev stage's
default) keeps API 5xx, the dead-letter queues and a red search cluster: what is failing or lost
(a worker's failures end in its dead-letter queue once its retries are spent), not what is slow.
Each alarm notifies one encrypted SNS topic (an e-mail subscription when ``alarm_email`` is set).
"""

from __future__ import annotations

from collections.abc import Sequence

from aws_cdk import Duration
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_opensearchservice as opensearch
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from constructs import Construct

FIVE_MINUTES = Duration.minutes(5)
STREAM_LAG_MS = 60_000
FALLBACK_RATE_PERCENT = 10.0
ESSENTIAL = frozenset({"api-5xx", "dlq-depth", "search-red"})
"""The kinds of alarm ``alarms: essential`` keeps."""
DEAD_LETTER_QUEUES = ("extract", "steps", "stream", "events", "schedules")
"""The stack's dead-letter queues, each with a depth alarm (``events``: what the example rule
cannot deliver; ``stream``: the stream consumer's batches)."""


def alarm_metrics(
    level: str,
    *,
    functions: Sequence[str],
    workers: Sequence[str],
    domain: bool,
    queues: int = len(DEAD_LETTER_QUEUES),
) -> int:
    """How many metrics the alarms of ``level`` watch: CloudWatch bills a standard alarm $0.10 a
    month per metric it watches (the extraction-fallback rate watches two)."""
    kinds = {
        "api-5xx": 1,
        "throttles": len(functions),
        "errors": len(set(functions) & set(workers)),
        "dlq-depth": queues,
        "stream-lag": 1,
        "extraction-fallbacks": 2,
        "search-red": int(domain),
        "search-blocked-writes": int(domain),
    }
    return sum(n for kind, n in kinds.items() if level == "all" or kind in ESSENTIAL)


class Observability(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        prefix: str,
        key: kms.IKey,
        api: apigw.RestApi,
        functions: dict[str, lambda_.Function],
        workers: tuple[str, ...],
        stream: lambda_.Function,
        dead_letter_queues: dict[str, sqs.IQueue],
        domain: opensearch.Domain | None,
        alarm_email: str | None,
        alarms: str = "all",
    ) -> None:
        super().__init__(scope, construct_id)
        self.topic = sns.Topic(
            self, "Alarms", topic_name=f"{prefix}-alarms", master_key=key, enforce_ssl=True
        )
        if alarm_email:
            self.topic.add_subscription(subscriptions.EmailSubscription(alarm_email))
        action = cw_actions.SnsAction(self.topic)
        self.alarms: list[cw.Alarm] = []

        def wanted(kind: str) -> bool:
            return alarms == "all" or kind in ESSENTIAL

        def alarm(name: str, metric: cw.Metric, threshold: float, description: str) -> cw.Alarm:
            made = metric.create_alarm(
                self,
                name,
                alarm_name=f"{prefix}-{name}",
                alarm_description=description,
                threshold=threshold,
                evaluation_periods=1,
                comparison_operator=cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            )
            made.add_alarm_action(action)
            self.alarms.append(made)
            return made

        alarm("api-5xx", api.metric_server_error(period=FIVE_MINUTES, statistic="Sum"), 5, "API answered 5xx")
        for name, fn in functions.items():
            slug = name.replace("_", "-")
            if wanted("throttles"):
                alarm(
                    f"{slug}-throttles",
                    fn.metric_throttles(period=FIVE_MINUTES, statistic="Sum"),
                    1,
                    f"{name} throttled",
                )
            if name in workers and wanted("errors"):
                alarm(
                    f"{slug}-errors",
                    fn.metric_errors(period=FIVE_MINUTES, statistic="Sum"),
                    1,
                    f"{name} failed",
                )
        for name, queue in dead_letter_queues.items():
            alarm(
                f"{name}-dlq-depth",
                queue.metric_approximate_number_of_messages_visible(period=FIVE_MINUTES, statistic="Maximum"),
                1,
                f"messages parked in the {name} dead-letter queue",
            )
        lag = cw.Metric(
            namespace="AWS/Lambda",
            metric_name="IteratorAge",
            dimensions_map={"FunctionName": stream.function_name},
            period=FIVE_MINUTES,
            statistic="Maximum",
        )
        if wanted("stream-lag"):
            alarm(
                "stream-lag",
                lag,
                STREAM_LAG_MS,
                "the search index and the events are more than a minute behind DynamoDB",
            )
        extractions = cw.Metric(
            namespace="Engram",
            metric_name="Extractions",
            dimensions_map={"service": "engram"},
            period=FIVE_MINUTES,
            statistic="Sum",
        )
        fallbacks = cw.Metric(
            namespace="Engram",
            metric_name="ExtractionFallbacks",
            dimensions_map={"service": "engram"},
            period=FIVE_MINUTES,
            statistic="Sum",
        )
        fallback_rate = cw.MathExpression(
            expression="IF(extractions > 0, 100 * fallbacks / extractions, 0)",
            using_metrics={"extractions": extractions, "fallbacks": fallbacks},
            period=FIVE_MINUTES,
            label="extractions that fell back to the rules (%)",
        )
        if wanted("extraction-fallbacks"):
            made = fallback_rate.create_alarm(
                self,
                "extraction-fallbacks",
                alarm_name=f"{prefix}-extraction-fallbacks",
                alarm_description=(
                    "at least 10% of smart or auto retains extracted by the rules because the LLM failed "
                    "(a retired or not enabled model, throttling, timeouts)"
                ),
                threshold=FALLBACK_RATE_PERCENT,
                evaluation_periods=1,
                comparison_operator=cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            )
            made.add_alarm_action(action)
            self.alarms.append(made)
        widgets: list[cw.IWidget] = [
            cw.GraphWidget(
                title="API requests and errors",
                left=[api.metric_count(period=FIVE_MINUTES)],
                right=[
                    api.metric_client_error(period=FIVE_MINUTES),
                    api.metric_server_error(period=FIVE_MINUTES),
                ],
            ),
            cw.GraphWidget(
                title="API latency p50 / p95 (ms)",
                left=[
                    api.metric_latency(period=FIVE_MINUTES, statistic="p50"),
                    api.metric_latency(period=FIVE_MINUTES, statistic="p95"),
                ],
            ),
            cw.GraphWidget(
                title="Function duration p95 (ms)",
                left=[fn.metric_duration(period=FIVE_MINUTES, statistic="p95") for fn in functions.values()],
            ),
            cw.GraphWidget(
                title="Function errors and throttles",
                left=[fn.metric_errors(period=FIVE_MINUTES) for fn in functions.values()],
                right=[fn.metric_throttles(period=FIVE_MINUTES) for fn in functions.values()],
            ),
            cw.GraphWidget(title="Indexer lag (ms)", left=[lag]),
            cw.GraphWidget(
                title="Extractions and LLM fallbacks", left=[extractions, fallbacks], right=[fallback_rate]
            ),
            cw.GraphWidget(
                title="Dead-letter queues",
                left=[
                    q.metric_approximate_number_of_messages_visible(period=FIVE_MINUTES)
                    for q in dead_letter_queues.values()
                ],
            ),
        ]
        if domain is not None:
            alarm(
                "search-red",
                domain.metric_cluster_status_red(period=Duration.minutes(1)),
                1,
                "search cluster red",
            )
            if wanted("search-blocked-writes"):
                alarm(
                    "search-blocked-writes",
                    domain.metric_cluster_index_writes_blocked(period=FIVE_MINUTES),
                    1,
                    "search cluster blocks writes",
                )
            widgets.append(
                cw.GraphWidget(
                    title="Search",
                    left=[
                        domain.metric_search_latency(period=FIVE_MINUTES),
                        domain.metric_indexing_latency(period=FIVE_MINUTES),
                    ],
                    right=[domain.metric_jvm_memory_pressure(period=FIVE_MINUTES)],
                )
            )
        self.dashboard = cw.Dashboard(self, "Dashboard", dashboard_name=prefix)
        for i in range(0, len(widgets), 2):
            self.dashboard.add_widgets(*widgets[i : i + 2])
