"""cdk-nag acknowledgements: each finding the design accepts, on the narrowest construct, with why.

cdk-nag 3 names every finding separately (``AwsSolutions-IAM5[Resource::<Table.Arn>/index/*]``),
so the identifiers below are computed from the constructs they concern; a finding not listed here
fails the synth (and the infra tests).
"""

from __future__ import annotations

from typing import Protocol

from aws_cdk import Acknowledgment, CfnElement, Stack, Validations
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from aws_cdk import custom_resources as cr
from constructs import IConstruct

from engram_http.routes import ROUTES
from engram_infra.access import EXTRACTS, INFERENCE_PROFILE, OBJECTS, SEARCH_ACCESS, TABLE_ACCESS
from engram_infra.api import Api
from engram_infra.config import Config
from engram_infra.data import Data
from engram_infra.events import Events
from engram_infra.extraction import Extraction
from engram_infra.functions import Functions
from engram_infra.schedules import Schedules
from engram_infra.search import Search


class StackParts(Protocol):
    """The parts of the stack (``engram_infra.stack.EngramStack``) whose findings are acknowledged
    here; named as a protocol so that this module does not import the stack that calls it."""

    config: Config
    data: Data
    search: Search
    extraction: Extraction
    steps: Extraction
    events: Events
    functions: Functions
    api: Api
    stream_dead_letters: sqs.Queue
    schedules: Schedules
    search_setup_provider: cr.Provider


SYNCHRONOUS = (
    "invoked synchronously by API Gateway: a failure is returned to the caller, there is no event to park"
)


UNTRACED = {
    lambda_.Tracing.PASS_THROUGH: "invoked per write or per queued message: traced when its caller's trace "
    "header says sampled, so the stage's sampling rule sets the share (Lambda's own sampling would trace "
    "nearly every invocation of a quiet stage, at $5 per million traces)",
    lambda_.Tracing.DISABLED: "the stage's tracing_sample_rate is 0: nothing is traced",
}
"""Why a function is not ``ACTIVE`` (``engram_infra.functions.tracing_mode``)."""


def _ack(scope: IConstruct, rule: str, reason: str) -> None:
    Validations.of(scope).acknowledge(Acknowledgment(id=rule, reason=reason))


def _ref(construct: IConstruct) -> str:
    """How cdk-nag prints a resource's ARN: ``<LogicalId.Arn>``."""
    stack = Stack.of(construct)
    element = construct.node.default_child if not isinstance(construct, CfnElement) else construct
    assert isinstance(element, CfnElement)
    return f"<{stack.resolve(stack.get_logical_id(element))}.Arn>"


