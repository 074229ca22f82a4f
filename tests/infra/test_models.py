"""The Bedrock models a deploy names exist, are not retired and are offered in the stack's region:
refused at synth time in a known region, by a template rule otherwise; docs/deploy.md's model
table is the code's table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from engram_infra.config import Config
from engram_infra.layer import LayerBuild
from engram_infra.models import MODELS, MODELS_AS_OF, check_models, configured, markdown_table
from engram_infra.stack import build_app
from infra_support import Synth

DEFAULTS = Config.from_values({})
DEPLOY_DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


@pytest.fixture
def build(monkeypatch: pytest.MonkeyPatch, layer: LayerBuild) -> Callable[..., None]:
    """Build the app in ``region`` with ``context`` (the model check runs as the stack is made)."""

    def run(region: str, **context: object) -> None:
        monkeypatch.setenv("CDK_DEFAULT_REGION", region)
        build_app({"require_handlers": False, "layer_dir": str(layer.path), **context})

    return run


def test_the_default_models_are_current_and_offered_in_us_east_1(build: Callable[..., None]) -> None:
    models = configured(
        llm=DEFAULTS.llm_model_id, embedding=DEFAULTS.embedding_model_id, rerank=DEFAULTS.rerank_model_id
    )
    check_models(models, "us-east-1")
    assert all(MODELS[m].lifecycle.startswith("Active") for m in models.values())
    build("us-east-1", rerank_provider="bedrock")


def test_the_retired_haiku_is_refused_at_synth_naming_its_key(build: Callable[..., None]) -> None:
    with pytest.raises(
        ValueError, match=r"llm_model_id: 'anthropic\.claude-3-5-haiku-20241022-v1:0' is retired"
    ):
        build("us-east-1", llm_model_id="anthropic.claude-3-5-haiku-20241022-v1:0")


def test_a_rerank_model_not_offered_in_the_region_is_refused(build: Callable[..., None]) -> None:
    with pytest.raises(
        ValueError, match=r"rerank_model_id: 'amazon\.rerank-v1:0' is not offered in us-east-1"
    ):
        build("us-east-1", rerank_provider="bedrock", rerank_model_id="amazon.rerank-v1:0")
    # the rerank model is not called (nor checked) unless the bedrock rerank is on
    build("us-east-1", rerank_model_id="amazon.rerank-v1:0")


def test_an_unknown_model_is_refused_with_where_to_add_it(build: Callable[..., None]) -> None:
    with pytest.raises(ValueError, match=r"embedding_model_id: 'cohere\.embed-v9' is not in the table"):
        build("us-east-1", embedding_model_id="cohere.embed-v9")


def test_the_us_profile_is_refused_in_an_eu_region(build: Callable[..., None]) -> None:
    with pytest.raises(
        ValueError, match=r"llm_model_id: 'us\.anthropic\.claude-haiku-5-5' is not offered in eu-west-1"
    ):
        build("eu-west-1")
    build("eu-west-1", llm_model_id="eu.anthropic.claude-haiku-5-5")


def test_a_region_agnostic_template_refuses_a_deploy_where_the_models_are_not(synth: Synth) -> None:
    rule = synth.raw["Rules"]["ModelsOfferedInRegion"]
    [assertion] = rule["Assertions"]
    contains = assertion["Assert"]["Fn::Contains"]
    assert contains[1] == {"Ref": "AWS::Region"}
    assert set(contains[0]) == {"us-east-1", "us-east-2", "us-west-2"}
    assert MODELS_AS_OF in assertion["AssertDescription"]


def test_the_deploy_docs_model_table_is_the_codes_table() -> None:
    for text in (DEPLOY_DOC.read_text(), (DEPLOY_DOC.parents[1] / "README.md").read_text()):
        assert markdown_table() in text
        assert f"as of {MODELS_AS_OF}" in text
