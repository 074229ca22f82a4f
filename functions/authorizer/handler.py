"""The REQUEST authorizer: an API key (or the operator token) -> who is calling, for every route.

The policy allows every route of the stage, so API Gateway's authorizer cache (keyed on the key
header) can never answer 403 for another route; what a caller may do is decided by the handlers
from the context returned here. Any bad key raises "Unauthorized", which API Gateway turns into
one fixed 401 body, whatever was wrong with the key.
"""

# No `from __future__ import annotations`: Powertools reads these annotations at run time.

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.auth.keys import authenticate, usage_identifier
from engram.errors import UnauthorizedError
from engram_http.headers import extract_key
from engram_http.runtime import deps, logger


def _policy(principal: str, method_arn: str, context: dict[str, str]) -> dict[str, Any]:
    region_account_api, stage = method_arn.split("/")[:2]
    return {
        "principalId": principal,
        "policyDocument": {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Action": "execute-api:Invoke",
                    "Effect": "Allow",
                    "Resource": f"{region_account_api}/{stage}/*/*",
                }
            ],
        },
        "context": context,
    }


@logger.inject_lambda_context(clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    presented = extract_key(event.get("headers") or {})
    try:
        who = deps().call(authenticate, presented)
    except UnauthorizedError:
        logger.info("unauthorized request")
        raise Exception("Unauthorized") from None
    if who == "operator":
        return _policy("operator", event["methodArn"], {"role": "operator"})
    policy = _policy(
        who.key_id,
        event["methodArn"],
        {
            "role": "tenant",
            "tenant_id": who.tenant_id,
            "key_id": who.key_id,
            "scopes": who.scopes.encode(),
            "permission": "read-write" if who.can_write else "read",
        },
    )
    # The usage plan of the tenant throttles this caller (the API Gateway key of this stage's tenant).
    policy["usageIdentifierKey"] = deps().call(usage_identifier, who.tenant_id)
    return policy
