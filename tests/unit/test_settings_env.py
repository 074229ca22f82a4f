"""Settings from the environment: pydantic-settings' names (``ENGRAM_<SETTING>``,
``ENGRAM_<SECTION>__<SETTING>``), the documented short names, and errors that name the variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram.errors import ConfigurationError
from engram.settings import ENV_ALIASES, Settings
from engram.settings_env import env_name


def test_canonical_names_reach_every_section_and_the_top_level() -> None:
    # Given canonical variables of a top-level setting, a nested one and a section as JSON
    environ = {
        "ENGRAM_LIFECYCLE_INTERVAL_S": "60",
        "ENGRAM_RECALL__MIN_SCORE": "0.3",
        "ENGRAM_LIFECYCLE__HALF_LIFE_DAYS": "7",
        "ENGRAM_RETAIN": '{"min_chars": 9}',
        "ENGRAM_LIMITS__REQUESTS_PER_SECOND": "2.5",
    }

    # When settings are read
    settings = Settings.from_env(environ)

    # Then each landed where its name says, converted to the setting's type
    assert settings.lifecycle_interval_s == 60.0
    assert settings.recall.min_score == 0.3
    assert settings.lifecycle.half_life_days == 7.0
    assert settings.retain.min_chars == 9
    assert settings.limits.requests_per_second == 2.5


def test_the_short_names_the_stack_sets_are_read_into_their_settings() -> None:
    # Given the short names of the README and the stack
    environ = {
        "AWS_REGION": "eu-west-1",
        "ENGRAM_TABLE": "engram-dev-memories",
        "ENGRAM_OPENSEARCH_REPLICAS": "1",
        "ENGRAM_TIERS": "standard,pro",
        "ENGRAM_AWS_MAX_ATTEMPTS": "2",
        "ENGRAM_FUSION": "rrf",
        "ENGRAM_DEFER_EMBEDDING": "false",
        "ENGRAM_SCAN_EXACT_MAX_ROWS": "0",
        "ENGRAM_LLM_PROVIDER": "bedrock",
        "ENGRAM_LLM_MODEL": "amazon.nova-lite-v1:0",
        "ENGRAM_RERANK_PROVIDER": "tei",
        "ENGRAM_RERANK_URL": "http://tei:8080/rerank",
        "ENGRAM_KEY_PEPPER": "pepper",
    }

    # When settings are read
    settings = Settings.from_env(environ)

    # Then each is in the setting ENV_ALIASES names
    assert (settings.aws.region, settings.aws.table) == ("eu-west-1", "engram-dev-memories")
    assert (settings.aws.opensearch_replicas, settings.aws.max_attempts) == (1, 2)
    assert settings.aws.usage_plan_tiers == "standard,pro"
    assert settings.recall.fusion == "rrf" and settings.retain.defer_embedding is False
    assert settings.scan.exact_max_rows == 0
    assert (settings.llm.provider, settings.llm.model) == ("bedrock", "amazon.nova-lite-v1:0")
    assert (settings.rerank.provider, settings.rerank.url) == ("tei", "http://tei:8080/rerank")
    assert settings.aws.key_pepper is not None and settings.aws.key_pepper.get_secret_value() == "pepper"


def test_every_short_name_stands_for_an_existing_setting() -> None:
    for short, path in ENV_ALIASES.items():
        section, _, field = path.partition(".")
        model = Settings.model_fields[section].annotation
        assert isinstance(model, type) and field in model.model_fields, short
    assert env_name("recall.min_score") == "ENGRAM_RECALL__MIN_SCORE"


def test_the_canonical_name_wins_over_the_short_one_and_empty_counts_as_unset() -> None:
    settings = Settings.from_env(
        {"ENGRAM_TABLE": "short", "ENGRAM_AWS__TABLE": "canonical", "ENGRAM_BUCKET": "", "ENGRAM_BACKEND": ""}
    )
    assert settings.aws.table == "canonical"
    assert settings.aws.bucket is None and settings.backend == "local"


def test_keyword_overrides_win_and_none_leaves_the_environment(tmp_path: Path) -> None:
    environ = {"ENGRAM_DATA_DIR": "~/elsewhere"}
    assert Settings.from_env(environ, data_dir=tmp_path).data_dir == tmp_path
    assert Settings.from_env(environ, data_dir=None).data_dir == Path("~/elsewhere").expanduser()


def test_the_webhook_variables_set_the_webhook_section_and_out_of_range_ones_are_refused() -> None:
    # Given the documented ENGRAM_WEBHOOK_* names
    environ = {"ENGRAM_WEBHOOK_MAX_ATTEMPTS": "3", "ENGRAM_WEBHOOK_BACKOFF_S": "0.2"}

    # When settings are read
    webhook = Settings.from_env(environ).webhook

    # Then they landed in the webhook section, the rest at their defaults
    assert (webhook.max_attempts, webhook.backoff_s, webhook.timeout_s) == (3, 0.2, 5.0)
    with pytest.raises(ConfigurationError, match="ENGRAM_WEBHOOK_SENDERS"):
        Settings.from_env({"ENGRAM_WEBHOOK_SENDERS": "0"})


def test_a_bad_value_is_a_configuration_error_naming_the_variable_it_came_from() -> None:
    # Given out-of-range and ill-typed values under a short and a canonical name
    environ = {"ENGRAM_OPENSEARCH_REPLICAS": "-1", "ENGRAM_RECALL__MIN_SCORE": "high"}

    # When settings are read
    with pytest.raises(ConfigurationError) as raised:
        Settings.from_env(environ)

    # Then the error names each variable as it was set, with its problem
    fields = {d["field"] for d in raised.value.details}
    assert fields == {"ENGRAM_OPENSEARCH_REPLICAS", "ENGRAM_RECALL__MIN_SCORE"}
    assert "ENGRAM_OPENSEARCH_REPLICAS: Input should be greater than or equal to 0" in raised.value.message


def test_a_misspelt_nested_variable_is_refused_by_name() -> None:
    with pytest.raises(ConfigurationError, match=r"ENGRAM_RECALL__MIN_SCOR\b"):
        Settings.from_env({"ENGRAM_RECALL__MIN_SCOR": "0.3"})
    with pytest.raises(ConfigurationError, match="ENGRAM_NOSUCH__THING"):
        Settings.from_env({"ENGRAM_NOSUCH__THING": "1"})


@pytest.mark.parametrize(
    ("environ", "variable"),
    [
        ({"ENGRAM_LLM_PROVIDER": "bedrock"}, "ENGRAM_LLM_MODEL"),
        ({"ENGRAM_LLM_PROVIDER": "openai", "ENGRAM_LLM_MODEL": "m"}, "ENGRAM_LLM_BASE_URL"),
        ({"ENGRAM_RERANK_PROVIDER": "bedrock"}, "ENGRAM_RERANK_MODEL"),
    ],
)
def test_a_provider_missing_what_it_needs_is_refused_at_start_up(
    environ: dict[str, str], variable: str
) -> None:
    with pytest.raises(ConfigurationError, match=variable):
        Settings.from_env(environ)


def test_the_constructor_reads_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given an ENGRAM_* variable in the process environment
    monkeypatch.setenv("ENGRAM_BACKEND", "aws")
    monkeypatch.setenv("ENGRAM_RECALL__MIN_SCORE", "0.1")

    # When settings are built directly
    # Then only what was given counts (from_env is the one reader of the environment)
    assert Settings().backend == "local" and Settings().recall.min_score == 0.47
