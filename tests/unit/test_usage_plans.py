"""API Gateway usage-plan keys for tenants, against botocore's Stubber: the exact requests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from engram.adapters.usage_plans import UsagePlans, usage_key
from engram.engine import Engine
from engram.errors import ProviderError
from engram.settings import Settings

PLANS = {
    "items": [{"id": "plan-free", "name": "engram-dev-free"}, {"id": "plan-pro", "name": "engram-dev-pro"}]
}


@pytest.fixture
def stubbed() -> Iterator[tuple[UsagePlans, Stubber]]:
    client: Any = boto3.client(
        "apigateway", region_name="eu-west-1", aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="secret"
    )
    with Stubber(client) as stubber:
        yield UsagePlans(client, prefix="engram-dev-", tiers=["free", "pro"]), stubber
        stubber.assert_no_pending_responses()


def test_enrolling_creates_the_key_the_authorizer_names_in_the_first_tiers_plan(
    stubbed: tuple[UsagePlans, Stubber],
) -> None:
    # Given no key for acme yet
    plans, stub = stubbed
    value = usage_key("acme", "engram-dev-")
    stub.add_response("get_usage_plans", PLANS, {})
    stub.add_response("get_api_keys", {"items": []}, {"nameQuery": value})
    stub.add_response(
        "create_api_key",
        {"id": "key-1", "name": value},
        {"name": value, "value": value, "enabled": True, "description": "usage plan key of tenant acme"},
    )
    stub.add_response(
        "create_usage_plan_key",
        {"id": "key-1", "type": "API_KEY"},
        {"usagePlanId": "plan-free", "keyId": "key-1", "keyType": "API_KEY"},
    )

    # When acme is enrolled
    # Then its key, valued as the authorizer's usageIdentifierKey, is in the free plan
    assert plans.enroll("acme") == "key-1"


def test_a_retried_enrolment_reuses_the_key_and_tolerates_it_being_in_the_plan(
    stubbed: tuple[UsagePlans, Stubber],
) -> None:
    plans, stub = stubbed
    value = usage_key("acme", "engram-dev-")
    stub.add_response("get_usage_plans", PLANS, {})
    stub.add_response("get_api_keys", {"items": [{"id": "key-1", "name": value}]}, {"nameQuery": value})
    stub.add_client_error("create_usage_plan_key", "ConflictException", http_status_code=409)
    assert plans.enroll("acme", "pro") == "key-1"


def test_a_missing_plan_and_an_unknown_tier_are_clear_errors(stubbed: tuple[UsagePlans, Stubber]) -> None:
    plans, stub = stubbed
    stub.add_response("get_usage_plans", {"items": []}, {})
    with pytest.raises(ProviderError, match="engram-dev-free"):
        plans.enroll("acme")
    with pytest.raises(Exception, match="tier must be one of free, pro"):
        plans.enroll("acme", "gold")


def test_withdrawing_deletes_only_the_tenants_own_key(stubbed: tuple[UsagePlans, Stubber]) -> None:
    # Given acme's key and a key whose name merely contains acme's (nameQuery is a prefix match)
    plans, stub = stubbed
    value = usage_key("acme", "engram-dev-")
    stub.add_response(
        "get_api_keys",
        {"items": [{"id": "key-1", "name": value}, {"id": "key-2", "name": value + "-corp"}]},
        {"nameQuery": value},
    )
    stub.add_response("delete_api_key", {}, {"apiKey": "key-1"})
    # When acme is withdrawn, then only its own key goes
    assert plans.withdraw("acme") == 1


class _Failing:
    def enroll(self, tenant_id: str, tier: str | None = None) -> str:
        raise ProviderError("usage plan 'engram-dev-free' not found")

    def withdraw(self, tenant_id: str) -> int:
        return 0


def test_a_tenant_whose_enrolment_fails_is_not_left_behind(tmp_path: Path) -> None:
    # Given an engine whose usage-plan registry fails
    engine = Engine.local(Settings(data_dir=tmp_path)).with_ports(usage_plans=_Failing())

    # When a tenant is created, then the error surfaces and no tenant remains
    with pytest.raises(ProviderError):
        engine.create_tenant("acme")
    assert engine.store.tenants.get_tenant("acme") is None
    engine.close()


def test_two_stages_in_one_account_never_share_a_tenants_key() -> None:
    # Given the same tenant in a dev and a prod stage of one account
    client: Any = boto3.client(
        "apigateway", region_name="eu-west-1", aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="secret"
    )
    dev = UsagePlans(client, prefix="engram-dev-", tiers=["free"])
    prod = UsagePlans(client, prefix="engram-prod-", tiers=["free"])
    prod_key = usage_key("acme", "engram-prod-")
    with Stubber(client) as stub:
        # When dev erases acme, its lookup is for dev's key alone; prod's, listed beside it, stays
        dev_key = usage_key("acme", "engram-dev-")
        stub.add_response(
            "get_api_keys",
            {"items": [{"id": "k-prod", "name": prod_key}, {"id": "k-dev", "name": dev_key}]},
            {"nameQuery": dev_key},
        )
        stub.add_response("delete_api_key", {}, {"apiKey": "k-dev"})
        assert dev.withdraw("acme") == 1
        stub.assert_no_pending_responses()
    assert dev_key != prod_key and prod.prefix in prod_key
