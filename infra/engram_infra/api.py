"""API: the REST API of DESIGN §3, derived route by route from ``engram_http.routes.ROUTES``.

The same table drives the local gateway, so the cloud API cannot drift from it. Tenant routes use
the REQUEST authorizer (cached on the key header) and require an API key, which the authorizer
supplies (``usageIdentifierKey``, API key source AUTHORIZER), so each tenant's usage plan throttles
and meters it. Operator routes use the same authorizer without a usage plan; public routes
(docs, health) need nothing.
"""

from __future__ import annotations

import json
import re

from aws_cdk import Duration
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_wafv2 as wafv2
from aws_cdk import aws_xray as xray
from constructs import Construct

from engram_http.routes import CLOUD_ROUTES as ROUTES  # the embedded server's own routes stay local
from engram_http.routes import Route
from engram_infra.config import UsagePlanLimits

_PARAM = re.compile(r"\{(\w+)\}")
UNAUTHORIZED_BODY = '{"error": {"code": "unauthorized", "message": "invalid or missing API key"}}'


ACCESS_LOG_FIELDS = {
    "requestId": "$context.requestId",
    "tenant": "$context.authorizer.tenant_id",
    "ip": "$context.identity.sourceIp",
    "requestTime": "$context.requestTime",
    "httpMethod": "$context.httpMethod",
    "resourcePath": "$context.resourcePath",
    "status": "$context.status",
    "latencyMs": "$context.responseLatency",
    "responseLength": "$context.responseLength",
}
"""The one log line of each request (#28): what operations need of it (its id, tenant, route,
status and latency), at most ~400 bytes; the functions of every request log only warnings and errors."""
SAMPLING_PRIORITY = 1000
"""The stage's sampling rule is evaluated before X-Ray's Default rule (priority 10000: 1 request a
second and 5 % of the rest); 1-999 stay free for an operator's own rule, e.g. one route at 100 %."""


