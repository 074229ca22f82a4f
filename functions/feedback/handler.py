"""POST /v1/memories/{id}/feedback: whether a recalled memory helped."""

# No `from __future__ import annotations`: Powertools reads these annotations at run time.

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body

from engram.memories.service import feedback as feedback_service
from engram.models import FeedbackRequest, FeedbackResponse
from engram_http.runtime import MemoryIdPath, deps, documented, entry_point, json_response, resolver, tenant

app = resolver()


@app.post("/v1/memories/<id>/feedback", responses=documented(FeedbackResponse, "the new feedback weight"))
def feedback(id: MemoryIdPath, request: Annotated[FeedbackRequest, Body()]) -> Response[str]:
    return json_response(deps().call(feedback_service, tenant(app, write=True), id, request))


lambda_handler = entry_point(app)
