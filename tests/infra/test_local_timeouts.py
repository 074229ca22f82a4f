"""``engram serve`` ends each request at its function's timeout, the one the stack deploys."""

from __future__ import annotations

from engram_infra.functions import API_FUNCTIONS

from engram_http.routes import FUNCTIONS, timeout_s


def test_the_local_gateway_enforces_the_timeout_each_deployed_function_has() -> None:
    # Given the HTTP functions the stack deploys
    deployed = {spec.folder: spec.timeout_s for spec in API_FUNCTIONS}
    # Then the local gateway uses the same timeout for each (and knows every route's function)
    assert {name: timeout_s(name) for name in deployed} == deployed
    assert set(FUNCTIONS) - {"webhooks"} <= set(deployed)
