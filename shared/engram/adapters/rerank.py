"""Cross-encoder rerankers (DESIGN §6.3): a Jina/TEI-compatible ``POST /rerank`` and Bedrock's
``Rerank`` (Amazon Rerank, Cohere Rerank). Both answer one relevance score in [0, 1] per
document, in the documents' order, and raise ``ProviderError`` on any failure; recall keeps the
fused order then. httpx and boto3 are imported on first use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engram.errors import ProviderError

if TYPE_CHECKING:
    import httpx


def _clamped(score: Any) -> float:
    value = float(score)
    if value != value:  # NaN
        raise ProviderError("rerank answer has a score that is not a number")
    return min(1.0, max(0.0, value))


def scores_in_order(results: Any, count: int, *, score_key: str) -> list[float]:
    """Scores from ``[{"index": i, <score_key>: s}, ...]`` (any order) back in document order.

    >>> scores_in_order([{"index": 1, "score": 0.9}, {"index": 0, "score": 0.2}], 2, score_key="score")
    [0.2, 0.9]
    """
    scores: list[float | None] = [None] * count
    try:
        for item in results:
            index = int(item["index"])
            if not 0 <= index < count:
                raise ProviderError(f"rerank answer names document {index} of {count}")
            scores[index] = _clamped(item[score_key])
    except (KeyError, TypeError, ValueError) as exc:
        raise ProviderError("rerank answer is not a list of index and score") from exc
    if any(s is None for s in scores):
        raise ProviderError("rerank answer leaves some documents unscored")
    return [s for s in scores if s is not None]


class TeiReranker:
    """``Reranker`` over an HTTP endpoint speaking text-embeddings-inference's or Jina's rerank API.

    The body carries both spellings of the documents (TEI's ``texts``, Jina's ``documents``);
    the answer may be TEI's list ``[{"index", "score"}]`` or Jina's and Cohere's
    ``{"results": [{"index", "relevance_score"}]}``.

    >>> TeiReranker("http://localhost:8080/rerank").model_id
    'tei'
    """

    provider = "tei"

    def __init__(
        self,
        url: str,
        *,
        model: str | None = None,
        api_key: Callable[[], str | None] | str | None = None,
        timeout_s: float = 2.0,
        client: httpx.Client | None = None,
    ) -> None:
        self.url = url
        self.model = model
        self.model_id = model or "tei"
        self._api_key = api_key
        self.timeout_s = timeout_s
        if client is None:
            import httpx

            # Made now, not on the first recall: building it (its TLS context) takes longer
            # than a rerank's time budget.
            client = httpx.Client()
        self._client = client

    def request_body(self, query: str, documents: Sequence[str]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "query": query,
            "texts": list(documents),
            "documents": list(documents),
            "truncate": True,
            "return_text": False,
        }
        if self.model:
            body["model"] = self.model
        return body

    def rerank(self, query: str, documents: Sequence[str]) -> list[float]:
        if not documents:
            return []
        import httpx

        key = self._api_key() if callable(self._api_key) else self._api_key
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        try:
            response = self._client.post(
                self.url, json=self.request_body(query, documents), headers=headers, timeout=self.timeout_s
            )
        except httpx.TimeoutException as exc:
            raise ProviderError("rerank request timed out") from exc
        except httpx.TransportError as exc:
            raise ProviderError(f"rerank request failed: {type(exc).__name__}") from exc
        if response.status_code != 200:
            raise ProviderError(f"rerank request rejected: HTTP {response.status_code}")
        try:
            payload = response.json()
        except ValueError as exc:
            raise ProviderError("rerank answer is not JSON") from exc
        if isinstance(payload, dict) and "results" in payload:
            return scores_in_order(payload["results"], len(documents), score_key="relevance_score")
        return scores_in_order(payload, len(documents), score_key="score")


class BedrockReranker:
    """``Reranker`` over ``bedrock-agent-runtime`` ``rerank`` with inline text documents.

    ``model`` is a model id (``amazon.rerank-v1:0``) or a model ARN; an id becomes the ARN of that
    foundation model in ``region``.
    """

    provider = "bedrock"

    def __init__(
        self,
        model: str,
        *,
        region: str | None = None,
        timeout_s: float = 2.0,
        client: Any | None = None,
    ) -> None:
        self.model_id = model
        self.region = region
        self.timeout_s = timeout_s
        self._client = client
        self._lock = threading.Lock()

    def _bedrock(self) -> Any:
        with self._lock:  # one client, however many recalls ask at once
            if self._client is None:
                import boto3
                from botocore.config import Config

                config = Config(
                    retries={"mode": "standard", "max_attempts": 2},
                    connect_timeout=self.timeout_s,
                    read_timeout=self.timeout_s,
                )
                self._client = boto3.client("bedrock-agent-runtime", region_name=self.region, config=config)
            return self._client

    def model_arn(self) -> str:
        if self.model_id.startswith("arn:"):
            return self.model_id
        region = self.region or self._bedrock().meta.region_name
        return f"arn:aws:bedrock:{region}::foundation-model/{self.model_id}"

    def request(self, query: str, documents: Sequence[str]) -> dict[str, Any]:
        """The keyword arguments of one ``rerank`` call."""
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
                    "modelConfiguration": {"modelArn": self.model_arn()},
                },
            },
        }

    def rerank(self, query: str, documents: Sequence[str]) -> list[float]:
        if not documents:
            return []
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            answer = self._bedrock().rerank(**self.request(query, documents))
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "error")
            raise ProviderError(f"Bedrock rerank failed: {code}") from exc
        except BotoCoreError as exc:
            raise ProviderError(f"Bedrock rerank failed: {type(exc).__name__}") from exc
        return scores_in_order(answer.get("results"), len(documents), score_key="relevanceScore")
