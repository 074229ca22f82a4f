"""What a first deploy needs from the template: an https endpoint, the index made by a custom
resource, every function that reads the index granted and mapped, timeouts above the deadlines
inside, a one-node cluster kept green, and the domain created after its log policy."""

from __future__ import annotations

import json
from typing import Any

from engram_infra.config import Config
from engram_infra.functions import ANSWER_MARGIN_S, API_FUNCTIONS, EXTRACT_BATCH, worker_functions
from infra_support import Synth
from infra_support import refs as _refs

CONFIG = Config.from_values({})
SPECS = {
    s.name: s
    for s in (*API_FUNCTIONS, *worker_functions(extract_timeout_s=CONFIG.extract_worker_timeout_seconds))
}


def _functions(synth: Synth) -> dict[str, tuple[str, dict[str, Any]]]:
    """Function name (``ENGRAM_FUNCTION``) -> (logical id, properties), the stack's own functions."""
    out = {}
    for lid, resource in synth.resources("AWS::Lambda::Function").items():
        env = resource["Properties"].get("Environment", {}).get("Variables", {})
        if "ENGRAM_FUNCTION" in env:
            out[env["ENGRAM_FUNCTION"]] = (lid, resource["Properties"])
    return out


def _role_of(synth: Synth, function: str) -> str:
    _, props = _functions(synth)[function]
    [role] = _refs(props["Role"])
    return role


def test_every_function_reaches_the_search_domain_by_an_https_url(synth: Synth) -> None:
    [domain] = synth.resources("AWS::OpenSearchService::Domain")
    for name, (_, props) in _functions(synth).items():
        endpoint = props["Environment"]["Variables"]["ENGRAM_OPENSEARCH_ENDPOINT"]
        assert endpoint == {"Fn::Join": ["", ["https://", {"Fn::GetAtt": [domain, "DomainEndpoint"]}]]}, name
    [output] = [o for k, o in synth.raw["Outputs"].items() if k.startswith("SearchEndpoint")]
    assert output["Value"]["Fn::Join"][1][0] == "https://"


def test_a_custom_resource_creates_the_index_template_index_and_pipeline_on_deploy(synth: Synth) -> None:
    # Given the one custom resource of the stack
    resources = synth.resources("Custom::EngramSearchIndex")
    assert len(resources) == 1
    [resource] = resources.values()
    # Then the provider framework in front of it calls the search setup function
    [framework] = _refs(resource["Properties"]["ServiceToken"])
    on_event = synth.raw["Resources"][framework]["Properties"]["Environment"]["Variables"]
    setup_id, setup = _functions(synth)["search_setup"]
    assert _refs(on_event["USER_ON_EVENT_FUNCTION_ARN"]) == {setup_id}
    assert setup["Handler"] == "handler.on_event"
    # And its properties carry the mapping, so a changed mapping is an Update that re-runs it
    template = json.loads(resource["Properties"]["Template"])
    embedding = template["template"]["mappings"]["properties"]["embedding"]
    assert embedding["type"] == "knn_vector" and embedding["dimension"] == CONFIG.embedding_dimensions
    assert template["index_patterns"] == ["engram-memories"]


def test_retain_and_the_extract_worker_may_read_the_index_and_are_in_its_role_mapping(synth: Synth) -> None:
    [resource] = synth.resources("Custom::EngramSearchIndex").values()
    props = resource["Properties"]
    mapped = {name: _refs(props[name]) for name in ("Readers", "Writers", "Admins")}
    # retain's dedup searches the index (k-NN) and its head start writes to it
    for function in ("retain", "extract_worker", "stream", "forget", "memories"):
        assert _role_of(synth, function) in mapped["Writers"], function
    assert _role_of(synth, "recall") in mapped["Readers"]
    # the setup function is the domain's master user and an administrator with the operators' role
    [domain] = synth.resources("AWS::OpenSearchService::Domain").values()
    master = domain["Properties"]["AdvancedSecurityOptions"]["MasterUserOptions"]["MasterUserARN"]
    assert _refs(master) == {_role_of(synth, "search_setup")}
    assert _role_of(synth, "search_setup") in mapped["Admins"] and len(mapped["Admins"]) == 2
    # and IAM lets retain send searches (POST) to the domain
    policies = [
        p
        for p in synth.resources("AWS::IAM::Policy").values()
        if _role_of(synth, "retain") in _refs(p["Properties"]["Roles"])
    ]
    actions = {
        a
        for p in policies
        for s in p["Properties"]["PolicyDocument"]["Statement"]
        for a in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])
    }
    assert "es:ESHttpPost" in actions and "es:ESHttpGet" not in actions  # its searches are POSTs


