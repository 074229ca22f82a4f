"""Other deployments of the same app: OpenSearch Serverless, a domain in a VPC behind WAF with CORS,
a stage with every alarm, and one that traces nothing.

Each is one more synth (asset staging off: the main synth covers the assets), with cdk-nag on.
"""

from __future__ import annotations

import json
from pathlib import Path

from engram_infra.config import Config
from engram_infra.functions import API_FUNCTIONS, worker_functions
from engram_infra.layer import LayerBuild
from infra_support import Synth, alarm_metrics, billed_alarm_metrics, synthesise
from infra_support import refs as _refs

from engram_dev import cost

# Every function that calls the search domain: retain and the extract worker read it for dedup.
VPC_FUNCTIONS = {
    "retain",
    "recall",
    "forget",
    "memories",
    "admin",
    "stream",
    "extract_worker",
    "decay",
    "tiering",
    "tenant_work",
    "search_setup",
}


def _variant(layer: LayerBuild, tmp_path: Path, **context: object) -> Synth:
    base = {"require_handlers": False, "layer_dir": str(layer.path), "aws:cdk:disable-asset-staging": True}
    return synthesise({**base, **context}, tmp_path)


def _violations(synth: Synth) -> list[str]:
    report = synth.validation_report() or {}
    return [
        f"{v['ruleName']} at {c['constructPath']}"
        for plugin in report.get("pluginReports", [])
        for v in plugin["violations"]
        for c in v["violatingConstructs"]
    ]


def test_serverless_backend_is_a_vectorsearch_collection_with_its_three_policies(
    layer: LayerBuild, tmp_path: Path
) -> None:
    # Given the app synthesised for OpenSearch Serverless (asset staging off: the main synth covers it)
    synth = _variant(layer, tmp_path, backend="opensearch-serverless")
    # Then cdk-nag passes and the collection is encrypted with the key and readable by recall
    assert _violations(synth) == []
    assert synth.error is None
    [collection] = synth.resources("AWS::OpenSearchServerless::Collection").values()
    assert collection["Properties"]["Type"] == "VECTORSEARCH"
    policies = {
        p["Properties"]["Type"]: p["Properties"]
        for p in synth.resources("AWS::OpenSearchServerless::SecurityPolicy").values()
    }
    assert set(policies) == {"encryption", "network"}
    [access] = synth.resources("AWS::OpenSearchServerless::AccessPolicy").values()
    assert access["Properties"]["Type"] == "data"
    recall = next(
        f
        for f in synth.resources("AWS::Lambda::Function").values()
        if f["Properties"]["FunctionName"].endswith("-recall")
    )
    assert _refs(recall["Properties"]["Role"]) <= _refs(access["Properties"]["Policy"])
    assert not synth.resources("AWS::OpenSearchService::Domain")
    env = next(iter(synth.resources("AWS::Lambda::Function").values()))["Properties"]["Environment"][
        "Variables"
    ]
    assert env["ENGRAM_OPENSEARCH_SERVICE"] == "aoss"


def test_domain_in_a_vpc_behind_waf_with_cors_and_reserved_concurrency_is_nag_clean(
    layer: LayerBuild, tmp_path: Path
) -> None:
    # Given a two-node domain in a VPC, a web ACL, one allowed origin, and every tenant's events
    # published (an operator whose rule takes them all)
    synth = _variant(
        layer,
        tmp_path,
        opensearch_vpc=True,
        opensearch_instance_count=2,
        waf=True,
        cors_origins=["https://app.example.com"],
        reserved_concurrency={"extract_worker": 10},
        events_publish=True,
    )
    # Then cdk-nag passes
    assert _violations(synth) == []
    assert synth.error is None
    # And the domain sits in the VPC, zone-aware
    [domain] = synth.resources("AWS::OpenSearchService::Domain").values()
    assert domain["Properties"]["VPCOptions"]["SubnetIds"]
    assert domain["Properties"]["ClusterConfig"]["ZoneAwarenessEnabled"] is True
    # And exactly the functions that reach the domain run in the VPC
    in_vpc = {
        f["Properties"]["FunctionName"].split("-", 2)[2].replace("-", "_")
        for f in synth.resources("AWS::Lambda::Function").values()
        if "VpcConfig" in f["Properties"] and "FunctionName" in f["Properties"]
    }
    assert in_vpc == VPC_FUNCTIONS
    reserved = {
        f["Properties"]["FunctionName"]: f["Properties"]["ReservedConcurrentExecutions"]
        for f in synth.resources("AWS::Lambda::Function").values()
        if "ReservedConcurrentExecutions" in f["Properties"]
    }
    assert reserved == {"engram-dev-extract-worker": 10}
    # And they reach AWS services through endpoints, not a NAT gateway
    assert not synth.resources("AWS::EC2::NatGateway")
    services = {
        str(e["Properties"]["ServiceName"]) for e in synth.resources("AWS::EC2::VPCEndpoint").values()
    }
    assert any("bedrock-runtime" in s for s in services)
    assert any("dynamodb" in s for s in services)
    assert any(".events" in s for s in services)  # the stream consumer's PutEvents
    assert any(".xray" in s for s in services)  # traces (the stage samples 1 % of requests)
    # And the stream consumer publishes every tenant's events unless the tenant turns them off
    [stream] = [
        f["Properties"]
        for f in synth.resources("AWS::Lambda::Function").values()
        if f["Properties"].get("FunctionName") == "engram-dev-stream"
    ]
    assert stream["Environment"]["Variables"]["ENGRAM_EVENTS__PUBLISH"] == "true"
    assert synth.resources("AWS::EC2::FlowLog")
    # And the web ACL guards the stage, and CORS answers preflights for the allowed origin only
    [acl] = synth.resources("AWS::WAFv2::WebACL")
    [association] = synth.resources("AWS::WAFv2::WebACLAssociation").values()
    assert _refs(association["Properties"]["WebACLArn"]) == {acl}
    options = [
        m
        for m in synth.resources("AWS::ApiGateway::Method").values()
        if m["Properties"]["HttpMethod"] == "OPTIONS"
    ]
    assert options
    assert "https://app.example.com" in str(options[0]["Properties"]["Integration"])


