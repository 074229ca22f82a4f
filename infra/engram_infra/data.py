"""Data: the DynamoDB tables of the AWS backend, their customer managed key, and the secrets.

Every table is on-demand, has point-in-time recovery, and is encrypted with one customer managed
KMS key (rotated yearly). Keys are generic (``pk``/``sk``, GSIs ``gsi1``/``gsi2`` with
``gsi1pk``/``gsi1sk``...) so the backend's key design (``TENANT#<id>#...``) lives in its adapters,
not in the infrastructure. ``ttl`` (epoch seconds) is the TTL attribute where a table has one.
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

TTL_ATTRIBUTE = "ttl"


@dataclass(frozen=True)
class TableSpec:
    name: str
    gsis: int = 0
    ttl: bool = False
    stream: bool = False
    purpose: str = ""


TABLES: tuple[TableSpec, ...] = (
    TableSpec(
        "memories",
        gsis=2,
        ttl=True,
        stream=True,
        purpose="the system of record; gsi1 lists by scope, gsi2 serves the lifecycle scheduler; "
        "the stream feeds the search indexer; ttl is a safety net behind the lifecycle job's expiry",
    ),
    TableSpec("history", purpose="every change of every memory"),
    TableSpec("tenants", gsis=1, purpose="tenants and their settings overrides"),
    TableSpec("keys", gsis=1, purpose="API keys by key id (hash and display prefix only); gsi1 by tenant"),
    TableSpec("jobs", gsis=1, ttl=True, purpose="async retain jobs and lifecycle reports"),
    TableSpec("deletions", purpose="the content-free deletion log"),
    TableSpec("idempotency", ttl=True, purpose="retain idempotency records (fingerprints and ids only)"),
)


class Data(Construct):
    """Tables, the customer managed key that encrypts them, and the service's two secrets."""

    def __init__(self, scope: Construct, construct_id: str, *, prefix: str, retain: bool) -> None:
        super().__init__(scope, construct_id)
        removal = RemovalPolicy.RETAIN if retain else RemovalPolicy.DESTROY
        self.key = kms.Key(
            self,
            "Key",
            alias=f"alias/{prefix}",
            description=f"{prefix}: tables, queues, topic and secrets",
            enable_key_rotation=True,
            removal_policy=removal,
        )
        # CloudWatch alarms publish to the encrypted alarm topic.
        self.key.add_to_resource_policy(
            iam.PolicyStatement(
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                resources=["*"],  # in a key policy "*" means this key
            )
        )
        self.tables: dict[str, dynamodb.Table] = {}
        for spec in TABLES:
            table = dynamodb.Table(
                self,
                spec.name.capitalize(),
                table_name=f"{prefix}-{spec.name}",
                partition_key=dynamodb.Attribute(name="pk", type=dynamodb.AttributeType.STRING),
                sort_key=dynamodb.Attribute(name="sk", type=dynamodb.AttributeType.STRING),
                billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
                point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                    point_in_time_recovery_enabled=True
                ),
                encryption=dynamodb.TableEncryption.CUSTOMER_MANAGED,
                encryption_key=self.key,
                stream=dynamodb.StreamViewType.NEW_AND_OLD_IMAGES if spec.stream else None,
                time_to_live_attribute=TTL_ATTRIBUTE if spec.ttl else None,
                deletion_protection=retain,
                removal_policy=removal,
            )
            for n in range(1, spec.gsis + 1):
                table.add_global_secondary_index(
                    index_name=f"gsi{n}",
                    partition_key=dynamodb.Attribute(name=f"gsi{n}pk", type=dynamodb.AttributeType.STRING),
                    sort_key=dynamodb.Attribute(name=f"gsi{n}sk", type=dynamodb.AttributeType.STRING),
                )
            self.tables[spec.name] = table

        def secret(name: str, description: str) -> secretsmanager.Secret:
            return secretsmanager.Secret(
                self,
                name,
                secret_name=f"{prefix}/{name.lower()}",
                description=description,
                encryption_key=self.key,
                generate_secret_string=secretsmanager.SecretStringGenerator(
                    exclude_punctuation=True, password_length=48
                ),
                removal_policy=removal,
            )

        self.operator_token = secret("OperatorToken", "credential of the /v1/admin routes")
        self.pepper = secret("Pepper", "HMAC key of the stored API key hashes")

    def table(self, name: str) -> dynamodb.Table:
        return self.tables[name]
