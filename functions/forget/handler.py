"""POST /v1/forget: hard-delete by ids, by query or by filter, with a receipt."""

# No `from __future__ import annotations`: Powertools reads these annotations at run time.

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body

from engram.forget.service import forget as forget_service
from engram.models import ForgetRequest, ForgetResponse
from engram_http.runtime import count, deps, documented, entry_point, json_response, resolver, tenant

app = resolver()


@app.post("/v1/forget", responses=documented(ForgetResponse, "what was (or, with dry_run, would be) deleted"))
def forget(request: Annotated[ForgetRequest, Body()]) -> Response[str]:
    result = deps().call(forget_service, tenant(app, write=True), request)
    count("MemoriesForgotten", 0 if result.dry_run else len(result.deleted))
    return json_response(result)


lambda_handler = entry_point(app)
