"""Embedding providers: Bedrock Titan V2 (botocore Stubber) and an OpenAI-compatible endpoint
(real HTTP), with timeouts, bounded jittered retries within a deadline, and the fallback."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber

from engram.adapters.providers import BedrockTitanEmbedder, FallbackEmbedder, OpenAIEmbedder, Retrier
from engram.embedding import inputs
from engram.errors import ProviderError, ValidationFailedError


class FakeTime:
    """A clock that only moves when slept on (so deadlines are tested without waiting)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


def retrier(fake_time: FakeTime, **options: Any) -> Retrier:
    return Retrier(sleep=fake_time.sleep, clock=fake_time.clock, **options)


# -- Bedrock ---------------------------------------------------------------------------------------


@pytest.fixture
def bedrock() -> Iterator[tuple[Any, Stubber]]:
    import boto3

    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    with Stubber(client) as stubber:
        yield client, stubber
    stubber.assert_no_pending_responses()


def titan_answer(vector: list[float]) -> dict[str, Any]:
    data = json.dumps({"embedding": vector, "inputTextTokenCount": 4}).encode()
    return {"body": StreamingBody(io.BytesIO(data), len(data)), "contentType": "application/json"}


def titan_request(text: str, dimension: int) -> dict[str, Any]:
    return {
        "modelId": "amazon.titan-embed-text-v2:0",
        "body": json.dumps({"inputText": text, "dimensions": dimension, "normalize": True}),
        "contentType": "application/json",
        "accept": "application/json",
    }


def test_titan_v2_is_asked_for_the_configured_dimensions_and_tags_its_vectors(bedrock: Any) -> None:
    client, stubber = bedrock
    stubber.add_response("invoke_model", titan_answer([3.0, 4.0] + [0.0] * 254), titan_request("hello", 256))
    embedder = BedrockTitanEmbedder(client, dimension=256)
    vectors = embedder.embed(["hello"])
    assert vectors.shape == (1, 256) and vectors.dtype == np.float32
    assert vectors[0, :2].tolist() == pytest.approx([0.6, 0.8])
    assert (embedder.model_id, embedder.dimension) == ("amazon.titan-embed-text-v2:0@256", 256)


def test_titan_v2_refuses_a_dimension_it_does_not_offer(bedrock: Any) -> None:
    with pytest.raises(ValidationFailedError, match="256, 512, 1024"):
        BedrockTitanEmbedder(bedrock[0], dimension=384)


def test_a_throttled_bedrock_call_is_retried_with_jitter_and_then_succeeds(bedrock: Any) -> None:
    client, stubber = bedrock
    for _ in range(2):
        stubber.add_client_error("invoke_model", "ThrottlingException", "Rate exceeded", 400)
    stubber.add_response("invoke_model", titan_answer([1.0] * 256), titan_request("hello", 256))
    fake_time = FakeTime()
    embedder = BedrockTitanEmbedder(client, dimension=256, retrier=retrier(fake_time, base_s=0.1))
    assert embedder.embed(["hello"]).shape == (1, 256)
    assert len(fake_time.slept) == 2
    assert 0 <= fake_time.slept[0] <= 0.1 and 0 <= fake_time.slept[1] <= 0.2


def test_bedrock_throttling_past_the_deadline_is_reported(bedrock: Any) -> None:
    # Given Bedrock throttling every call, and 0.4 s waits (jitter at its top) before a 1 s deadline
    client, stubber = bedrock
    for _ in range(3):
        stubber.add_client_error("invoke_model", "ThrottlingException", "Rate exceeded", 400)
    fake_time = FakeTime()
    slow = retrier(fake_time, attempts=10, base_s=0.4, cap_s=0.4, deadline_s=1.0, jitter=lambda high: high)
    embedder = BedrockTitanEmbedder(client, dimension=256, retrier=slow)
    # When it embeds, it gives up within the deadline and says why
    with pytest.raises(ProviderError, match=r"Bedrock embeddings still failing .*ThrottlingException"):
        embedder.embed(["hello"])
    # after three calls: waiting again would end past the deadline
    assert fake_time.slept == [0.4, 0.4]


def test_bedrock_throttling_for_every_attempt_is_reported_after_the_last(bedrock: Any) -> None:
    client, stubber = bedrock
    for _ in range(4):
        stubber.add_client_error("invoke_model", "ThrottlingException", "Rate exceeded", 400)
    embedder = BedrockTitanEmbedder(client, dimension=256, retrier=retrier(FakeTime(), attempts=4))
    with pytest.raises(ProviderError, match="after 4 attempts"):
        embedder.embed(["hello"])


