"""Settings from the environment: one variable per setting (``ENGRAM_<SETTING>``,
``ENGRAM_<SECTION>__<SETTING>`` or the documented short name), the old names for one release, and
errors that name the variable."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import pytest

from engram.errors import ConfigurationError
from engram.settings import DEPRECATED_ENV_NAMES, ENV_NAMES, Settings
from engram.settings_env import nested_name


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

    # Then each is in the setting ENV_NAMES gives it
    assert (settings.aws.region, settings.aws.table) == ("eu-west-1", "engram-dev-memories")
    assert (settings.aws.opensearch_replicas, settings.aws.max_attempts) == (1, 2)
    assert settings.aws.usage_plan_tiers == "standard,pro"
    assert settings.recall.fusion == "rrf" and settings.retain.defer_embedding is False
    assert settings.scan.exact_max_rows == 0
    assert (settings.llm.provider, settings.llm.model) == ("bedrock", "amazon.nova-lite-v1:0")
    assert (settings.rerank.provider, settings.rerank.url) == ("tei", "http://tei:8080/rerank")
    assert settings.aws.key_pepper is not None and settings.aws.key_pepper.get_secret_value() == "pepper"


def test_every_setting_has_one_variable_and_every_old_name_one_new_one() -> None:
    # Given every setting's variable and the old names still read
    # Then no two settings share a variable, and each old name is the nested twin of a setting's one
    assert len(set(ENV_NAMES.values())) == len(ENV_NAMES)
    assert set(DEPRECATED_ENV_NAMES.values()) <= set(ENV_NAMES.values())
    assert not set(DEPRECATED_ENV_NAMES) & set(ENV_NAMES.values())
    by_name = {name: path for path, name in ENV_NAMES.items()}
    assert all(old == nested_name(by_name[new]) for old, new in DEPRECATED_ENV_NAMES.items())
    assert ENV_NAMES["recall.min_score"] == "ENGRAM_RECALL__MIN_SCORE"
    assert ENV_NAMES["aws.table"] == "ENGRAM_TABLE" and ENV_NAMES["llm.model"] == "ENGRAM_LLM_MODEL"
    assert len(DEPRECATED_ENV_NAMES) >= 30


def test_an_old_name_still_works_warning_and_logging_the_new_one(caplog: pytest.LogCaptureFixture) -> None:
    # Given a variable under its old (section-and-setting) name
    environ = {"ENGRAM_AWS__TABLE": "engram-old", "ENGRAM_LLM__TIMEOUT_S": "7"}

    # When settings are read
    with caplog.at_level(logging.WARNING), pytest.warns(DeprecationWarning) as warned:
        settings = Settings.from_env(environ)

    # Then the values are read, and the warning and the log name the variable to use instead
    assert settings.aws.table == "engram-old" and settings.llm.timeout_s == 7.0
    messages = sorted(str(w.message) for w in warned)
    assert "ENGRAM_AWS__TABLE is deprecated" in messages[0] and "set ENGRAM_TABLE" in messages[0]
    assert "ENGRAM_LLM__TIMEOUT_S is deprecated" in messages[1] and "set ENGRAM_LLM_TIMEOUT_S" in messages[1]
    assert "ENGRAM_AWS__TABLE: set ENGRAM_TABLE" in caplog.text


def test_the_canonical_name_wins_over_the_old_one_and_empty_counts_as_unset() -> None:
    with pytest.warns(DeprecationWarning, match="ENGRAM_AWS__TABLE .*ignored: ENGRAM_TABLE is set"):
        settings = Settings.from_env(
            {
                "ENGRAM_TABLE": "canonical",
                "ENGRAM_AWS__TABLE": "old",
                "ENGRAM_BUCKET": "",
                "ENGRAM_BACKEND": "",
            }
        )
    assert settings.aws.table == "canonical"
    assert settings.aws.bucket is None and settings.backend == "local"


def test_canonical_names_alone_warn_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Settings.from_env(
            {"ENGRAM_TABLE": "t", "ENGRAM_LLM_TIMEOUT_S": "3", "ENGRAM_RECALL__MIN_SCORE": "0.3"}
        )


def test_a_bad_old_name_is_refused_naming_that_variable() -> None:
    with (
        pytest.warns(DeprecationWarning),
        pytest.raises(ConfigurationError, match="ENGRAM_AWS__OPENSEARCH_REPLICAS"),
    ):
        Settings.from_env({"ENGRAM_AWS__OPENSEARCH_REPLICAS": "-1"})


def test_a_section_given_as_json_is_read_and_its_own_variables_win() -> None:
    settings = Settings.from_env(
        {"ENGRAM_RECALL": '{"min_score": 0.3, "rrf_k": 7}', "ENGRAM_RECALL__RRF_K": "9"}
    )
    assert (settings.recall.min_score, settings.recall.rrf_k) == (0.3, 9)
    with pytest.raises(ConfigurationError, match="ENGRAM_RECALL: must be a JSON object"):
        Settings.from_env({"ENGRAM_RECALL": "[1"})


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
        ({"ENGRAM_RERANK_PROVIDER": "tei"}, "ENGRAM_RERANK_URL"),
        ({"ENGRAM_BACKEND": "aws"}, "ENGRAM_OPENSEARCH_ENDPOINT is required"),
        (
            {"ENGRAM_BACKEND": "aws", "ENGRAM_OPENSEARCH_ENDPOINT": "search-x.es.amazonaws.com"},
            "ENGRAM_OPENSEARCH_ENDPOINT: .*scheme",
        ),
        (
            {"ENGRAM_OPENSEARCH_ENDPOINT": "https://search-x/_path"},
            "ENGRAM_OPENSEARCH_ENDPOINT: must be scheme://host",
        ),
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


def test_the_environment_source_overrides_no_private_pydantic_settings_method() -> None:
    # Given the source Settings.from_env reads through, and its pydantic-settings bases
    from engram.settings_env import EnvironSource

    bases = [b for b in EnvironSource.__mro__[1:] if b.__module__.startswith("pydantic_settings")]
    private = {n for b in bases for n in vars(b) if n.startswith("_") and not n.startswith("__")} - {
        "_abc_impl"
    }

    # Then it uses their public API only (no private method redefined)
    assert bases and private & set(vars(EnvironSource)) == set()


def test_the_operations_page_lists_every_old_name_with_its_new_one() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text(encoding="utf-8")
    missing = [old for old, new in DEPRECATED_ENV_NAMES.items() if f"| `{old}` | `{new}` |" not in page]
    assert missing == []
