"""Bedrock's Rerank against botocore's Stubber (the exact request, scores back in document order,
failures as ProviderError), and the rerank provider configured like the LLM."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from engram.adapters.rerank import BedrockReranker, TeiReranker
from engram.app import build_reranker
from engram.errors import ConfigurationError, ProviderError
from engram.settings import RerankSettings, Settings

MODEL = "amazon.rerank-v1:0"
ARN = "arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0"


@pytest.fixture
def bedrock() -> Iterator[tuple[BedrockReranker, Stubber]]:
    client = boto3.client(
        "bedrock-agent-runtime",
        region_name="us-west-2",
        aws_access_key_id="AKIDEXAMPLE",
        aws_secret_access_key="secret",
    )
    with Stubber(client) as stubber:
        yield BedrockReranker(MODEL, client=client), stubber
        stubber.assert_no_pending_responses()


def _expected(query: str, documents: list[str]) -> dict[str, Any]:
    return {
        "queries": [{"type": "TEXT", "textQuery": {"text": query}}],
        "sources": [
            {"type": "INLINE", "inlineDocumentSource": {"type": "TEXT", "textDocument": {"text": d}}}
            for d in documents
        ],
        "rerankingConfiguration": {
            "type": "BEDROCK_RERANKING_MODEL",
            "bedrockRerankingConfiguration": {
                "numberOfResults": len(documents),
                "modelConfiguration": {"modelArn": ARN},
            },
        },
    }


def test_bedrock_rerank_sends_inline_texts_and_answers_in_document_order(
    bedrock: tuple[BedrockReranker, Stubber],
) -> None:
    # Given Bedrock answering best first, as it does
    reranker, stubber = bedrock
    documents = ["the office opens at nine", "the passport is in the blue drawer"]
    stubber.add_response(
        "rerank",
        {"results": [{"index": 1, "relevanceScore": 0.93}, {"index": 0, "relevanceScore": 0.04}]},
        _expected("where is the passport", documents),
    )
    # When it reranks
    scores = reranker.rerank("where is the passport", documents)
    # Then the scores come back in the documents' order
    assert scores == [0.04, 0.93]


def test_a_bedrock_error_is_a_provider_error(bedrock: tuple[BedrockReranker, Stubber]) -> None:
    # Given Bedrock throttling the call
    reranker, stubber = bedrock
    stubber.add_client_error("rerank", service_error_code="ThrottlingException", http_status_code=429)
    # When it reranks, then the error names the cause
    with pytest.raises(ProviderError, match="ThrottlingException"):
        reranker.rerank("q", ["a"])


def test_a_bedrock_answer_missing_a_document_is_refused(bedrock: tuple[BedrockReranker, Stubber]) -> None:
    # Given an answer that scores only one of two documents
    reranker, stubber = bedrock
    stubber.add_response("rerank", {"results": [{"index": 0, "relevanceScore": 0.5}]})
    # When it reranks, then the answer is refused rather than half used
    with pytest.raises(ProviderError, match="unscored"):
        reranker.rerank("q", ["a", "b"])


def test_a_model_arn_is_used_as_given() -> None:
    arn = "arn:aws:bedrock:eu-central-1::foundation-model/cohere.rerank-v3-5:0"
    assert BedrockReranker(arn, client=object()).model_arn() == arn


def test_the_rerank_provider_is_read_from_engram_rerank_variables() -> None:
    # Given the environment a deployment sets
    environ = {
        "ENGRAM_RERANK_PROVIDER": "tei",
        "ENGRAM_RERANK_URL": "http://tei:8080/rerank",
        "ENGRAM_RERANK_MODEL": "BAAI/bge-reranker-base",
        "ENGRAM_RERANK_TIMEOUT_S": "1.5",
    }
    # When settings are read, then the section holds them and builds a TEI reranker
    settings = Settings.from_env(environ)
    assert settings.rerank == RerankSettings(
        provider="tei", url="http://tei:8080/rerank", model="BAAI/bge-reranker-base", timeout_s=1.5
    )
    reranker = build_reranker(settings.rerank)
    assert isinstance(reranker, TeiReranker) and reranker.model_id == "BAAI/bge-reranker-base"


@pytest.mark.parametrize(
    ("provider", "variable"),
    [("tei", "ENGRAM_RERANK_URL"), ("bedrock", "ENGRAM_RERANK_MODEL")],
)
def test_a_provider_without_its_endpoint_or_model_is_a_configuration_error(
    provider: str, variable: str
) -> None:
    # Given a rerank provider without its endpoint or model
    # When the settings are read
    # Then they are refused at once, naming the missing variable
    with pytest.raises(ConfigurationError, match=variable):
        Settings.from_env({"ENGRAM_RERANK_PROVIDER": provider})


def test_no_provider_means_no_reranker() -> None:
    assert build_reranker(RerankSettings()) is None