def acknowledge(stack: StackParts) -> None:
    """Acknowledge the accepted findings of the AwsSolutions and Serverless packs."""
    profile = INFERENCE_PROFILE.match(stack.config.llm_model_id)

    functions = stack.functions
    for name, role in functions.roles.items():
        _ack(
            role,
            "AwsSolutions-IAM5[Resource::*]",
            "X-Ray PutTraceSegments/PutTelemetryRecords (and, for stream readers, dynamodb:ListStreams; "
            "in a VPC, the ENI actions; for recall with Bedrock rerank, bedrock:Rerank) only accept "
            "Resource '*'",
        )
        _ack(
            role,
            f"AwsSolutions-IAM5[Resource::{_ref(functions[name].log_group)}:*]",
            "log streams are created at run time inside the function's own log group",
        )
        if profile is not None and name in EXTRACTS:
            _ack(
                role,
                f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/{profile.group(2)}]",
                "a geographic inference profile routes each call to its model in one of the geography's regions "
                "(chosen by Bedrock at call time), so the model is granted in every region; the profile itself "
                "is granted in the stack's region only",
            )
        if TABLE_ACCESS[name] in ("R", "W") or name == "stream":  # the stream consumer: its dead-letter queue
            for action in ("kms:ReEncrypt*", "kms:GenerateDataKey*"):
                _ack(
                    role,
                    f"AwsSolutions-IAM5[Action::{action}]",
                    "KMS actions of CDK's grant on the one customer managed key of the table and queues",
                )
            _ack(
                role,
                f"AwsSolutions-IAM5[Resource::{_ref(stack.data.table)}/index/*]",
                "the table's own global secondary indexes (g1-g6 of the single-table design)",
            )
        if name in SEARCH_ACCESS and stack.search.domain is not None:
            _ack(
                role,
                f"AwsSolutions-IAM5[Resource::{_ref(stack.search.domain)}/*]",
                "index paths inside the one search domain; fine-grained access control narrows them further",
            )
        if name in OBJECTS:
            for action in ("s3:GetObject*", "s3:GetBucket*", "s3:List*", "s3:DeleteObject*", "s3:Abort*"):
                _ack(
                    role,
                    f"AwsSolutions-IAM5[Action::{action}]",
                    "CDK's read-write grant on the one bucket of job bodies and exports",
                )
            _ack(
                role,
                f"AwsSolutions-IAM5[Resource::{_ref(stack.data.bucket)}/*]",
                "objects are keyed by tenant and job or export id at run time (tenants/<tenant>/...)",
            )
        function = functions[name]
        if name == "stream":
            reason = "a DynamoDB stream source: failed batches go to the event source mapping's on-failure SQS destination"
        elif name == "tenant_work":
            reason = "an SQS source: failed steps go to the step queue's redrive DLQ"
        elif name == "extract_worker":
            reason = "an SQS source: failed messages go to the extraction queue's redrive DLQ"
        elif name == "search_setup":
            reason = "invoked by the custom resource provider during deploys: a failure fails the deploy"
        elif name in ("decay", "tiering"):
            reason = "asynchronous: an on-failure destination (the schedules DLQ) receives failed runs with their error"
        else:
            reason = SYNCHRONOUS
        _ack(function, "Serverless-LambdaDLQ", reason)
        if functions.tracing[name] != lambda_.Tracing.ACTIVE:
            _ack(function, "Serverless-LambdaTracing", UNTRACED[functions.tracing[name]])

    extract_sources = [
        c
        for name in ("extract_worker", "tenant_work")
        for c in functions[name].node.children
        if "SqsEventSource" in c.node.id
    ]
    for source in extract_sources:
        _ack(
            source,
            "Serverless-LambdaEventSourceMappingDestination",
            "SQS event sources take no on-failure destination; the queue's redrive policy moves failures to its DLQ",
        )
    apigw_reason = (
        "the admin function creates and deletes tenants' API Gateway keys in usage plans made by this stack; "
        "their ids exist only at run time (and naming the plans here would make a dependency cycle)"
    )
    for resource in ("/apikeys/*", "/usageplans/*/keys", "/usageplans/*/keys/*"):
        _ack(
            functions.roles["admin"],
            f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::{resource}]",
            apigw_reason,
        )

    _secrets(stack)
    _queues(stack)
    _api(stack)
    _search(stack)
    _custom_resource(stack)


def _custom_resource(stack: StackParts) -> None:
    """The provider framework's own function (CDK's code) in front of ``search_setup``."""
    framework = stack.search_setup_provider.node.find_child("framework-onEvent")
    assert isinstance(framework, lambda_.Function)
    role = framework.role
    assert role is not None
    _ack(
        role,
        "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
        "the CDK provider framework's function: its role is made by CDK with the basic execution policy",
    )
    _ack(
        role,
        f"AwsSolutions-IAM5[Resource::{_ref(stack.functions['search_setup'])}:*]",
        "the framework invokes every version of the one search setup function",
    )
    reason = "the CDK provider framework's function runs only during deploys, for seconds"
    for rule in ("Serverless-LambdaDefaultMemorySize", "Serverless-LambdaTracing"):
        _ack(framework, rule, reason)
    _ack(
        framework,
        "Serverless-LambdaDLQ",
        "invoked by CloudFormation through the framework: a failure fails the deploy, which reports it",
    )


