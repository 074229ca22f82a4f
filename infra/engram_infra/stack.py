"""The Engram stack: one construct per concern, composed here, with every grant wired here.

Reading the grants below tells what each function may touch; nothing is granted inside the
constructs. Functions learn where things are from ``ENGRAM_*`` environment variables (the
README's "Configuration of the functions" lists them).
"""

from __future__ import annotations

import os
from typing import Any

from aws_cdk import (
    App,
    Aws,
    CfnOutput,
    CfnRule,
    CfnRuleAssertion,
    CustomResource,
    Duration,
    Environment,
    Fn,
    Stack,
    Token,
    Validations,
)
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sqs as sqs
from aws_cdk import custom_resources as cr
from cdk_nag import AwsSolutionsChecks, ServerlessChecks
from constructs import Construct

from engram_infra.access import (
    EMBEDS,
    EXTRACTS,
    INFERENCE_PROFILE,
    OBJECTS,
    RERANKS,
    SEARCH_ACCESS,
    SEARCH_METHODS,
    STEPS,
    TABLE_ACCESS,
    TABLE_ACTIONS,
)
from engram_infra.api import Api
from engram_infra.config import Config
from engram_infra.data import Data
from engram_infra.events import Events
from engram_infra.extraction import Extraction
from engram_infra.functions import API_FUNCTIONS, EXTRACT_BATCH, STEP_TIMEOUT_S, Functions, worker_functions
from engram_infra.models import MODELS_AS_OF, check_models, configured, regions_of_all
from engram_infra.nag import acknowledge
from engram_infra.observability import Observability
from engram_infra.schedules import Schedules
from engram_infra.search import Search

WORKERS = ("stream", "extract_worker", "decay", "tiering", "tenant_work", "search_setup")