class Api(Construct):
    """REST API, authorizer, gateway responses, usage plans per tier, access logs and optional WAF."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        prefix: str,
        stage: str,
        handlers: dict[str, lambda_.IFunction],
        authorizer_function: lambda_.IFunction,
        key_header: str,
        cache_ttl_seconds: int,
        throttle: dict[str, float],
        usage_plans: dict[str, UsagePlanLimits],
        cors_origins: list[str],
        waf: bool,
        log_retention: logs.RetentionDays,
        tracing_sample_rate: float,
    ) -> None:
        super().__init__(scope, construct_id)
        self.access_logs = logs.LogGroup(self, "AccessLogs", retention=log_retention)
        cors = (
            apigw.CorsOptions(
                allow_origins=cors_origins,
                allow_methods=sorted({r.method for r in ROUTES}),
                allow_headers=[key_header, "Content-Type", "Idempotency-Key"],
            )
            if cors_origins
            else None
        )
        self.rest_api = apigw.RestApi(
            self,
            "RestApi",
            rest_api_name=prefix,
            description="Engram: retain, recall, forget, feedback",
            api_key_source_type=apigw.ApiKeySourceType.AUTHORIZER,
            endpoint_types=[apigw.EndpointType.REGIONAL],
            cloud_watch_role=True,
            default_cors_preflight_options=cors,
            deploy_options=apigw.StageOptions(
                stage_name=stage,
                access_log_destination=apigw.LogGroupLogDestination(self.access_logs),
                access_log_format=apigw.AccessLogFormat.custom(json.dumps(ACCESS_LOG_FIELDS)),
                tracing_enabled=tracing_sample_rate > 0,
                metrics_enabled=True,
                logging_level=apigw.MethodLoggingLevel.ERROR,
                data_trace_enabled=False,  # never log request bodies: they hold memories
                throttling_rate_limit=throttle["rate_limit"],
                throttling_burst_limit=int(throttle["burst_limit"]),
            ),
        )
        self.stage = self.rest_api.deployment_stage
        self.sampling_rule = self._sampling_rule(prefix, tracing_sample_rate) if tracing_sample_rate else None
        self.authorizer = apigw.RequestAuthorizer(
            self,
            "KeyAuthorizer",
            authorizer_name=f"{prefix}-keys",
            handler=authorizer_function,
            identity_sources=[apigw.IdentitySource.header(key_header)],
            results_cache_ttl=Duration.seconds(cache_ttl_seconds),
        )
        self.validator = self.rest_api.add_request_validator(
            "Parameters", validate_request_parameters=True, validate_request_body=True
        )
        self._responses()
        integrations = {
            name: apigw.LambdaIntegration(fn, proxy=True, allow_test_invoke=False)
            for name, fn in handlers.items()
        }
        self.methods: list[apigw.Method] = [
            self._method(route, integrations[route.function]) for route in ROUTES
        ]
        self.usage_plans = {
            tier: self.rest_api.add_usage_plan(
                f"{tier.capitalize()}Plan",
                name=f"{prefix}-{tier}",
                description=f"tenants of the {tier} tier",
                throttle=apigw.ThrottleSettings(rate_limit=limits.rate_limit, burst_limit=limits.burst_limit),
                quota=apigw.QuotaSettings(limit=limits.quota_per_day, period=apigw.Period.DAY)
                if limits.quota_per_day
                else None,
                api_stages=[apigw.UsagePlanPerApiStage(api=self.rest_api, stage=self.stage)],
            )
            for tier, limits in usage_plans.items()
        }
        self.web_acl = self._waf(prefix) if waf else None

    def _sampling_rule(self, prefix: str, rate: float) -> xray.CfnSamplingRule:
        """This stage's requests traced at ``rate``, with no reservoir (the Default rule's 1 a
        second would trace nearly every request of a quiet stage).

        API Gateway asks X-Ray for a decision with the stage's ARN as resource, ``{api}/{stage}`` as
        service name and ``AWS::ApiGateway::Stage`` as service type (API Gateway developer guide,
        "Configure AWS X-Ray sampling rules for API Gateway APIs"); the ARN alone names the stage.
        """
        return xray.CfnSamplingRule(
            self,
            "SamplingRule",
            sampling_rule=xray.CfnSamplingRule.SamplingRuleProperty(
                rule_name=f"{prefix}-api",  # at most 32 characters: the stage's pattern keeps it to 27
                resource_arn=self.stage.stage_arn,
                service_name="*",
                service_type="AWS::ApiGateway::Stage",
                host="*",
                http_method="*",
                url_path="*",
                priority=SAMPLING_PRIORITY,
                fixed_rate=rate,
                reservoir_size=0,
                version=1,
            ),
        )

    def _method(self, route: Route, integration: apigw.LambdaIntegration) -> apigw.Method:
        resource = self.rest_api.root.resource_for_path(route.path)
        parameters = {f"method.request.path.{name}": True for name in _PARAM.findall(route.path)}
        protected = route.auth != "none"
        return resource.add_method(
            route.method,
            integration,
            authorizer=self.authorizer if protected else None,
            authorization_type=apigw.AuthorizationType.CUSTOM if protected else apigw.AuthorizationType.NONE,
            # Tenant traffic is metered and throttled by the tenant's usage plan.
            api_key_required=route.auth == "key",
            request_parameters=parameters or None,
            request_validator=self.validator,
            operation_name=f"{route.function}_{route.method.lower()}_{_slug(route.path)}",
        )

    def _responses(self) -> None:
        json_type = "application/json"

        def respond(
            kind: apigw.ResponseType, status: str | None, body: str, headers: dict[str, str] | None = None
        ) -> None:
            self.rest_api.add_gateway_response(
                f"{kind.response_type}Response",
                type=kind,
                status_code=status,
                templates={json_type: body},
                response_headers=headers,
            )

        # One identical 401 body whatever was wrong with the key, as the local gateway answers.
        respond(apigw.ResponseType.UNAUTHORIZED, "401", UNAUTHORIZED_BODY)
        respond(
            apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN,
            "404",
            '{"error": {"code": "not_found", "message": "no such route"}}',
        )
        respond(
            apigw.ResponseType.ACCESS_DENIED,
            "403",
            '{"error": {"code": "forbidden", "message": "access denied"}}',
        )
        respond(
            apigw.ResponseType.THROTTLED,
            "429",
            '{"error": {"code": "quota_exceeded", "message": "too many requests"}}',
            {"Retry-After": "'1'"},
        )
        respond(
            apigw.ResponseType.QUOTA_EXCEEDED,
            "429",
            '{"error": {"code": "quota_exceeded", "message": "daily quota used up"}}',
            {"Retry-After": "'3600'"},
        )
        respond(
            apigw.ResponseType.REQUEST_TOO_LARGE,
            "413",
            '{"error": {"code": "payload_too_large", "message": "the body is too large"}}',
        )
        # Whatever API Gateway answers itself is the envelope too, with the request id to quote
        # ($context.error.messageString is already a quoted JSON string).
        rid = '"request_id": "$context.requestId"'
        respond(
            apigw.ResponseType.DEFAULT_4_XX,
            None,
            '{"error": {"code": "invalid_request", "message": $context.error.messageString, ' + rid + "}}",
        )
        respond(
            apigw.ResponseType.DEFAULT_5_XX,
            None,
            '{"error": {"code": "internal_error", "message": $context.error.messageString, ' + rid + "}}",
        )
        respond(
            apigw.ResponseType.INTEGRATION_TIMEOUT,
            "504",
            '{"error": {"code": "timeout", "message": "the request took longer than API Gateway\'s 29 s", '
            + rid
            + "}}",
        )
        respond(
            apigw.ResponseType.BAD_REQUEST_PARAMETERS,
            "400",
            '{"error": {"code": "validation_error", "message": "$context.error.validationErrorString"}}',
        )

    def _waf(self, prefix: str) -> wafv2.CfnWebACL:
        def managed(name: str, priority: int) -> wafv2.CfnWebACL.RuleProperty:
            return wafv2.CfnWebACL.RuleProperty(
                name=name,
                priority=priority,
                override_action=wafv2.CfnWebACL.OverrideActionProperty(none={}),
                statement=wafv2.CfnWebACL.StatementProperty(
                    managed_rule_group_statement=wafv2.CfnWebACL.ManagedRuleGroupStatementProperty(
                        vendor_name="AWS", name=name
                    )
                ),
                visibility_config=_visibility(name),
            )

        acl = wafv2.CfnWebACL(
            self,
            "WebAcl",
            name=prefix,
            scope="REGIONAL",
            default_action=wafv2.CfnWebACL.DefaultActionProperty(allow={}),
            visibility_config=_visibility(prefix),
            rules=[
                managed("AWSManagedRulesCommonRuleSet", 0),
                managed("AWSManagedRulesKnownBadInputsRuleSet", 1),
                wafv2.CfnWebACL.RuleProperty(
                    name="RateLimitPerIp",
                    priority=2,
                    action=wafv2.CfnWebACL.RuleActionProperty(block={}),
                    statement=wafv2.CfnWebACL.StatementProperty(
                        rate_based_statement=wafv2.CfnWebACL.RateBasedStatementProperty(
                            aggregate_key_type="IP", limit=2000
                        )
                    ),
                    visibility_config=_visibility("RateLimitPerIp"),
                ),
            ],
        )
        wafv2.CfnWebACLAssociation(
            self, "WebAclAssociation", resource_arn=self.stage.stage_arn, web_acl_arn=acl.attr_arn
        )
        return acl


def _visibility(name: str) -> wafv2.CfnWebACL.VisibilityConfigProperty:
    return wafv2.CfnWebACL.VisibilityConfigProperty(
        cloud_watch_metrics_enabled=True, metric_name=name, sampled_requests_enabled=True
    )


def _slug(path: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", path.lower()).strip("_")
