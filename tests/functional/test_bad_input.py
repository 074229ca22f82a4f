"""Bad input over real HTTP: a 4xx in the error envelope naming the problem, and nothing written.

Each case is a body or path an attacker or a broken client sent to ``engram serve``; every one
used to be accepted silently or answered 500.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from serve_support import Server, call, new_key, new_tenant, running_server

DEEP = "[" * 1200 + "]" * 1200
RETAIN = '{"scope": "user:alice", "text": "hello there", "metadata": %s}'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("bad-input"), "--no-lifecycle") as running:
        yield running


@pytest.fixture(scope="module")
def key(server: Server) -> str:
    return new_key(server, new_tenant(server))


def _total(server: Server, key: str) -> int:
    return int(call(server, "GET", "/v1/stats", key=key).body["total"])


MALFORMED: list[tuple[str, bytes, str]] = [
    ("nested 1,200 deep", ('{"query": "x", "filters": ' + DEEP + "}").encode(), "nested deeper"),
    ("a lone surrogate", (RETAIN % '{"k": "\\ud800"}').encode(), "surrogate"),
    ("a 5,000-digit integer", (RETAIN % ('{"k": %s}' % ("9" * 5000))).encode(), "out of range"),
    ("1e309", (RETAIN % '{"k": 1e309}').encode(), "out of range"),
    ("NaN", (RETAIN % '{"k": NaN}').encode(), "not a JSON number"),
    ("duplicate keys", b'{"scope": "user:alice", "text": "a", "text": "b"}', "duplicate key 'text'"),
    ("not UTF-8", b'{"scope": "user:alice", "text": "caf\xe9"}', "not UTF-8"),
]


@pytest.mark.parametrize(("case", "raw", "problem"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_body_that_is_not_strict_json_is_a_400_and_writes_nothing(
    server: Server, key: str, case: str, raw: bytes, problem: str
) -> None:
    # Given a tenant and its memory count
    before = _total(server, key)
    # When a retain (or recall) body breaks strict JSON
    path = "/v1/recall" if raw.startswith(b'{"query"') else "/v1/memories"
    reply = call(server, "POST", path, raw=raw, key=key)
    # Then it is a 400 malformed_json saying what is wrong, and nothing was stored
    assert reply.status == 400, reply.body
    assert reply.body["error"]["code"] == "malformed_json" and problem in reply.body["error"]["message"]
    assert _total(server, key) == before


WRONG_TYPES: list[tuple[str, str, dict[str, Any], str]] = [
    ("limit as a string", "/v1/recall", {"query": "x", "limit": "5"}, "limit"),
    ("limit as a boolean", "/v1/recall", {"query": "x", "limit": True}, "limit"),
    ("as_of as a number", "/v1/recall", {"query": "x", "as_of": 0}, "as_of"),
    ("debug as a string", "/v1/recall", {"query": "x", "debug": "true"}, "debug"),
    (
        "expires_at as a number",
        "/v1/memories",
        {"scope": "user:a", "text": "x", "expires_at": 0},
        "expires_at",
    ),
    (
        "expires_at in the past",
        "/v1/memories",
        {"scope": "user:a", "text": "x", "expires_at": "2001-01-01T00:00:00Z"},
        "expires_at",
    ),
    ("a text and null items", "/v1/memories", {"scope": "user:a", "text": "x", "items": None}, "(body)"),
    ("forget limit over 100", "/v1/forget", {"query": "x", "limit": 101}, "limit"),
    ("a forget filter of null", "/v1/forget", {"filter": {"scope": None}}, "filter"),
]


@pytest.mark.parametrize(("case", "path", "body", "field"), WRONG_TYPES, ids=[w[0] for w in WRONG_TYPES])
def test_a_value_of_the_wrong_type_or_range_is_a_400_naming_the_field(
    server: Server, key: str, case: str, path: str, body: dict[str, Any], field: str
) -> None:
    # Given a tenant and its memory count
    before = _total(server, key)
    # When a field has the wrong type, or a value the server refuses
    reply = call(server, "POST", path, body, key=key)
    # Then it is a 400 whose details name the field, and nothing was stored
    assert reply.status == 400, reply.body
    assert field in [d["field"] for d in reply.body["error"]["details"]], reply.body
    assert _total(server, key) == before


@pytest.mark.parametrize("memory_id", ["foo", "MEM_" + "A" * 32, "mem_%00", "mem_" + "a" * 31])
@pytest.mark.parametrize("method", ["GET", "DELETE", "PATCH"])
def test_a_malformed_memory_id_in_the_path_is_a_400_naming_id(
    server: Server, key: str, memory_id: str, method: str
) -> None:
    # Given a path id that no memory can have
    body = {"tags": ["x"]} if method == "PATCH" else None
    # When it is used
    reply = call(server, method, f"/v1/memories/{memory_id}", body, key=key)
    # Then the id is refused by name (it used to be a 500 on DELETE)
    assert reply.status == 400, reply.body
    assert [d["field"] for d in reply.body["error"]["details"]] == ["id"]


def test_a_restore_body_that_is_not_an_object_is_refused(server: Server, key: str) -> None:
    # Given a valid memory id
    memory_id = "mem_" + "b" * 32
    # When restore gets a list of nulls as its body
    reply = call(
        server, "POST", f"/v1/memories/{memory_id}/restore", raw=json.dumps([None, None]).encode(), key=key
    )
    # Then it is refused as invalid input, not treated as no body
    assert reply.status in (400, 422), reply.body
    assert reply.body["error"]["code"] in ("validation_error", "unprocessable")
