"""What a new user trips over when following the README, each pinned over real HTTP against
``engram serve`` (and the CLI beside it): one shape per answer, honest names, no lost numbers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_support import Server, call, new_key, new_tenant, running_server

from engram_cli.main import main


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("papercuts")) as running:
        yield running


@pytest.fixture
def key(server: Server) -> str:
    return new_key(server, new_tenant(server))


def _retain(server: Server, key: str, text: str, scope: str = "user:alice") -> dict[str, Any]:
    reply = call(server, "POST", "/v1/memories", {"scope": scope, "text": text, "mode": "raw"}, key=key)
    assert reply.status == 200, reply.body
    return dict(reply.body["results"][0]["memory"])


def _settings(server: Server, tenant: str, body: Any) -> Any:
    return call(server, "PUT", f"/v1/admin/tenants/{tenant}/settings", body, key=server.operator_token)


# -- tenant settings ----------------------------------------------------------------------------


def test_settings_sent_without_their_wrapper_are_a_422_naming_the_unknown_field(server: Server) -> None:
    # Given a tenant
    tenant = new_tenant(server)
    # When its settings are sent the way the CLI takes them, without {"settings": …}
    reply = _settings(server, tenant, {"recall": {"min_score": 0.3}})
    # Then it is a 422 that names the stray field and the one that is missing
    assert reply.status == 422, reply.body
    assert reply.body["error"]["message"].startswith("unknown field(s): recall")
    fields = {d["field"]: d["type"] for d in reply.body["error"]["details"]}
    assert fields == {"recall": "extra_forbidden", "settings": "missing"}


def test_a_typo_inside_the_settings_is_a_422_with_details_naming_the_setting(server: Server) -> None:
    # Given a tenant
    tenant = new_tenant(server)
    # When one setting's name is misspelt
    reply = _settings(server, tenant, {"settings": {"recall": {"min_scor": 0.3}}})
    # Then the 422 names it in the envelope's details
    assert reply.status == 422
    assert reply.body["error"]["details"] == [
        {
            "field": "settings.recall.min_scor",
            "problem": "is not a field here (unknown field)",
            "type": "extra_forbidden",
        }
    ]


def test_the_openapi_document_shows_the_settings_body_with_an_example(server: Server) -> None:
    # Given the OpenAPI document
    spec = call(server, "GET", "/v1/openapi.json").body
    # When the settings route's body is read
    schema = spec["components"]["schemas"]["ConfigureTenant"]
    # Then it requires "settings" and shows a complete example
    assert schema["required"] == ["settings"]
    assert schema["examples"] == [{"settings": {"recall": {"min_score": 0.3, "fusion": "rrf"}}}]


# -- forget, feedback, history, patch -----------------------------------------------------------


def test_a_forget_dry_run_deletes_nothing_and_says_what_it_would_delete(server: Server, key: str) -> None:
    # Given a memory
    memory = _retain(server, key, "I prefer dark mode")
    # When a forget by query is dry run
    body = {"query": "dark mode", "threshold": 0.1, "dry_run": True}
    reply = call(server, "POST", "/v1/forget", body, key=key)
    # Then nothing is listed as deleted, the id is under would_delete, and the memory is still there
    assert reply.status == 200
    assert (reply.body["deleted"], reply.body["would_delete"]) == ([], [memory["id"]])
    assert reply.body["candidates"][0]["id"] == memory["id"] and reply.body["candidates"][0]["score"] > 0
    assert call(server, "GET", f"/v1/memories/{memory['id']}", key=key).status == 200
    # And a real forget lists it under deleted, with nothing under would_delete
    gone = call(server, "POST", "/v1/forget", {"ids": [memory["id"]]}, key=key).body
    assert (gone["deleted"], gone["would_delete"], gone["dry_run"]) == ([memory["id"]], [], False)


def test_the_feedback_weight_a_get_shows_is_the_one_feedback_answered(server: Server, key: str) -> None:
    # Given a memory
    memory = _retain(server, key, "I prefer dark mode")
    # When it gets a "used" signal
    answer = call(server, "POST", f"/v1/memories/{memory['id']}/feedback", {"signal": "used"}, key=key).body
    # Then a later GET shows the very same weight
    got = call(server, "GET", f"/v1/memories/{memory['id']}", key=key).body
    assert answer["feedback_weight"] == got["feedback_weight"] == 0.65


def test_history_versions_count_changes_without_gaps_and_recalls_still_count(
    server: Server, key: str
) -> None:
    # Given a memory that gets feedback, is recalled twice, then patched
    memory = _retain(server, key, "I prefer dark mode")
    call(server, "POST", f"/v1/memories/{memory['id']}/feedback", {"signal": "used"}, key=key)
    for _ in range(2):
        assert call(server, "POST", "/v1/recall", {"query": "dark mode"}, key=key).body["memories"]
    call(server, "PATCH", f"/v1/memories/{memory['id']}", {"tags": ["ui"]}, key=key)
    # When its history is read
    got = call(server, "GET", f"/v1/memories/{memory['id']}?history=true", key=key).body
    # Then the versions are 1, 2, 3 (one per change), the memory is at version 3, both recalls counted
    assert [(h["version"], h["event"]) for h in got["history"]] == [
        (1, "created"),
        (2, "feedback"),
        (3, "updated"),
    ]
    assert (got["version"], got["access_count"], got["feedback_weight"]) == (3, 3, 0.65)
    assert got["last_accessed_at"] is not None


def test_a_patch_of_content_rewrites_what_was_derived_from_the_old_text(server: Server, key: str) -> None:
    # Given a memory about dark mode
    memory = _retain(server, key, "I prefer dark mode")
    # When its content is patched to a text naming someone
    body = {"content": "I prefer light mode when pairing with Bob"}
    patched = call(server, "PATCH", f"/v1/memories/{memory['id']}", body, key=key).body
    # Then abstract, overview and entities describe the new text
    assert patched["abstract"] == patched["overview"] == "I prefer light mode when pairing with Bob"
    assert patched["entities"] == ["Bob"]


# -- stats, recall, shapes ----------------------------------------------------------------------


def test_stats_names_every_usage_counter_and_the_lifecycle_run_as_null(server: Server, key: str) -> None:
    # Given a new tenant with one retain, one recall, one feedback and one forget
    memory = _retain(server, key, "I prefer dark mode")
    call(server, "POST", "/v1/recall", {"query": "dark mode"}, key=key)
    call(server, "POST", f"/v1/memories/{memory['id']}/feedback", {"signal": "used"}, key=key)
    call(server, "POST", "/v1/forget", {"ids": [memory["id"]]}, key=key)
    # When its stats are read before any lifecycle run
    stats = call(server, "GET", "/v1/stats", key=key).body
    # Then the run is there as null and every kind of call is counted
    assert "last_lifecycle_run" in stats and stats["last_lifecycle_run"] is None
    calls = {
        name: stats["usage"][name]
        for name in ("retain_calls", "recall_calls", "forget_calls", "feedback_calls")
    }
    assert calls == {"retain_calls": 1, "recall_calls": 1, "forget_calls": 1, "feedback_calls": 1}


def test_recall_takes_retains_scope_as_a_one_element_scopes(server: Server, key: str) -> None:
    # Given memories in two scopes
    _retain(server, key, "I prefer dark mode", scope="user:alice")
    _retain(server, key, "I prefer dark roast coffee", scope="user:bob")
    # When recall is given "scope", as retain takes it
    reply = call(
        server, "POST", "/v1/recall", {"query": "dark", "scope": "user:bob", "min_score": 0}, key=key
    )
    # Then it searches that scope alone
    assert reply.status == 200, reply.body
    assert {m["scope"] for m in reply.body["memories"]} == {"user:bob"}


def test_recall_with_both_scope_and_scopes_is_a_400_that_says_so(server: Server, key: str) -> None:
    # Given a key
    # When recall names both
    body = {"query": "dark", "scope": "user:bob", "scopes": ["user:alice"]}
    reply = call(server, "POST", "/v1/recall", body, key=key)
    # Then the 400 explains the choice
    assert reply.status == 400
    assert "give either 'scope' or 'scopes', not both" in reply.body["error"]["message"]


def test_a_single_memory_has_the_same_fields_as_a_listed_one_nulls_included(server: Server, key: str) -> None:
    # Given a memory with null fields (no occurred_at, no expiry, never accessed)
    memory = _retain(server, key, "I prefer dark mode")
    # When it is read alone and in a list
    single = call(server, "GET", f"/v1/memories/{memory['id']}", key=key).body
    listed = call(server, "GET", "/v1/memories", key=key).body["memories"][0]
    # Then both carry the same fields, the null ones too
    assert set(single) == set(listed) == set(memory)
    assert single["occurred_at"] is None and single["expires_at"] is None


# -- the OpenAPI document and Swagger UI --------------------------------------------------------


def test_operations_are_tagged_by_resource_with_summaries_of_their_own(server: Server) -> None:
    # Given the OpenAPI document
    spec = call(server, "GET", "/v1/openapi.json").body
    operations = [op for path in spec["paths"].values() for op in path.values()]
    # When its operations are read
    tags = {tag for op in operations for tag in op["tags"]}
    # Then each sits under its resource, and no summary merely repeats the method and path
    assert {"memories", "recall", "forget", "feedback", "tenant", "admin", "docs"} == tags
    assert [t["name"] for t in spec["tags"]][:2] == ["memories", "recall"]
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            assert op["summary"] and op["summary"] != f"{method.upper()} {path}"


def test_patterned_fields_carry_readable_examples(server: Server) -> None:
    # Given the OpenAPI document
    schemas = call(server, "GET", "/v1/openapi.json").body["components"]["schemas"]
    # When the retain and recall bodies are read
    retain, recall = schemas["RetainRequest"]["properties"], schemas["RecallRequest"]["properties"]
    # Then a scope, a text and a query come with examples a person would write
    assert retain["scope"]["examples"] == ["user:alice"]
    assert retain["text"]["examples"] == ["I prefer dark mode"]
    assert recall["query"]["examples"] == ["what theme do I like?"]


def test_swagger_uis_link_to_the_document_returns_json(server: Server) -> None:
    # Given the link Swagger UI shows under its title
    # When it is followed
    reply = call(server, "GET", "/v1/docs?format=json")
    # Then it is the OpenAPI document, not the page again
    assert reply.status == 200 and reply.body["openapi"].startswith("3.1")


def test_health_is_public_in_the_document_and_answers_no_validation_error(server: Server) -> None:
    # Given the OpenAPI document
    health = call(server, "GET", "/v1/openapi.json").body["paths"]["/v1/health"]["get"]
    # When the health operation is read
    # Then it needs no key (no lock in Swagger UI) and documents only what it answers
    assert health["security"] == []
    assert set(health["responses"]) == {"200"}


# -- engram serve's access log ------------------------------------------------------------------


def _served_lines(tmp_path: Path, *args: str) -> tuple[list[str], str, str]:
    with running_server(tmp_path, *args) as running:
        tenant = new_tenant(running)
        key = new_key(running, tenant)
        body = {"scope": "user:alice", "text": "my secret body text", "mode": "raw"}
        memory = call(running, "POST", "/v1/memories", body, key=key).body["results"][0]["id"]
        call(running, "GET", f"/v1/memories/{memory}?history=true", key=key)
        call(running, "GET", "/v1/memories", key="egk_wrong")
    return [line.strip() for line in running.lines if line.strip()], tenant, key


def test_serve_logs_one_line_per_request_with_route_status_time_and_tenant(tmp_path: Path) -> None:
    # Given a server, and requests from a tenant and from a bad key
    lines, tenant, key = _served_lines(tmp_path)
    # When its output is read
    access = [line for line in lines if line.split()[0] in ("GET", "POST", "PUT", "PATCH", "DELETE")]
    # Then each request has one line: method, route template, status, ms and tenant (requests on
    # separate connections may log in either order)
    fields = {(line.split()[0], line.split()[1]): line.split()[2:] for line in access}
    assert len(access) == 5 and set(fields) == {
        ("POST", "/v1/admin/tenants"),
        ("POST", "/v1/admin/tenants/{tenant}/keys"),
        ("POST", "/v1/memories"),
        ("GET", "/v1/memories/{id}"),
        ("GET", "/v1/memories"),
    }
    status, ms, who = fields[("POST", "/v1/memories")]
    assert status == "200" and ms.endswith("ms") and float(ms[:-2]) >= 0 and who == f"tenant={tenant}"
    assert fields[("GET", "/v1/memories/{id}")][0] == "200"
    assert fields[("GET", "/v1/memories")][0::2] == ["401", "tenant=-"]
    # And never the key, the body, the memory id or the query
    output = "\n".join(lines)
    assert (
        key not in output and "secret body" not in output and "mem_" not in output and "history" not in output
    )


def test_serve_quiet_logs_no_requests(tmp_path: Path) -> None:
    # Given a server started with --quiet
    lines, _, _ = _served_lines(tmp_path, "--quiet")
    # When its output is read
    # Then no line is about a request
    assert not [line for line in lines if line.split()[0] in ("GET", "POST")]


# -- the CLI's human output ---------------------------------------------------------------------


def _engram(data_dir: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--data-dir", str(data_dir), *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def seeded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    data = tmp_path / "data"
    _engram(data, capsys, "tenant", "create", "acme")
    _engram(
        data,
        capsys,
        "retain",
        "--tenant",
        "acme",
        "--scope",
        "user:alice",
        "--mode",
        "raw",
        "--text",
        "I prefer dark mode",
    )
    _, out, _ = _engram(data, capsys, "--json", "list", "--tenant", "acme")
    return data, json.loads(out)["memories"][0]["id"]


def test_recall_debug_prints_the_trace_without_json(
    seeded: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a memory
    data, _ = seeded
    # When it is recalled with --debug and no --json
    code, out, _ = _engram(data, capsys, "recall", "--tenant", "acme", "--query", "dark mode", "--debug")
    # Then each stage's score is printed under the memory
    assert code == 0
    assert "I prefer dark mode" in out and "cosine" in out and "final" in out


def test_a_forget_dry_run_prints_each_candidate_with_its_score(
    seeded: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a memory
    data, memory_id = seeded
    # When a forget by query is dry run without --json
    args = ("forget", "--tenant", "acme", "--query", "dark mode", "--threshold", "0.1", "--dry-run")
    code, out, _ = _engram(data, capsys, *args)
    # Then the candidate is printed with its score
    assert code == 0
    assert out.startswith("would delete 1")
    score, listed, content = out.splitlines()[1].split(None, 2)
    assert float(score) > 0.1 and listed == memory_id and content == "I prefer dark mode"


def test_restore_of_a_memory_that_is_not_archived_fails_and_says_why(
    seeded: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an active, peripheral memory
    data, memory_id = seeded
    # When it is restored
    code, _, err = _engram(data, capsys, "restore", "--tenant", "acme", "--id", memory_id)
    # Then the command fails and says the memory is not archived
    assert code == 1
    assert "is not archived" in err


def test_import_shows_the_count_it_imported(
    seeded: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an export of one memory
    data, _ = seeded
    export = tmp_path / "acme.jsonl"
    _engram(data, capsys, "export", "--tenant", "acme", "--out", str(export))
    _engram(data, capsys, "tenant", "create", "copy")
    # When it is imported into another tenant
    code, out, err = _engram(data, capsys, "import", "--tenant", "copy", "--in", str(export))
    # Then the progress bar ends at 1 of 1
    assert code == 0 and "imported 1" in out
    assert "1/1" in err


def test_a_misspelt_setting_in_tenant_configure_is_named_in_the_errors_details(
    seeded: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a tenant
    data, _ = seeded
    # When its settings are configured with a misspelt name
    settings = '{"recall": {"min_scor": 0.3}}'
    code, out, err = _engram(data, capsys, "--json", "tenant", "configure", "acme", "--settings", settings)
    # Then it is refused as bad input, in the API's envelope with details, not pydantic's text
    assert code == 2 and not out
    error = json.loads(err)["error"]
    assert (error["code"], error["message"]) == ("unprocessable", "unknown field(s): recall.min_scor")
    assert error["details"] == [
        {
            "field": "recall.min_scor",
            "problem": "is not a field here (unknown field)",
            "type": "extra_forbidden",
        }
    ]


def test_key_create_json_prints_every_field_of_the_http_answer(
    seeded: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a tenant
    data, _ = seeded
    # When a key is created with --json
    code, out, _ = _engram(
        data, capsys, "--json", "key", "create", "acme", "--scopes", "user:alice", "--read-only"
    )
    # Then it has the fields POST /v1/admin/tenants/{t}/keys answers
    assert code == 0
    created = json.loads(out)
    assert set(created) == {
        "tenant_id",
        "key_id",
        "api_key",
        "display_prefix",
        "scopes",
        "read_only",
        "expires_at",
    }
    assert (created["scopes"], created["read_only"]) == (["user:alice"], True)


def test_an_access_moves_no_version_and_a_concurrent_write_keeps_it(engine: Any) -> None:
    # Given a memory on either backend, read by a writer before a recall touches it
    from engram.models import FeedbackRequest, RecallRequest, RetainRequest

    retained = engine.retain("acme", RetainRequest(scope="user:alice", text="I prefer dark mode", mode="raw"))
    memory_id = retained.results[0].id
    stale = engine.store.records.get("acme", memory_id)
    engine.recall("acme", RecallRequest(query="dark mode"))
    # When the writer's update lands after the access
    assert engine.store.records.get("acme", memory_id).version == stale.version
    moved = stale.model_copy(update={"version": stale.version + 1, "tags": ["ui"]})
    assert engine.store.records.update("acme", moved, expected_version=stale.version)
    engine.feedback("acme", memory_id, FeedbackRequest(signal="used"))
    # Then the versions are the writes alone, and both accesses (the recall's and the "used"
    # feedback's) are counted
    record = engine.store.records.get("acme", memory_id)
    assert (record.version, record.access_count, record.tags) == (3, 2, ["ui"])
    assert record.last_accessed_at is not None
