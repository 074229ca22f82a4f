"""Embedding providers: Bedrock Titan Text Embeddings V2, any OpenAI-compatible ``/embeddings``
endpoint, and the bundled local model; chosen by ``settings.embedder``.

Every remote call has a per-attempt timeout, bounded attempts with full-jitter backoff and a
total deadline (below the Lambda timeout); what still fails is a ``ProviderError`` naming the
provider. Vectors are L2-normalised float32 and tagged: ``model_id`` is ``<model>@<dimension>``,
so a vector of another model or size is never mixed into an index (``OpenSearchIndex`` refuses
it). boto3 and httpx are imported only when such a provider is built.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from engram import deadline
from engram.embedding import inputs
from engram.errors import ProviderError, ValidationFailedError
from engram.ports import Embedder, Vector
from engram.settings import Settings

logger = logging.getLogger(__name__)

T = TypeVar("T")
TITAN_V2 = "amazon.titan-embed-text-v2:0"
TITAN_DIMENSIONS = (256, 512, 1024)
RETRYABLE_AWS = frozenset(
    {
        "ThrottlingException",
        "TooManyRequestsException",
        "ServiceUnavailableException",
        "ModelNotReadyException",
        "InternalServerException",
        "ModelTimeoutException",
    }
)


def tag(model: str, dimension: int) -> str:
    """The model id a vector is stored with.

    >>> tag("amazon.titan-embed-text-v2:0", 512)
    'amazon.titan-embed-text-v2:0@512'
    """
    return f"{model}@{dimension}"


def _normalised(rows: Sequence[Sequence[float]], dimension: int, provider: str) -> Vector:
    matrix = np.asarray(rows, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[1] != dimension:
        raise ProviderError(f"{provider} returned vectors of shape {matrix.shape}, expected (n, {dimension})")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if not np.all(norms > 0):
        raise ProviderError(f"{provider} returned a zero vector")
    unit: Vector = (matrix / norms).astype(np.float32)
    return unit


def _full_jitter(high: float) -> float:
    return random.uniform(0, high)


@dataclass(frozen=True, kw_only=True)
class Retrier:
    """Bounded attempts with full jitter (``uniform(0, min(cap, base * 2**n))``) within a deadline."""

    attempts: int = 5
    base_s: float = 0.1
    cap_s: float = 2.0
    deadline_s: float = 20.0
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    jitter: Callable[[float], float] = _full_jitter

    def run(self, call: Callable[[], T], retryable: Callable[[BaseException], float | None], what: str) -> T:
        """``call()``; ``retryable(exc)`` gives the least wait before another attempt, or None if
        the error is final. Raises ``ProviderError`` once attempts or the deadline run out."""
        started = self.clock()
        budget = deadline.left(self.deadline_s)  # never past the invocation's own end
        for attempt in range(self.attempts):
            try:
                return call()
            except ProviderError:
                raise
            except Exception as exc:
                least = retryable(exc)
                if least is None:
                    raise ProviderError(f"{what} failed: {exc}") from exc
                wait = max(least, self.jitter(min(self.cap_s, self.base_s * 2**attempt)))
                left = budget - (self.clock() - started)
                if attempt == self.attempts - 1 or wait >= left:
                    raise ProviderError(
                        f"{what} still failing after {attempt + 1} attempts "
                        f"({self.clock() - started:.1f} s): {exc}"
                    ) from exc
                logger.warning("%s failed (attempt %d), retrying in %.2f s", what, attempt + 1, wait)
                self.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover


def bedrock_client(region: str | None, *, timeout_s: float = 5.0) -> Any:
    """bedrock-runtime with botocore's standard retry mode held to one attempt: ``Retrier``
    owns the retries so that they stay within the deadline (botocore's, without boto3)."""
    from botocore.config import Config

    from engram.adapters import aws_session

    config = Config(
        retries={"mode": "standard", "total_max_attempts": 1},
        connect_timeout=2,
        read_timeout=timeout_s,
        max_pool_connections=16,
    )
    return aws_session.client("bedrock-runtime", region_name=region, config=config)


class _RemoteEmbedder:
    """What a remote embedder keeps: its model, the size and tag of its vectors, its retries."""

    def __init__(self, model: str, dimension: int, retrier: Retrier | None) -> None:
        self.model = model
        self.dimension = dimension
        self.model_id = tag(model, dimension)
        self.retrier = retrier or Retrier()


class BedrockTitanEmbedder(_RemoteEmbedder):
    """Titan Text Embeddings V2 through ``InvokeModel`` (one text per call, a few in parallel)."""

    def __init__(
        self,
        client: Any,
        *,
        model: str = TITAN_V2,
        dimension: int = 1024,
        retrier: Retrier | None = None,
        parallel: int = 4,
    ) -> None:
        if dimension not in TITAN_DIMENSIONS:
            raise ValidationFailedError(f"Titan V2 dimensions are {TITAN_DIMENSIONS}, not {dimension}")
        super().__init__(model, dimension, retrier)
        self.client = client
        self.parallel = parallel

    @staticmethod
    def _retryable(exc: BaseException) -> float | None:
        response = getattr(exc, "response", None)
        if isinstance(response, dict):
            code = str(response.get("Error", {}).get("Code", ""))
            return 0.0 if code in RETRYABLE_AWS else None
        name = type(exc).__name__
        return 0.0 if name in ("ReadTimeoutError", "ConnectTimeoutError", "EndpointConnectionError") else None

    def _one(self, text: str) -> list[float]:
        text, _ = inputs.fit(text, self.model)  # the model refuses more than 8,192 tokens
        body = json.dumps({"inputText": text, "dimensions": self.dimension, "normalize": True})

        def call() -> list[float]:
            response = self.client.invoke_model(
                modelId=self.model, body=body, contentType="application/json", accept="application/json"
            )
            payload = json.loads(response["body"].read())
            return list(payload["embedding"])

        return self.retrier.run(call, self._retryable, "Bedrock embeddings")

    def embed(self, texts: Sequence[str]) -> Vector:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if len(texts) == 1:
            rows = [self._one(texts[0])]
        else:
            with ThreadPoolExecutor(max_workers=min(self.parallel, len(texts))) as pool:
                rows = list(pool.map(deadline.propagate(self._one), texts))
        return _normalised(rows, self.dimension, "Bedrock")


class OpenAIEmbedder(_RemoteEmbedder):
    """Any OpenAI-compatible ``POST {base_url}/embeddings`` (OpenAI, vLLM, Ollama, TEI…)."""

    def __init__(
        self,
        base_url: str,
        *,
        model: str,
        dimension: int,
        api_key: str | None = None,
        timeout_s: float = 5.0,
        retrier: Retrier | None = None,
        send_dimensions: bool = True,
        transport: Any = None,
    ) -> None:
        import httpx

        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.http = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=min(2.0, timeout_s)),
            transport=transport,
        )
        super().__init__(model, dimension, retrier)
        self.send_dimensions = send_dimensions

    @staticmethod
    def _retryable(exc: BaseException) -> float | None:
        import httpx

        if isinstance(exc, httpx.TimeoutException | httpx.TransportError):
            return 0.0
        if isinstance(exc, httpx.HTTPStatusError):
            status = exc.response.status_code
            if status == 429 or status >= 500:
                after = exc.response.headers.get("Retry-After", "")
                return min(float(after), 10.0) if after.replace(".", "", 1).isdigit() else 0.0
        return None

    def embed(self, texts: Sequence[str]) -> Vector:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        body: dict[str, Any] = {"model": self.model, "input": list(texts), "encoding_format": "float"}
        if self.send_dimensions:
            body["dimensions"] = self.dimension

        def call() -> list[list[float]]:
            response = self.http.post("/embeddings", json=body)
            response.raise_for_status()
            data = sorted(response.json()["data"], key=lambda d: int(d["index"]))
            if len(data) != len(texts):
                raise ProviderError(
                    f"the embeddings endpoint returned {len(data)} vectors for {len(texts)} texts"
                )
            return [list(d["embedding"]) for d in data]

        return _normalised(
            self.retrier.run(call, self._retryable, "OpenAI-compatible embeddings"),
            self.dimension,
            "the embeddings endpoint",
        )


