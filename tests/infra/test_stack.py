"""The synthesised template, asserted by resource type and properties (never by hashed logical ids)."""

from __future__ import annotations

import fnmatch
import json
from typing import Any

import pytest
from aws_cdk.assertions import Match
from engram_infra.access import EMBEDS, EXTRACTS, SEARCH_ACCESS, TABLE_ACCESS
from engram_infra.config import Config
from engram_infra.data import TABLE
from engram_infra.extraction import VISIBILITY_FACTOR
from engram_infra.functions import (
    ANSWER_MARGIN_S,
    API_FUNCTIONS,
    COLD_START_S,
    RETAIN_CHAIN_LIMIT_S,
    worker_functions,
)
from engram_infra.observability import DEAD_LETTER_QUEUES
from infra_support import Synth, alarm_metrics, billed_alarm_metrics
from infra_support import refs as _refs

from engram_dev import cost
from engram_http.loader import load_handler
from engram_http.routes import CLOUD_ROUTES as ROUTES

CONFIG = Config.from_values({})
SPECS = {
    s.name: s
    for s in (*API_FUNCTIONS, *worker_functions(extract_timeout_s=CONFIG.extract_worker_timeout_seconds))
}
# Statements AWS only accepts with Resource "*".
STAR_RESOURCE_ACTIONS = {
    "xray:PutTraceSegments",
    "xray:PutTelemetryRecords",
    "dynamodb:ListStreams",
    "ec2:CreateNetworkInterface",
    "ec2:DescribeNetworkInterfaces",
    "ec2:DeleteNetworkInterface",
    "ec2:AssignPrivateIpAddresses",
    "ec2:UnassignPrivateIpAddresses",
}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _function_names(synth: Synth) -> dict[str, str]:
    """Logical id -> function name as the route table names it (``engram-dev-extract-worker`` -> extract_worker)."""
    prefix = f"{CONFIG.prefix}-"
    return {
        lid: r["Properties"]["FunctionName"].removeprefix(prefix).replace("-", "_")
        for lid, r in synth.resources("AWS::Lambda::Function").items()
        if "FunctionName" in r["Properties"]  # the provider framework's function is CDK's own
    }


def _paths(synth: Synth) -> dict[str, str]:
    """API Gateway resource logical id -> its full path, rebuilt from PathPart and ParentId."""
    resources = synth.resources("AWS::ApiGateway::Resource")
    paths: dict[str, str] = {}

    def path(lid: str) -> str:
        if lid not in resources:
            return ""  # the API's root
        if lid not in paths:
            props = resources[lid]["Properties"]
            parents = _refs(props["ParentId"]) & set(resources)
            paths[lid] = (path(parents.pop()) if parents else "") + "/" + props["PathPart"]
        return paths[lid]

    for lid in resources:
        path(lid)
    return paths


def _role_statements(synth: Synth, function: str) -> list[dict[str, Any]]:
    """Every statement of the IAM policies attached to one function's role."""
    fn = next(
        r
        for r in synth.resources("AWS::Lambda::Function").values()
        if r["Properties"]["FunctionName"] == f"{CONFIG.prefix}-{function.replace('_', '-')}"
    )
    role = _refs(fn["Properties"]["Role"]).pop()
    statements = []
    for policy in synth.resources("AWS::IAM::Policy").values():
        if role in _refs(policy["Properties"]["Roles"]):
            statements += policy["Properties"]["PolicyDocument"]["Statement"]
    return statements


def _actions(statements: list[dict[str, Any]]) -> set[str]:
    return {a for s in statements for a in _as_list(s["Action"])}


# --- API ------------------------------------------------------------------------------------------


def test_every_route_of_the_route_table_is_a_method_on_its_function(synth: Synth) -> None:
    # Given the template's methods, with their paths rebuilt and their integration's function
    paths = _paths(synth)
    names = _function_names(synth)
    methods = {}
    for method in synth.resources("AWS::ApiGateway::Method").values():
        props = method["Properties"]
        if props["HttpMethod"] == "OPTIONS":
            continue
        resource = _refs(props["ResourceId"]) & set(paths)
        path = paths[resource.pop()] if resource else "/"
        targets = _refs(props["Integration"]["Uri"]) & set(names)
        methods[(props["HttpMethod"], path)] = (props, names[targets.pop()])
    # Then they are exactly the route table, each proxied to the route's function
    assert set(methods) == {(r.method, r.path) for r in ROUTES}
    for route in ROUTES:
        props, function = methods[(route.method, route.path)]
        assert function == route.function
        assert props["Integration"]["Type"] == "AWS_PROXY"
        if route.auth == "none":
            assert props["AuthorizationType"] == "NONE"
        else:
            assert props["AuthorizationType"] == "CUSTOM"
            assert "AuthorizerId" in props
        # Tenant traffic needs the authorizer's usage identifier key, so the tier's plan applies.
        assert props.get("ApiKeyRequired", False) is (route.auth == "key")


