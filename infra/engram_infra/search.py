"""Search: the OpenSearch index behind recall, as a managed domain (default) or a Serverless collection.

The domain: encryption at rest with the service's customer managed key, node-to-node encryption,
HTTPS only (TLS 1.2), fine-grained access control with an IAM master role, slow and application
logs, optionally inside a VPC. The collection: a VECTORSEARCH collection with its encryption
(customer managed key), network and data access policies. Either way, the functions reach it with
SigV4 and an identity policy granted per function (reader: GET/HEAD/POST; writer: also PUT/DELETE).
"""

from __future__ import annotations

from typing import Any

from aws_cdk import Fn, RemovalPolicy, Stack
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_logs as logs
from aws_cdk import aws_opensearchserverless as aoss
from aws_cdk import aws_opensearchservice as opensearch
from constructs import Construct

READ_ACTIONS = ("es:ESHttpGet", "es:ESHttpHead", "es:ESHttpPost")  # _search/_msearch are POSTs
WRITE_ACTIONS = (*READ_ACTIONS, "es:ESHttpPut", "es:ESHttpDelete", "es:ESHttpPatch")


class Search(Construct):
    """The search index (domain or collection), its endpoint and its per-function grants."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        prefix: str,
        backend: str,
        key: kms.IKey,
        version: str,
        instance_type: str,
        instance_count: int,
        volume_gb: int,
        in_vpc: bool,
        log_retention: logs.RetentionDays,
        retain: bool,
        traced: bool = True,
    ) -> None:
        super().__init__(scope, construct_id)
        removal = RemovalPolicy.RETAIN if retain else RemovalPolicy.DESTROY
        self.backend = backend
        self.vpc: ec2.Vpc | None = None
        self.client_security_group: ec2.SecurityGroup | None = None
        self.domain: opensearch.Domain | None = None
        self.collection: aoss.CfnCollection | None = None
        self.setup_role: iam.Role | None = None
        self.readers: list[str] = []
        """Role ARNs granted to search (domain): the setup maps them to the reader role."""
        self.writers: list[str] = []
        self.replicas = 0 if instance_count < 2 else 1
        """Replicas of the memory index: on one node a replica can never be placed (yellow cluster)."""
        if backend == "opensearch-serverless":
            self.service = "aoss"
            self._serverless(prefix=prefix, key=key, removal=removal)
        else:
            self.service = "es"
            if in_vpc:
                self._network(prefix=prefix, log_retention=log_retention, traced=traced)
            self._domain(
                prefix=prefix,
                key=key,
                version=version,
                instance_type=instance_type,
                instance_count=instance_count,
                volume_gb=volume_gb,
                log_retention=log_retention,
                removal=removal,
            )

    # --- managed domain -------------------------------------------------------------------------

    def _network(self, *, prefix: str, log_retention: logs.RetentionDays, traced: bool) -> None:
        flow_logs = logs.LogGroup(self, "FlowLogs", retention=log_retention)
        self.vpc = ec2.Vpc(
            self,
            "Vpc",
            vpc_name=prefix,
            max_azs=2,
            nat_gateways=0,
            subnet_configuration=[
                ec2.SubnetConfiguration(name="private", subnet_type=ec2.SubnetType.PRIVATE_ISOLATED)
            ],
            flow_logs={
                "all": ec2.FlowLogOptions(destination=ec2.FlowLogDestination.to_cloud_watch_logs(flow_logs))
            },
            gateway_endpoints={
                "dynamodb": ec2.GatewayVpcEndpointOptions(service=ec2.GatewayVpcEndpointAwsService.DYNAMODB),
                "s3": ec2.GatewayVpcEndpointOptions(service=ec2.GatewayVpcEndpointAwsService.S3),
            },
        )
        self.client_security_group = ec2.SecurityGroup(
            self, "ClientSg", vpc=self.vpc, description="functions that reach the search domain"
        )
        # What the functions inside the VPC call besides the domain (no NAT: private endpoints).
        for name, service in (
            ("Bedrock", ec2.InterfaceVpcEndpointAwsService.BEDROCK_RUNTIME),
            ("Secrets", ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER),
            ("Sqs", ec2.InterfaceVpcEndpointAwsService.SQS),
            ("ApiGateway", ec2.InterfaceVpcEndpointAwsService.APIGATEWAY),
            # traces leave through it; a stage that traces nothing has no use for it (~$15 a month)
            *([("XRay", ec2.InterfaceVpcEndpointAwsService.XRAY)] if traced else []),
            # the stream consumer, in the VPC for the domain, puts the events on the bus
            ("Events", ec2.InterfaceVpcEndpointAwsService.EVENTBRIDGE),
        ):
            self.vpc.add_interface_endpoint(name, service=service, private_dns_enabled=True)

    def _domain(
        self,
        *,
        prefix: str,
        key: kms.IKey,
        version: str,
        instance_type: str,
        instance_count: int,
        volume_gb: int,
        log_retention: logs.RetentionDays,
        removal: RemovalPolicy,
    ) -> None:
        account = Stack.of(self).account
        # Fine-grained access control's master user: the search setup function (the index custom
        # resource), which maps the functions' roles to OpenSearch roles on every deploy.
        self.setup_role = iam.Role(
            self,
            "SetupRole",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"{prefix}-search-setup: creates the index and maps the functions' roles",
        )
        # Operators who need the domain's security API assume this one (mapped to all_access).
        self.admin_role = iam.Role(
            self,
            "AdminRole",
            assumed_by=iam.AccountPrincipal(account),
            description="OpenSearch administrator (all_access and security_manager inside the domain)",
        )
        slow_search = logs.LogGroup(self, "SlowSearchLogs", retention=log_retention, removal_policy=removal)
        slow_index = logs.LogGroup(self, "SlowIndexLogs", retention=log_retention, removal_policy=removal)
        app_logs = logs.LogGroup(self, "AppLogs", retention=log_retention, removal_policy=removal)
        # One explicit resource policy instead of the custom resource the Domain would add.
        logs_policy = logs.ResourcePolicy(
            self,
            "LogsPolicy",
            policy_statements=[
                iam.PolicyStatement(
                    actions=["logs:CreateLogStream", "logs:PutLogEvents"],
                    principals=[iam.ServicePrincipal("es.amazonaws.com")],
                    resources=[g.log_group_arn for g in (slow_search, slow_index, app_logs)],
                    conditions={"StringEquals": {"aws:SourceAccount": account}},
                )
            ],
        )
        multi_node = instance_count > 1
        vpc_options: dict[str, Any] = {}
        if self.vpc is not None and self.client_security_group is not None:
            domain_sg = ec2.SecurityGroup(self, "DomainSg", vpc=self.vpc, description="search domain")
            domain_sg.add_ingress_rule(self.client_security_group, ec2.Port.tcp(443), "HTTPS from functions")
            subnets = self.vpc.select_subnets(subnet_type=ec2.SubnetType.PRIVATE_ISOLATED).subnets
            vpc_options = {
                "vpc": self.vpc,
                "vpc_subnets": [ec2.SubnetSelection(subnets=subnets[: 2 if multi_node else 1])],
                "security_groups": [domain_sg],
            }
        self.domain = opensearch.Domain(
            self,
            "Domain",
            domain_name=prefix[:28],
            version=opensearch.EngineVersion.open_search(version),
            capacity=opensearch.CapacityConfig(
                data_node_instance_type=instance_type,
                data_nodes=instance_count,
                multi_az_with_standby_enabled=False,
            ),
            ebs=opensearch.EbsOptions(volume_size=volume_gb, volume_type=ec2.EbsDeviceVolumeType.GP3),
            zone_awareness=opensearch.ZoneAwarenessConfig(enabled=multi_node, availability_zone_count=2)
            if multi_node
            else None,
            encryption_at_rest=opensearch.EncryptionAtRestOptions(enabled=True, kms_key=key),
            node_to_node_encryption=True,
            enforce_https=True,
            tls_security_policy=opensearch.TLSSecurityPolicy.TLS_1_2,
            fine_grained_access_control=opensearch.AdvancedSecurityOptions(
                master_user_arn=self.setup_role.role_arn
            ),
            logging=opensearch.LoggingOptions(
                slow_search_log_enabled=True,
                slow_search_log_group=slow_search,
                slow_index_log_enabled=True,
                slow_index_log_group=slow_index,
                app_log_enabled=True,
                app_log_group=app_logs,
            ),
            suppress_logs_resource_policy=True,
            removal_policy=removal,
            **vpc_options,
        )
        # The domain's resource policy admits only this account's signed requests; which principal
        # may do what is then decided by identity policies (the stack's grants) and fine-grained
        # access control. Set on the L1 resource: the L2 prop would add a custom resource.
        cfn_domain = self.domain.node.default_child
        assert isinstance(cfn_domain, opensearch.CfnDomain)
        stack = Stack.of(self)
        cfn_domain.access_policies = {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": {"AWS": f"arn:{stack.partition}:iam::{account}:root"},
                    "Action": "es:ESHttp*",
                    "Resource": f"arn:{stack.partition}:es:{stack.region}:{account}:domain/{prefix[:28]}/*",
                }
            ],
        }
        # The domain checks that it may write to its log groups when it is created: the policy first.
        self.domain.node.add_dependency(logs_policy)
        # A URL with its scheme: the domain listens on 443 over TLS only.
        self.endpoint = Fn.join("", ["https://", self.domain.domain_endpoint])
        self.admin_role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=list(WRITE_ACTIONS), resources=[self.domain.domain_arn, f"{self.domain.domain_arn}/*"]
            )
        )

    # --- serverless collection ------------------------------------------------------------------

    def _serverless(self, *, prefix: str, key: kms.IKey, removal: RemovalPolicy) -> None:
        name = prefix[:32]
        encryption = aoss.CfnSecurityPolicy(
            self,
            "Encryption",
            name=f"{name}-enc"[:32],
            type="encryption",
            policy=Stack.of(self).to_json_string(
                {
                    "Rules": [{"ResourceType": "collection", "Resource": [f"collection/{name}"]}],
                    "AWSOwnedKey": False,
                    "KmsARN": key.key_arn,
                }
            ),
        )
        network = aoss.CfnSecurityPolicy(
            self,
            "Network",
            name=f"{name}-net"[:32],
            type="network",
            policy=Stack.of(self).to_json_string(
                [
                    {
                        "Rules": [{"ResourceType": "collection", "Resource": [f"collection/{name}"]}],
                        "AllowFromPublic": True,
                    }
                ]
            ),
        )
        self.collection = aoss.CfnCollection(
            self, "Collection", name=name, type="VECTORSEARCH", standby_replicas="DISABLED"
        )
        self.collection.add_dependency(encryption)
        self.collection.add_dependency(network)
        self.collection.apply_removal_policy(removal)
        self._collection_name = name
        self._readers: list[str] = []
        self._writers: list[str] = []
        # The data access policy is rewritten on every grant (see ``grant``).
        self.data_access = aoss.CfnAccessPolicy(
            self, "DataAccess", name=f"{name}-data"[:32], type="data", policy=self._data_access_policy()
        )
        self.endpoint = self.collection.attr_collection_endpoint  # already https://<id>.<region>.aoss...

    # --- grants ---------------------------------------------------------------------------------

    def grant(self, grantee: iam.IRole, *, write: bool, methods: tuple[str, ...] | None = None) -> None:
        """Let a function's role search (``write=False``) or also index and delete documents;
        ``methods``: the only HTTP methods (``es:ESHttp<Method>``) its code sends, where known."""
        if self.domain is not None:
            if write:
                self.writers.append(grantee.role_arn)
            else:
                self.readers.append(grantee.role_arn)
            grantee.add_to_principal_policy(
                iam.PolicyStatement(
                    actions=list(methods or (WRITE_ACTIONS if write else READ_ACTIONS)),
                    resources=[self.domain.domain_arn, f"{self.domain.domain_arn}/*"],
                )
            )
        elif self.collection is not None:
            grantee.add_to_principal_policy(
                iam.PolicyStatement(actions=["aoss:APIAccessAll"], resources=[self.collection.attr_arn])
            )
            (self._writers if write else self._readers).append(grantee.role_arn)
            self.data_access.policy = self._data_access_policy()

    def _data_access_policy(self) -> str:
        """Readers may read and describe indexes; writers may also write and manage them."""
        index = [f"index/{self._collection_name}/*"]
        rules = [
            {
                "Rules": [{"ResourceType": "index", "Resource": index, "Permission": permissions}],
                "Principal": principals,
            }
            for principals, permissions in (
                (self._readers, ["aoss:ReadDocument", "aoss:DescribeIndex"]),
                (
                    self._writers,
                    [
                        "aoss:ReadDocument",
                        "aoss:WriteDocument",
                        "aoss:CreateIndex",
                        "aoss:DescribeIndex",
                        "aoss:UpdateIndex",
                        "aoss:DeleteIndex",
                    ],
                ),
            )
            if principals
        ]
        if not rules:  # a policy needs one rule; nobody is granted yet
            rules = [
                {
                    "Rules": [
                        {"ResourceType": "index", "Resource": index, "Permission": ["aoss:DescribeIndex"]}
                    ],
                    "Principal": [f"arn:{Stack.of(self).partition}:iam::{Stack.of(self).account}:root"],
                }
            ]
        return Stack.of(self).to_json_string(rules)
