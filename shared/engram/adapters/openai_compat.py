"""OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, LM Studio...) with structured output.

One ``complete_json`` call is one ``POST {base_url}/chat/completions`` carrying
``response_format = {"type": "json_schema", "json_schema": {"name": NAME, "schema": SCHEMA}}``
(DESIGN §5), retried on timeouts, connection errors, 429 and 5xx with capped exponential backoff
and full jitter, within a total deadline. httpx is imported on first use.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engram import deadline
from engram.errors import ConfigurationError, ProviderError
from engram.ports import LlmAnswer
from engram.settings import LlmSettings

if TYPE_CHECKING:
    import httpx

logger = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
MAX_BACKOFF_S = 8.0


def backoff(attempt: int, base: float, rng: random.Random, cap: float = MAX_BACKOFF_S) -> float:
    """Full jitter: uniform in [0, min(cap, base·2^attempt)] (AWS Architecture Blog, 2015).

    >>> 0.0 <= backoff(3, 0.5, random.Random(1)) <= 4.0
    True
    """
    return rng.uniform(0.0, min(cap, base * (2**attempt)))


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


class OpenAICompatLLM:
    """``LLM`` over an OpenAI-compatible ``/chat/completions`` endpoint.

    >>> llm = OpenAICompatLLM(LlmSettings(provider="openai", base_url="http://localhost:11434/v1", model="llama3.1"))
    >>> llm.model_id, llm.url
    ('llama3.1', 'http://localhost:11434/v1/chat/completions')
    """

    provider = "openai"

    def __init__(
        self,
        settings: LlmSettings,
        *,
        api_key: Callable[[], str | None] | str | None = None,
        client: httpx.Client | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """``settings``: the endpoint, the model and each call's bounds; ``api_key`` (the key, or
        what reads it on first use) stands in for ``settings.api_key``."""
        if not settings.base_url or not settings.model:
            raise ConfigurationError("the openai provider needs ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL")
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self.model_id = settings.model
        given = settings.api_key.get_secret_value() if settings.api_key else None
        self._api_key = given if api_key is None else api_key
        self._client = client
        self._rng = rng or random.Random()

    def _http(self) -> httpx.Client:
        if self._client is None:
            import httpx

            self._client = httpx.Client()
        return self._client

    def _headers(self) -> dict[str, str]:
        key = self._api_key() if callable(self._api_key) else self._api_key
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def request_body(self, *, system: str, user: str, name: str, schema: dict[str, Any]) -> dict[str, Any]:
        """The JSON body of one call (the conversation is in ``user``, fenced as data)."""
        return {
            "model": self.model_id,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "response_format": {"type": "json_schema", "json_schema": {"name": name, "schema": schema}},
            "temperature": 0,
            "max_tokens": self.settings.max_output_tokens,
        }

    def complete_json(self, *, system: str, user: str, name: str, schema: dict[str, Any]) -> LlmAnswer:
        import httpx

        body = self.request_body(system=system, user=user, name=name, schema=schema)
        headers = self._headers()
        started = time.monotonic()
        budget = deadline.left(self.settings.deadline_s)  # never past the invocation's own end
        last: str = "no attempt made"
        for attempt in range(self.settings.max_attempts):
            remaining = budget - (time.monotonic() - started)
            if remaining <= 0:
                break
            try:
                response = self._http().post(
                    self.url, json=body, headers=headers, timeout=min(self.settings.timeout_s, remaining)
                )
            except httpx.TimeoutException:
                last, wait = "timed out", None
            except httpx.TransportError as exc:
                last, wait = f"connection failed: {type(exc).__name__}", None
            else:
                if response.status_code == 200:
                    return self._answer(response)
                last = f"HTTP {response.status_code}"
                if response.status_code not in RETRYABLE_STATUS:
                    raise ProviderError(f"LLM request rejected: {last}")
                wait = _retry_after(response)
            if attempt + 1 < self.settings.max_attempts:
                pause = backoff(attempt, self.settings.backoff_s, self._rng) if wait is None else wait
                remaining = budget - (time.monotonic() - started)
                if pause >= remaining:
                    break
                logger.warning("LLM attempt failed; retrying", extra={"reason": last, "attempt": attempt + 1})
                time.sleep(pause)
        elapsed = time.monotonic() - started
        raise ProviderError(f"LLM call failed after {elapsed:.1f}s: {last}")

    def _answer(self, response: httpx.Response) -> LlmAnswer:
        """The JSON object in the first choice's message; ``ProviderError`` if there is none."""
        try:
            payload = response.json()
            choice = payload["choices"][0]
            content = choice["message"].get("content")
            usage = payload.get("usage") or {}
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ProviderError("LLM answer is not a chat completion") from exc
        if choice.get("finish_reason") == "length":
            raise ProviderError("LLM answer was cut off at the token limit")
        if not isinstance(content, str):
            raise ProviderError("LLM answer has no content (refused?)")
        try:
            data = json.loads(content)
        except ValueError as exc:
            raise ProviderError("LLM answer is not JSON") from exc
        if not isinstance(data, dict):
            raise ProviderError("LLM answer is not a JSON object")
        return LlmAnswer(
            data=data,
            input_tokens=int(usage.get("prompt_tokens") or 0),
            output_tokens=int(usage.get("completion_tokens") or 0),
        )