def test_path_parameters_are_required_and_validated(synth: Synth) -> None:
    for method in synth.resources("AWS::ApiGateway::Method").values():
        props = method["Properties"]
        if props["HttpMethod"] == "OPTIONS":
            continue
        assert "RequestValidatorId" in props
    synth.template.has_resource_properties(
        "AWS::ApiGateway::Method",
        {"HttpMethod": "PATCH", "RequestParameters": {"method.request.path.id": True}},
    )


def test_authorizer_is_a_cached_request_authorizer_on_the_key_header(synth: Synth) -> None:
    authorizers = synth.resources("AWS::ApiGateway::Authorizer")
    assert len(authorizers) == 1
    props = next(iter(authorizers.values()))["Properties"]
    assert props["Type"] == "REQUEST"
    assert props["IdentitySource"] == f"method.request.header.{CONFIG.key_header}"
    assert props["AuthorizerResultTtlInSeconds"] == CONFIG.authorizer_cache_ttl_seconds > 0
    target = _refs(props["AuthorizerUri"]) & set(_function_names(synth))
    assert [_function_names(synth)[t] for t in target] == ["authorizer"]
    synth.template.has_resource_properties("AWS::ApiGateway::RestApi", {"ApiKeySourceType": "AUTHORIZER"})


def test_a_cached_authorizer_policy_allows_every_route_of_the_stage() -> None:
    # Given the policy the authorizer returns for a request to one route
    authorizer = load_handler("authorizer")
    api = "arn:aws:execute-api:eu-west-1:123456789012:abcdef1234"
    policy = authorizer._policy("key", f"{api}/dev/POST/v1/recall", {})
    [statement] = policy["policyDocument"]["Statement"]
    # Then the same cached policy allows every other route and method of that stage
    for route in ROUTES:
        arn = f"{api}/dev/{route.method}{route.path.replace('{id}', 'mem_1')}"
        assert fnmatch.fnmatchcase(arn, statement["Resource"]), arn
    assert not fnmatch.fnmatchcase(f"{api}/prod/GET/v1/health", statement["Resource"])


def test_usage_plans_throttle_and_meter_each_tier(synth: Synth) -> None:
    plans = {
        p["Properties"]["UsagePlanName"]: p["Properties"]
        for p in synth.resources("AWS::ApiGateway::UsagePlan").values()
    }
    assert set(plans) == {f"{CONFIG.prefix}-{tier}" for tier in CONFIG.usage_plans}
    for tier, limits in CONFIG.usage_plans.items():
        plan = plans[f"{CONFIG.prefix}-{tier}"]
        assert plan["Throttle"] == {"RateLimit": limits.rate_limit, "BurstLimit": limits.burst_limit}
        if limits.quota_per_day:
            assert plan["Quota"] == {"Limit": limits.quota_per_day, "Period": "DAY"}
        else:
            assert "Quota" not in plan
        assert len(plan["ApiStages"]) == 1


def test_gateway_401_body_is_the_one_the_local_gateway_sends(synth: Synth) -> None:
    from engram_http.apigw import UNAUTHORIZED

    responses = {
        r["Properties"]["ResponseType"]: r["Properties"]
        for r in synth.resources("AWS::ApiGateway::GatewayResponse").values()
    }
    unauthorized = responses["UNAUTHORIZED"]
    assert unauthorized["StatusCode"] == "401"
    assert json.loads(unauthorized["ResponseTemplates"]["application/json"]) == json.loads(UNAUTHORIZED)
    assert responses["QUOTA_EXCEEDED"]["StatusCode"] == "429"
    assert "gatewayresponse.header.Retry-After" in responses["THROTTLED"]["ResponseParameters"]


