"""The OpenAI-compatible provider against the scripted server: request shape, retries, deadline,
schema validation and the fallback to the rules, through the engine in this process."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from scripted_llm import ScriptedLLM

from engram.adapters.openai_compat import OpenAICompatLLM
from engram.engine import Engine
from engram.errors import ProviderError
from engram.extraction.dedup import DEDUP_SCHEMA_NAME
from engram.extraction.llm import EXTRACTION_SCHEMA_NAME, extraction_schema
from engram.models import Message, RetainRequest
from engram.settings import LlmSettings, Settings

SCOPE = "user:alice"


def _llm(server: ScriptedLLM, **options: float) -> OpenAICompatLLM:
    settings = LlmSettings(
        provider="openai",
        base_url=server.url,
        model="scripted-model",
        api_key="sk-test",
        timeout_s=options.get("timeout_s", 5.0),
        deadline_s=options.get("deadline_s", 10.0),
        max_attempts=int(options.get("max_attempts", 3)),
        backoff_s=0.01,
    )
    return OpenAICompatLLM(settings)


@pytest.fixture
def smart_engine(data_dir: Path, scripted_llm: ScriptedLLM) -> Engine:
    settings = Settings(
        data_dir=data_dir,
        llm=LlmSettings(
            provider="openai",
            base_url=scripted_llm.url,
            model="scripted-model",
            api_key="sk-test",
            backoff_s=0.01,
        ),
    )
    engine = Engine.local(settings)
    engine.create_tenant("acme")
    engine.create_tenant("globex")
    return engine


def _smart(engine: Engine, text: str, **extra: object) -> list[dict[str, object]]:
    request = RetainRequest.model_validate(
        {
            "scope": SCOPE,
            "messages": [{"role": "user", "content": text}],
            "mode": "smart",
            "async": False,
            **extra,
        }
    )
    return [r.model_dump(mode="json") for r in engine.retain("acme", request).results]


def test_an_extraction_request_carries_the_json_schema_named_as_the_design_says(
    scripted_llm: ScriptedLLM, smart_engine: Engine
) -> None:
    # Given an engine with the OpenAI-compatible provider
    # When a conversation is retained in smart mode
    _smart(smart_engine, "I prefer dark mode")

    # Then one chat completion went out with the key, the model and the named schema
    [seen] = scripted_llm.requests
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == "Bearer sk-test"
    assert seen.body["model"] == "scripted-model"
    assert seen.body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": EXTRACTION_SCHEMA_NAME, "schema": extraction_schema(10)},
    }
    # And the conversation is data in the user message, the rules are the system message
    system, user = seen.body["messages"]
    assert (system["role"], user["role"]) == ("system", "user")
    assert "DATA" in system["content"] and "I prefer dark mode" not in system["content"]
    assert seen.data == [{"index": 0, "role": "user", "content": "I prefer dark mode"}]


def test_relative_dates_are_asked_against_the_conversation_time_and_stored_resolved(
    scripted_llm: ScriptedLLM, smart_engine: Engine
) -> None:
    # Given a conversation held on 10 March 2025 that says "yesterday"
    messages = [
        {"role": "assistant", "content": "How was your week?"},
        {"role": "user", "content": "Busy: I flew to Lisbon yesterday for a conference."},
    ]
    request = RetainRequest.model_validate(
        {
            "scope": SCOPE,
            "messages": messages,
            "mode": "smart",
            "async": False,
            "occurred_at": "2025-03-10T12:00:00Z",
        }
    )

    # When it is retained
    [result] = smart_engine.retain("acme", request).results

    # Then the prompt named the conversation time, and the event is dated the day before
    assert (
        "Conversation time: 2025-03-10T12:00:00+00:00"
        in scripted_llm.requests[0].body["messages"][1]["content"]
    )
    assert result.memory is not None
    assert result.memory.category == "event"
    assert result.memory.occurred_at == datetime(2025, 3, 9, tzinfo=UTC)
    # And its provenance is the user's message, index 1
    assert result.memory.source.message_refs == [1]
    assert result.memory.trust == "user-stated"


def test_server_errors_are_retried_and_the_answer_still_used(scripted_llm: ScriptedLLM) -> None:
    # Given a server that fails twice with 503, then answers
    scripted_llm.fail_next(503, times=2)

    # When the provider asks once
    answer = _llm(scripted_llm).complete_json(
        system="s", user=_fenced("I prefer dark mode"), name=EXTRACTION_SCHEMA_NAME, schema={}
    )

    # Then it made three attempts and returned the third answer with its token usage
    assert len(scripted_llm.requests) == 3
    assert answer.data["memories"][0]["category"] == "preference"
    assert answer.input_tokens > 0 and answer.output_tokens > 0


def test_retries_are_bounded(scripted_llm: ScriptedLLM) -> None:
    # Given a server that keeps failing with 429
    scripted_llm.fail_next(429, times=10)

    # When the provider asks with at most 3 attempts
    # Then it gives up with a provider error after exactly 3
    with pytest.raises(ProviderError, match="HTTP 429"):
        _llm(scripted_llm, max_attempts=3).complete_json(
            system="s", user="u", name=EXTRACTION_SCHEMA_NAME, schema={}
        )
    assert len(scripted_llm.requests) == 3


def test_a_client_error_is_not_retried(scripted_llm: ScriptedLLM) -> None:
    # Given a request the server has no answer for (it answers 400)
    # When the provider asks
    # Then it fails at once
    with pytest.raises(ProviderError, match="HTTP 400"):
        _llm(scripted_llm).complete_json(system="s", user="u", name=EXTRACTION_SCHEMA_NAME, schema={})
    assert len(scripted_llm.requests) == 1


def test_the_total_deadline_bounds_a_slow_server(scripted_llm: ScriptedLLM) -> None:
    # Given a server that takes 3 s per answer
    scripted_llm.delay_s = 3.0

    # When the provider asks with a 1 s deadline over up to 5 attempts
    started = time.monotonic()
    with pytest.raises(ProviderError, match="timed out"):
        _llm(scripted_llm, timeout_s=5.0, deadline_s=1.0, max_attempts=5).complete_json(
            system="s", user=_fenced("I prefer dark mode"), name=EXTRACTION_SCHEMA_NAME, schema={}
        )

    # Then it gave up at the deadline, not after five slow attempts
    assert time.monotonic() - started < 2.5


def test_an_off_schema_answer_is_rejected_and_the_rules_extract_instead(
    scripted_llm: ScriptedLLM, smart_engine: Engine
) -> None:
    # Given a model that answers with a field the schema forbids (a scope of its choosing)
    # When the conversation is retained
    [result] = _smart(smart_engine, "By the way, my favourite colour is green.")

    # Then the rule-based extractor's memory is stored, in the request's scope
    assert result["action"] == "created"
    assert result["memory"]["content"] == "By the way, my favourite colour is green."
    assert result["memory"]["scope"] == SCOPE
    # And the fallback is counted for the tenant, with the call and its tokens
    usage = smart_engine.stats("acme").usage
    assert usage["llm_fallbacks"] == 1 and usage["llm_calls"] == 1 and usage["llm_input_tokens"] > 0


@pytest.mark.parametrize("text", ["I work at Initech as a designer.", "I speak Portuguese at home."])
def test_a_non_json_or_cut_off_answer_falls_back_to_the_rules(
    scripted_llm: ScriptedLLM, smart_engine: Engine, text: str
) -> None:
    # Given a model that answers prose, or JSON cut off at the token limit
    # When the conversation is retained
    [result] = _smart(smart_engine, text)

    # Then the rules' memory is stored and the fallback counted
    assert result["memory"]["content"] == text
    assert result["memory"]["category"] == "profile"
    assert smart_engine.stats("acme").usage["llm_fallbacks"] == 1


def test_an_unreachable_provider_falls_back_to_the_rules(data_dir: Path) -> None:
    # Given a provider configured at a port nobody listens on
    settings = Settings(
        data_dir=data_dir,
        llm=LlmSettings(
            provider="openai", base_url="http://127.0.0.1:9/v1", model="m", max_attempts=2, backoff_s=0.01
        ),
    )
    engine = Engine.local(settings)
    engine.create_tenant("acme")

    # When a conversation is retained in smart mode
    request = RetainRequest(
        scope=SCOPE, messages=[Message(role="user", content="I live in Porto.")], mode="smart"
    )
    [result] = engine.retain("acme", request).results

    # Then the rules still keep the memory
    assert result.memory is not None and result.memory.content == "I live in Porto."


def test_small_talk_never_reaches_the_model(scripted_llm: ScriptedLLM, smart_engine: Engine) -> None:
    # Given a conversation of greetings and a bare question
    messages = [
        {"role": "user", "content": "Hi there!"},
        {"role": "assistant", "content": "Hello! How can I help you today?"},
        {"role": "user", "content": "What time is it?"},
    ]
    request = RetainRequest.model_validate(
        {"scope": SCOPE, "messages": messages, "mode": "smart", "async": False}
    )

    # When it is retained
    results = smart_engine.retain("acme", request).results

    # Then nothing is stored and no request was made
    assert results == []
    assert scripted_llm.requests == []


def test_only_the_latest_messages_within_the_budget_are_sent(
    scripted_llm: ScriptedLLM, smart_engine: Engine
) -> None:
    # Given a tenant whose extraction budget is 600 characters, and a long conversation
    smart_engine.configure_tenant("acme", {"retain": {"input_char_budget": 600}})
    filler = [
        {"role": "user", "content": f"Old message number {i} about the weather. " * 5} for i in range(20)
    ]
    messages = [*filler, {"role": "user", "content": "I prefer dark mode"}]
    request = RetainRequest.model_validate(
        {"scope": SCOPE, "messages": messages, "mode": "smart", "async": False}
    )

    # When it is retained
    smart_engine.retain("acme", request)

    # Then the model saw the last message and only as many older ones as fit, with their indexes
    data = scripted_llm.requests[0].data
    assert data[-1] == {"index": 20, "role": "user", "content": "I prefer dark mode"}
    assert sum(len(m["content"]) for m in data) <= 600
    assert [m["index"] for m in data] == list(range(21 - len(data), 21))


def test_each_dedup_decision_request_is_named_and_lists_both_sides_as_data(
    scripted_llm: ScriptedLLM, smart_engine: Engine
) -> None:
    # Given a stored preference for dark mode
    _smart(smart_engine, "I prefer dark mode")
    scripted_llm.reset()

    # When a changed preference is retained
    [result] = _smart(smart_engine, "Actually I switched to light mode")

    # Then one extraction and one decision request went out; the decision lists new and stored
    names = [s.body["response_format"]["json_schema"]["name"] for s in scripted_llm.requests]
    assert names == [EXTRACTION_SCHEMA_NAME, DEDUP_SCHEMA_NAME]
    decision = scripted_llm.requests[1].data
    assert [m["content"] for m in decision["new"]] == ["The user prefers light mode in the editor."]
    assert [m["content"] for m in decision["stored"]] == ["The user prefers dark mode in the editor."]
    assert result["action"] == "superseded"


def _fenced(text: str) -> str:
    """A user prompt fencing one user message, as the extractor builds it."""
    from engram.extraction.llm import conversation_prompt

    return conversation_prompt(
        [(0, Message(role="user", content=text))],
        reference_time=datetime(2025, 1, 1, tzinfo=UTC),
        max_memories=10,
    )[1]