def test_a_bedrock_validation_error_is_not_retried(bedrock: Any) -> None:
    client, stubber = bedrock
    stubber.add_client_error("invoke_model", "ValidationException", "Malformed input", 400)
    fake_time = FakeTime()
    embedder = BedrockTitanEmbedder(client, dimension=256, retrier=retrier(fake_time))
    with pytest.raises(ProviderError, match="Malformed input"):
        embedder.embed(["hello"])
    assert fake_time.slept == []


# -- OpenAI-compatible -----------------------------------------------------------------------------


@pytest.fixture
def endpoint() -> Iterator[Any]:
    from opensearch_fake import start

    server = start()
    yield server
    server.stop()


def embeddings_answer(*vectors: list[float], reverse: bool = False) -> tuple[int, Any]:
    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
    if reverse:
        data.reverse()
    return 200, {
        "object": "list",
        "data": data,
        "model": "bge-small",
        "usage": {"prompt_tokens": 4, "total_tokens": 4},
    }


def openai(endpoint: Any, fake_time: FakeTime | None = None, **options: Any) -> OpenAIEmbedder:
    return OpenAIEmbedder(
        endpoint.url + "/v1",
        model="bge-small",
        dimension=2,
        api_key="sk-test",
        retrier=retrier(fake_time or FakeTime(), **options.pop("retry", {})),
        **options,
    )


def test_the_openai_compatible_request_and_answer(endpoint: Any) -> None:
    endpoint.answer(embeddings_answer([3.0, 4.0], [0.0, 2.0], reverse=True))
    vectors = openai(endpoint).embed(["first", "second"])
    [sent] = endpoint.requests
    assert (sent.method, sent.path) == ("POST", "/v1/embeddings")
    assert sent.body == {
        "model": "bge-small",
        "input": ["first", "second"],
        "encoding_format": "float",
        "dimensions": 2,
    }
    assert sent.headers["authorization"] == "Bearer sk-test"
    # rows come back in input order (by "index") and unit length
    assert vectors.tolist() == [pytest.approx([0.6, 0.8]), pytest.approx([0.0, 1.0])]


def test_429_and_5xx_are_retried_honouring_retry_after(endpoint: Any) -> None:
    endpoint.answer(
        (429, {"error": {"message": "rate limited"}}, {"Retry-After": "1.5"}),
        (503, {"error": {"message": "overloaded"}}),
        embeddings_answer([1.0, 0.0]),
    )
    fake_time = FakeTime()
    assert openai(endpoint, fake_time).embed(["x"]).shape == (1, 2)
    assert len(endpoint.requests) == 3 and fake_time.slept[0] >= 1.5


def test_a_failing_endpoint_is_reported_after_bounded_attempts(endpoint: Any) -> None:
    endpoint.fail_with = (500, {"error": {"message": "boom"}})
    with pytest.raises(ProviderError, match="after 3 attempts"):
        openai(endpoint, retry={"attempts": 3}).embed(["x"])
    assert len(endpoint.requests) == 3


def test_a_slow_endpoint_times_out_and_is_retried(endpoint: Any) -> None:
    endpoint.delay_s = 0.5
    with pytest.raises(ProviderError, match=r"after 2 attempts.*timed out"):
        openai(endpoint, timeout_s=0.1, retry={"attempts": 2}).embed(["x"])
    assert len(endpoint.requests) == 2


def test_a_client_error_is_not_retried(endpoint: Any) -> None:
    endpoint.answer((400, {"error": {"message": "bad model"}}))
    with pytest.raises(ProviderError, match="400"):
        openai(endpoint).embed(["x"])
    assert len(endpoint.requests) == 1


def test_vectors_of_the_wrong_size_are_refused(endpoint: Any) -> None:
    endpoint.answer(embeddings_answer([1.0, 0.0, 0.0]))
    with pytest.raises(ProviderError, match=r"expected \(n, 2\)"):
        openai(endpoint).embed(["x"])


def test_the_fallback_serves_when_the_primary_fails(endpoint: Any) -> None:
    from opensearch_fake import start

    second = start()
    try:
        endpoint.fail_with = (503, {"error": {"message": "down"}})
        second.answer(embeddings_answer([0.0, 5.0]))
        embedder = FallbackEmbedder(openai(endpoint, retry={"attempts": 2}), openai(second))
        assert embedder.embed(["x"]).tolist() == [pytest.approx([0.0, 1.0])]
        assert embedder.model_id == "bge-small@2"
    finally:
        second.stop()


def test_a_fallback_of_another_model_is_refused(endpoint: Any) -> None:
    other = OpenAIEmbedder(endpoint.url, model="other", dimension=2)
    with pytest.raises(ValidationFailedError, match="same model"):
        FallbackEmbedder(openai(endpoint), other)


