"""Smart retain end to end: ``engram serve`` configured with ``ENGRAM_LLM_*`` against the scripted
OpenAI-compatible server, driven over real HTTP. Every dedup action, versions and history, as_of."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from scripted_llm import ScriptedLLM
from serve_support import Server, new_key, new_tenant, running_server
from serve_support import call as http_call

SCOPE = "user:alice"
Serve = Server


def call(
    serve: Serve, method: str, path: str, body: Any = None, *, key: str | None = None
) -> tuple[int, Any]:
    reply = http_call(serve, method, path, body, key=key)
    return reply.status, reply.body


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory, scripted_llm_server: ScriptedLLM) -> Iterator[Serve]:
    env = {
        "ENGRAM_LLM_PROVIDER": "openai",
        "ENGRAM_LLM_BASE_URL": scripted_llm_server.url,
        "ENGRAM_LLM_MODEL": "scripted-model",
        "ENGRAM_LLM_API_KEY": "sk-test",
    }
    with running_server(tmp_path_factory.mktemp("smart-serve"), env=env) as running:
        yield running


@pytest.fixture
def key(serve: Serve, scripted_llm: ScriptedLLM) -> str:
    """A read-write key of a fresh tenant."""
    return new_key(serve, new_tenant(serve))


def smart(serve: Serve, key: str, text: str) -> list[dict[str, Any]]:
    """Retain one user message in smart mode (a job) and wait for its results."""
    status, accepted = call(
        serve,
        "POST",
        "/v1/memories",
        {"scope": SCOPE, "messages": [{"role": "user", "content": text}], "mode": "smart"},
        key=key,
    )
    assert status == 202, accepted
    deadline = time.monotonic() + 60
    while True:
        status, job = call(serve, "GET", f"/v1/jobs/{accepted['job_id']}", key=key)
        assert status == 200
        if job["status"] in ("succeeded", "failed"):
            break
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
    assert job["status"] == "succeeded", job
    return list(job["results"])


def recall(serve: Serve, key: str, query: str, **extra: Any) -> list[dict[str, Any]]:
    status, body = call(serve, "POST", "/v1/recall", {"query": query, "min_score": 0.0, **extra}, key=key)
    assert status == 200, body
    return list(body["memories"])


def memory(serve: Serve, key: str, memory_id: str, history: bool = False) -> dict[str, Any]:
    status, body = call(
        serve, "GET", f"/v1/memories/{memory_id}" + ("?history=true" if history else ""), key=key
    )
    assert status == 200, body
    return dict(body)


def test_a_changed_preference_supersedes_the_old_one_which_stays_in_history(serve: Serve, key: str) -> None:
    # Given "I prefer dark mode" retained in smart mode
    [dark] = smart(serve, key, "I prefer dark mode")
    assert dark["action"] == "created"

    # When the user says they switched to light mode
    [light] = smart(serve, key, "Actually I switched to light mode last week")

    # Then the new preference supersedes the old one
    assert light["action"] == "superseded"
    new, old = memory(serve, key, light["id"]), memory(serve, key, dark["id"])
    assert (new["status"], new["supersedes"]) == ("active", dark["id"])
    assert (old["status"], old["superseded_by"]) == ("superseded", light["id"])
    assert old["valid_until"] == new["valid_from"]
    # And recall returns only the current preference
    assert [m["id"] for m in recall(serve, key, "which theme does the user prefer, dark or light mode?")] == [
        light["id"]
    ]
    # And the history of either shows the whole chain, oldest first
    chain = memory(serve, key, light["id"], history=True)["history"]
    assert [(h["memory_id"], h["event"]) for h in chain] == [
        (dark["id"], "created"),
        (dark["id"], "superseded"),
        (light["id"], "created"),
    ]
    assert memory(serve, key, dark["id"], history=True)["history"] == chain


def test_switching_back_revives_the_first_preference_as_its_next_version(serve: Serve, key: str) -> None:
    # Given dark mode preferred, then replaced by light mode
    [dark] = smart(serve, key, "I prefer dark mode")
    [light] = smart(serve, key, "Actually I switched to light mode last week")

    # When the user goes back to dark mode
    [back] = smart(serve, key, "I prefer dark mode")

    # Then the dark-mode memory is current again, as its third version, and light mode is superseded
    assert (back["action"], back["id"]) == ("superseded", dark["id"])
    revived, replaced = memory(serve, key, dark["id"]), memory(serve, key, light["id"])
    assert (revived["status"], revived["version"], revived["supersedes"]) == ("active", 3, light["id"])
    assert revived.get("valid_until") is None
    assert (replaced["status"], replaced["superseded_by"]) == ("superseded", dark["id"])
    assert [m["id"] for m in recall(serve, key, "which theme does the user prefer?")] == [dark["id"]]
    # And the history tells the whole story in order
    events = [(h["memory_id"], h["event"]) for h in memory(serve, key, dark["id"], history=True)["history"]]
    assert events == [
        (dark["id"], "created"),
        (dark["id"], "superseded"),
        (light["id"], "created"),
        (light["id"], "superseded"),
        (dark["id"], "created"),
    ]


def test_recall_as_of_returns_what_was_true_then(serve: Serve, key: str) -> None:
    # Given dark mode preferred, then replaced by light mode
    [dark] = smart(serve, key, "I prefer dark mode")
    between = memory(serve, key, dark["id"])["created_at"]
    time.sleep(0.05)
    [light] = smart(serve, key, "Actually I switched to light mode last week")

    # When recall asks as of a moment before the switch, and as of now
    then = recall(serve, key, "which theme does the user prefer?", as_of=between)
    now = recall(
        serve, key, "which theme does the user prefer?", as_of=memory(serve, key, light["id"])["valid_from"]
    )

    # Then each returns the preference valid at that time
    assert [m["id"] for m in then] == [dark["id"]]
    assert [m["id"] for m in now] == [light["id"]]


def test_the_same_fact_twice_is_one_memory(serve: Serve, key: str) -> None:
    # Given "My name is Sam" retained
    [first] = smart(serve, key, "My name is Sam")

    # When it is said again
    [second] = smart(serve, key, "My name is Sam")

    # Then the second is skipped as the same memory, and there is one memory
    assert (first["action"], second["action"]) == ("created", "skipped")
    assert second["id"] == first["id"]
    status, listed = call(serve, "GET", "/v1/memories", key=key)
    assert status == 200
    assert [m["id"] for m in listed["memories"]] == [first["id"]]


def test_more_detail_about_a_profile_fact_is_merged_into_it(serve: Serve, key: str) -> None:
    # Given the user's name stored
    [first] = smart(serve, key, "My name is Sam")

    # When they give their full name
    [second] = smart(serve, key, "My full name is Sam Carter, by the way")

    # Then the stored memory is merged into one, a second version with both in its history
    assert (second["action"], second["id"]) == ("merged", first["id"])
    merged = memory(serve, key, first["id"], history=True)
    assert merged["content"] == "The user's full name is Sam Carter."
    assert merged["version"] == 2
    assert [h["event"] for h in merged["history"]] == ["created", "merged"]


def test_a_paraphrase_the_model_calls_a_duplicate_is_skipped(serve: Serve, key: str) -> None:
    # Given a stored preference for dark mode
    [dark] = smart(serve, key, "I prefer dark mode")

    # When a paraphrase is retained
    [again] = smart(serve, key, "I am a big fan of dark mode")

    # Then it is skipped in favour of the stored one, which is unchanged
    assert (again["action"], again["id"]) == ("skipped", dark["id"])
    assert memory(serve, key, dark["id"])["version"] == 1


def test_a_new_fact_is_created_with_category_abstract_and_provenance(serve: Serve, key: str) -> None:
    # Given a stored preference
    smart(serve, key, "I prefer dark mode")

    # When an unrelated fact is retained
    [cat] = smart(serve, key, "We adopted a cat named Miso last month")

    # Then it is created, and GET shows category, abstract and provenance
    assert cat["action"] == "created"
    got = memory(serve, key, cat["id"])
    assert (got["category"], got["abstract"]) == ("entity", "Cat named Miso")
    assert got["source"]["message_refs"] == [0] and got["source"]["role"] == "user"
    assert got["trust"] == "user-stated"
    # And the tenant's usage counts the model's calls and tokens
    status, stats = call(serve, "GET", "/v1/stats", key=key)
    assert status == 200
    assert stats["usage"]["llm_calls"] >= 2 and stats["usage"]["llm_output_tokens"] > 0


def test_smart_mode_with_async_false_answers_at_once(serve: Serve, key: str) -> None:
    # Given a smart retain that asks not to be a job
    body = {
        "scope": SCOPE,
        "messages": [{"role": "user", "content": "My name is Sam"}],
        "mode": "smart",
        "async": False,
    }

    # When it is sent
    status, answer = call(serve, "POST", "/v1/memories", body, key=key)

    # Then the results come back in the response
    assert status == 200
    assert answer["results"][0]["memory"]["category"] == "profile"
