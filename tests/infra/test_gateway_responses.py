"""What API Gateway answers by itself (a 4xx or 5xx no function wrote: a timeout, a failed invoke, a
body over its limit) is Engram's envelope too, with the request id to quote."""

from __future__ import annotations

import json

import pytest
from infra_support import Synth


def _responses(synth: Synth) -> dict[str, dict[str, object]]:
    return {
        r["Properties"]["ResponseType"]: r["Properties"]
        for r in synth.resources("AWS::ApiGateway::GatewayResponse").values()
    }


def _render(template: str, message: str = "Internal server error") -> object:
    """The template as API Gateway fills it ($context.error.messageString comes quoted)."""
    return json.loads(
        template.replace("$context.error.messageString", json.dumps(message)).replace(
            "$context.requestId", "req-1"
        )
    )


@pytest.mark.parametrize(
    ("kind", "code"), [("DEFAULT_4XX", "invalid_request"), ("DEFAULT_5XX", "internal_error")]
)
def test_the_default_responses_are_the_envelope_with_the_request_id(
    synth: Synth, kind: str, code: str
) -> None:
    response = _responses(synth)[kind]
    body = _render(str(response["ResponseTemplates"]["application/json"]))  # type: ignore[index]
    assert body == {"error": {"code": code, "message": "Internal server error", "request_id": "req-1"}}
    assert "StatusCode" not in response  # each keeps the status API Gateway chose


def test_a_timeout_and_a_body_over_the_limit_are_named(synth: Synth) -> None:
    responses = _responses(synth)
    timeout = _render(str(responses["INTEGRATION_TIMEOUT"]["ResponseTemplates"]["application/json"]))  # type: ignore[index]
    assert responses["INTEGRATION_TIMEOUT"]["StatusCode"] == "504"
    assert timeout == {
        "error": {
            "code": "timeout",
            "message": "the request took longer than API Gateway's 29 s",
            "request_id": "req-1",
        }
    }
    assert responses["REQUEST_TOO_LARGE"]["StatusCode"] == "413"
