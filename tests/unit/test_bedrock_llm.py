"""Bedrock Converse (forced tool use with the answer's schema) and the Secrets Manager API key,
against botocore's Stubber: the exact request, the parsed answer, and failures as ProviderError."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber

from engram.adapters.bedrock_llm import BedrockLLM
from engram.adapters.secrets import LazySecret
from engram.errors import ProviderError
from engram.extraction.dedup import DEDUP_SCHEMA, DEDUP_SCHEMA_NAME
from engram.extraction.llm import EXTRACTION_SCHEMA_NAME, extraction_schema, llm_extract
from engram.models import Message
from engram.settings import LlmSettings

MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0"
ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:engram/llm-key-AbCdEf"


def _client(service: str) -> Any:
    return boto3.client(
        service, region_name="eu-west-1", aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="secret"
    )


@pytest.fixture
def bedrock() -> Iterator[tuple[BedrockLLM, Stubber]]:
    client = _client("bedrock-runtime")
    with Stubber(client) as stubber:
        yield BedrockLLM(LlmSettings(provider="bedrock", model=MODEL), client=client), stubber
        stubber.assert_no_pending_responses()


def _tool_answer(name: str, data: dict[str, Any]) -> dict[str, Any]:
    """A Converse response whose message is one toolUse block, as Bedrock returns it."""
    return {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"toolUse": {"toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": name, "input": data}}
                ],
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 812, "outputTokens": 96, "totalTokens": 908},
        "metrics": {"latencyMs": 1204},
    }


def test_the_converse_request_forces_the_schema_tool(bedrock: tuple[BedrockLLM, Stubber]) -> None:
    # Given Bedrock answering a forced tool call
    llm, stubber = bedrock
    schema = extraction_schema(5)
    stubber.add_response(
        "converse",
        _tool_answer(EXTRACTION_SCHEMA_NAME, {"memories": []}),
        expected_params={
            "modelId": MODEL,
            "system": [{"text": "rules"}],
            "messages": [{"role": "user", "content": [{"text": "data"}]}],
            "toolConfig": {
                "tools": [
                    {
                        "toolSpec": {
                            "name": EXTRACTION_SCHEMA_NAME,
                            "description": ANY,
                            "inputSchema": {"json": schema},
                        }
                    }
                ],
                "toolChoice": {"tool": {"name": EXTRACTION_SCHEMA_NAME}},
            },
            "inferenceConfig": ANY,
        },
    )

    # When the provider asks
    answer = llm.complete_json(system="rules", user="data", name=EXTRACTION_SCHEMA_NAME, schema=schema)

    # Then the tool input is the answer, with the token usage
    assert answer.data == {"memories": []}
    assert (answer.input_tokens, answer.output_tokens) == (812, 96)


def test_an_extraction_through_bedrock_yields_validated_memories(bedrock: tuple[BedrockLLM, Stubber]) -> None:
    # Given Bedrock extracting one preference
    llm, stubber = bedrock
    found = {
        "category": "preference",
        "abstract": "Prefers dark mode",
        "overview": "Prefers dark mode.",
        "content": "The user prefers dark mode.",
        "key_facts": ["theme: dark"],
        "importance": 0.7,
        "confidence": 0.9,
        "entities": [],
        "tags": ["ui"],
        "occurred_at": None,
        "source_messages": [0],
    }
    stubber.add_response("converse", _tool_answer(EXTRACTION_SCHEMA_NAME, {"memories": [found]}))

    # When a conversation is extracted
    result = llm_extract(
        [Message(role="user", content="I prefer dark mode in every editor")],
        llm=llm,
        reference_time=datetime(2025, 1, 1, tzinfo=UTC),
        max_memories=5,
        char_budget=1_000,
        min_chars=5,
    )

    # Then the memory comes back with its provenance and trust
    assert result.error is None
    [memory] = result.memories
    assert (memory.category, memory.content, memory.message_refs, memory.trust) == (
        "preference",
        "The user prefers dark mode.",
        [0],
        "user-stated",
    )


def test_a_throttled_call_is_a_provider_error(bedrock: tuple[BedrockLLM, Stubber]) -> None:
    # Given Bedrock throttling
    llm, stubber = bedrock
    stubber.add_client_error("converse", service_error_code="ThrottlingException", http_status_code=429)

    # When the provider asks
    # Then it raises a provider error naming the code (the caller falls back to the rules)
    with pytest.raises(ProviderError, match="ThrottlingException"):
        llm.complete_json(system="s", user="u", name=DEDUP_SCHEMA_NAME, schema=dict(DEDUP_SCHEMA))


def test_an_answer_without_the_tool_call_is_a_provider_error(bedrock: tuple[BedrockLLM, Stubber]) -> None:
    # Given Bedrock answering in prose instead of calling the tool
    llm, stubber = bedrock
    stubber.add_response(
        "converse",
        {
            "output": {"message": {"role": "assistant", "content": [{"text": "Here you go"}]}},
            "stopReason": "end_turn",
            "usage": {"inputTokens": 10, "outputTokens": 3, "totalTokens": 13},
            "metrics": {"latencyMs": 100},
        },
    )

    # When the provider asks
    # Then the answer is rejected
    with pytest.raises(ProviderError, match="no engram_dedup_decision tool call"):
        llm.complete_json(system="s", user="u", name=DEDUP_SCHEMA_NAME, schema=dict(DEDUP_SCHEMA))


def test_an_api_key_given_as_a_secret_arn_is_read_once() -> None:
    # Given the API key as a Secrets Manager ARN
    client = _client("secretsmanager")
    with Stubber(client) as stubber:
        stubber.add_response(
            "get_secret_value",
            {
                "ARN": ARN,
                "Name": "engram/llm-key",
                "SecretString": "sk-from-secrets",
                "VersionId": "a1b2c3d4-5678-90ab-cdef-EXAMPLE11111",
            },
            expected_params={"SecretId": ARN},
        )
        secret = LazySecret(ARN, client=client)

        # When it is asked for twice
        values = [secret(), secret()]

        # Then Secrets Manager was read once, and the key is its SecretString
        assert values == ["sk-from-secrets", "sk-from-secrets"]
        stubber.assert_no_pending_responses()


def test_an_unreadable_secret_is_a_provider_error() -> None:
    # Given a secret the role may not read
    client = _client("secretsmanager")
    with Stubber(client) as stubber:
        stubber.add_client_error("get_secret_value", service_error_code="AccessDeniedException")

        # When the key is asked for
        # Then a provider error says what failed, without the ARN's secret value
        with pytest.raises(ProviderError, match="Secrets Manager"):
            LazySecret(ARN, client=client)()