def test_stage_has_access_logs_tracing_and_no_body_logging(synth: Synth) -> None:
    synth.template.has_resource_properties(
        "AWS::ApiGateway::Stage",
        {
            "StageName": CONFIG.stage,
            "TracingEnabled": True,
            "AccessLogSetting": {
                "DestinationArn": Match.any_value(),
                "Format": Match.string_like_regexp("requestId"),
            },
            "MethodSettings": Match.array_with(
                [
                    Match.object_like(
                        {"DataTraceEnabled": False, "LoggingLevel": "ERROR", "MetricsEnabled": True}
                    )
                ]
            ),
        },
    )
    # CORS is off by default: no OPTIONS methods
    assert not [
        m
        for m in synth.resources("AWS::ApiGateway::Method").values()
        if m["Properties"]["HttpMethod"] == "OPTIONS"
    ]


def _joined(value: Any) -> str:
    """A template string (``Fn::Join`` of strings and Refs) with each Ref as ``<logical id>``."""
    if isinstance(value, str):
        return value
    if "Ref" in value:
        return f"<{value['Ref']}>"
    separator, parts = value["Fn::Join"]
    return str(separator).join(_joined(part) for part in parts)


def test_the_stages_sampling_rule_traces_its_share_of_requests_and_nothing_else(synth: Synth) -> None:
    # Given the default stage (tracing_sample_rate 0.01) and its one sampling rule
    [rule] = synth.resources("AWS::XRay::SamplingRule").values()
    props = rule["Properties"]["SamplingRule"]
    # Then it traces that share with no reservoir (X-Ray's Default rule: 1 a second and 5 %)
    assert props["FixedRate"] == CONFIG.tracing_sample_rate == 0.01
    assert props["ReservoirSize"] == 0
    assert 1 <= props["Priority"] < 10000  # evaluated before the Default rule's 10000
    assert len(props["RuleName"]) <= 32 and props["RuleName"].startswith(CONFIG.prefix)
    # And it matches this stage's requests only: by the stage's ARN, as API Gateway sends it
    [api] = synth.resources("AWS::ApiGateway::RestApi")
    [stage] = synth.resources("AWS::ApiGateway::Stage")
    assert _joined(props["ResourceARN"]) == (
        f"arn:<AWS::Partition>:apigateway:<AWS::Region>::/restapis/<{api}>/stages/<{stage}>"
    )
    assert props["ServiceType"] == "AWS::ApiGateway::Stage"
    assert (props["ServiceName"], props["Host"], props["HTTPMethod"], props["URLPath"]) == ("*",) * 4


def test_api_functions_follow_the_stages_sampling_and_the_others_their_caller(synth: Synth) -> None:
    # Given each function's X-Ray mode on the default stage
    functions = synth.resources("AWS::Lambda::Function")
    modes = {
        name: functions[lid]["Properties"]["TracingConfig"]["Mode"]
        for lid, name in _function_names(synth).items()
    }
    # Then what API Gateway invokes follows the stage's decision in the trace header
    assert {n for n, mode in modes.items() if mode == "Active"} == {s.name for s in API_FUNCTIONS}
    # And the stream consumer and the queues' workers are traced only when their caller's header
    # says sampled (a stream record carries none), never by Lambda's own 1 a second and 5 %
    passing = {n for n, mode in modes.items() if mode == "PassThrough"}
    assert {"stream", "extract_worker", "tenant_work"} <= passing
    assert passing | {s.name for s in API_FUNCTIONS} == set(SPECS)
    # And Powertools' tracer is on in each of them
    for lid in _function_names(synth):
        assert "POWERTOOLS_TRACE_DISABLED" not in functions[lid]["Properties"]["Environment"]["Variables"]


# --- functions ------------------------------------------------------------------------------------


def test_every_function_is_arm64_on_the_configured_python_with_its_memory_and_timeout(synth: Synth) -> None:
    functions = synth.resources("AWS::Lambda::Function")
    names = _function_names(synth)
    layers = synth.resources("AWS::Lambda::LayerVersion")
    assert len(layers) == 1
    [layer] = layers
    assert set(names.values()) == set(SPECS)
    for lid, name in names.items():
        props, spec = functions[lid]["Properties"], SPECS[name]
        assert props["Runtime"] == f"python{CONFIG.python_version}"
        assert props["Architectures"] == ["arm64"]
        assert props["MemorySize"] == spec.memory_mb
        assert props["Timeout"] == spec.timeout_s
        assert props["Handler"] == spec.handler
        assert _refs(props["Layers"]) == {layer}
        assert props["Environment"]["Variables"]["ENGRAM_BACKEND"] == "aws"
        assert props["LoggingConfig"]["LogFormat"] == "JSON"


