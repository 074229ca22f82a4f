"""The sample events in ``events/``: each one, invoked on its Lambda handler as Lambda would, works.

Every sample is an API Gateway REST proxy event (or, for the authorizer, a REQUEST authorizer
event) in the exact shape the local gateway builds. The handlers run on a real local engine in a
temporary data dir; ids that only exist at run time (a job, a key) are put into the event here.

``engram_http.gateway`` and ``engram_http.runtime`` are imported inside the tests, never at
collection: importing them creates the Powertools objects, which read ``POWERTOOLS_*`` from the
environment once, and the Powertools logger sets the level of every ``engram`` logger of the
process. The ``quiet_powertools`` fixture sets that environment first.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engram.auth.keys import usage_key
from engram.engine import Engine
from engram.identity import memory_id
from engram.models import PatchRequest, RetainRequest
from engram_http.loader import load_handler
from engram_http.routes import ROUTES

EVENTS_DIR = Path(__file__).resolve().parents[2] / "events"
TENANT, SCOPE, TEXT = "acme", "user:alice", "I prefer dark mode"
MEMORY_ID = memory_id(TENANT, SCOPE, TEXT)
SAMPLES = sorted(path.stem for path in EVENTS_DIR.glob("*.json"))
NOT_PROXIED = ("authorizer.", "stream.")  # the authorizer's input and the stream consumer's batches
_PARAM = re.compile(r"\{(\w+)\}")

# A handler that records no metric is normal (runtime.py filters this too; pytest resets filters).
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def load_event(name: str) -> dict[str, Any]:
    """The sample ``events/<name>.json``, parsed afresh (tests may change their copy)."""
    event: dict[str, Any] = json.loads((EVENTS_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return event


def with_path_parameter(event: dict[str, Any], name: str, value: str) -> dict[str, Any]:
    """The event with one path parameter replaced, in its path as well."""
    params = {**event["pathParameters"], name: value}
    path = _PARAM.sub(lambda found: params[found.group(1)], event["resource"])
    return {
        **event,
        "pathParameters": params,
        "path": path,
        "requestContext": {**event["requestContext"], "path": path},
    }


def with_bearer(event: dict[str, Any], key: str) -> dict[str, Any]:
    """The event with ``Authorization: Bearer <key>`` in its headers."""
    value = f"Bearer {key}"
    return {
        **event,
        "headers": {**event["headers"], "authorization": value},
        "multiValueHeaders": {**event["multiValueHeaders"], "authorization": [value]},
    }


def invoke(function: str, event: dict[str, Any]) -> Any:
    """Call ``functions/<function>/handler.py``'s ``lambda_handler`` as Lambda calls it."""
    from engram_http.apigw import LocalContext

    context = LocalContext(
        function_name=f"engram-{function}",
        aws_request_id=event["requestContext"]["requestId"],
        deadline=time.monotonic() + 30.0,
    )
    return load_handler(function).lambda_handler(event, context)


def body(response: dict[str, Any]) -> Any:
    return json.loads(response["body"])


def content_type(response: dict[str, Any]) -> str:
    """The Content-Type of a proxy response, whichever of its header maps carries it."""
    single = response.get("headers") or {}
    multi = response.get("multiValueHeaders") or {}
    return str(single.get("Content-Type") or multi["Content-Type"][0])


