"""Deployment settings: cdk.json holds every default, and a bad or unknown key is refused by name."""

from __future__ import annotations

import dataclasses
import json
import tempfile

import pytest
from aws_cdk import App
from engram_infra.config import CDK_JSON, INFRA_DIR, Config
from engram_infra.functions import API_FUNCTIONS, FunctionSpec, missing_handlers, worker_functions
from engram_infra.stack import build_app


def test_every_setting_has_a_default_in_cdk_json_and_nothing_else_is_there() -> None:
    assert set(Config.defaults()) == {f.name for f in dataclasses.fields(Config)}
    assert Config.from_values({}).stage == "dev"


def test_an_unknown_context_key_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown context key\\(s\\): stgae"):
        Config.from_values({"stgae": "prod"})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("stage", "Prod!"),
        ("backend", "elasticsearch"),
        ("python_version", "3.9"),
        ("decay_schedule", "every day"),
        ("authorizer_cache_ttl_seconds", 7200),
        ("alarms", "some"),
    ],
)
def test_a_bad_value_is_refused_naming_its_key(key: str, value: object) -> None:
    with pytest.raises(ValueError, match=key):
        Config.from_values({key: value})


@pytest.mark.parametrize("rate", [-0.1, 1.5, "x", True])
def test_a_tracing_sample_rate_outside_0_to_1_is_refused_naming_the_key(rate: object) -> None:
    with pytest.raises(ValueError, match=r"tracing_sample_rate: .* must be a number between 0 and 1"):
        Config.from_values({"tracing_sample_rate": rate})


def test_a_tracing_sample_rate_from_the_cli_is_a_number_from_0_to_1() -> None:
    # Given -c tracing_sample_rate=... (the CLI passes strings), at both ends and by default
    assert Config.from_scope(App(context={"tracing_sample_rate": "0"})).tracing_sample_rate == 0
    assert Config.from_scope(App(context={"tracing_sample_rate": "1"})).tracing_sample_rate == 1
    assert Config.from_values({}).tracing_sample_rate == 0.01
    # Then a word is refused by the key's name
    with pytest.raises(ValueError, match="tracing_sample_rate: 'x'"):
        Config.from_scope(App(context={"tracing_sample_rate": "x"}))


def test_cli_strings_are_parsed_as_json_where_the_default_is_not_a_string() -> None:
    app = App(context={"waf": "true", "opensearch_instance_count": "2", "stage": "prod"})
    config = Config.from_scope(app)
    assert (config.waf, config.opensearch_instance_count, config.stage) == (True, 2, "prod")


def test_a_function_without_handler_code_is_reported_by_its_path() -> None:
    specs = (*API_FUNCTIONS, FunctionSpec("ghost", "ghost"))
    assert missing_handlers(specs) == ["functions/ghost/handler.py"]
    assert missing_handlers(API_FUNCTIONS) == []


def test_reserved_concurrency_for_an_unknown_function_is_refused() -> None:
    with pytest.raises(ValueError, match="reserved_concurrency: no function named recal"):
        build_app(
            {"require_handlers": False, "reserved_concurrency": {"recal": 5}, "layer_dir": tempfile.mkdtemp()}
        )


def test_the_cdk_cli_runs_the_app_with_the_projects_venv() -> None:
    command = json.loads(CDK_JSON.read_text())["app"].split()
    assert command == ["../.venv/bin/python", "app.py"]
    assert (INFRA_DIR / command[1]).is_file()
    assert (INFRA_DIR / command[0]).exists()  # make install creates it


def test_synth_refuses_to_deploy_functions_whose_handler_code_does_not_exist() -> None:
    specs = (*API_FUNCTIONS, *worker_functions(extract_timeout_s=120))
    missing = missing_handlers(specs)
    if not missing:
        pytest.skip("every handler exists")
    with pytest.raises(ValueError, match="handler code does not exist yet: " + missing[0]):
        build_app({"require_handlers": True, "layer_dir": tempfile.mkdtemp()})


def test_a_tier_whose_null_quota_the_cli_dropped_has_no_quota() -> None:
    # the CDK CLI passes context as JSON without its null members: {"quota_per_day": null} -> {}
    plans = {"enterprise": {"rate_limit": 500, "burst_limit": 1000}}
    config = Config.from_values({"usage_plans": plans})
    assert config.usage_plans["enterprise"].quota_per_day is None


def test_an_unknown_usage_plan_key_is_refused_by_tier_and_name() -> None:
    with pytest.raises(ValueError, match=r"usage_plans\.free: unknown key\(s\): quota"):
        Config.from_values({"usage_plans": {"free": {"rate_limit": 5, "burst_limit": 10, "quota": 9}}})


def test_a_dev_stage_gets_a_small_search_node_and_other_stages_a_medium_one() -> None:
    # (#28: the dev stage's idle month; t3.small.search has 2 GiB, t3.medium.search 4 GiB)
    assert Config.from_values({}).opensearch_instance_type == "t3.small.search"
    assert Config.from_values({"stage": "prod"}).opensearch_instance_type == "t3.medium.search"
    chosen = Config.from_values({"stage": "dev", "opensearch_instance_type": "r6g.large.search"})
    assert chosen.opensearch_instance_type == "r6g.large.search"


def test_a_dev_stage_gets_the_essential_alarms_and_other_stages_all() -> None:
    # (#28: a dev stage's idle month; CloudWatch bills $0.10 per alarm metric)
    assert Config.from_values({}).alarms == "essential"
    assert Config.from_values({"stage": "prod"}).alarms == "all"
    assert Config.from_values({"stage": "dev", "alarms": "all"}).alarms == "all"
