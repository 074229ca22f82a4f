"""Bedrock Converse with the answer's JSON schema as the one tool the model must call (DESIGN §5).

botocore retries throttling and transient errors in ``standard`` mode (bounded attempts with
jitter); each attempt's timeouts are capped at its share of the call's deadline.
boto3 is imported on first use.
"""

from __future__ import annotations

from typing import Any

from engram import deadline
from engram.errors import ConfigurationError, ProviderError
from engram.ports import LlmAnswer
from engram.settings import LlmSettings

MIN_CALL_S = 1.0
"""Below this much time left, a model call is not started (retain falls back to its rules)."""


class BedrockLLM:
    """``LLM`` over ``bedrock-runtime`` ``converse`` with forced tool use."""

    provider = "bedrock"

    def __init__(self, settings: LlmSettings, *, client: Any | None = None) -> None:
        """``settings``: the model, its region and each call's bounds; ``client``: a
        bedrock-runtime client to use as it is (default: one made to fit the deadline)."""
        if not settings.model:
            raise ConfigurationError("the bedrock provider needs ENGRAM_LLM_MODEL")
        self.settings = settings
        self.model_id = settings.model
        self._client = client
        self._injected = client is not None

    def _bedrock(self) -> Any:
        """The client whose attempts fit the deadline, or the invocation's time left if shorter
        (such a client is made for that call: timeouts are fixed when a botocore client is made)."""
        budget = deadline.left(self.settings.deadline_s)
        if self._client is not None and (self._injected or budget >= self.settings.deadline_s):
            return self._client
        if budget < MIN_CALL_S:
            raise ProviderError(f"no time left for a Bedrock call ({budget:.1f} s)")
        import boto3
        from botocore.config import Config

        # Every attempt fits its share of the deadline, so all of them together stay within it.
        share = budget / self.settings.max_attempts
        config = Config(
            retries={"mode": "standard", "max_attempts": self.settings.max_attempts},
            connect_timeout=min(5.0, share),
            read_timeout=min(self.settings.timeout_s, share),
        )
        client = boto3.client("bedrock-runtime", region_name=self.settings.region, config=config)
        if budget >= self.settings.deadline_s:
            self._client = client
        return client

    def request(self, *, system: str, user: str, name: str, schema: dict[str, Any]) -> dict[str, Any]:
        """The keyword arguments of one ``converse`` call."""
        return {
            "modelId": self.model_id,
            "system": [{"text": system}],
            "messages": [{"role": "user", "content": [{"text": user}]}],
            "toolConfig": {
                "tools": [
                    {
                        "toolSpec": {
                            "name": name,
                            "description": f"Record the answer as {name}.",
                            "inputSchema": {"json": schema},
                        }
                    }
                ],
                "toolChoice": {"tool": {"name": name}},
            },
            "inferenceConfig": {"maxTokens": self.settings.max_output_tokens, "temperature": 0.0},
        }

    def complete_json(self, *, system: str, user: str, name: str, schema: dict[str, Any]) -> LlmAnswer:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            response = self._bedrock().converse(
                **self.request(system=system, user=user, name=name, schema=schema)
            )
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "ClientError")
            raise ProviderError(f"Bedrock converse failed: {code}") from exc
        except BotoCoreError as exc:
            raise ProviderError(f"Bedrock converse failed: {type(exc).__name__}") from exc
        blocks = response.get("output", {}).get("message", {}).get("content", [])
        uses = [b["toolUse"] for b in blocks if "toolUse" in b and b["toolUse"].get("name") == name]
        if not uses or not isinstance(uses[0].get("input"), dict):
            raise ProviderError(f"Bedrock answer has no {name} tool call")
        usage = response.get("usage") or {}
        return LlmAnswer(
            data=uses[0]["input"],
            input_tokens=int(usage.get("inputTokens") or 0),
            output_tokens=int(usage.get("outputTokens") or 0),
        )