@pytest.fixture(autouse=True)
def quiet_powertools(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No X-Ray and no metric sink, set before any handler is loaded; logs at WARNING.

    WARNING as ``engram serve`` sets it: at Powertools' default INFO, ``engram.retain`` logs
    ``extra={"created": ...}``, a LogRecord attribute, and every retain raises KeyError (see
    ``test_a_retain_at_the_lambda_default_log_level_succeeds``).
    """
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "WARNING")
    engram_logger = logging.getLogger("engram")  # the Powertools logger of the handlers
    level = engram_logger.level
    engram_logger.setLevel(logging.WARNING)
    yield
    engram_logger.setLevel(level)


@pytest.fixture
def seeded(engine: Engine) -> Iterator[Engine]:
    """acme (with "I prefer dark mode" in user:alice) and globex, installed for every handler."""
    from engram_http.runtime import use_engine

    engine.retain(TENANT, RetainRequest(scope=SCOPE, text=TEXT, mode="raw"))
    use_engine(engine)
    try:
        yield engine
    finally:
        use_engine(None)
        engine.close()


def finished_job(engine: Engine) -> str:
    """The id of an asynchronous retain in acme, once it has finished."""
    accepted = engine.submit_retain(TENANT, RetainRequest(scope=SCOPE, text="I work from Lisbon", mode="raw"))
    deadline = time.monotonic() + 30.0
    while engine.get_job(TENANT, accepted.job_id).status not in ("succeeded", "failed"):
        assert time.monotonic() < deadline, "the retain job did not finish"
        time.sleep(0.05)
    return accepted.job_id


# -- the samples themselves ----------------------------------------------------------------------


def test_every_route_has_a_sample_event() -> None:
    # Given the route table and the samples
    covered = {
        (load_event(name)["httpMethod"], load_event(name)["resource"])
        for name in SAMPLES
        if not name.startswith("stream.")
    }

    # When the routes without a sample are listed
    missing = [
        f"{route.method} {route.path}" for route in ROUTES if (route.method, route.path) not in covered
    ]

    # Then there are none
    assert missing == []


def test_every_sample_path_routes_to_the_function_its_file_is_named_after() -> None:
    # Given every proxy sample (the authorizer's input is not routed)
    from engram_http.apigw import match

    proxies = [name for name in SAMPLES if not name.startswith(NOT_PROXIED)]

    # When each sample's method and path are matched as the gateway matches them
    routed = {name: match(load_event(name)["httpMethod"], load_event(name)["path"]) for name in proxies}

    # Then each lands on its file's function, with the sample's path parameters
    for name, (route, params, _) in routed.items():
        assert route is not None, name
        assert route.function == name.split(".")[0], name
        assert (params or None) == load_event(name)["pathParameters"], name


def test_every_proxy_sample_has_exactly_the_top_level_keys_the_gateway_builds() -> None:
    # Given the keys of an event as the local gateway builds it
    from engram_http.apigw import build_event

    expected = set(
        build_event(
            ROUTES[0],
            method="POST",
            path="/v1/memories",
            params={},
            query="",
            headers={},
            body=b"",
            source_ip="127.0.0.1",
        )
    )

    # When the proxy samples' top-level keys are compared with them
    drifted = {
        name: sorted(set(load_event(name)) ^ expected)
        for name in SAMPLES
        if not name.startswith(NOT_PROXIED) and set(load_event(name)) != expected
    }

    # Then no sample has a key too many or too few
    assert drifted == {}


def test_the_authorizer_sample_has_exactly_the_top_level_keys_of_an_authorizer_event() -> None:
    # Given the keys of an authorizer event as the local gateway builds it
    from engram_http.apigw import authorizer_event, build_event

    proxy = build_event(
        ROUTES[0],
        method="POST",
        path="/v1/memories",
        params={},
        query="",
        headers={},
        body=b"",
        source_ip="127.0.0.1",
    )
    expected = set(authorizer_event(proxy))

    # When the authorizer sample is loaded
    sample = load_event("authorizer.request")

    # Then it has exactly those keys, and is a REQUEST authorizer event
    assert set(sample) == expected
    assert sample["type"] == "REQUEST"


def test_memory_samples_name_the_deterministic_id_of_the_seeded_text() -> None:
    # Given the samples that address one memory
    names = ["feedback.post", "memories.get", "memories.patch", "memories.delete", "memories.restore"]

    # When their path parameters are read
    ids = {name: load_event(name)["pathParameters"]["id"] for name in names}

    # Then each is the id of "I prefer dark mode" in acme's user:alice
    assert ids == dict.fromkeys(names, MEMORY_ID)


# -- the authorizer ------------------------------------------------------------------------------


def test_the_authorizer_allows_a_valid_key_with_its_tenant_in_the_context(seeded: Engine) -> None:
    # Given the authorizer sample carrying a real key of acme
    assert seeded.deps.keys is not None
    key, record = seeded.deps.keys.create(TENANT)
    event = with_bearer(load_event("authorizer.request"), key)

    # When the authorizer runs
    policy = invoke("authorizer", event)

    # Then it allows the call and tells the handlers who is calling
    assert [s["Effect"] for s in policy["policyDocument"]["Statement"]] == ["Allow"]
    assert policy["principalId"] == record.key_id
    assert policy["context"]["tenant_id"] == TENANT
    assert policy["context"]["permission"] == "read-write"
    assert policy["usageIdentifierKey"] == usage_key(TENANT, seeded.settings.aws.usage_plan_prefix)


def test_the_authorizer_rejects_a_garbage_key_as_unauthorized(seeded: Engine) -> None:
    # Given the authorizer sample carrying a key that is no key at all
    event = with_bearer(load_event("authorizer.request"), "egk_garbage")

    # When the authorizer runs
    # Then it raises the one exception API Gateway turns into a 401
    with pytest.raises(Exception, match=r"^Unauthorized$"):
        invoke("authorizer", event)


def test_the_authorizer_rejects_the_samples_placeholder_key(seeded: Engine) -> None:
    # Given the authorizer sample as it is stored, with its well-formed but unknown example key
    event = load_event("authorizer.request")

    # When the authorizer runs
    # Then the example key opens nothing
    with pytest.raises(Exception, match=r"^Unauthorized$"):
        invoke("authorizer", event)


# -- key routes ----------------------------------------------------------------------------------


def test_the_retain_sample_keeps_one_memory_under_the_deterministic_id(seeded: Engine) -> None:
    # Given acme, which already holds the sample's text in the sample's scope
    event = load_event("retain.post")

    # When the retain handler gets the sample
    response = invoke("retain", event)

    # Then the one result names the existing memory, skipped as a duplicate rather than stored twice
    assert response["statusCode"] == 200
    results = body(response)["results"]
    assert [(r["id"], r["action"], r["reason"]) for r in results] == [(MEMORY_ID, "skipped", "duplicate")]


def test_a_retain_at_the_lambda_default_log_level_succeeds(seeded: Engine) -> None:
    # Given the handlers' logger at INFO, Powertools' default in Lambda
    logging.getLogger("engram").setLevel(logging.INFO)
    event = load_event("retain.post")

    # When the retain handler gets the sample
    response = invoke("retain", event)

    # Then it answers as it does at WARNING
    assert response["statusCode"] == 200


def test_the_recall_sample_recalls_the_seeded_memory(seeded: Engine) -> None:
    # Given acme with "I prefer dark mode" in user:alice
    event = load_event("recall.post")

    # When the recall handler gets the sample
    response = invoke("recall", event)

    # Then the memory is recalled
    assert response["statusCode"] == 200
    assert MEMORY_ID in [m["id"] for m in body(response)["memories"]]


def test_the_forget_sample_deletes_the_memory_it_names(seeded: Engine) -> None:
    # Given acme with the memory the sample names
    event = load_event("forget.post")

    # When the forget handler gets the sample
    response = invoke("forget", event)

    # Then the memory is deleted, with a receipt
    assert response["statusCode"] == 200
    assert body(response)["deleted"] == [MEMORY_ID]
    assert seeded.store.records.get(TENANT, MEMORY_ID) is None


def test_the_feedback_sample_raises_the_feedback_weight_to_0_65(seeded: Engine) -> None:
    # Given the memory at the neutral feedback weight 0.5
    event = load_event("feedback.post")

    # When the feedback handler gets the "used" signal of the sample
    response = invoke("feedback", event)

    # Then the weight moves by the EMA step to 0.65
    assert response["statusCode"] == 200
    assert body(response) == {"id": MEMORY_ID, "feedback_weight": 0.65}


def test_the_list_sample_lists_the_memories_of_its_scope(seeded: Engine) -> None:
    # Given acme with one memory in user:alice
    event = load_event("memories.list")

    # When the memories handler gets the sample
    response = invoke("memories", event)

    # Then the page holds that memory
    assert response["statusCode"] == 200
    assert [m["id"] for m in body(response)["memories"]] == [MEMORY_ID]


def test_the_get_sample_returns_the_memory_with_its_history(seeded: Engine) -> None:
    # Given acme with the memory the sample names
    event = load_event("memories.get")

    # When the memories handler gets the sample (with ?history=true)
    response = invoke("memories", event)

    # Then the memory comes back with its creation in its history
    assert response["statusCode"] == 200
    assert body(response)["content"] == TEXT
    assert [h["event"] for h in body(response)["history"]] == ["created"]


def test_the_get_sample_shows_retention_composite_tier_and_why(seeded: Engine) -> None:
    # Given acme with the memory the sample names, just retained
    event = load_event("memories.get")

    # When the memories handler gets the sample
    lifecycle = body(invoke("memories", event))["lifecycle"]

    # Then its lifecycle is shown: full retention now, its tier, why, and what the job would do
    assert lifecycle["retention"] == pytest.approx(1.0, abs=1e-4)
    assert 0.0 < lifecycle["composite"] <= 1.0
    assert lifecycle["tier"] == "peripheral"
    assert lifecycle["why"] == "peripheral since it was stored (no tier change yet)"
    assert lifecycle["next"] == "stays"


def test_the_stats_sample_shows_the_tier_distribution_and_the_last_lifecycle_run(seeded: Engine) -> None:
    # Given acme after a lifecycle run
    report = seeded.run_lifecycle(TENANT)

    # When the memories handler gets the stats sample
    stats = body(invoke("memories", load_event("memories.stats")))

    # Then the tiers are counted and the run is there
    assert stats["by_tier"] == {"peripheral": 1, "working": 0, "core": 0, "archived": 0}
    assert stats["last_lifecycle_run"]["run_id"] == report.run_id


def test_the_patch_sample_tags_and_pins_the_memory(seeded: Engine) -> None:
    # Given acme with the memory the sample names
    event = load_event("memories.patch")

    # When the memories handler gets the sample
    response = invoke("memories", event)

    # Then the memory carries the new tags and is pinned
    assert response["statusCode"] == 200
    assert body(response)["tags"] == ["ui", "theme"]
    assert body(response)["pinned"] is True


def test_the_restore_sample_brings_the_archived_memory_back_into_working(seeded: Engine) -> None:
    # Given acme with the memory the sample names, archived
    seeded.patch(TENANT, MEMORY_ID, PatchRequest(tier="archived"))

    # When the memories handler gets the sample ({"tier": "working"})
    response = invoke("memories", load_event("memories.restore"))

    # Then the memory is in working again and recall finds it
    assert response["statusCode"] == 200
    assert body(response)["tier"] == "working"
    assert MEMORY_ID in [m["id"] for m in body(invoke("recall", load_event("recall.post")))["memories"]]


def test_a_restore_without_a_body_restores_to_peripheral(seeded: Engine) -> None:
    # Given the archived memory and the restore sample without its body
    seeded.patch(TENANT, MEMORY_ID, PatchRequest(tier="archived"))
    event = {**load_event("memories.restore"), "body": None}

    # When the memories handler gets it
    response = invoke("memories", event)

    # Then the memory is back in the default tier
    assert response["statusCode"] == 200
    assert body(response)["tier"] == "peripheral"


def test_a_restore_into_archived_is_refused_naming_the_field(seeded: Engine) -> None:
    # Given the restore sample asking for the archived tier
    event = {**load_event("memories.restore"), "body": json.dumps({"tier": "archived"})}

    # When the memories handler gets it
    response = invoke("memories", event)

    # Then it is a 400 that names "tier"
    assert response["statusCode"] == 400
    assert "tier" in body(response)["error"]["message"]


def test_the_delete_sample_deletes_the_memory(seeded: Engine) -> None:
    # Given acme with the memory the sample names
    event = load_event("memories.delete")

    # When the memories handler gets the sample
    response = invoke("memories", event)

    # Then the receipt names the memory
    assert response["statusCode"] == 200
    assert body(response)["deleted"] == [MEMORY_ID]


def test_the_stats_sample_counts_the_tenants_memories(seeded: Engine) -> None:
    # Given acme with one memory
    event = load_event("memories.stats")

    # When the memories handler gets the sample
    response = invoke("memories", event)

    # Then the stats count it
    assert response["statusCode"] == 200
    assert body(response)["total"] == 1


def test_the_job_sample_reports_a_finished_asynchronous_retain(seeded: Engine) -> None:
    # Given a finished retain job of acme, put into the sample in place of its example id
    job = finished_job(seeded)
    event = with_path_parameter(load_event("memories.job"), "id", job)

    # When the memories handler gets the sample
    response = invoke("memories", event)

    # Then it reports the job as succeeded
    assert response["statusCode"] == 200
    assert body(response)["job_id"] == job
    assert body(response)["status"] == "succeeded"


def test_the_export_sample_exports_a_header_and_the_memory_as_jsonl(seeded: Engine) -> None:
    # Given acme with one memory
    event = load_event("memories.export")

    # When the memories handler gets the sample
    response = invoke("memories", event)

    # Then the body is a header line and one memory line
    assert response["statusCode"] == 200
    header, *memories = [json.loads(line) for line in response["body"].splitlines()]
    assert header["tenant_id"] == TENANT
    assert [m["memory"]["id"] for m in memories] == [MEMORY_ID]


def test_the_import_sample_imports_its_one_memory(seeded: Engine) -> None:
    # Given acme, which does not hold the sample's memory yet
    event = load_event("memories.import")

    # When the memories handler gets the sample
    response = invoke("memories", event)

    # Then the memory is imported and can be read back
    assert response["statusCode"] == 200
    assert body(response) == {"imported": 1, "skipped": 0}
    assert (
        seeded.store.records.get(TENANT, memory_id(TENANT, SCOPE, "My favourite editor is Vim")) is not None
    )


# -- operator routes -----------------------------------------------------------------------------


def test_the_create_tenant_sample_creates_its_tenant(seeded: Engine) -> None:
    # Given an engine without the sample's tenant
    event = load_event("admin.create_tenant")
    tenant = json.loads(event["body"])["tenant_id"]
    assert seeded.store.tenants.get_tenant(tenant) is None

    # When the admin handler gets the sample
    response = invoke("admin", event)

    # Then the tenant exists
    assert response["statusCode"] == 201
    assert body(response)["tenant_id"] == tenant
    assert seeded.store.tenants.get_tenant(tenant) is not None


def test_the_create_key_sample_creates_a_working_key_for_acme(seeded: Engine) -> None:
    # Given acme
    event = load_event("admin.create_key")

    # When the admin handler gets the sample
    response = invoke("admin", event)

    # Then the new key, limited to user:alice, verifies as acme
    assert response["statusCode"] == 201
    assert body(response)["scopes"] == [SCOPE]
    assert seeded.deps.keys is not None
    assert seeded.deps.keys.verify(body(response)["api_key"]).tenant_id == TENANT


def test_the_configure_tenant_sample_changes_acmes_recall_settings(seeded: Engine) -> None:
    # Given acme on the default settings
    event = load_event("admin.configure_tenant")

    # When the admin handler gets the sample (rrf fusion, min_score 0.3)
    response = invoke("admin", event)

    # Then those are acme's settings now, and only acme's
    assert response["statusCode"] == 200
    assert body(response)["effective"]["recall"]["fusion"] == "rrf"
    assert seeded.settings_for(TENANT).recall.min_score == 0.3
    assert seeded.settings_for("globex").recall.fusion == seeded.settings.recall.fusion


def test_the_configure_tenant_sample_with_an_unknown_setting_changes_nothing(seeded: Engine) -> None:
    # Given the sample naming a setting that does not exist
    event = load_event("admin.configure_tenant")
    event["body"] = json.dumps({"settings": {"recall": {"no_such_knob": 1}}})

    # When the admin handler gets it
    response = invoke("admin", event)

    # Then it is refused naming the setting, and acme keeps its defaults
    assert response["statusCode"] == 422  # an unknown field, as everywhere
    assert "no_such_knob" in body(response)["error"]["message"]
    assert seeded.settings_for(TENANT) == seeded.settings


def test_the_revoke_key_sample_revokes_the_key(seeded: Engine) -> None:
    # Given a key of its own, put into the sample in place of its example key id
    assert seeded.deps.keys is not None
    key, record = seeded.deps.keys.create(TENANT)
    event = with_path_parameter(load_event("admin.revoke_key"), "key_id", record.key_id)

    # When the admin handler gets the sample
    response = invoke("admin", event)

    # Then the key is revoked and no longer opens anything
    assert response["statusCode"] == 200
    assert body(response) == {"key_id": record.key_id, "revoked": True}
    with pytest.raises(Exception, match=r"^Unauthorized$"):
        invoke("authorizer", with_bearer(load_event("authorizer.request"), key))


def test_the_erase_tenant_sample_erases_its_own_tenant(seeded: Engine) -> None:
    # Given globex, the sample's tenant, with one memory
    seeded.retain("globex", RetainRequest(scope="user:bob", text="I prefer light mode", mode="raw"))
    event = load_event("admin.erase_tenant")

    # When the admin handler gets the sample
    response = invoke("admin", event)

    # Then globex and its memory are gone, and acme is untouched
    assert response["statusCode"] == 200
    assert body(response) == {"tenant_id": "globex", "status": "erased", "erased_memories": 1}
    assert seeded.store.records.get(TENANT, MEMORY_ID) is not None


def test_an_admin_sample_without_the_operator_role_is_forbidden(seeded: Engine) -> None:
    # Given the create-key sample with a tenant key's authorizer context instead of the operator's
    event = load_event("admin.create_key")
    event["requestContext"]["authorizer"] = load_event("memories.stats")["requestContext"]["authorizer"]

    # When the admin handler gets it
    response = invoke("admin", event)

    # Then it is refused
    assert response["statusCode"] == 403


# -- public routes -------------------------------------------------------------------------------


def test_the_health_sample_reports_ok(seeded: Engine) -> None:
    # Given the public health sample
    event = load_event("docs.health")

    # When the docs handler gets it
    response = invoke("docs", event)

    # Then the service is ok
    assert response["statusCode"] == 200
    assert body(response)["status"] == "ok"


def test_the_openapi_sample_returns_the_whole_apis_document(seeded: Engine) -> None:
    # Given the public OpenAPI sample
    event = load_event("docs.openapi")

    # When the docs handler gets it
    response = invoke("docs", event)

    # Then the document names every documented route
    assert response["statusCode"] == 200
    paths = body(response)["paths"]
    assert {"/v1/memories", "/v1/recall", "/v1/forget", "/v1/admin/tenants"} <= set(paths)


def test_the_docs_sample_returns_swagger_ui_as_html(seeded: Engine) -> None:
    # Given the public docs sample
    event = load_event("docs.docs")

    # When the docs handler gets it
    response = invoke("docs", event)

    # Then it is the Swagger UI page
    assert response["statusCode"] == 200
    assert content_type(response).startswith("text/html")
    assert "swagger" in response["body"].lower()


def test_the_tenant_usage_sample_reads_acmes_days_since_the_first(seeded: Engine) -> None:
    # Given acme, seeded with a retain
    event = load_event("admin.tenant_usage")

    # When the admin handler gets the sample (usage since 2026-12-01)
    response = invoke("admin", event)

    # Then it is acme's usage over that range, with what acme stores now
    assert response["statusCode"] == 200
    report = body(response)
    assert (report["tenant_id"], report["since"]) == (TENANT, "2026-12-01")
    assert report["days"] == seeded.usage(TENANT, since="2026-12-01").days
    assert report["stored_memories"] == seeded.stats(TENANT).total
