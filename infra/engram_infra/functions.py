"""Functions: every Lambda of the service, made by one factory, sharing one layer.

Each function is arm64 on the configured Python runtime, traced with X-Ray, logs JSON to its own
log group (with a retention), and gets its own role holding only its log-group statement; the stack
then grants each role what its code touches. Handler code comes from ``functions/<folder>/`` as a
plain folder asset (no Docker bundling); ``engram`` and its dependencies come from the layer.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from aws_cdk import Duration
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from engram_infra.config import REPO_ROOT

FUNCTIONS_DIR = REPO_ROOT / "functions"


@dataclass(frozen=True)
class FunctionSpec:
    """One function: its code folder, entry point, memory and timeout."""

    name: str
    folder: str
    handler: str = "handler.lambda_handler"
    memory_mb: int = 1024
    timeout_s: int = 29
    in_vpc: bool = False
    """Needs the search domain (placed in the VPC when the domain is in one)."""


# The HTTP functions' timeout stays under API Gateway's 29 s integration limit.
API_FUNCTIONS: tuple[FunctionSpec, ...] = (
    FunctionSpec("authorizer", "authorizer", memory_mb=512, timeout_s=10),
    FunctionSpec("retain", "retain"),
    FunctionSpec("recall", "recall", timeout_s=15, in_vpc=True),
    FunctionSpec("forget", "forget", in_vpc=True),
    FunctionSpec("feedback", "feedback", memory_mb=512, timeout_s=10),
    FunctionSpec("memories", "memories", in_vpc=True),
    FunctionSpec("admin", "admin", memory_mb=512, in_vpc=True),
    FunctionSpec("docs", "docs", memory_mb=256, timeout_s=10),
)


def worker_functions(*, extract_timeout_s: int) -> tuple[FunctionSpec, ...]:
    return (
        FunctionSpec("indexer", "indexer", memory_mb=512, timeout_s=60, in_vpc=True),
        FunctionSpec("extract_worker", "extract_worker", timeout_s=extract_timeout_s),
        FunctionSpec("decay", "lifecycle", handler="handler.decay_handler", timeout_s=900, in_vpc=True),
        FunctionSpec("tiering", "lifecycle", handler="handler.tiering_handler", timeout_s=900, in_vpc=True),
    )


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
        vpc: ec2.IVpc | None = None,
        security_group: ec2.ISecurityGroup | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
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
            return str(folder)
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
        role = iam.Role(
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
            tracing=lambda_.Tracing.ACTIVE,
            environment={**environment, "POWERTOOLS_SERVICE_NAME": "engram", "ENGRAM_FUNCTION": spec.name},
            reserved_concurrent_executions=reserved,
            vpc=vpc,
            vpc_subnets=ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_ISOLATED) if vpc else None,
            security_groups=[security_group] if vpc and security_group else None,
            description=f"engram {spec.name} ({spec.folder}/handler.py)",
        )
        self.functions[spec.name] = function
        self.roles[spec.name] = role

    def __getitem__(self, name: str) -> lambda_.Function:
        return self.functions[name]
