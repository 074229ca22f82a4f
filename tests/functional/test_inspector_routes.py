"""The inspector's files over HTTP, the operator's tenant routes and the lifecycle outlook the
memory view draws (the browser tests are in ``tests/e2e``; the wheel test checks it ships)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from serve_support import ROOT, Server, call, new_key, new_tenant, running_server

from engram.identity import content_hash
from engram.lifecycle.sweep import outlook
from engram.models import MemoryRecord
from engram.scoring import lifecycle as rules_math
from engram.settings import Settings

INSPECTOR = ROOT / "functions" / "engram_http" / "inspector"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("inspector-routes"), "--no-lifecycle") as running:
        yield running


def get(server: Server, path: str) -> tuple[int, dict[str, str], bytes]:
    """A GET without following redirects."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    answer = response.status, dict(response.getheaders()), response.read()
    connection.close()
    return answer


def test_ui_with_or_without_its_slash_redirects_to_the_page_relatively(server: Server) -> None:
    # Relative locations keep the page under an API Gateway stage prefix (/prod/ui/)
    with_slash, without = get(server, "/ui/"), get(server, "/ui")
    assert with_slash[0] == without[0] == 302
    assert with_slash[1]["Location"] == "index.html"
    assert without[1]["Location"] == "ui/index.html"


def test_the_page_and_its_modules_are_served_with_a_strict_content_security_policy(server: Server) -> None:
    status, headers, body = get(server, "/ui/index.html")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy and "default-src 'none'" in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    # Every module the page loads, and every module those import, is served as JavaScript
    wanted = set(re.findall(r'src="([\w-]+\.js)"', body.decode()))
    seen: set[str] = set()
    while wanted - seen:
        name = (wanted - seen).pop()
        seen.add(name)
        status, headers, source = get(server, f"/ui/{name}")
        assert status == 200, name
        assert headers["Content-Type"].startswith("text/javascript"), name
        wanted |= set(re.findall(r'from "\./([\w-]+\.js)"', source.decode()))
    assert {"app.js", "api.js", "dom.js", "charts.js"} <= seen


@pytest.mark.parametrize("name", ["nope.js", "..%2Fassets.py", "assets.py", ".hidden.js", "INDEX.HTML"])
def test_anything_but_an_inspector_file_is_a_404_in_the_error_envelope(server: Server, name: str) -> None:
    status, _, body = get(server, f"/ui/{name}")
    assert status == 404 and b'"not_found"' in body


def test_no_script_in_the_page_writes_markup_from_a_string() -> None:
    # Memory text reaches the page only as text nodes (dom.js); nothing parses strings as HTML
    sources = {path.name: path.read_text(encoding="utf-8") for path in INSPECTOR.glob("*.js")}
    for name, source in sources.items():
        for sink in (
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
        ):
            assert sink not in source, f"{sink} in {name}"


def test_the_operator_lists_tenants_and_sees_one_with_usage_and_keys_but_no_secret(server: Server) -> None:
    # Given a tenant with a key that retained one memory
    tenant = new_tenant(server)
    key = new_key(server, tenant, scopes=["user:ann"])
    assert (
        call(server, "POST", "/v1/memories", {"scope": "user:ann", "text": "Ann likes tea"}, key=key).status
        == 200
    )

    # When the operator lists tenants and opens this one
    listed = call(server, "GET", "/v1/admin/tenants", key=server.operator_token)
    one = call(server, "GET", f"/v1/admin/tenants/{tenant}", key=server.operator_token)

    # Then it is listed, with its counts, usage and key (prefix only)
    assert listed.status == 200 and tenant in [t["tenant_id"] for t in listed.body["tenants"]]
    assert one.status == 200, one.body
    assert one.body["total"] == 1 and one.body["usage"]["retain_calls"] == 1
    assert [k["scopes"] for k in one.body["keys"]] == [["user:ann"]]
    assert key not in str(one.body) and key.startswith(one.body["keys"][0]["display_prefix"])


def test_tenant_routes_answer_the_operator_only_and_name_an_unknown_tenant(server: Server) -> None:
    tenant = new_tenant(server)
    key = new_key(server, tenant)
    assert call(server, "GET", "/v1/admin/tenants", key=key).status == 403
    assert call(server, "GET", f"/v1/admin/tenants/{tenant}", key=key).status == 403
    missing = call(server, "GET", "/v1/admin/tenants/no-such-tenant", key=server.operator_token)
    assert missing.status == 404 and "no-such-tenant" in missing.body["error"]["message"]


def record(**fields: object) -> MemoryRecord:
    text = "Ann's locker code is 4471"
    base: dict[str, object] = {
        "tenant_id": "acme",
        "id": "mem_" + "0" * 32,
        "scope": "user:ann",
        "content": text,
        "content_hash": content_hash(text),
        "created_at": T0,
        "updated_at": T0,
    }
    return MemoryRecord.model_validate({**base, **fields})


def test_the_outlook_is_the_lifecycle_formulas_day_by_day_and_finds_the_first_move() -> None:
    # Given an unpinned peripheral memory never accessed
    settings = Settings()
    memory = record(importance=0.3)

    # When its outlook is computed
    seen = outlook(memory, now=T0, settings=settings)

    # Then every point is the formulas' value on that day
    for point in seen["points"]:
        values = rules_math.explain(
            **rules_math.state_of(memory), now=T0 + timedelta(days=point["day"]), settings=settings.lifecycle
        )
        assert point["retention"] == round(values["retention"], 4)
        assert point["composite"] == round(values["composite"], 4)
    # And the move is the first day the job would move it: archived then, not the day before
    move = seen["next_move"]
    assert move is not None and move["to_tier"] == "archived"
    day = move["in_days"]
    settle = rules_math.settle
    before = settle(
        **rules_math.state_of(memory), now=T0 + timedelta(days=day - 1), settings=settings.lifecycle
    )
    on = settle(**rules_math.state_of(memory), now=T0 + timedelta(days=day), settings=settings.lifecycle)
    assert before == [] and [m.target for m in on] == ["archived"]


def test_a_pinned_memory_keeps_full_retention_and_never_moves() -> None:
    seen = outlook(record(pinned=True), now=T0, settings=Settings())
    assert {p["retention"] for p in seen["points"]} == {1.0}
    assert seen["next_move"] is None
    assert seen["points"][-1]["day"] == 365


def test_the_memory_view_carries_the_outlook(server: Server) -> None:
    tenant = new_tenant(server)
    key = new_key(server, tenant)
    kept = call(
        server, "POST", "/v1/memories", {"scope": "user:ann", "text": "Ann parks on level 2"}, key=key
    )
    memory_id = kept.body["results"][0]["id"]

    lifecycle = call(server, "GET", f"/v1/memories/{memory_id}", key=key).body["lifecycle"]

    assert lifecycle["outlook"]["points"][0]["day"] == 0
    assert lifecycle["outlook"]["next_move"]["to_tier"] == "archived"