def test_functions_log_no_platform_lines_and_the_per_request_ones_only_warnings(synth: Synth) -> None:
    # Given the synthesised functions and the levels engram cost prices their logs at
    from engram_dev.cost import log_levels

    levels = log_levels()
    for lid, name in _function_names(synth).items():
        props = synth.resources("AWS::Lambda::Function")[lid]["Properties"]
        # Then no START/END/REPORT lines, and each one's application level is the one priced
        assert props["LoggingConfig"]["SystemLogLevel"] == "WARN", name
        assert props["LoggingConfig"]["ApplicationLogLevel"] == levels[name], name
        assert props["Environment"]["Variables"]["POWERTOOLS_LOG_LEVEL"] == levels[name], name
    assert {n for n, level in levels.items() if level == "WARN"} >= {"retain", "recall", "stream"}


def test_a_requests_access_log_line_has_what_operations_need_within_the_priced_size(synth: Synth) -> None:
    # Given the stage's access log format
    from engram_dev.cost.prices import ACCESS_LOG_BYTES

    [stage] = synth.resources("AWS::ApiGateway::Stage").values()
    fields = json.loads(stage["Properties"]["AccessLogSetting"]["Format"])
    # Then it names the request, its tenant, route, status and latency
    assert {"requestId", "tenant", "httpMethod", "resourcePath", "status", "latencyMs"} <= set(fields)
    # and a line with long values (a UUID, a 63-character tenant, the longest route) fits the price
    values = {
        "$context.requestId": "c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
        "$context.authorizer.tenant_id": "t" * 63,
        "$context.identity.sourceIp": "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
        "$context.requestTime": "02/Dec/2026:20:39:50 +0000",
        "$context.httpMethod": "DELETE",
        "$context.resourcePath": "/v1/admin/tenants/{tenant}/webhooks/{webhook_id}",
        "$context.status": "200",
        "$context.responseLatency": "29000",
        "$context.responseLength": "5242880",
    }
    line = json.dumps({k: values[v] for k, v in fields.items()})
    assert len(line) <= ACCESS_LOG_BYTES


def test_api_functions_answer_within_api_gateways_29_seconds_even_after_a_cold_start(synth: Synth) -> None:
    for spec in API_FUNCTIONS:
        assert spec.timeout_s + COLD_START_S <= 29, spec.name
    # retain's longest chain (two LLM calls, the embedding, three index attempts), its answer
    # margin and a cold start: at most 25 s
    retain = next(s for s in API_FUNCTIONS if s.name == "retain")
    assert retain.worst_case_s + ANSWER_MARGIN_S + COLD_START_S <= RETAIN_CHAIN_LIMIT_S == 25
    env = _environment_of(synth, "retain")
    chain = 2 * float(env["ENGRAM_LLM_DEADLINE_S"]) + float(env["ENGRAM_PROVIDER_DEADLINE_S"])
    chain += 3 * float(env["ENGRAM_OPENSEARCH_TIMEOUT_S"])
    assert chain == retain.worst_case_s


def _environment_of(synth: Synth, function: str) -> dict[str, str]:
    for resource in synth.resources("AWS::Lambda::Function").values():
        env = resource["Properties"].get("Environment", {}).get("Variables", {})
        if env.get("ENGRAM_FUNCTION") == function:
            return dict(env)
    raise AssertionError(function)


def test_only_the_recall_function_reads_memories_eventually_consistent(synth: Synth) -> None:
    # (#28: half the read units of recall's candidates; every other function reads consistently)
    for name in SPECS:
        assert (_environment_of(synth, name).get("ENGRAM_MEMORY_READS") == "eventual") is (name == "recall")


def test_lifecycle_functions_share_one_handler_file_with_two_entry_points() -> None:
    assert (SPECS["decay"].folder, SPECS["decay"].handler) == ("lifecycle", "handler.decay_handler")
    assert (SPECS["tiering"].folder, SPECS["tiering"].handler) == ("lifecycle", "handler.tiering_handler")


# --- data -----------------------------------------------------------------------------------------