def test_every_function_times_out_after_the_deadlines_inside_it(synth: Synth) -> None:
    for name, (_, props) in _functions(synth).items():
        env, timeout = props["Environment"]["Variables"], props["Timeout"]
        deadlines = {
            "embedding": float(env["ENGRAM_PROVIDER_DEADLINE_S"]),
            "opensearch": 3 * float(env["ENGRAM_OPENSEARCH_TIMEOUT_S"]),  # three attempts per request
            "llm": float(env.get("ENGRAM_LLM_DEADLINE_S", 0)),
        }
        for what, seconds in deadlines.items():
            assert seconds + ANSWER_MARGIN_S < timeout, (name, what, seconds, timeout)
        # and the longest sequence of calls one invocation makes fits too
        assert SPECS[name].worst_case_s + ANSWER_MARGIN_S < timeout, name
    # the default LLM deadline (45 s) never reaches an API function: retain's is its own
    retain = _functions(synth)["retain"][1]["Environment"]["Variables"]
    assert 2 * float(retain["ENGRAM_LLM_DEADLINE_S"]) + float(retain["ENGRAM_PROVIDER_DEADLINE_S"]) < 29


def test_the_extract_worker_takes_one_job_at_a_time_within_its_timeout(synth: Synth) -> None:
    worker_id, worker = _functions(synth)["extract_worker"]
    [mapping] = [
        m["Properties"]
        for m in synth.resources("AWS::Lambda::EventSourceMapping").values()
        if _refs(m["Properties"]["FunctionName"]) == {worker_id}
    ]
    env = worker["Environment"]["Variables"]
    per_job = 2 * float(env["ENGRAM_LLM_DEADLINE_S"]) + float(env["ENGRAM_PROVIDER_DEADLINE_S"])
    assert mapping["BatchSize"] == EXTRACT_BATCH == 1
    assert mapping["BatchSize"] * per_job + ANSWER_MARGIN_S < worker["Timeout"]


def test_a_one_node_domain_asks_for_no_replica_so_the_cluster_stays_green(synth: Synth) -> None:
    [domain] = synth.resources("AWS::OpenSearchService::Domain").values()
    assert domain["Properties"]["ClusterConfig"]["InstanceCount"] == 1
    [resource] = synth.resources("Custom::EngramSearchIndex").values()
    settings = json.loads(resource["Properties"]["Template"])["template"]["settings"]
    assert settings["number_of_shards"] == 1 and settings["number_of_replicas"] == 0
    for name, (_, props) in _functions(synth).items():
        assert props["Environment"]["Variables"]["ENGRAM_OPENSEARCH_REPLICAS"] == "0", name


def test_the_domain_is_created_after_the_log_resource_policy_it_checks(synth: Synth) -> None:
    [domain] = synth.resources("AWS::OpenSearchService::Domain").values()
    [policy] = synth.resources("AWS::Logs::ResourcePolicy")
    assert policy in domain.get("DependsOn", [])


def test_the_docs_function_carries_every_handler_whose_openapi_it_merges() -> None:
    from engram_infra.functions import bundle

    from engram_http.routes import FUNCTIONS

    asset = bundle(SPECS["docs"])
    assert (asset / "handler.py").is_file()
    for function in FUNCTIONS:
        if function != "docs":
            assert (asset / function / "handler.py").is_file(), function


def test_tenant_wide_work_runs_in_steps_from_a_queue_with_a_dlq(synth: Synth) -> None:
    # Given the step queue every function is told about
    queues = {
        q["Properties"]["QueueName"]: (lid, q["Properties"])
        for lid, q in synth.resources("AWS::SQS::Queue").items()
    }
    queue_id, queue = queues[f"{CONFIG.prefix}-steps"]
    dlq_id, _ = queues[f"{CONFIG.prefix}-steps-dlq"]
    assert _refs(queue["RedrivePolicy"]["deadLetterTargetArn"]) == {dlq_id}
    worker_id, worker = _functions(synth)["tenant_work"]
    assert queue["VisibilityTimeout"] >= 6 * worker["Timeout"]
    # Then the step worker reads it one step at a time
    [mapping] = [
        m["Properties"]
        for m in synth.resources("AWS::Lambda::EventSourceMapping").values()
        if _refs(m["Properties"]["FunctionName"]) == {worker_id}
    ]
    assert mapping["BatchSize"] == 1 and queue_id in _refs(mapping["EventSourceArn"])
    # And every function knows where to queue steps and where large objects go
    for name, (_, props) in _functions(synth).items():
        env = props["Environment"]["Variables"]
        assert queue_id in _refs(env["ENGRAM_STEP_QUEUE_URL"]), name
        assert _refs(env["ENGRAM_BUCKET"]) == set(synth.resources("AWS::S3::Bucket")), name


def test_the_object_bucket_is_private_encrypted_and_expires_what_it_holds(synth: Synth) -> None:
    [bucket] = synth.resources("AWS::S3::Bucket").values()
    props = bucket["Properties"]
    [rule] = props["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert rule["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "aws:kms"
    assert props["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    expiring = [r for r in props["LifecycleConfiguration"]["Rules"] if "ExpirationInDays" in r]
    assert [r["Prefix"] for r in expiring] == ["tenants/"]
