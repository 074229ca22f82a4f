"""POST /v1/recall: the memories that matter for a query."""

# No `from __future__ import annotations`: Powertools reads these annotations at run time.

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body

import engram.recall
from engram.models import RecallRequest, RecallResponse
from engram_http.runtime import deps, documented, entry_point, json_response, resolver, tenant

app = resolver()


@app.post("/v1/recall", responses=documented(RecallResponse, "the best memories, best first"))
def recall(request: Annotated[RecallRequest, Body()]) -> Response[str]:
    context = tenant(app)
    if not context.can_write:  # a read-only key's recall writes nothing, not even access counts
        request = request.model_copy(update={"track_access": False})
    result = deps().call(engram.recall.run, context, request)
    return json_response(result)


lambda_handler = entry_point(app)