def test_every_table_is_on_demand_with_pitr_and_the_customer_managed_key(synth: Synth) -> None:
    tables = synth.resources("AWS::DynamoDB::Table")
    keys = synth.resources("AWS::KMS::Key")
    assert len(keys) == 1
    [key_id] = keys
    assert keys[key_id]["Properties"]["EnableKeyRotation"] is True
    assert {t["Properties"]["TableName"] for t in tables.values()} == {f"{CONFIG.prefix}-{TABLE}"}
    for table in tables.values():
        props = table["Properties"]
        assert props["BillingMode"] == "PAY_PER_REQUEST"
        assert props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
        assert props["SSESpecification"]["SSEEnabled"] is True
        assert props["SSESpecification"]["SSEType"] == "KMS"
        assert _refs(props["SSESpecification"]["KMSMasterKeyId"]) == {key_id}
        assert table["DeletionPolicy"] == "Retain"  # retain_data defaults to true


def test_memories_table_streams_new_and_old_images_and_expires_by_ttl(synth: Synth) -> None:
    synth.template.has_resource_properties(
        "AWS::DynamoDB::Table",
        {
            "TableName": f"{CONFIG.prefix}-memories",
            "StreamSpecification": {"StreamViewType": "NEW_AND_OLD_IMAGES"},
            "TimeToLiveSpecification": {"AttributeName": "ttl", "Enabled": True},
        },
    )
    streamed = [
        t
        for t in synth.resources("AWS::DynamoDB::Table").values()
        if "StreamSpecification" in t["Properties"]
    ]
    assert len(streamed) == 1


def test_the_table_has_exactly_the_keys_and_indexes_the_dynamodb_adapter_queries(synth: Synth) -> None:
    # Given the adapter's own CreateTable request (what DynamoDB Local runs in the tests)
    from engram.adapters.dynamodb.table import table_definition

    wanted = table_definition("-")

    # When the synthesised table is read
    [table] = synth.resources("AWS::DynamoDB::Table").values()
    props = table["Properties"]

    # Then keys, attribute types, index names, index keys and projections are the same
    assert props["KeySchema"] == wanted["KeySchema"]
    assert sorted(props["AttributeDefinitions"], key=lambda a: a["AttributeName"]) == sorted(
        wanted["AttributeDefinitions"], key=lambda a: a["AttributeName"]
    )

    def shape(indexes: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            i["IndexName"]: (
                i["KeySchema"],
                i["Projection"]["ProjectionType"],
                sorted(i["Projection"].get("NonKeyAttributes", [])),
            )
            for i in indexes
        }

    assert shape(props["GlobalSecondaryIndexes"]) == shape(wanted["GlobalSecondaryIndexes"])


def _stand_in(name: str, value: Any) -> str:
    """A plain string for a CloudFormation reference (a URL for the search endpoint, which
    Settings checks is one)."""
    if isinstance(value, str):
        return value
    return f"https://ref-{name}" if name == "ENGRAM_OPENSEARCH_ENDPOINT" else f"ref-{name}"


def test_the_functions_find_the_table_index_and_secrets_under_the_names_settings_read(synth: Synth) -> None:
    # Given the environment of the recall function and the variables Settings.from_env reads
    from engram.settings import Settings

    [recall] = [
        f
        for f in synth.resources("AWS::Lambda::Function").values()
        if f["Properties"]["Environment"]["Variables"].get("ENGRAM_FUNCTION") == "recall"
    ]
    env = recall["Properties"]["Environment"]["Variables"]

    # When plain strings stand in for the CloudFormation references
    settings = Settings.from_env({k: _stand_in(k, v) for k, v in env.items()})

    # Then the backend, the table, the search endpoint, the embedder and the LLM are the stack's
    assert settings.backend == "aws"
    assert settings.aws.table == "ref-ENGRAM_TABLE"
    assert settings.aws.memory_reads == "eventual"  # recall's reads by id
    assert settings.aws.opensearch_endpoint == "https://ref-ENGRAM_OPENSEARCH_ENDPOINT"
    assert settings.embedder == "bedrock" and settings.aws.bedrock_model == CONFIG.embedding_model_id
    assert settings.llm.provider == "bedrock" and settings.llm.model == CONFIG.llm_model_id
    assert settings.retain.defer_embedding is False
    assert settings.extract_queue_url == "ref-ENGRAM_EXTRACT_QUEUE_URL"
    # and new tenants are enrolled in the usage plans the stack names
    assert settings.aws.usage_plan_prefix == f"{CONFIG.prefix}-"
    assert settings.aws.usage_plan_tiers.split(",") == list(CONFIG.usage_plans)


NOT_SETTINGS = {"ENGRAM_STAGE", "ENGRAM_FUNCTION"}
"""Variables of the functions' environment that name the deployment, not a setting."""


