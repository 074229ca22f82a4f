"""Functions: every Lambda of the service, made by one factory, sharing one layer.

Each function is arm64 on the configured Python runtime, traced with X-Ray as the stage's sample
rate says (``tracing_mode``), logs JSON to its own log group (with a retention), and gets its own
role holding only its log-group statement (and X-Ray's, when traced); the stack
then grants each role what its code touches. Handler code comes from ``functions/<folder>/`` as a
plain folder asset (no Docker bundling); ``engram`` and its dependencies come from the layer.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from aws_cdk import Duration
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from engram_http.routes import FUNCTIONS as ROUTE_FUNCTIONS

FUNCTIONS_DIR = Path(__file__).resolve().parents[2] / "functions"
"""The handlers' folders (``engram_infra.config.REPO_ROOT``'s, computed here: the configuration
imports this module's deadlines to check the worker's timeout)."""


@dataclass(frozen=True)
class Deadlines:
    """The longest each call of a function may take (seconds, retries included); the stack
    passes them as ``ENGRAM_*`` variables, and every one is also cut to the invocation's time left
    (``engram.deadline``), so the function's timeout is never reached by waiting on a call."""

    embedding_s: float = 6.0
    opensearch_attempt_s: float = 3.0
    """One OpenSearch request attempt; opensearch-py makes up to three."""
    llm_s: float = 0.0
    """One LLM call (0: the function calls no LLM)."""

    @property
    def opensearch_s(self) -> float:
        return 3 * self.opensearch_attempt_s

    def environment(self) -> dict[str, str]:
        env = {
            "ENGRAM_PROVIDER_DEADLINE_S": f"{self.embedding_s:g}",
            "ENGRAM_PROVIDER_TIMEOUT_S": f"{min(5.0, self.embedding_s):g}",
            "ENGRAM_OPENSEARCH_TIMEOUT_S": f"{self.opensearch_attempt_s:g}",
        }
        if self.llm_s:
            env |= {"ENGRAM_LLM_DEADLINE_S": f"{self.llm_s:g}", "ENGRAM_LLM_TIMEOUT_S": f"{self.llm_s:g}"}
        return env


ANSWER_MARGIN_S = 1.5
"""What the handlers keep back from their deadlines to answer (``engram_http.runtime``)."""
API_GATEWAY_LIMIT_S = 29
"""API Gateway's integration timeout: past it the caller gets a 504 whatever the function does."""
COLD_START_S = 3.0
"""What a cold start may add before an API function's timeout starts counting (Lambda's init:
the runtime, the layer's imports, the configuration check). API Gateway's 29 s include it, so an
API function's timeout is at most 29 s less this."""
API_TIMEOUT_S = API_GATEWAY_LIMIT_S - int(COLD_START_S)
RETAIN_CHAIN_LIMIT_S = 25.0
"""Retain's longest chain of calls, with its answer margin and a cold start, stays within this."""


@dataclass(frozen=True)
class FunctionSpec:
    """One function: its code folder, entry point, memory, timeout and the deadlines inside it."""

    name: str
    folder: str
    handler: str = "handler.lambda_handler"
    memory_mb: int = 1024
    timeout_s: int = API_TIMEOUT_S
    in_vpc: bool = False
    """Needs the search domain (placed in the VPC when the domain is in one)."""
    deadlines: Deadlines = Deadlines()
    worst_case_s: float = 0.0
    """The longest run of calls one invocation makes in sequence (what its timeout must exceed)."""
    bundles: tuple[str, ...] = ()
    """Other functions' folders whose ``handler.py`` this function's asset carries too (the docs
    function merges their OpenAPI documents)."""


PER_REQUEST = frozenset({"authorizer", "retain", "recall", "feedback", "stream"})
"""The functions that run for every call or every write: at ``WARN`` they log nothing on success
(the API's access log line is the request's record), only warnings and errors (#28)."""


