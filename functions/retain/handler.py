"""POST /v1/memories: retain texts, a conversation or a batch of items."""

# No `from __future__ import annotations`: Powertools reads these annotations at run time.

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Header

import engram.retain
from engram.models import JobAccepted, RetainRequest, RetainResponse
from engram.retain.jobs import submit_retain
from engram_http.runtime import (
    count_extraction,
    deps,
    documented,
    entry_point,
    json_response,
    resolver,
    tenant,
)

app = resolver()


@app.post(
    "/v1/memories",
    responses={
        **documented(
            RetainResponse, "what happened to each memory", errors=(400, 401, 403, 409, 413, 422, 429)
        ),
        202: {
            "description": "accepted as a job (async, or smart mode): poll GET /v1/jobs/{id}",
            "content": {"application/json": {"model": JobAccepted}},
        },
    },
)
def retain(
    request: Annotated[RetainRequest, Body()],
    idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key")] = None,
) -> Response[str]:
    context = tenant(app, write=True)
    if idempotency_key:
        request = request.model_copy(update={"idempotency_key": idempotency_key})
    if request.runs_async:
        return json_response(deps().call(submit_retain, context, request), status=202)
    result = deps().call(engram.retain.run, context, request)
    count_extraction(result.extraction, result.fallback)
    return json_response(result)


lambda_handler = entry_point(app)