def _same(read: Any, value: str) -> bool:
    """Whether a setting holds what its variable said (the variable as pydantic reads it)."""
    from pydantic import SecretStr

    if isinstance(read, SecretStr):
        read = read.get_secret_value()
    if isinstance(read, bool):
        return value.lower() == str(read).lower()
    if isinstance(read, int | float):
        return float(value) == read
    return str(read) == value


def test_every_function_reads_each_variable_of_its_environment_into_its_setting(synth: Synth) -> None:
    # Given the exact environment the stack gives each function (references as plain strings)
    from functools import reduce

    from engram.settings import ENV_NAMES, Settings

    functions = [
        f["Properties"]["Environment"]["Variables"]
        for f in synth.resources("AWS::Lambda::Function").values()
        if "ENGRAM_FUNCTION" in f["Properties"].get("Environment", {}).get("Variables", {})
    ]
    assert len(functions) >= 10
    for variables in functions:
        env = {k: _stand_in(k, v) for k, v in variables.items()}

        # When the function's settings are read (as its init does)
        settings = Settings.from_env(env)

        # Then every ENGRAM_* variable (and AWS_REGION) landed in the setting it names
        for name, value in env.items():
            if name in NOT_SETTINGS or not (name.startswith("ENGRAM_") or name == "AWS_REGION"):
                continue
            path = {variable: setting for setting, variable in ENV_NAMES.items()}[name]
            read = reduce(getattr, path.split("."), settings)
            assert _same(read, value), (env["ENGRAM_FUNCTION"], name, value, read)
        assert settings.backend == "aws" and settings.retain.defer_embedding is False


