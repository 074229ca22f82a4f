"""Deployment settings: cdk.json holds every default, and a bad or unknown key is refused by name."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

import pytest
from aws_cdk import App
from engram_infra.config import Config
from engram_infra.functions import API_FUNCTIONS, missing_handlers, worker_functions
from engram_infra.layer import LayerBuild
from engram_infra.stack import build_app
from infra_support import refs as _refs
from infra_support import synthesise


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
    ],
)
def test_a_bad_value_is_refused_naming_its_key(key: str, value: object) -> None:
    with pytest.raises(ValueError, match=key):
        Config.from_values({key: value})


def test_cli_strings_are_parsed_as_json_where_the_default_is_not_a_string() -> None:
    app = App(context={"waf": "true", "opensearch_instance_count": "2", "stage": "prod"})
    config = Config.from_scope(app)
    assert (config.waf, config.opensearch_instance_count, config.stage) == (True, 2, "prod")


def test_synth_refuses_to_deploy_functions_whose_handler_code_does_not_exist() -> None:
    specs = (*API_FUNCTIONS, *worker_functions(extract_timeout_s=120))
    missing = missing_handlers(specs)
    if not missing:
        pytest.skip("every handler exists")
    with pytest.raises(ValueError, match="handler code does not exist yet: " + missing[0]):
        build_app({"require_handlers": True, "layer_dir": tempfile.mkdtemp()})


def test_serverless_backend_is_a_vectorsearch_collection_with_its_three_policies(
    layer: LayerBuild, tmp_path: Path
) -> None:
    # Given the app synthesised for OpenSearch Serverless (asset staging off: the main synth covers it)
    synth = synthesise(
        {
            "require_handlers": False,
            "layer_dir": str(layer.path),
            "backend": "opensearch-serverless",
            "aws:cdk:disable-asset-staging": True,
        },
        tmp_path,
    )
    # Then cdk-nag passes and the collection is encrypted with the key and readable by recall
    assert synth.error is None
    [collection] = synth.resources("AWS::OpenSearchServerless::Collection").values()
    assert collection["Properties"]["Type"] == "VECTORSEARCH"
    policies = {
        p["Properties"]["Type"]: p["Properties"]
        for p in synth.resources("AWS::OpenSearchServerless::SecurityPolicy").values()
    }
    assert set(policies) == {"encryption", "network"}
    [access] = synth.resources("AWS::OpenSearchServerless::AccessPolicy").values()
    assert access["Properties"]["Type"] == "data"
    recall = next(
        f
        for f in synth.resources("AWS::Lambda::Function").values()
        if f["Properties"]["FunctionName"].endswith("-recall")
    )
    assert _refs(recall["Properties"]["Role"]) <= _refs(access["Properties"]["Policy"])
    assert not synth.resources("AWS::OpenSearchService::Domain")
    env = next(iter(synth.resources("AWS::Lambda::Function").values()))["Properties"]["Environment"][
        "Variables"
    ]
    assert env["ENGRAM_SEARCH_SERVICE"] == "aoss"
