"""Unit tests for what ``engram_http.runtime.resolver`` gives every handler: traced routes and,
for the operator's handlers, one check of the operator credential before any route code runs."""

# No `from __future__ import annotations`: Powertools reads the routes' annotations at run time.

import json
from collections.abc import Callable
from typing import Annotated, Any

import pytest
from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body
from pydantic import BaseModel

from engram_http import runtime

OPERATOR = {"role": "operator"}
TENANT_KEY = {"tenant_id": "acme", "key_id": "key_1", "scopes": "*", "permission": "read-write"}


class Named(BaseModel):
    name: str


def event(method: str, path: str, authorizer: dict[str, str], body: Any = None) -> dict[str, Any]:
    """A REST API event as API Gateway sends it after the authorizer."""
    return {
        "httpMethod": method,
        "path": path,
        "resource": path,
        "headers": {"content-type": "application/json"},
        "multiValueHeaders": {},
        "queryStringParameters": None,
        "pathParameters": None,
        "body": None if body is None else json.dumps(body),
        "isBase64Encoded": False,
        "requestContext": {"stage": "$default", "path": path, "authorizer": authorizer},
    }


def operator_app(ran: list[str]) -> Any:
    app = runtime.resolver(operator=True)

    @app.post("/v1/admin/things")
    def create(request: Annotated[Named, Body()]) -> Response[str]:
        ran.append(request.name)
        return runtime.json_response({"name": request.name}, status=201)

    return app


def test_an_operator_resolver_answers_the_operator() -> None:
    ran: list[str] = []
    reply = operator_app(ran).resolve(event("POST", "/v1/admin/things", OPERATOR, {"name": "a"}), None)
    assert reply["statusCode"] == 201 and json.loads(reply["body"]) == {"name": "a"}
    assert ran == ["a"]


@pytest.mark.parametrize("authorizer", [TENANT_KEY, {}], ids=["tenant key", "no authorizer context"])
def test_an_operator_resolver_refuses_anyone_else_before_the_route_runs(authorizer: dict[str, str]) -> None:
    ran: list[str] = []
    reply = operator_app(ran).resolve(event("POST", "/v1/admin/things", authorizer, {"name": "a"}), None)
    assert reply["statusCode"] == 403
    assert json.loads(reply["body"]) == {
        "error": {"code": "forbidden", "message": "admin routes need the operator credential"}
    }
    assert ran == []


def test_an_invalid_request_is_named_before_the_credential_is_checked() -> None:
    reply = operator_app([]).resolve(event("POST", "/v1/admin/things", TENANT_KEY, {"nam": "a"}), None)
    assert reply["statusCode"] == 400  # a missing field; not the 403 of a tenant key
    assert "name" in [d["field"] for d in json.loads(reply["body"])["error"]["details"]]


def test_a_tenant_resolver_does_not_ask_for_the_operator() -> None:
    app = runtime.resolver()

    @app.get("/v1/things")
    def things() -> Response[str]:
        return runtime.json_response({"things": []})

    assert app.resolve(event("GET", "/v1/things", TENANT_KEY), None)["statusCode"] == 200


class RecordingTracer:
    """Stands in for Powertools' Tracer (X-Ray): records which functions it captured and calls them."""

    def __init__(self) -> None:
        self.captured: list[str] = []

    def capture_method(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def traced(*args: Any, **kwargs: Any) -> Any:
            self.captured.append(fn.__name__)
            return fn(*args, **kwargs)

        return traced


def test_every_route_runs_traced(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given tracing on (inside Lambda), with a tracer that records what it captures
    recording = RecordingTracer()
    monkeypatch.setattr(runtime.tracer, "get", lambda: recording)
    app = runtime.resolver()

    @app.get("/v1/things")
    def things() -> Response[str]:
        return runtime.json_response({"things": []})

    # When the route is called, then its code ran inside the tracer's capture
    assert app.resolve(event("GET", "/v1/things", TENANT_KEY), None)["statusCode"] == 200
    assert recording.captured == ["things"]
