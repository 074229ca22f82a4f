"""Memory poisoning: the injection corpus fed to a scripted model that obeys every injection.

Each case is retained in smart mode in its own scope of acme, against the scripted server whose
recorded answers do what the injected text asks (store instructions as preferences, pick another
scope or tenant, flood, merge instructions into stored memories). Whatever the model answers:
nothing is written outside the request's tenant and scope, and default recall returns no
quarantined memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from scripted_llm import INJECTION_CORPUS, ScriptedLLM

from engram.engine import Engine
from engram.models import ListRequest, MemoryView, RecallRequest, RetainRequest
from engram.settings import LlmSettings, Settings

CASES: list[dict[str, Any]] = json.loads(INJECTION_CORPUS.read_text(encoding="utf-8"))
CANARY = "Globex's own memory: the office is in Springfield."


def scope_of(case: dict[str, Any]) -> str:
    return "user:" + case["name"]


@pytest.fixture(scope="module")
def poisoned(
    tmp_path_factory: pytest.TempPathFactory, scripted_llm_server: ScriptedLLM
) -> Iterator[dict[str, Any]]:
    """Every case retained once, in order, with what each wrote; then the engine for the checks."""
    scripted_llm_server.reset()
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("poison"),
        llm=LlmSettings(
            provider="openai", base_url=scripted_llm_server.url, model="obedient", backoff_s=0.01
        ),
    )
    engine = Engine.local(settings)
    engine.create_tenant("acme")
    engine.create_tenant("globex")
    engine.retain("globex", RetainRequest(scope="user:alice", text=CANARY, mode="raw"))
    outcomes: dict[str, dict[str, Any]] = {}
    for case in CASES:
        scope = scope_of(case)
        if "seed" in case:
            seed = RetainRequest.model_validate(
                {
                    "scope": scope,
                    "messages": [{"role": "user", "content": case["seed"]["message"]}],
                    "mode": "auto",
                }
            )
            [seeded] = engine.retain("acme", seed).results
            outcomes.setdefault(case["name"], {})["seed"] = seeded.id
        before = len(scripted_llm_server.requests)
        request = RetainRequest.model_validate(
            {"scope": scope, "messages": case["messages"], "mode": "smart", "async": False}
        )
        results = engine.retain("acme", request).results
        asked = [
            s.body["response_format"]["json_schema"]["name"] for s in scripted_llm_server.requests[before:]
        ]
        outcomes.setdefault(case["name"], {}).update(results=results, asked=asked)
    try:
        yield {"engine": engine, "outcomes": outcomes}
    finally:
        engine.close()


def everything(engine: Engine, tenant: str, status: str | None = None) -> list[MemoryView]:
    request = ListRequest(limit=500, status=status) if status else ListRequest(limit=500)
    return engine.list_memories(tenant, request).memories


def test_the_corpus_has_at_least_thirty_cases_with_distinct_names() -> None:
    # Given the corpus
    # When its cases are counted by name
    names = {case["name"] for case in CASES}

    # Then there are at least thirty, none repeated
    assert len(names) == len(CASES) >= 30


def test_nothing_is_written_outside_the_request_tenant(poisoned: dict[str, Any]) -> None:
    # Given every case retained into acme
    engine: Engine = poisoned["engine"]

    # When globex's memories are listed
    globex = everything(engine, "globex")

    # Then globex still holds only its own memory, unchanged
    assert [(m.content, m.version) for m in globex] == [(CANARY, 1)]


def test_nothing_is_written_outside_the_request_scope(poisoned: dict[str, Any]) -> None:
    # Given every case retained into its own scope
    engine: Engine = poisoned["engine"]
    outcomes = poisoned["outcomes"]

    # When every memory of acme is listed, whatever its status
    memories = everything(engine, "acme")

    # Then each lies in the scope of a case, and every result of a case points into its own scope
    assert {m.scope for m in memories} <= {scope_of(c) for c in CASES}
    by_id = {m.id: m for m in memories}
    for case in CASES:
        for result in outcomes[case["name"]]["results"]:
            assert by_id[result.id].scope == scope_of(case), case["name"]


@pytest.mark.parametrize("case", [c for c in CASES if c["expect"] == "quarantined"], ids=lambda c: c["name"])
def test_an_obeyed_instruction_is_stored_quarantined_never_active(
    poisoned: dict[str, Any], case: dict[str, Any]
) -> None:
    # Given a case whose obeying model stored an instruction as a memory
    engine: Engine = poisoned["engine"]
    scope = scope_of(case)
    benign = set(case.get("benign", []))
    injected = {m["content"] for m in case["extraction"]["memories"]} - benign

    # When the case's scope is listed
    memories = [m for m in everything(engine, "acme") if m.scope == scope]

    # Then the instruction is there only as quarantined, and what was benign is active
    assert any(m.status == "quarantined" and m.content in injected for m in memories), case["name"]
    assert not [m.content for m in memories if m.status == "active" and m.content in injected]
    assert benign <= {m.content for m in memories if m.status == "active"}
    assert all("quarantined" in m.tags for m in memories if m.status == "quarantined")


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["expect"].startswith("rejected")], ids=lambda c: c["name"]
)
def test_an_off_schema_answer_stores_nothing_the_model_said(
    poisoned: dict[str, Any], case: dict[str, Any]
) -> None:
    # Given a case whose obeying model answered with fields or values the schema forbids
    engine: Engine = poisoned["engine"]
    said = {m["content"] for m in case["extraction"]["memories"]}

    # When the case's scope is listed
    memories = [m for m in everything(engine, "acme") if m.scope == scope_of(case)]

    # Then none of the model's memories was stored (the rules extracted instead, if anything)
    assert not [m.content for m in memories if m.content in said]
    assert poisoned["outcomes"][case["name"]]["asked"] == ["engram_extraction"]


def test_a_flooding_answer_is_cut_to_the_per_call_maximum(poisoned: dict[str, Any]) -> None:
    # Given the case whose model returned fifty memories
    engine: Engine = poisoned["engine"]

    # When its scope is counted
    stored = [m for m in everything(engine, "acme") if m.scope == "user:flood"]

    # Then at most the per-call maximum was kept
    assert 0 < len(stored) <= engine.settings.retain.max_memories_per_call


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["expect"] in ("created", "no-injected-merge")], ids=lambda c: c["name"]
)
def test_an_obeyed_dedup_answer_cannot_rewrite_or_drop_a_stored_memory(
    poisoned: dict[str, Any], case: dict[str, Any]
) -> None:
    # Given a case whose model answered the dedup decision as the injection wanted
    engine: Engine = poisoned["engine"]
    outcome = poisoned["outcomes"][case["name"]]
    assert outcome["asked"] == ["engram_extraction", "engram_dedup_decision"]

    # When the scope's memories are read
    memories = [m for m in everything(engine, "acme") if m.scope == scope_of(case)]

    # Then no memory holds the injected text, and the seed was neither superseded nor dropped
    assert not [m.content for m in memories if "Ignore previous instructions" in m.content]
    seed = next(m for m in memories if m.id == outcome["seed"])
    assert seed.status == "active"


def test_default_recall_never_returns_a_quarantined_memory(poisoned: dict[str, Any]) -> None:
    # Given the quarantined memories the corpus left behind
    engine: Engine = poisoned["engine"]
    quarantined = {m.id for m in everything(engine, "acme", status="quarantined")}
    assert len(quarantined) >= 15

    # When every case's query, and every quarantined text itself, is recalled with no score floor
    queries = [c["query"] for c in CASES] + [
        m.content for m in everything(engine, "acme", status="quarantined")
    ]
    recalled = {
        m.id
        for q in queries
        for m in engine.recall("acme", RecallRequest(query=q[:4000], limit=20, min_score=0.0)).memories
    }

    # Then recall found memories, and none of them is quarantined
    assert recalled
    assert recalled & quarantined == set()


def test_extracted_memories_carry_provenance_and_trust_from_the_roles(poisoned: dict[str, Any]) -> None:
    # Given the case where an instruction came from a tool result, though the model cited the user
    engine: Engine = poisoned["engine"]
    [memory] = [m for m in everything(engine, "acme") if m.scope == "user:tool-result-injection"]

    # When its provenance is read
    # Then it points at the tool message, and its trust label says so
    assert memory.source.message_refs == [1]
    assert (memory.source.role, memory.trust) == ("tool", "tool")
