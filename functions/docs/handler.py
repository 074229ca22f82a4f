"""GET /v1/openapi.json, /v1/docs (Swagger UI, offline), /v1/health and the memory inspector (/ui/)."""

# No `from __future__ import annotations`: Powertools reads these annotations at run time.

import json
import sys
from functools import lru_cache
from typing import Any

from aws_lambda_powertools.event_handler import Response

import engram
from engram.models import HealthResponse
from engram_http import assets
from engram_http.runtime import JSON, entry_point, error_body, json_response, resolver

app = resolver()
TITLE = "Engram"
DESCRIPTION = "Long-term memory for AI agents: retain, recall, forget, feedback."


@lru_cache(maxsize=1)
def openapi_document() -> str:
    """The whole API's OpenAPI 3.1 document, merged from every handler's own resolver."""
    from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge
    from aws_lambda_powertools.event_handler.openapi.models import APIKey, APIKeyIn, HTTPBearer

    from engram.events.changes import webhooks_openapi
    from engram_http.loader import load_handler
    from engram_http.routes import FUNCTIONS, ROUTES, TAGS

    merge = OpenAPIMerge(
        title=TITLE,
        version=engram.__version__,
        description=DESCRIPTION,
        on_conflict="error",
        security_schemes={
            "bearer": HTTPBearer(description="Authorization: Bearer <api key>"),
            "apiKey": APIKey(name="x-api-key", **{"in": APIKeyIn.header}),
        },
        security=[{"bearer": []}, {"apiKey": []}],
    )
    extra: dict[tuple[str, str], dict[str, Any]] = {}
    for function in FUNCTIONS:
        module = sys.modules[__name__] if function == "docs" else load_handler(function)
        schema = module.app.get_openapi_schema(title=TITLE, version=engram.__version__)
        merge.add_schema(schema.model_dump(mode="json", by_alias=True, exclude_none=True))
        extra.update(getattr(module, "OPENAPI_EXTRA", {}))
    document = json.loads(merge.get_openapi_json_schema())
    document["tags"] = [{"name": name, "description": text} for name, text in TAGS]
    document["webhooks"], events = (
        webhooks_openapi()
    )  # the event schemas (webhook bodies, EventBridge detail)
    document.setdefault("components", {}).setdefault("schemas", {}).update(events)
    for route in ROUTES:
        operation = document["paths"].get(route.path, {}).get(route.method.lower())
        if operation is None:
            continue
        operation.update(tags=[route.tag], summary=route.summary)
        if route.auth == "none":
            operation["security"] = []  # public: no key needed, no lock in Swagger UI
            # Powertools' default 422 (its own error shape) is not what this route can answer.
            operation["responses"].pop("422", None)
        operation.update(extra.get((route.method, route.path), {}))
    schemas = document.get("components", {}).get("schemas", {})
    if "HTTPValidationError" in schemas and '"#/components/schemas/HTTPValidationError"' not in json.dumps(
        document["paths"]
    ):
        schemas.pop("HTTPValidationError")
        schemas.pop("ValidationError", None)
    return json.dumps(document)


@app.get("/v1/openapi.json", include_in_schema=False)
def openapi() -> Response[str]:
    return Response(200, JSON, openapi_document())


@app.get("/v1/docs", include_in_schema=False)
def docs() -> Response[str]:
    if app.current_event.get_query_string_value("format") == "json":  # Swagger UI's own link to the spec
        return openapi()
    from aws_lambda_powertools.event_handler.openapi import swagger_ui
    from aws_lambda_powertools.event_handler.openapi.swagger_ui import generate_swagger_html

    folder = swagger_ui.__path__[0]
    with (
        open(f"{folder}/swagger-ui-bundle.min.js", encoding="utf-8") as js,
        open(f"{folder}/swagger-ui.min.css", encoding="utf-8") as css,
    ):
        html = generate_swagger_html(
            openapi_document().replace("</", "<\\/"), js.read(), css.read(), "", None, False
        )
    return Response(200, "text/html; charset=utf-8", html, headers=assets.inline_page_headers(html))


@app.get(
    "/v1/health", responses={200: {"description": "alive", "content": {JSON: {"model": HealthResponse}}}}
)
def health() -> Response[str]:
    return json_response(HealthResponse(status="ok", version=engram.__version__))


@app.get("/ui", include_in_schema=False)  # Powertools matches "/ui/" here too
def inspector() -> Response[str]:
    """The inspector's page; relative links keep it working under a stage prefix (``/prod/ui/``)."""
    location = assets.INDEX if app.current_event.path.endswith("/") else f"ui/{assets.INDEX}"
    return Response(302, "text/plain", "", headers={"Location": location, **assets.HEADERS})


@app.get("/ui/<name>", include_in_schema=False)
def inspector_file(name: str) -> Response[str]:
    found = assets.asset(name)
    if found is None:
        return Response(404, JSON, error_body("not_found", f"no inspector file '{name}'"))
    content_type, text = found
    return Response(200, content_type, text, headers=dict(assets.HEADERS))


lambda_handler = entry_point(app)
