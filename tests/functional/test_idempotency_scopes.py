"""Idempotency keys are scoped: one scope's key never meets another's, so a key reused in
another scope neither conflicts (a 409 would tell the caller the other scope used it) nor
returns the other scope's answer or job."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from serve_support import Server, call, new_key, new_tenant, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("idem"), "--no-lifecycle", "--workers", "1") as running:
        yield running


def _retain(server: Server, key: str, scope: str, text: str, idem: str, **extra: Any) -> Any:
    body = {"scope": scope, "text": text, "mode": "raw", **extra}
    return call(server, "POST", "/v1/memories", body, key=key, headers={"Idempotency-Key": idem})


def test_a_key_another_scope_used_is_neither_a_conflict_nor_its_answer(server: Server) -> None:
    # Given two keys of one tenant, each limited to one user's scope, and bob's retain under K
    tenant = new_tenant(server)
    alice = new_key(server, tenant, scopes=["user:alice"])
    bob = new_key(server, tenant, scopes=["user:bob"])
    first = _retain(server, bob, "user:bob", "Bob's locker code is 4711", "K-shared")
    assert first.status == 200, first.body
    # When alice retains something else under the same Idempotency-Key
    mine = _retain(server, alice, "user:alice", "Alice takes the 8:15 train", "K-shared")
    # Then it is her own new retain (no 409, nothing of bob's), and her replay is idempotent
    assert mine.status == 200, mine.body
    assert mine.body["results"][0]["action"] == "created"
    assert "4711" not in str(mine.body)
    again = _retain(server, alice, "user:alice", "Alice takes the 8:15 train", "K-shared")
    assert again.status == 200 and again.body["results"][0]["id"] == mine.body["results"][0]["id"]
    # And within one scope a key reused for another body is still a conflict
    clash = _retain(server, alice, "user:alice", "Alice likes tea", "K-shared")
    assert clash.status == 409, clash.body


def test_an_async_retain_under_another_scopes_key_gets_its_own_job(server: Server) -> None:
    tenant = new_tenant(server)
    alice = new_key(server, tenant, scopes=["user:alice"])
    bob = new_key(server, tenant, scopes=["user:bob"])
    theirs = _retain(server, bob, "user:bob", "Bob's flight is on Monday", "J-shared", **{"async": True})
    mine = _retain(server, alice, "user:alice", "Alice's flight is on Friday", "J-shared", **{"async": True})
    assert theirs.status == 202 and mine.status == 202, (theirs.body, mine.body)
    assert mine.body["job_id"] != theirs.body["job_id"]
