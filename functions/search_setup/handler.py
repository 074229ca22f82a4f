"""CloudFormation custom resource (CDK provider framework): the search index, ready before traffic.

On Create and Update it puts the index template (``knn_vector`` mapping, shards and replicas for
the cluster's size), creates the index if missing and puts the hybrid search pipeline when one is
configured: ``OpenSearchIndex.ensure``, which is idempotent. On a managed domain it also puts the
fine-grained access control roles and maps the functions' IAM roles to them (this function's role
is the domain's master user). Delete leaves the index alone: it is derived data, rebuilt from
DynamoDB by ``engram reindex``, and the domain's own removal policy decides its fate.

A new domain may refuse requests for a moment after CloudFormation reports it created: every
step is retried until the invocation's time runs out, then the deploy fails with the last error.
"""

from __future__ import annotations

import os
import time
from typing import Any

from engram import deadline
from engram.errors import ProviderError
from engram_http.runtime import invocation_budget, logger

RETRY_PAUSE_S = 5.0


def _index() -> Any:
    from engram.app import build_search_index
    from engram.settings import Settings

    return build_search_index(Settings.from_env(os.environ))


def _roles(properties: dict[str, Any]) -> dict[str, list[str]]:
    return {name: [str(a) for a in properties.get(name) or []] for name in ("Readers", "Writers", "Admins")}


def setup(properties: dict[str, Any]) -> dict[str, Any]:
    """Ensure the index (and the access roles when ``Admins`` are given); retried while time is left."""
    index = _index()
    roles = _roles(properties)
    while True:
        try:
            index.ensure()
            if roles["Admins"]:
                index.map_roles(readers=roles["Readers"], writers=roles["Writers"], admins=roles["Admins"])
            return {"Index": index.index, "Dimension": index.dimension}
        except ProviderError as exc:
            status = getattr(exc.__cause__, "status_code", None)
            refused = isinstance(status, int) and status < 500 and status != 429  # not a matter of time
            if refused or deadline.left(RETRY_PAUSE_S * 2) < RETRY_PAUSE_S * 2:
                raise
            logger.warning("the search domain is not ready yet; retrying", error=str(exc))
            time.sleep(RETRY_PAUSE_S)


@logger.inject_lambda_context(clear_state=True)
def on_event(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """The provider framework's onEvent: ``{"PhysicalResourceId", "Data"}``."""
    request = event["RequestType"]
    physical = (
        event.get("PhysicalResourceId") or f"engram-search-index-{os.environ.get('ENGRAM_STAGE', 'dev')}"
    )
    if request == "Delete":
        return {"PhysicalResourceId": physical}
    with invocation_budget(context, margin_s=10.0):
        data = setup(dict(event.get("ResourceProperties") or {}))
    logger.info("search index ready", request=request, **data)
    return {"PhysicalResourceId": physical, "Data": data}