_API = Deadlines()
_LIGHT = Deadlines(embedding_s=3.0, opensearch_attempt_s=2.0)  # calls neither: bounds for any that creeps in
# Mode auto calls the LLM inline (extraction, then dedup): its chain, a cold start included, is at
# most RETAIN_CHAIN_LIMIT_S (2 x 4.5 + 4 + 3 x 2.5 = 20.5 s, + 1.5 s margin, + 3 s cold start).
_RETAIN = Deadlines(embedding_s=4.0, opensearch_attempt_s=2.5, llm_s=4.5)
_RETAIN_WORST_S = 2 * _RETAIN.llm_s + _RETAIN.embedding_s + _RETAIN.opensearch_s
# The HTTP functions' timeout and a cold start stay under API Gateway's 29 s integration limit.
API_FUNCTIONS: tuple[FunctionSpec, ...] = (
    FunctionSpec("authorizer", "authorizer", memory_mb=512, timeout_s=10, deadlines=_LIGHT, worst_case_s=5.0),
    # Retain, recall and the extract worker wait on Titan, DynamoDB, OpenSearch and the LLM; their
    # own CPU time is 14, 17 and 26 ms a call (``engram cost``, units.lambda_cpu_s): at 512 MB
    # (0.29 vCPU) that is 47, 60 and 90 ms, for half of 1,024 MB's price per second.
    FunctionSpec(
        "retain",
        "retain",
        memory_mb=512,
        in_vpc=True,
        timeout_s=int(_RETAIN_WORST_S + ANSWER_MARGIN_S) + 1,
        deadlines=_RETAIN,
        worst_case_s=_RETAIN_WORST_S,
    ),
    FunctionSpec(
        "recall", "recall", memory_mb=512, in_vpc=True, worst_case_s=_API.embedding_s + _API.opensearch_s
    ),
    FunctionSpec("forget", "forget", in_vpc=True, worst_case_s=_API.embedding_s + _API.opensearch_s),
    FunctionSpec("feedback", "feedback", memory_mb=512, timeout_s=10, deadlines=_LIGHT, worst_case_s=5.0),
    FunctionSpec("memories", "memories", in_vpc=True, worst_case_s=_API.embedding_s + 2 * _API.opensearch_s),
    FunctionSpec("admin", "admin", memory_mb=512, in_vpc=True, worst_case_s=_API.opensearch_s + 5.0),
    FunctionSpec(
        "docs",
        "docs",
        memory_mb=256,
        timeout_s=10,
        deadlines=_LIGHT,
        bundles=tuple(f for f in ROUTE_FUNCTIONS if f != "docs"),  # every route's handler
    ),
)

STEP_TIMEOUT_S = 300
STEP_STOP_MARGIN_S = 60.0
"""A step starts no new batch within this of its timeout (``functions/tenant_work``)."""
EXTRACT_BATCH = 1
"""Messages per extract worker invocation: one smart retain may make two long LLM calls."""


def extract_worst_case_s(llm_s: float) -> float:
    """One job: the extraction call, the dedup call, the embeddings and the index reads."""
    worker = Deadlines(embedding_s=20.0, opensearch_attempt_s=5.0, llm_s=llm_s)
    return EXTRACT_BATCH * (2 * llm_s + worker.embedding_s + worker.opensearch_s)


PUT_EVENTS_S = 10.0
"""The longest the PutEvents calls of one stream batch take, refused entries sent again twice."""


def worker_functions(*, extract_timeout_s: int, extract_llm_s: float = 45.0) -> tuple[FunctionSpec, ...]:
    worker = Deadlines(embedding_s=20.0, opensearch_attempt_s=5.0)
    return (
        FunctionSpec(  # the stream's one consumer waits on OpenSearch, then EventBridge: 256 MB
            "stream",
            "stream",
            memory_mb=256,
            timeout_s=60,
            in_vpc=True,
            deadlines=worker,
            # the index's bulk requests, then the PutEvents calls of one batch (refused entries
            # sent again twice)
            worst_case_s=worker.opensearch_s + PUT_EVENTS_S,
        ),
        FunctionSpec(
            "extract_worker",
            "extract_worker",
            memory_mb=512,
            timeout_s=extract_timeout_s,
            in_vpc=True,
            deadlines=Deadlines(embedding_s=20.0, opensearch_attempt_s=5.0, llm_s=extract_llm_s),
            worst_case_s=extract_worst_case_s(extract_llm_s),
        ),
        FunctionSpec(
            "decay",
            "lifecycle",
            handler="handler.decay_handler",
            timeout_s=900,
            in_vpc=True,
            deadlines=worker,
            worst_case_s=120.0,
        ),
        FunctionSpec(
            "tiering",
            "lifecycle",
            handler="handler.tiering_handler",
            timeout_s=900,
            in_vpc=True,
            deadlines=worker,
            worst_case_s=120.0,
        ),
        FunctionSpec(
            "tenant_work",
            "tenant_work",
            timeout_s=STEP_TIMEOUT_S,
            in_vpc=True,
            deadlines=worker,
            worst_case_s=STEP_STOP_MARGIN_S + worker.opensearch_s,
        ),
        FunctionSpec(
            "search_setup",
            "search_setup",
            handler="handler.on_event",
            memory_mb=256,
            timeout_s=300,
            in_vpc=True,
            deadlines=worker,
            worst_case_s=8 * worker.opensearch_s,
        ),
    )