def test_one_consumer_reads_the_memories_stream_with_partial_failures_and_an_on_failure_queue(
    synth: Synth,
) -> None:
    mappings = synth.resources("AWS::Lambda::EventSourceMapping")
    names = _function_names(synth)
    by_function = {
        names[_refs(m["Properties"]["FunctionName"]).pop()]: m["Properties"] for m in mappings.values()
    }
    # the table's stream has one consumer (it indexes and publishes: one invocation a batch)
    assert set(by_function) == {"stream", "extract_worker", "tenant_work"}
    stream = by_function["stream"]
    [table_id] = synth.resources("AWS::DynamoDB::Table")
    assert _refs(stream["EventSourceArn"]) == {table_id}
    assert stream["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert stream["BisectBatchOnFunctionError"] is True
    queues = {q["Properties"]["QueueName"]: lid for lid, q in synth.resources("AWS::SQS::Queue").items()}
    assert _refs(stream["DestinationConfig"]["OnFailure"]["Destination"]) == {
        queues[f"{CONFIG.prefix}-stream-dlq"]
    }
    assert stream["MaximumRetryAttempts"] == 5
    assert stream["StartingPosition"] == "TRIM_HORIZON"
    assert by_function["extract_worker"]["BatchSize"] == 1
    assert by_function["extract_worker"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]


# --- search ---------------------------------------------------------------------------------------


def test_search_domain_encrypts_at_rest_and_in_transit_and_answers_https_only(synth: Synth) -> None:
    domains = synth.resources("AWS::OpenSearchService::Domain")
    assert len(domains) == 1
    props = next(iter(domains.values()))["Properties"]
    assert props["EncryptionAtRestOptions"]["Enabled"] is True
    assert _refs(props["EncryptionAtRestOptions"]["KmsKeyId"]) == set(synth.resources("AWS::KMS::Key"))
    assert props["NodeToNodeEncryptionOptions"] == {"Enabled": True}
    assert props["DomainEndpointOptions"]["EnforceHTTPS"] is True
    assert props["DomainEndpointOptions"]["TLSSecurityPolicy"].startswith("Policy-Min-TLS-1-2")
    assert props["AdvancedSecurityOptions"]["Enabled"] is True
    assert props["AdvancedSecurityOptions"]["InternalUserDatabaseEnabled"] is False
    assert props["EngineVersion"] == f"OpenSearch_{CONFIG.opensearch_version}"
    for statement in props["AccessPolicies"]["Statement"]:
        assert "*" not in json.dumps(statement["Principal"])


# --- queues and schedules -------------------------------------------------------------------------


def test_extraction_queue_has_a_dlq_and_six_times_the_worker_timeout(synth: Synth) -> None:
    queues = synth.resources("AWS::SQS::Queue")
    names = {q["Properties"]["QueueName"]: (lid, q["Properties"]) for lid, q in queues.items()}
    _, queue = names[f"{CONFIG.prefix}-extract"]
    dlq_id, _ = names[f"{CONFIG.prefix}-extract-dlq"]
    worker = next(
        r["Properties"]
        for r in synth.resources("AWS::Lambda::Function").values()
        if r["Properties"]["FunctionName"].endswith("-extract-worker")
    )
    assert queue["VisibilityTimeout"] >= VISIBILITY_FACTOR * worker["Timeout"]
    assert _refs(queue["RedrivePolicy"]["deadLetterTargetArn"]) == {dlq_id}
    assert queue["RedrivePolicy"]["maxReceiveCount"] >= 1


def test_every_queue_is_encrypted_and_refuses_plain_http(synth: Synth) -> None:
    queues = synth.resources("AWS::SQS::Queue")
    assert (
        len(queues) == 8
    )  # extract, steps and events with their DLQs, the stream consumer's and the schedules' DLQs
    for queue in queues.values():
        props = queue["Properties"]
        assert "KmsMasterKeyId" in props or props.get("SqsManagedSseEnabled") is True
    policies = synth.resources("AWS::SQS::QueuePolicy").values()
    secured = {
        q
        for p in policies
        for s in p["Properties"]["PolicyDocument"]["Statement"]
        if s.get("Condition", {}).get("Bool", {}).get("aws:SecureTransport") == "false"
        and s["Effect"] == "Deny"
        for q in _refs(p["Properties"]["Queues"])
    }
    assert secured == set(queues)


def test_schedules_run_decay_and_tiering_with_retries_and_a_dlq(synth: Synth) -> None:
    rules = {
        k: r
        for k, r in synth.resources("AWS::Events::Rule").items()
        if "ScheduleExpression" in r["Properties"]
    }
    names = _function_names(synth)
    targets = {}
    for rule in rules.values():
        props = rule["Properties"]
        [target] = props["Targets"]
        function = names[_refs(target["Arn"]).pop()]
        targets[function] = (props["ScheduleExpression"], target)
    assert set(targets) == {"decay", "tiering"}
    assert targets["decay"][0] == CONFIG.decay_schedule
    assert targets["tiering"][0] == CONFIG.tiering_schedule
    for job, (_, target) in targets.items():
        # the job learns its name and scheduled time, so a retried delivery is the same run
        transformer = target["InputTransformer"]
        assert f'"job":"{job}"' in transformer["InputTemplate"].replace(" ", "")
        assert transformer["InputPathsMap"] == {"time": "$.time"}
        assert "Arn" in target["DeadLetterConfig"]
        assert target["RetryPolicy"]["MaximumRetryAttempts"] > 0
    invoke_configs = synth.resources("AWS::Lambda::EventInvokeConfig")
    assert {names[_refs(c["Properties"]["FunctionName"]).pop()] for c in invoke_configs.values()} == {
        "decay",
        "tiering",
    }
    for config in invoke_configs.values():
        assert "Destination" in config["Properties"]["DestinationConfig"]["OnFailure"]


# --- IAM ------------------------------------------------------------------------------------------


def test_no_statement_grants_all_actions_or_any_action_on_every_resource(synth: Synth) -> None:
    for policy in synth.resources("AWS::IAM::Policy").values():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            actions = _as_list(statement["Action"])
            assert "*" not in actions
            assert not [a for a in actions if a.endswith(":*")], actions
            if "*" in _as_list(statement["Resource"]):
                assert set(actions) <= STAR_RESOURCE_ACTIONS, actions
    for role in synth.resources("AWS::IAM::Role").values():
        for managed in role["Properties"].get("ManagedPolicyArns", []):
            assert "AdministratorAccess" not in json.dumps(managed)


@pytest.mark.parametrize("function", sorted(TABLE_ACCESS))
def test_each_function_touches_only_its_tables_models_and_index(synth: Synth, function: str) -> None:
    statements = _role_statements(synth, function)
    actions = _actions(statements)
    [table_id] = synth.resources("AWS::DynamoDB::Table")
    touched = any(
        table_id in _refs(s["Resource"])
        for s in statements
        if any(a.startswith("dynamodb:") for a in _as_list(s["Action"]))
    )
    writes = any(
        table_id in _refs(s["Resource"])
        for s in statements
        if {"dynamodb:PutItem", "dynamodb:UpdateItem"} & set(_as_list(s["Action"]))
    )
    assert touched is bool(TABLE_ACCESS[function])
    assert writes is (TABLE_ACCESS[function] == "W")
    assert ("bedrock:InvokeModel" in actions) is (function in EMBEDS or function in EXTRACTS)
    # searches, bulk writes and deletions by query are POSTs: the data plane sends nothing else
    search = {a for a in actions if a.startswith("es:")}
    if function == "search_setup":
        assert {"es:ESHttpPut", "es:ESHttpHead"} <= search
    else:
        assert search == ({"es:ESHttpPost"} if function in SEARCH_ACCESS else set()), search
    assert bool({a for a in actions if a.startswith("apigateway:")}) is (function == "admin")


def test_bedrock_is_granted_on_the_configured_models_only(synth: Synth) -> None:
    for function in sorted({*EMBEDS, *EXTRACTS}):
        resources = [
            json.dumps(r)
            for s in _role_statements(synth, function)
            if "bedrock:InvokeModel" in _as_list(s["Action"])
            for r in _as_list(s["Resource"])
        ]
        assert resources
        # a geographic inference profile (us.<model>) is granted with its model in every region
        llm_model = CONFIG.llm_model_id.split(".", 1)[1] if CONFIG.llm_model_id.startswith("us.") else ""
        for resource in resources:
            assert (
                CONFIG.embedding_model_id in resource
                or CONFIG.llm_model_id in resource
                or f"foundation-model/{llm_model}" in resource
            ), resource
        assert any(CONFIG.llm_model_id in r for r in resources) is (function in EXTRACTS)


# --- observability --------------------------------------------------------------------------------


def test_a_dev_stage_alarms_on_5xx_dead_letters_and_a_red_search_cluster(synth: Synth) -> None:
    # Given the default (dev) stage, whose alarms are the essential ones
    alarms, metrics = alarm_metrics(synth)
    # Then what fails or is lost is watched: the API's 5xx, every DLQ, the search cluster
    assert sorted(metrics) == sorted(
        [("AWS/ApiGateway", "5XXError"), ("AWS/ES", "ClusterStatus.red")]
        + [("AWS/SQS", "ApproximateNumberOfMessagesVisible")] * len(DEAD_LETTER_QUEUES)
    )
    # And the cost command counts the same billed metrics (7 x $0.10 a month)
    assert billed_alarm_metrics(alarms) == cost.alarms("essential") == 7
    [topic] = synth.resources("AWS::SNS::Topic")
    assert all(_refs(a["AlarmActions"]) == {topic} for a in alarms)
    assert len(synth.resources("AWS::CloudWatch::Dashboard")) == 1


# --- cdk-nag --------------------------------------------------------------------------------------


def test_cdk_nag_finds_nothing_unacknowledged(synth: Synth, capsys: pytest.CaptureFixture[str]) -> None:
    report = synth.validation_report()
    violations = [
        f"{v['ruleName']} at {c['constructPath']}"
        for plugin in (report or {}).get("pluginReports", [])
        for v in plugin["violations"]
        for c in v["violatingConstructs"]
    ]
    assert violations == []
    assert synth.error is None
    with capsys.disabled():
        print(
            f"\n[infra] synth with cdk-nag (AwsSolutions + Serverless), jsii already warm: {synth.seconds:.1f} s"
        )


def test_every_acknowledgement_states_its_reason(synth: Synth) -> None:
    from aws_cdk import Validations

    key = Validations.ACKNOWLEDGED_RULES_METADATA_KEY
    acknowledged = [
        entry.data
        for construct in synth.stack.node.find_all()
        for entry in construct.node.metadata
        if entry.type == key
    ]
    assert acknowledged
    for data in acknowledged:  # {"Annotation::<rule id>": reason}
        for rule, reason in data.items():
            assert len(str(reason)) > 20, rule


def test_every_entry_point_a_function_names_exists_in_its_handler_module() -> None:
    # Given the functions whose handler code exists
    import ast

    from engram_infra.functions import FUNCTIONS_DIR

    present = [s for s in SPECS.values() if (FUNCTIONS_DIR / s.folder / "handler.py").is_file()]
    assert present

    # When each module's top-level names are read (without importing it)
    missing = []
    for spec in present:
        tree = ast.parse((FUNCTIONS_DIR / spec.folder / "handler.py").read_text())
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        names |= {
            t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)
        }
        if spec.handler.split(".", 1)[1] not in names:
            missing.append(f"{spec.name}: {spec.handler}")

    # Then every entry point CloudFormation will call is there
    assert missing == []
