"""Data: the DynamoDB table of the AWS backend, its customer managed key, and the secrets.

The backend is a single-table design (``engram.adapters.dynamodb``): the table's keys, its
global secondary indexes and their projections are read from the adapter's own ``CreateTable``
request (``table_definition``), so the stack and the code that queries the table cannot drift. The
table is on-demand, has point-in-time recovery, is encrypted with one customer managed KMS key
(rotated yearly), streams new and old images to the stream consumer (the index and the events), and expires items on ``ttl``
(epoch seconds: idempotency records, finished jobs).
"""

from __future__ import annotations

from typing import Any

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

from engram.adapters.dynamodb.table import table_definition

TTL_ATTRIBUTE = "ttl"
TABLE = "memories"
"""The one table's short name (``<prefix>-memories``)."""


OBJECT_DAYS = 7
"""Objects expire after this: a job's queue keeps it 4 days, an export's URL lives 15 minutes."""


def _gsis() -> list[dict[str, Any]]:
    return list(table_definition("-")["GlobalSecondaryIndexes"])


class Data(Construct):
    """The table, the customer managed key that encrypts it, and the service's two secrets."""

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
        definition = table_definition("-")
        assert [k["AttributeName"] for k in definition["KeySchema"]] == ["pk", "sk"]
        self.table = dynamodb.Table(
            self,
            "Memories",
            table_name=f"{prefix}-{TABLE}",
            partition_key=dynamodb.Attribute(name="pk", type=dynamodb.AttributeType.STRING),
            sort_key=dynamodb.Attribute(name="sk", type=dynamodb.AttributeType.STRING),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            encryption=dynamodb.TableEncryption.CUSTOMER_MANAGED,
            encryption_key=self.key,
            stream=dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
            time_to_live_attribute=TTL_ATTRIBUTE,
            deletion_protection=retain,
            removal_policy=removal,
        )
        for gsi in _gsis():
            (pk, sk) = (k["AttributeName"] for k in gsi["KeySchema"])
            projection = gsi["Projection"]
            included = projection.get("NonKeyAttributes")
            self.table.add_global_secondary_index(
                index_name=gsi["IndexName"],
                partition_key=dynamodb.Attribute(name=pk, type=dynamodb.AttributeType.STRING),
                sort_key=dynamodb.Attribute(name=sk, type=dynamodb.AttributeType.STRING),
                projection_type=(
                    dynamodb.ProjectionType.INCLUDE if included else dynamodb.ProjectionType.KEYS_ONLY
                ),
                non_key_attributes=list(included) if included else None,
            )

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
        # Job bodies too large for an item and exports too large for a response; both expire.
        self.bucket = s3.Bucket(
            self,
            "Objects",
            encryption=s3.BucketEncryption.KMS,
            encryption_key=self.key,
            bucket_key_enabled=True,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            enforce_ssl=True,
            versioned=False,
            removal_policy=removal,
            lifecycle_rules=[
                s3.LifecycleRule(
                    id="tenant-objects", prefix="tenants/", expiration=Duration.days(OBJECT_DAYS)
                ),
                s3.LifecycleRule(id="uploads", abort_incomplete_multipart_upload_after=Duration.days(1)),
            ],
        )