GATEWAY_FUNCTIONS = frozenset(s.name for s in API_FUNCTIONS)
"""The functions API Gateway invokes (the authorizer too): ``ACTIVE``, they follow the stage's
sampling decision (``Sampled=0|1`` in the trace header it sends), so its sampling rule alone
decides how many requests are traced."""


def tracing_mode(spec: FunctionSpec, sample_rate: float) -> lambda_.Tracing:
    """The function's X-Ray mode at the stage's ``tracing_sample_rate`` (0: none at all).

    Every other function is ``PASS_THROUGH``: traced only when its caller's trace header says
    sampled. ``ACTIVE`` would let Lambda sample them itself, 1 a second and 5 % of the rest (not
    configurable): nearly every stream batch and queued job of a quiet stage, $5 per million
    traces. A stream record carries no header, so the stream consumer is never traced; a message
    queued by a sampled request carries it (the extract worker, the step worker). The daily jobs
    (decay, tiering) and the deploy-time search setup are few, but a scheduled run traced by
    Lambda would mark every step it queues sampled: one trace per tenant a day.
    """
    if sample_rate == 0:
        return lambda_.Tracing.DISABLED
    return lambda_.Tracing.ACTIVE if spec.name in GATEWAY_FUNCTIONS else lambda_.Tracing.PASS_THROUGH


def log_level(spec: FunctionSpec) -> str:
    """The function's application log level: ``WARN`` for the per-request functions."""
    return "WARN" if spec.name in PER_REQUEST else "INFO"


def missing_handlers(specs: tuple[FunctionSpec, ...]) -> list[str]:
    """The ``functions/<folder>/handler.py`` files that do not exist (yet)."""
    return sorted(
        {
            f"functions/{s.folder}/handler.py"
            for s in specs
            if not (FUNCTIONS_DIR / s.folder / "handler.py").is_file()
        }
    )