def test_settings_select_the_provider_and_its_tag(monkeypatch: pytest.MonkeyPatch) -> None:
    from engram.adapters.providers import build_embedder, embedding_spec
    from engram.settings import AwsSettings, Settings

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "x")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "x")
    settings = Settings(embedder="bedrock", aws=AwsSettings(region="eu-west-1", embedding_dimensions=512))
    embedder = build_embedder(settings)
    assert isinstance(embedder, BedrockTitanEmbedder)
    assert (
        (embedder.model_id, embedder.dimension)
        == embedding_spec(settings)
        == ("amazon.titan-embed-text-v2:0@512", 512)
    )
    # botocore makes one attempt; the Retrier owns retries so they stay within the deadline
    assert embedder.client.meta.config.retries["total_max_attempts"] == 1
    with pytest.raises(ValidationFailedError, match="ENGRAM_OPENAI_BASE_URL"):
        build_embedder(Settings(embedder="openai"))


def test_titan_v2_gets_a_long_text_cut_to_its_input_limit(bedrock: Any) -> None:
    # Given a 12,000-character text of CJK characters (about a token each: past 8,192 tokens)
    client, stubber = bedrock
    text = "記憶" * 6_000
    cut, was_cut = inputs.fit(text, "amazon.titan-embed-text-v2:0@256")
    assert was_cut and len(cut) == 8_192 and text.startswith(cut)
    # When it is embedded, Titan is sent the start that fits, not a text it would refuse
    stubber.add_response("invoke_model", titan_answer([1.0] + [0.0] * 255), titan_request(cut, 256))
    BedrockTitanEmbedder(client, dimension=256).embed([text])
    # and English prose is cut only past 24,576 characters (a third of a token each, at the most)
    assert inputs.fit("I moved to Lisbon. " * 1_000, "amazon.titan-embed-text-v2:0")[1] is False
    assert len(inputs.fit("I moved to Lisbon. " * 1_684, "amazon.titan-embed-text-v2:0")[0]) == 24_576


def _embedded_default_with_an_endpoint(endpoint: Any, tmp_path: Any) -> tuple[Any, Any]:
    """The local backend with ENGRAM_EMBEDDER=openai (the endpoint's model, of size 2) and one
    memory retained by a tenant; (its settings, the engine). The endpoint answers two calls."""
    from engram.engine import Engine
    from engram.models import RetainRequest
    from engram.settings import AwsSettings, Settings

    aws = AwsSettings(openai_base_url=endpoint.url + "/v1", openai_model="bge-small", embedding_dimensions=2)
    settings = Settings(data_dir=tmp_path, embedder="openai", background_embedding=False, aws=aws)
    endpoint.answer(embeddings_answer([3.0, 4.0]), embeddings_answer([3.0, 4.0]))
    engine = Engine.local(settings)
    engine.create_tenant("acme")
    retain = RetainRequest.model_validate({"scope": "user:a", "mode": "raw", "text": "I moved to Lisbon"})
    engine.retain("acme", retain)
    return settings, engine


def _where_do_i_live(engine: Any) -> list[str]:
    from engram.models import RecallRequest

    try:
        found = engine.recall(
            "acme", RecallRequest(query="where do I live?", scopes=["user:a"], min_score=0.0)
        )
    finally:
        engine.close()
    return [m.content for m in found.memories]


def test_the_embedded_default_embeds_through_the_provider_the_settings_name(
    endpoint: Any, tmp_path: Any
) -> None:
    # Given the local backend with ENGRAM_EMBEDDER=openai, a memory retained and a recall
    _, engine = _embedded_default_with_an_endpoint(endpoint, tmp_path)
    assert _where_do_i_live(engine) == ["I moved to Lisbon"]
    # Then the memory and the query were embedded by that endpoint, not by the bundled model
    assert [(r.path, r.body["input"]) for r in endpoint.requests] == [
        ("/v1/embeddings", ["I moved to Lisbon"]),
        ("/v1/embeddings", ["where do I live?"]),
    ]
    assert engine.deps.embedder.model_id == "bge-small@2"


def test_a_data_dir_of_one_model_refuses_a_process_that_embeds_with_another(
    endpoint: Any, tmp_path: Any
) -> None:
    from engram.engine import Engine
    from engram.errors import ConfigurationError
    from engram.settings import Settings

    # Given a data dir whose memory the endpoint's model embedded
    settings, engine = _embedded_default_with_an_endpoint(endpoint, tmp_path)
    engine.close()
    # When a process that embeds with the bundled model opens it, it refuses, naming both models
    with pytest.raises(
        ConfigurationError, match=r"embedded with 'bge-small@2' and this process embeds with 'all-MiniLM"
    ):
        Engine.local(Settings(data_dir=tmp_path, background_embedding=False))
    # And the memory is still there for the model it was made with
    assert _where_do_i_live(Engine.local(settings)) == ["I moved to Lisbon"]
