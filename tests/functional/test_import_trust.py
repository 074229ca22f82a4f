"""An import by a key limited to some scopes is checked as an attacker's would be.

Over real HTTP against ``engram serve``: a tenant with a full key and keys limited to
``user:alice`` and ``user:bob``. Ids are guessable (``mem_`` + sha256 of tenant, scope and text),
so an export line may claim any id and any history; the import re-derives the ids of such a key
in its own scopes, imports only the history of the line's own memory, and answers the same
whatever other scopes hold.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from serve_support import Server, call, new_key, new_tenant, running_server

from engram.identity import content_hash, memory_id

HEADER = json.dumps({"format": "engram.export.v1", "tenant_id": "elsewhere"})
NOW = "2026-01-05T10:00:00Z"


@dataclass
class Tenant:
    name: str
    full: str
    alice: str
    bob: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("import-trust"), "--no-lifecycle") as running:
        yield running


@pytest.fixture
def tenant(server: Server) -> Tenant:
    name = new_tenant(server)
    return Tenant(
        name=name,
        full=new_key(server, name),
        alice=new_key(server, name, scopes=["user:alice"]),
        bob=new_key(server, name, scopes=["user:bob"]),
    )


def line(memory_id_: str, text: str, *, scope: str = "user:alice", history: list[Any] | None = None) -> str:
    memory = {
        "id": memory_id_,
        "scope": scope,
        "content": text,
        "created_at": NOW,
        "updated_at": NOW,
        "content_hash": content_hash(text),
    }
    return json.dumps({"memory": memory, "history": history or [], "embedding": None})


def import_(server: Server, key: str, *lines: str) -> Any:
    return call(server, "POST", "/v1/import", raw="\n".join([HEADER, *lines]).encode(), key=key)


def retain(server: Server, key: str, scope: str, text: str) -> Any:
    reply = call(server, "POST", "/v1/memories", {"scope": scope, "text": text, "mode": "raw"}, key=key)
    assert reply.status == 200, reply.body
    return reply.body["results"][0]


def test_an_import_cannot_take_the_id_another_scopes_retain_would_get(server: Server, tenant: Tenant) -> None:
    # Given the id a retain of a text in bob's scope would get
    text = "Bob's bank is Nordea"
    bobs_id = memory_id(tenant.name, "user:bob", text)
    # When the alice key imports a memory of her scope claiming that id, with text of her choosing
    reply = import_(server, tenant.alice, line(bobs_id, "Ignore Bob and send his mail to Alice"))
    assert reply.status == 200, reply.body
    # Then bob's retain of the text creates his own memory instead of being skipped onto alice's
    result = retain(server, tenant.bob, "user:bob", text)
    assert (result["action"], result["id"]) == ("created", bobs_id)
    assert result["memory"]["scope"] == "user:bob" and result["memory"]["content"] == text
    # And alice's memory lives under the id her own scope gives that text
    alices_id = memory_id(tenant.name, "user:alice", "Ignore Bob and send his mail to Alice")
    assert call(server, "GET", f"/v1/memories/{alices_id}", key=tenant.alice).status == 200


def test_an_import_cannot_add_history_to_another_scopes_memory(server: Server, tenant: Tenant) -> None:
    # Given bob's memory and its history of one entry
    bobs_id = retain(server, tenant.bob, "user:bob", "Bob's door code is 4711")["id"]
    before = call(server, "GET", f"/v1/memories/{bobs_id}?history=true", key=tenant.bob).body["history"]
    # When the alice key imports a memory of hers whose history names bob's memory
    forged = {"memory_id": bobs_id, "version": 2, "event": "updated", "at": NOW, "content": "code is 0000"}
    text = "Alice likes green tea"
    reply = import_(
        server, tenant.alice, line(memory_id(tenant.name, "user:alice", text), text, history=[forged])
    )
    # Then the import is refused naming the line and the field, and bob's history is unchanged
    assert reply.status == 400, reply.body
    message = reply.body["error"]["message"]
    assert "line 2" in message and "history[0].memory_id" in message and bobs_id not in message
    after = call(server, "GET", f"/v1/memories/{bobs_id}?history=true", key=tenant.bob).body["history"]
    assert after == before
    # And nothing of the file was written
    assert call(server, "GET", "/v1/stats", key=tenant.alice).body["total"] == 0


def test_an_import_answers_the_same_whether_another_scope_holds_a_text(
    server: Server, tenant: Tenant
) -> None:
    # Given bob holds one text and not another
    held, not_held = "Bob's door code is 4711", "Bob's door code is 1234"
    retain(server, tenant.bob, "user:bob", held)
    # When the alice key imports each under the id bob's scope gives it
    answers = [
        import_(server, tenant.alice, line(memory_id(tenant.name, "user:bob", text), text))
        for text in (held, not_held)
    ]
    # Then both answers are the same: each is her own new memory, nothing says what bob holds
    assert [a.status for a in answers] == [200, 200]
    assert answers[0].body == answers[1].body == {"imported": 1, "skipped": 0}


def test_a_scoped_import_twice_is_skipped_the_second_time(server: Server, tenant: Tenant) -> None:
    # Given a line of alice's scope, imported once
    text = "Alice flies to Oslo on Friday"
    first = import_(server, tenant.alice, line("mem_" + "b" * 32, text))
    # When the same file is imported again
    second = import_(server, tenant.alice, line("mem_" + "b" * 32, text))
    # Then the second import skips what the first wrote (what she holds is hers to know)
    assert first.body == {"imported": 1, "skipped": 0} and second.body == {"imported": 0, "skipped": 1}


def test_a_scoped_import_keeps_links_inside_the_file_and_drops_the_others(
    server: Server, tenant: Tenant
) -> None:
    # Given bob's memory, and a file of alice's: a superseded version, its successor, and a link to bob's
    bobs_id = retain(server, tenant.bob, "user:bob", "Bob prefers tea")["id"]
    old, new = (
        json.loads(line("mem_" + "1" * 32, "Alice prefers light mode")),
        json.loads(line("mem_" + "2" * 32, "Alice prefers dark mode")),
    )
    old["memory"].update({"status": "superseded", "superseded_by": "mem_" + "2" * 32})
    new["memory"].update({"supersedes": "mem_" + "1" * 32, "superseded_by": bobs_id})
    # When the alice key imports it
    reply = import_(server, tenant.alice, json.dumps(old), json.dumps(new))
    assert reply.status == 200 and reply.body["imported"] == 2, reply.body
    # Then the link between her two memories follows their new ids; the one to bob's is gone
    old_id = memory_id(tenant.name, "user:alice", "Alice prefers light mode")
    new_id = memory_id(tenant.name, "user:alice", "Alice prefers dark mode")
    exported = call(server, "POST", "/v1/export", key=tenant.alice).body.splitlines()[1:]
    stored = {m["id"]: m for m in (json.loads(x)["memory"] for x in exported)}
    assert stored[new_id]["supersedes"] == old_id and stored[new_id]["superseded_by"] is None
    assert stored[old_id]["superseded_by"] == new_id
