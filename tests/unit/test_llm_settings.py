"""The LLM is configured from the environment only, and built by the composition root."""

from __future__ import annotations

import pytest

from engram.adapters.bedrock_llm import BedrockLLM
from engram.adapters.openai_compat import OpenAICompatLLM
from engram.app import build_llm
from engram.errors import ConfigurationError
from engram.settings import Settings


def test_the_llm_settings_come_from_engram_llm_variables() -> None:
    # Given the LLM variables of an Ollama setup
    environ = {
        "ENGRAM_LLM_PROVIDER": "openai",
        "ENGRAM_LLM_BASE_URL": "http://localhost:11434/v1",
        "ENGRAM_LLM_MODEL": "llama3.1",
        "ENGRAM_LLM_API_KEY": "sk-local",
        "ENGRAM_LLM_DEADLINE_S": "30",
    }

    # When settings are read and the model built
    settings = Settings.from_env(environ)
    llm = build_llm(settings.llm)

    # Then an OpenAI-compatible client points at the endpoint with the deadline and the key
    assert isinstance(llm, OpenAICompatLLM)
    assert llm.url == "http://localhost:11434/v1/chat/completions"
    assert (llm.model_id, llm.settings.deadline_s) == ("llama3.1", 30.0)
    assert llm._headers()["Authorization"] == "Bearer sk-local"


def test_no_provider_means_the_rules_alone() -> None:
    # Given no LLM variables
    # When the model is built
    # Then there is none
    assert build_llm(Settings.from_env({}).llm) is None


def test_bedrock_takes_the_model_id_and_region() -> None:
    # Given Bedrock configured
    settings = Settings.from_env(
        {
            "ENGRAM_LLM_PROVIDER": "bedrock",
            "ENGRAM_LLM_MODEL": "amazon.nova-lite-v1:0",
            "ENGRAM_LLM_REGION": "eu-west-1",
        }
    )

    # When the model is built (no client is made before the first call)
    llm = build_llm(settings.llm)

    # Then it is the Converse provider for that model and region
    assert isinstance(llm, BedrockLLM)
    assert (llm.model_id, llm.settings.region) == ("amazon.nova-lite-v1:0", "eu-west-1")


@pytest.mark.parametrize(
    "environ",
    [
        {"ENGRAM_LLM_PROVIDER": "openai", "ENGRAM_LLM_BASE_URL": "http://x/v1"},
        {"ENGRAM_LLM_PROVIDER": "openai", "ENGRAM_LLM_MODEL": "m"},
    ],
)
def test_an_incomplete_provider_setting_is_refused_naming_the_variable(environ: dict[str, str]) -> None:
    # Given a provider without its model or endpoint
    # When the model is built
    # Then a configuration error (the operator's, not the caller's) names what is missing
    with pytest.raises(ConfigurationError, match="ENGRAM_LLM_"):
        build_llm(Settings.from_env(environ).llm)


def test_the_extract_queue_url_sends_jobs_to_sqs() -> None:
    # Given the queue the stack wires into every function
    from engram.adapters.sqs_queue import SqsJobQueue
    from engram.app import _job_queue

    url = "https://sqs.eu-west-1.amazonaws.com/123456789012/engram-dev-extract"
    settings = Settings.from_env({"ENGRAM_EXTRACT_QUEUE_URL": url})

    # When the job queue is chosen
    queue = _job_queue(settings)

    # Then it is SQS at that URL; without the variable, jobs stay on the local thread
    assert isinstance(queue, SqsJobQueue) and queue.queue_url == url
    assert _job_queue(Settings.from_env({})) is None
