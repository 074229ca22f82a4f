"""API Gateway usage plans: each tenant gets an API Gateway key in its tier's plan.

The authorizer returns ``usageIdentifierKey = usage_key(tenant, prefix)`` (the API's key source is
AUTHORIZER), and API Gateway meters and throttles the call under the plan holding a key of that
value. So creating a tenant in the cloud must create that key and add it to a plan, and erasing the
tenant must delete it. Plans are found by name (``<prefix><tier>``, as the stack names them): the
stack cannot hand their ids to the admin function without a dependency cycle. Keys are named and
valued per stage (``engram-<stage>-usage-plan-key-<tenant>``): two stages in one account never
share one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from engram.auth.keys import usage_key
from engram.errors import ProviderError, ValidationFailedError


class UsagePlans:
    """Enrols tenants in usage plans through an injected boto3 ``apigateway`` client."""

    def __init__(
        self, client: Any = None, *, region: str | None = None, prefix: str, tiers: Sequence[str]
    ) -> None:
        """``client`` is an ``apigateway`` client; without one, it is made on first use (only the
        admin function enrols tenants, so no other function pays for boto3 at cold start)."""
        if not tiers:
            raise ValidationFailedError("at least one usage-plan tier is needed")
        self._client = client
        self._region = region
        self.prefix = prefix
        self.tiers = tuple(tiers)

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3

            self._client = boto3.client("apigateway", region_name=self._region)
        return self._client

    def _plan_id(self, tier: str) -> str:
        wanted = self.prefix + tier
        for page in self.client.get_paginator("get_usage_plans").paginate():
            for plan in page.get("items", []):
                if plan.get("name") == wanted:
                    return str(plan["id"])
        raise ProviderError(f"usage plan '{wanted}' not found; is the stack deployed?")

    def _key_ids(self, tenant_id: str) -> list[str]:
        value = usage_key(tenant_id, self.prefix)
        ids: list[str] = []
        for page in self.client.get_paginator("get_api_keys").paginate(nameQuery=value):
            ids += [str(k["id"]) for k in page.get("items", []) if k.get("name") == value]
        return ids

    def enroll(self, tenant_id: str, tier: str | None = None) -> str:
        """Create the tenant's key (once) in the plan of ``tier`` (default: the first tier)."""
        tier = tier or self.tiers[0]
        if tier not in self.tiers:
            raise ValidationFailedError(f"tier must be one of {', '.join(self.tiers)}")
        plan_id = self._plan_id(tier)
        existing = self._key_ids(tenant_id)
        if existing:  # a retried create: the key is there, make sure it is in the plan
            key_id = existing[0]
        else:
            value = usage_key(tenant_id, self.prefix)
            key_id = str(
                self.client.create_api_key(
                    name=value, value=value, enabled=True, description=f"usage plan key of tenant {tenant_id}"
                )["id"]
            )
        with contextlib.suppress(self.client.exceptions.ConflictException):  # already in the plan
            self.client.create_usage_plan_key(usagePlanId=plan_id, keyId=key_id, keyType="API_KEY")
        return key_id

    def withdraw(self, tenant_id: str) -> int:
        """Delete the tenant's key(s); the plans forget them with it. Returns how many went."""
        removed = 0
        for key_id in self._key_ids(tenant_id):
            try:
                self.client.delete_api_key(apiKey=key_id)
                removed += 1
            except self.client.exceptions.NotFoundException:
                continue
        return removed