def test_a_stage_at_tracing_sample_rate_0_traces_nothing_and_is_nag_clean(
    layer: LayerBuild, tmp_path: Path
) -> None:
    # Given a stage that turns tracing off, its domain in a VPC
    synth = _variant(layer, tmp_path, tracing_sample_rate=0, opensearch_vpc=True)
    # Then cdk-nag passes (the untraced functions and stage acknowledged)
    assert _violations(synth) == []
    assert synth.error is None
    # And no function is traced, and none loads the X-Ray SDK
    functions = synth.resources("AWS::Lambda::Function").values()
    assert not [f for f in functions if "TracingConfig" in f["Properties"]]
    ours = [f["Properties"] for f in functions if "FunctionName" in f["Properties"]]
    assert ours and all(f["Environment"]["Variables"]["POWERTOOLS_TRACE_DISABLED"] == "true" for f in ours)
    # And the stage traces nothing, with no sampling rule, and no role may write traces
    [stage] = synth.resources("AWS::ApiGateway::Stage").values()
    assert stage["Properties"]["TracingEnabled"] is False
    assert not synth.resources("AWS::XRay::SamplingRule")
    assert "xray:" not in json.dumps(synth.resources("AWS::IAM::Policy"))
    # And its VPC has no endpoint for X-Ray (one interface endpoint: ~$15 a month for nothing)
    endpoints = synth.resources("AWS::EC2::VPCEndpoint").values()
    services = [str(e["Properties"]["ServiceName"]) for e in endpoints]
    assert any(".events" in s for s in services) and not any(".xray" in s for s in services)


def _statements_of(synth: Synth, function: str) -> list[dict[str, object]]:
    """Every statement of the IAM policies on the role of the function named ``engram-dev-<function>``."""
    fn = next(
        r
        for r in synth.resources("AWS::Lambda::Function").values()
        if r["Properties"]["FunctionName"] == f"engram-dev-{function}"
    )
    role = _refs(fn["Properties"]["Role"]).pop()
    return [
        s
        for p in synth.resources("AWS::IAM::Policy").values()
        if role in _refs(p["Properties"]["Roles"])
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]


def test_bedrock_rerank_is_granted_to_recall_alone(layer: LayerBuild, tmp_path: Path) -> None:
    # Given the app synthesised with Bedrock's rerank model
    synth = _variant(layer, tmp_path, rerank_provider="bedrock", rerank_model_id="cohere.rerank-v3-5:0")
    # Then cdk-nag passes, recall may call Rerank and invoke that model, and no other function may
    assert _violations(synth) == []
    assert synth.error is None
    recall = _statements_of(synth, "recall")
    assert any(s["Action"] == "bedrock:Rerank" and s["Resource"] == "*" for s in recall)
    assert any(
        s["Action"] == "bedrock:InvokeModel" and "cohere.rerank-v3-5:0" in str(s["Resource"]) for s in recall
    )
    for other in ("retain", "memories", "extract-worker"):
        assert all("bedrock:Rerank" not in str(s["Action"]) for s in _statements_of(synth, other))
    env = next(
        f["Properties"]["Environment"]["Variables"]
        for f in synth.resources("AWS::Lambda::Function").values()
        if f["Properties"]["FunctionName"] == "engram-dev-recall"
    )
    assert (env["ENGRAM_RERANK_PROVIDER"], env["ENGRAM_RERANK_MODEL"]) == ("bedrock", "cohere.rerank-v3-5:0")


def test_alarms_all_watch_5xx_throttles_dead_letters_and_stream_lag(
    layer: LayerBuild, tmp_path: Path
) -> None:
    # Given a stage with every alarm (any stage but dev, by default)
    synth = _variant(layer, tmp_path, alarms="all")
    alarms, metrics = alarm_metrics(synth)
    config = Config.from_values({})
    specs = (*API_FUNCTIONS, *worker_functions(extract_timeout_s=config.extract_worker_timeout_seconds))
    # the one metric-math alarm: the share of extractions that fell back to the rules
    [rate] = [a for a in alarms if "Metrics" in a]
    assert rate["AlarmName"].endswith("-extraction-fallbacks") and rate["Threshold"] == 10
    names = {m["MetricStat"]["Metric"]["MetricName"] for m in rate["Metrics"] if "MetricStat" in m}
    assert names == {"Extractions", "ExtractionFallbacks"}
    assert ("AWS/ApiGateway", "5XXError") in metrics
    assert metrics.count(("AWS/Lambda", "Throttles")) == len(specs)  # every function
    assert metrics.count(("AWS/SQS", "ApproximateNumberOfMessagesVisible")) == 5  # every DLQ
    assert ("AWS/Lambda", "IteratorAge") in metrics
    assert billed_alarm_metrics(alarms) == cost.alarms("all")
    [topic] = synth.resources("AWS::SNS::Topic")
    for alarm in alarms:
        assert _refs(alarm["AlarmActions"]) == {topic}