class Functions(Construct):
    """All functions, by name; ``self.roles[name]`` is each one's role for the stack's grants."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        prefix: str,
        specs: tuple[FunctionSpec, ...],
        layer_path: Path,
        runtime: lambda_.Runtime,
        environment: dict[str, str],
        log_retention: logs.RetentionDays,
        reserved_concurrency: dict[str, int],
        require_handlers: bool,
        tracing_sample_rate: float,
        vpc: ec2.IVpc | None = None,
        security_group: ec2.ISecurityGroup | None = None,
        roles: dict[str, iam.Role] | None = None,
    ) -> None:
        """``roles``: roles made elsewhere for some functions (the search setup's, which the
        domain names as its master user); every other function gets a role of its own here."""
        super().__init__(scope, construct_id)
        self._given_roles = dict(roles or {})
        self.tracing = {s.name: tracing_mode(s, tracing_sample_rate) for s in specs}
        """Each function's X-Ray mode (cdk-nag's acknowledgements read it)."""
        unknown = sorted(set(reserved_concurrency) - {s.name for s in specs})
        if unknown:
            raise ValueError(f"reserved_concurrency: no function named {', '.join(unknown)}")
        missing = missing_handlers(specs)
        if missing and require_handlers:
            raise ValueError(
                "handler code does not exist yet: "
                + ", ".join(missing)
                + " (synthesise with -c require_handlers=false to build the rest)"
            )
        if not (layer_path / "python").is_dir():
            raise ValueError(
                f"layer folder {layer_path}/python does not exist: build it first (README: Deploy)"
            )
        self.layer = lambda_.LayerVersion(
            self,
            "Layer",
            code=lambda_.Code.from_asset(str(layer_path), exclude=[".engram-layer.json"]),
            compatible_runtimes=[runtime],
            compatible_architectures=[lambda_.Architecture.ARM_64],
            description="engram domain library, engram_http and their runtime dependencies",
        )
        self._placeholder: Path | None = None
        self.functions: dict[str, lambda_.Function] = {}
        self.roles: dict[str, iam.Role] = {}
        for spec in specs:
            self._make(
                spec,
                prefix=prefix,
                runtime=runtime,
                environment=environment,
                log_retention=log_retention,
                reserved=reserved_concurrency.get(spec.name),
                vpc=vpc if spec.in_vpc else None,
                security_group=security_group,
            )

    def _code_folder(self, spec: FunctionSpec) -> str:
        folder = FUNCTIONS_DIR / spec.folder
        if (folder / "handler.py").is_file():
            return str(folder) if not spec.bundles else str(bundle(spec))
        # Only with require_handlers=false: an empty asset stands in for code not written yet.
        if self._placeholder is None:
            self._placeholder = Path(tempfile.mkdtemp(prefix="engram-missing-handler-"))
        return str(self._placeholder)

    def _make(
        self,
        spec: FunctionSpec,
        *,
        prefix: str,
        runtime: lambda_.Runtime,
        environment: dict[str, str],
        log_retention: logs.RetentionDays,
        reserved: int | None,
        vpc: ec2.IVpc | None,
        security_group: ec2.ISecurityGroup | None,
    ) -> None:
        construct_name = "".join(part.capitalize() for part in spec.name.split("_"))
        function_name = f"{prefix}-{spec.name.replace('_', '-')}"
        log_group = logs.LogGroup(
            self,
            f"{construct_name}Logs",
            log_group_name=f"/aws/lambda/{function_name}",
            retention=log_retention,
        )
        role = self._given_roles.get(spec.name) or iam.Role(
            self,
            f"{construct_name}Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"{function_name}: only what its code touches",
        )
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["logs:CreateLogStream", "logs:PutLogEvents"],
                resources=[f"{log_group.log_group_arn}:*"],
            )
        )
        if vpc is not None:
            role.add_to_policy(
                iam.PolicyStatement(
                    actions=[
                        "ec2:CreateNetworkInterface",
                        "ec2:DescribeNetworkInterfaces",
                        "ec2:DeleteNetworkInterface",
                        "ec2:AssignPrivateIpAddresses",
                        "ec2:UnassignPrivateIpAddresses",
                    ],
                    resources=["*"],  # AWS requires "*" for network interface management
                )
            )
        function = lambda_.Function(
            self,
            construct_name,
            function_name=function_name,
            runtime=runtime,
            architecture=lambda_.Architecture.ARM_64,
            handler=spec.handler,
            code=lambda_.Code.from_asset(self._code_folder(spec), exclude=["__pycache__", "*.pyc"]),
            layers=[self.layer],
            memory_size=spec.memory_mb,
            timeout=Duration.seconds(spec.timeout_s),
            role=role,
            log_group=log_group,
            logging_format=lambda_.LoggingFormat.JSON,
            # No START/END/REPORT lines (~0.6 KB an invocation); Lambda's metrics keep durations.
            system_log_level_v2=lambda_.SystemLogLevel.WARN,
            application_log_level_v2=lambda_.ApplicationLogLevel[log_level(spec)],
            tracing=self.tracing[spec.name],
            environment={
                **environment,
                **spec.deadlines.environment(),
                "POWERTOOLS_SERVICE_NAME": "engram",
                "POWERTOOLS_LOG_LEVEL": log_level(spec),
                "ENGRAM_FUNCTION": spec.name,
                **self._untraced(spec),
            },
            reserved_concurrent_executions=reserved,
            vpc=vpc,
            vpc_subnets=ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_ISOLATED) if vpc else None,
            security_groups=[security_group] if vpc and security_group else None,
            description=f"engram {spec.name} ({spec.folder}/handler.py)",
        )
        self.functions[spec.name] = function
        self.roles[spec.name] = role

    def _untraced(self, spec: FunctionSpec) -> dict[str, str]:
        """Powertools' tracer off where Lambda traces nothing: the handlers never import the X-Ray
        SDK (``engram_http.runtime.LazyTracer``, ~0.15 s of a cold start)."""
        if self.tracing[spec.name] == lambda_.Tracing.DISABLED:
            return {"POWERTOOLS_TRACE_DISABLED": "true"}
        return {}

    def __getitem__(self, name: str) -> lambda_.Function:
        return self.functions[name]


def bundle(spec: FunctionSpec, out: Path | None = None) -> Path:
    """A folder holding the function's own code and ``<name>/handler.py`` of each bundled function,
    laid out as the Lambda task root (``engram_http.loader`` finds them there)."""
    target = out or Path(tempfile.mkdtemp(prefix=f"engram-{spec.name}-asset-"))
    shutil.copytree(FUNCTIONS_DIR / spec.folder, target, dirs_exist_ok=True, ignore=_IGNORED)
    for name in spec.bundles:
        (target / name).mkdir(exist_ok=True)
        shutil.copy2(FUNCTIONS_DIR / name / "handler.py", target / name / "handler.py")
    return target


_IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")