def _secrets(stack: StackParts) -> None:
    _ack(
        stack.data.bucket,
        "AwsSolutions-S1",
        "holds only transient objects (job bodies, exports) that expire within days; reads and writes are "
        "by the stack's own functions, whose calls CloudTrail records",
    )
    _ack(
        stack.data.pepper,
        "AwsSolutions-SMG4",
        "the pepper keys the HMAC of every stored API key hash: rotating it would revoke every key",
    )
    _ack(
        stack.data.operator_token,
        "AwsSolutions-SMG4",
        "the operator rotates the admin credential by hand (README: Operations); no service depends on its value",
    )


def _queues(stack: StackParts) -> None:
    for queue in (stack.stream_dead_letters, stack.schedules.dead_letters, stack.events.dead_letters):
        _ack(
            queue,
            "AwsSolutions-SQS3",
            "this queue is a dead-letter queue of a Lambda on-failure destination or an EventBridge target, "
            "which cdk-nag cannot see",
        )
    for queue in (
        stack.stream_dead_letters,
        stack.schedules.dead_letters,
        stack.extraction.dead_letters,
        stack.steps.dead_letters,
        stack.events.dead_letters,
    ):
        _ack(
            queue,
            "Serverless-SQSRedrivePolicy",
            "a dead-letter queue is the end of the line: an alarm fires on its first message",
        )


def _api(stack: StackParts) -> None:
    api = stack.api
    _ack(
        api.rest_api,
        "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]",
        "API Gateway's account-level logging role uses the AWS managed policy made for it",
    )
    _ack(
        api.rest_api,
        "AwsSolutions-COG4",
        "tenants authenticate with API keys checked by the Lambda REQUEST authorizer (DESIGN §9), not Cognito users",
    )
    public = {route.path for route in ROUTES if route.auth == "none"}
    for method in api.methods:
        if method.http_method and method.resource.path in public:
            _ack(
                method,
                "AwsSolutions-APIG4",
                "public by design: the OpenAPI document, Swagger UI, liveness and the inspector's static "
                "files (they hold no data: every call the page makes needs a key)",
            )
    if api.sampling_rule is None:
        _ack(api.stage, "Serverless-APIGWXrayEnabled", UNTRACED[lambda_.Tracing.DISABLED])
    if api.web_acl is None:
        _ack(
            api.stage,
            "AwsSolutions-APIG3",
            "WAF is optional (context waf=true adds a web ACL); per-tenant usage plans and the stage throttle "
            "already bound traffic",
        )


def _search(stack: StackParts) -> None:
    domain = stack.search.domain
    if domain is None:
        return
    config = stack.config
    if stack.search.vpc is None:
        _ack(
            domain,
            "AwsSolutions-OS1",
            "public endpoint by default (context opensearch_vpc=true moves it into a VPC): every request is "
            "SigV4-signed and checked by IAM and fine-grained access control",
        )
    else:
        for endpoint in stack.search.vpc.node.children:
            if isinstance(endpoint, ec2.InterfaceVpcEndpoint):
                _ack(
                    endpoint,
                    "AwsSolutions-EC23",
                    "CDK's endpoint security group admits HTTPS from the VPC's own CIDR only (cdk-nag cannot "
                    "resolve the CIDR token)",
                )
    _ack(
        stack.search.admin_role,
        f"AwsSolutions-IAM5[Resource::{_ref(domain)}/*]",
        "the operators' administrator role works on every index path of the one search domain",
    )
    _ack(
        domain,
        "AwsSolutions-OS3",
        "access is granted to SigV4-signed IAM principals of this account, not to IP ranges",
    )
    if config.opensearch_instance_count < 2:
        _ack(
            domain,
            "AwsSolutions-OS7",
            "the default single-node domain keeps the idle cost low; opensearch_instance_count >= 2 enables "
            "zone awareness, and the index can be rebuilt from DynamoDB (engram reindex)",
        )
    _ack(
        domain,
        "AwsSolutions-OS4",
        "dedicated master nodes pay off from about ten data nodes; the index is derived and rebuildable",
    )