class FallbackEmbedder:
    """The primary embedder, or the fallback when the primary fails.

    Both must produce the same vectors' kind (same ``model_id``, so the same model and size,
    e.g. one open model behind two endpoints, or Titan in two regions): an index never mixes
    models, so a fallback of another model would only produce vectors nobody can search.
    """

    def __init__(self, primary: Embedder, fallback: Embedder) -> None:
        if primary.model_id != fallback.model_id or primary.dimension != fallback.dimension:
            raise ValidationFailedError(
                f"a fallback embedder must serve the same model: '{primary.model_id}' vs '{fallback.model_id}'"
            )
        self.primary = primary
        self.fallback = fallback
        self.model_id = primary.model_id
        self.dimension = primary.dimension

    def embed(self, texts: Sequence[str]) -> Vector:
        try:
            return self.primary.embed(texts)
        except ProviderError:
            logger.warning("primary embedder failed; using the fallback", exc_info=True)
            return self.fallback.embed(texts)


def embedding_spec(settings: Settings) -> tuple[str, int]:
    """(model id, dimension) the configured embedder produces, without loading or calling it."""
    aws = settings.aws
    if settings.embedder == "bedrock":
        return tag(aws.bedrock_model, aws.embedding_dimensions), aws.embedding_dimensions
    if settings.embedder == "openai":
        return tag(aws.openai_model, aws.embedding_dimensions), aws.embedding_dimensions
    from engram.adapters.local_embedder import DIMENSION, MODEL_ID

    return MODEL_ID, DIMENSION


def _build(kind: str, settings: Settings) -> Embedder:
    aws = settings.aws
    retrier = Retrier(deadline_s=aws.provider_deadline_s)
    if kind == "bedrock":
        return BedrockTitanEmbedder(
            bedrock_client(aws.region, timeout_s=aws.provider_timeout_s),
            model=aws.bedrock_model,
            dimension=aws.embedding_dimensions,
            retrier=retrier,
        )
    if kind == "openai":
        if not aws.openai_base_url:
            raise ValidationFailedError("ENGRAM_OPENAI_BASE_URL is required for the openai embedder")
        return OpenAIEmbedder(
            aws.openai_base_url,
            model=aws.openai_model,
            dimension=aws.embedding_dimensions,
            api_key=aws.openai_api_key.get_secret_value() if aws.openai_api_key else None,
            timeout_s=aws.provider_timeout_s,
            retrier=retrier,
        )
    from engram.adapters.local_embedder import shared_embedder

    return shared_embedder()


def build_embedder(settings: Settings) -> Embedder:
    """The configured embedder (with its fallback, if one is configured)."""
    primary = _build(settings.embedder, settings)
    fallback = settings.aws.fallback_embedder
    if fallback is None or fallback == settings.embedder:
        return primary
    return FallbackEmbedder(primary, _build(fallback, settings))