class EngramStack(Stack):
    def __init__(self, scope: Construct, construct_id: str, *, config: Config, **kwargs: Any) -> None:
        super().__init__(scope, construct_id, description=f"Engram memory service ({config.stage})", **kwargs)
        self.config = config
        self._check_models()
        retention = _retention(config.log_retention_days)
        worker_timeout = Duration.seconds(config.extract_worker_timeout_seconds)

        self.data = Data(self, "Data", prefix=config.prefix, retain=config.retain_data)
        self.search = Search(
            self,
            "Search",
            prefix=config.prefix,
            backend=config.backend,
            key=self.data.key,
            version=config.opensearch_version,
            instance_type=config.opensearch_instance_type,
            instance_count=config.opensearch_instance_count,
            volume_gb=config.opensearch_volume_gb,
            in_vpc=config.opensearch_vpc,
            log_retention=retention,
            retain=config.retain_data,
            traced=config.tracing_sample_rate > 0,
        )
        self.extraction = Extraction(
            self, "Extraction", prefix=config.prefix, key=self.data.key, worker_timeout=worker_timeout
        )
        self.steps = Extraction(
            self,
            "Steps",
            prefix=config.prefix,
            key=self.data.key,
            worker_timeout=Duration.seconds(STEP_TIMEOUT_S),
            name="steps",
        )
        self.events = Events(self, "Events", prefix=config.prefix)
        self.functions = Functions(
            self,
            "Functions",
            prefix=config.prefix,
            specs=(
                *API_FUNCTIONS,
                *worker_functions(extract_timeout_s=config.extract_worker_timeout_seconds),
            ),
            layer_path=config.layer_path,
            runtime=_runtime(config.python_version),
            environment=self._environment(),
            log_retention=retention,
            reserved_concurrency=config.reserved_concurrency,
            require_handlers=config.require_handlers,
            tracing_sample_rate=config.tracing_sample_rate,
            vpc=self.search.vpc,
            security_group=self.search.client_security_group,
            roles={"search_setup": self.search.setup_role} if self.search.setup_role else None,
        )
        fns = self.functions.functions
        self.api = Api(
            self,
            "Api",
            prefix=config.prefix,
            stage=config.stage,
            handlers={s.name: fns[s.name] for s in API_FUNCTIONS if s.name != "authorizer"},
            authorizer_function=fns["authorizer"],
            key_header=config.key_header,
            cache_ttl_seconds=config.authorizer_cache_ttl_seconds,
            throttle=config.api_throttle,
            usage_plans=config.usage_plans,
            cors_origins=config.cors_origins,
            waf=config.waf,
            log_retention=retention,
            tracing_sample_rate=config.tracing_sample_rate,
        )
        # The stream consumer's batches it gave up on (the index's and the events' alike).
        self.stream_dead_letters = sqs.Queue(
            self,
            "StreamDeadLetters",
            queue_name=f"{config.prefix}-stream-dlq",
            encryption=sqs.QueueEncryption.KMS,
            encryption_master_key=self.data.key,
            enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        self.schedules = Schedules(
            self,
            "Schedules",
            prefix=config.prefix,
            jobs={
                "decay": (config.decay_schedule, fns["decay"]),
                "tiering": (config.tiering_schedule, fns["tiering"]),
            },
        )
        self._event_sources()
        self._grants()
        self.search_index = self._search_index()
        self.observability = Observability(
            self,
            "Observability",
            prefix=config.prefix,
            key=self.data.key,
            api=self.api.rest_api,
            functions=fns,
            workers=WORKERS,
            stream=fns["stream"],
            dead_letter_queues={
                "extract": self.extraction.dead_letters,
                "steps": self.steps.dead_letters,
                "stream": self.stream_dead_letters,
                "events": self.events.dead_letters,
                "schedules": self.schedules.dead_letters,
            },
            domain=self.search.domain,
            alarm_email=config.alarm_email,
            alarms=config.alarms,
        )
        self._outputs()
        acknowledge(self)

    def _search_index(self) -> CustomResource:
        """The index template, the index, its search pipeline and (domain) the role mappings,
        created on the first deploy and brought up to date on every update (``search_setup``)."""
        from engram.adapters.opensearch_index import OpenSearchIndex

        c = self.config
        provider = cr.Provider(
            self,
            "SearchSetupProvider",
            on_event_handler=self.functions["search_setup"],
            log_group=logs.LogGroup(
                self, "SearchSetupProviderLogs", retention=_retention(c.log_retention_days)
            ),
        )
        template = OpenSearchIndex(
            None,
            "engram-memories",
            dimension=c.embedding_dimensions,
            model_id=f"{c.embedding_model_id}@{c.embedding_dimensions}",
            serverless=self.search.domain is None,
            shards=1,
            replicas=self.search.replicas,
        ).template_body()
        properties: dict[str, Any] = {
            # Any change of the mapping, shards or replicas makes CloudFormation send an Update.
            "Template": Stack.of(self).to_json_string(template),
        }
        if self.search.domain is not None:
            properties |= {
                "Readers": self.search.readers,
                "Writers": self.search.writers,
                "Admins": [self.search.admin_role.role_arn, self.functions.roles["search_setup"].role_arn],
            }
        self.search_setup_provider = provider
        resource = CustomResource(
            self,
            "SearchIndex",
            service_token=provider.service_token,
            resource_type="Custom::EngramSearchIndex",
            properties=properties,
        )
        return resource

    def _outputs(self) -> None:
        outputs = {
            "ApiUrl": (self.api.rest_api.url, "base URL of the API (append v1/...)"),
            "OperatorTokenSecret": (
                self.data.operator_token.secret_name,
                "Secrets Manager name of the admin credential",
            ),
            "SearchEndpoint": (self.search.endpoint, "OpenSearch endpoint the functions use"),
            "AlarmTopic": (self.observability.topic.topic_arn, "SNS topic of every alarm"),
        }
        if self.search.domain is not None:
            outputs["SearchAdminRole"] = (
                self.search.admin_role.role_arn,
                "role mapped to all_access in the search domain (for operators)",
            )
        for name, (value, description) in outputs.items():
            CfnOutput(self, name, value=value, description=description)

    def _check_models(self) -> None:
        """Refuse retired, unknown or unoffered models: at synth time in a known region, and by a
        template rule (checked before any resource is made) when the template is region-agnostic."""
        c = self.config
        models = configured(
            llm=c.llm_model_id,
            embedding=c.embedding_model_id,
            rerank=c.rerank_model_id if c.rerank_provider == "bedrock" else None,
        )
        region = None if Token.is_unresolved(self.region) else self.region
        check_models(models, region)
        if region is None:
            allowed = regions_of_all(models)
            CfnRule(
                self,
                "ModelsOfferedInRegion",
                assertions=[
                    CfnRuleAssertion(
                        assert_=Fn.condition_contains(allowed, Aws.REGION),
                        assert_description=(
                            f"the configured Bedrock models ({', '.join(models.values())}) are offered only in "
                            f"{', '.join(allowed)} (as of {MODELS_AS_OF}; infra/engram_infra/models.py)"
                        ),
                    )
                ],
            )

    def _environment(self) -> dict[str, str]:
        c = self.config
        env = {
            "ENGRAM_BACKEND": "aws",
            "ENGRAM_STAGE": c.stage,
            "ENGRAM_TABLE": self.data.table.table_name,
            "ENGRAM_OPENSEARCH_ENDPOINT": self.search.endpoint,
            "ENGRAM_OPENSEARCH_SERVICE": self.search.service,
            "ENGRAM_OPENSEARCH_SHARDS": "1",
            "ENGRAM_OPENSEARCH_REPLICAS": str(self.search.replicas),
            "ENGRAM_EMBEDDER": "bedrock",
            "ENGRAM_BEDROCK_MODEL": c.embedding_model_id,
            "ENGRAM_EMBEDDING_DIMENSIONS": str(c.embedding_dimensions),
            # A frozen Lambda container runs no background thread: embed inside the request.
            "ENGRAM_DEFER_EMBEDDING": "false",
            "ENGRAM_LLM_PROVIDER": "bedrock",
            "ENGRAM_LLM_MODEL": c.llm_model_id,
            **self._rerank_environment(),
            "ENGRAM_EXTRACT_QUEUE_URL": self.extraction.queue.queue_url,
            "ENGRAM_STEP_QUEUE_URL": self.steps.queue.queue_url,
            "ENGRAM_BUCKET": self.data.bucket.bucket_name,
            # Secrets Manager ARNs: the functions read each value once per container.
            "ENGRAM_OPERATOR_TOKEN": self.data.operator_token.secret_arn,
            "ENGRAM_KEY_PEPPER": self.data.pepper.secret_arn,
            # The admin function finds each tier's usage plan by name: "<prefix>-<tier>".
            "ENGRAM_USAGE_PLAN_PREFIX": f"{c.prefix}-",
            "ENGRAM_TIERS": ",".join(c.usage_plans),
            "POWERTOOLS_METRICS_NAMESPACE": "Engram",
        }
        return env

    def _rerank_environment(self) -> dict[str, str]:
        c = self.config
        if c.rerank_provider == "none":
            return {}
        if c.rerank_provider == "tei":
            return {"ENGRAM_RERANK_PROVIDER": "tei", "ENGRAM_RERANK_URL": str(c.rerank_url)}
        return {"ENGRAM_RERANK_PROVIDER": "bedrock", "ENGRAM_RERANK_MODEL": c.rerank_model_id}

    def _stream(self, dead_letters: sqs.IQueue) -> sources.DynamoEventSource:
        """The table's stream as a source: partial failures, split and retried, then the DLQ."""
        return sources.DynamoEventSource(
            self.data.table,
            starting_position=lambda_.StartingPosition.TRIM_HORIZON,
            batch_size=100,
            max_batching_window=Duration.seconds(1),
            bisect_batch_on_error=True,
            retry_attempts=5,
            max_record_age=Duration.days(1),
            report_batch_item_failures=True,
            on_failure=sources.SqsDlq(dead_letters),
        )

    def _event_sources(self) -> None:
        fns = self.functions.functions
        # The stream's one consumer: each batch indexed, then its events on the bus for the
        # tenants that publish them (events.publish; events_publish: the stage's default).
        fns["stream"].add_event_source(self._stream(self.stream_dead_letters))
        fns["stream"].add_environment("ENGRAM_EVENT_BUS", self.events.bus_name)
        fns["stream"].add_environment(
            "ENGRAM_EVENTS__PUBLISH", "true" if self.config.events_publish else "false"
        )
        # Recall's reads by id only rank candidates the index found (it writes nothing from them):
        # eventually consistent reads, half the units (the cost section of docs/deploy.md).
        fns["recall"].add_environment("ENGRAM_MEMORY_READS", "eventual")
        fns["tenant_work"].add_event_source(
            sources.SqsEventSource(self.steps.queue, batch_size=1, report_batch_item_failures=True)
        )
        fns["extract_worker"].add_event_source(
            sources.SqsEventSource(
                self.extraction.queue,
                batch_size=EXTRACT_BATCH,  # one smart retain may take two long LLM calls
                report_batch_item_failures=True,
                max_concurrency=max(2, self.config.extract_worker_max_concurrency),
            )
        )

    def _grants(self) -> None:
        c = self.config
        fns, roles = self.functions.functions, self.functions.roles
        table: dynamodb.Table = self.data.table
        for name, mode in TABLE_ACCESS.items():
            if name in TABLE_ACTIONS:
                table.grant(fns[name], *TABLE_ACTIONS[name])
                if table.encryption_key is not None:
                    table.encryption_key.grant_encrypt_decrypt(fns[name])
            elif mode == "W":
                table.grant_read_write_data(fns[name])
            elif mode == "R":
                table.grant_read_data(fns[name])
        for name, mode in SEARCH_ACCESS.items():
            self.search.grant(roles[name], write=mode == "W", methods=SEARCH_METHODS.get(name))
        embedding = _model_arns(c.embedding_model_id)
        llm = _model_arns(c.llm_model_id)
        for name in EMBEDS:
            roles[name].add_to_policy(
                iam.PolicyStatement(actions=["bedrock:InvokeModel"], resources=embedding)
            )
        for name in EXTRACTS:
            roles[name].add_to_policy(iam.PolicyStatement(actions=["bedrock:InvokeModel"], resources=llm))
        if c.rerank_provider == "bedrock":
            for name in RERANKS:
                # Rerank has no resource type (it takes '*'); the model it runs is InvokeModel's.
                roles[name].add_to_policy(iam.PolicyStatement(actions=["bedrock:Rerank"], resources=["*"]))
                roles[name].add_to_policy(
                    iam.PolicyStatement(
                        actions=["bedrock:InvokeModel"], resources=_model_arns(c.rerank_model_id)
                    )
                )
        self.events.grant_put(fns["stream"])
        self.extraction.queue.grant_send_messages(fns["retain"])
        for name in STEPS:
            self.steps.queue.grant_send_messages(fns[name])
        for name in OBJECTS:
            self.data.bucket.grant_read_write(fns[name])
        self.data.operator_token.grant_read(fns["authorizer"])
        self.data.pepper.grant_read(fns["authorizer"])
        self.data.pepper.grant_read(fns["admin"])
        # The admin function gives each new tenant an API Gateway key (the authorizer's
        # usageIdentifierKey) in its tier's usage plan, and deletes it on erasure.
        apigw_arn = f"arn:{Aws.PARTITION}:apigateway:{Aws.REGION}::"
        roles["admin"].add_to_policy(
            iam.PolicyStatement(
                actions=["apigateway:GET", "apigateway:POST", "apigateway:DELETE"],
                resources=[
                    f"{apigw_arn}/apikeys",
                    f"{apigw_arn}/apikeys/*",
                    f"{apigw_arn}/usageplans",
                    f"{apigw_arn}/usageplans/*/keys",
                    f"{apigw_arn}/usageplans/*/keys/*",
                ],
            )
        )


def _model_arns(model_id: str) -> list[str]:
    """What ``bedrock:InvokeModel`` needs for a model id or a cross-region inference profile id."""
    profile = INFERENCE_PROFILE.match(model_id)
    if profile is None:
        return [f"arn:{Aws.PARTITION}:bedrock:{Aws.REGION}::foundation-model/{model_id}"]
    return [
        f"arn:{Aws.PARTITION}:bedrock:{Aws.REGION}:{Aws.ACCOUNT_ID}:inference-profile/{model_id}",
        f"arn:{Aws.PARTITION}:bedrock:*::foundation-model/{profile.group(2)}",
    ]


def _runtime(version: str) -> lambda_.Runtime:
    runtime = getattr(lambda_.Runtime, f"PYTHON_{version.replace('.', '_')}", None)
    if not isinstance(runtime, lambda_.Runtime):
        raise ValueError(f"python_version: this aws-cdk-lib has no Lambda runtime python{version}")
    return runtime


_RETENTIONS = {
    1: logs.RetentionDays.ONE_DAY,
    3: logs.RetentionDays.THREE_DAYS,
    5: logs.RetentionDays.FIVE_DAYS,
    7: logs.RetentionDays.ONE_WEEK,
    14: logs.RetentionDays.TWO_WEEKS,
    30: logs.RetentionDays.ONE_MONTH,
    60: logs.RetentionDays.TWO_MONTHS,
    90: logs.RetentionDays.THREE_MONTHS,
    180: logs.RetentionDays.SIX_MONTHS,
    365: logs.RetentionDays.ONE_YEAR,
    731: logs.RetentionDays.TWO_YEARS,
}


def _retention(days: int) -> logs.RetentionDays:
    if days not in _RETENTIONS:
        raise ValueError(f"log_retention_days: {days} is not one of {sorted(_RETENTIONS)}")
    return _RETENTIONS[days]


def build_app(context: dict[str, Any] | None = None, *, outdir: str | None = None) -> tuple[App, EngramStack]:
    """The CDK app with the Engram stack and both cdk-nag packs (AwsSolutions, Serverless)."""
    app = App(context=context or {}, outdir=outdir)
    config = Config.from_scope(app)
    env = Environment(
        account=os.environ.get("CDK_DEFAULT_ACCOUNT"), region=os.environ.get("CDK_DEFAULT_REGION")
    )
    stack = EngramStack(app, f"Engram-{config.stage}", config=config, env=env)
    Validations.of(app).add_plugins(AwsSolutionsChecks(app), ServerlessChecks(app))
    return app, stack
