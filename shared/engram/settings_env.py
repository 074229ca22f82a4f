"""How ``Settings.from_env`` reads the environment: pydantic-settings' environment source over a
given mapping, the documented short names, and errors that name the variable.

Every setting has a canonical variable, ``ENGRAM_<SETTING>`` at the top level and
``ENGRAM_<SECTION>__<SETTING>`` inside a section (``ENGRAM_RECALL__MIN_SCORE``; a whole section may
also be given as JSON, ``ENGRAM_RECALL='{"min_score": 0.3}'``). The names the stack and the README
have always used stay as short names of canonical ones (``SHORT_NAMES``, ``SHORT_PREFIXES``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel
from pydantic_settings import BaseSettings, EnvSettingsSource
from pydantic_settings.sources.utils import parse_env_vars

from engram.errors import ConfigurationError

SHORT_NAMES: dict[str, str] = {
    "AWS_REGION": "aws.region",  # what the Lambda runtime sets
    "ENGRAM_FUSION": "recall.fusion",
    "ENGRAM_DEFER_EMBEDDING": "retain.defer_embedding",
    "ENGRAM_SCAN_EXACT_MAX_ROWS": "scan.exact_max_rows",
    "ENGRAM_AWS_MAX_ATTEMPTS": "aws.max_attempts",
    "ENGRAM_TIERS": "aws.usage_plan_tiers",
    **{
        f"ENGRAM_{name.upper()}": f"aws.{name}"
        for name in [
            "table",
            "dynamodb_endpoint",
            "index",
            "opensearch_endpoint",
            "opensearch_service",
            "opensearch_index",
            "opensearch_timeout_s",
            "opensearch_shards",
            "opensearch_replicas",
            "provider_timeout_s",
            "provider_deadline_s",
            "hybrid_pipeline",
            "bedrock_model",
            "embedding_dimensions",
            "openai_base_url",
            "openai_model",
            "openai_api_key",
            "fallback_embedder",
            "key_pepper",
            "usage_plan_prefix",
            "bucket",
            "step_queue_url",
            "event_bus",
        ]
    },
}
"""Short name -> setting: each stands for the setting's canonical variable (``ENGRAM_TABLE`` for
``ENGRAM_AWS__TABLE``); the canonical name wins when both are set."""

SHORT_PREFIXES = {"llm": "ENGRAM_LLM_", "rerank": "ENGRAM_RERANK_", "webhook": "ENGRAM_WEBHOOK_"}
"""Sections whose every setting also reads as ``<prefix><SETTING>`` (``ENGRAM_LLM_MODEL``)."""


def env_aliases(settings_cls: type[BaseModel]) -> dict[str, str]:
    """Every short name of ``settings_cls`` -> the setting it stands for."""
    aliases = dict(SHORT_NAMES)
    for section, prefix in SHORT_PREFIXES.items():
        model = settings_cls.model_fields[section].annotation
        assert isinstance(model, type) and issubclass(model, BaseModel)
        aliases |= {f"{prefix}{name.upper()}": f"{section}.{name}" for name in model.model_fields}
    return aliases


def env_name(path: str) -> str:
    """The canonical variable of a setting: ``recall.min_score`` -> ``ENGRAM_RECALL__MIN_SCORE``."""
    return "ENGRAM_" + path.upper().replace(".", "__")


class EnvironSource(EnvSettingsSource):
    """pydantic-settings' environment source over a given mapping (not ``os.environ``), with the
    short names put under their canonical names first."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self.environ = environ
        self.aliases = env_aliases(settings_cls)
        self.origin: dict[str, str] = {}
        """Canonical name (lower case) -> the variable that gave its value."""
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        given = {name: value for name, value in self.environ.items() if name.startswith("ENGRAM_")}
        for short, path in self.aliases.items():
            if self.environ.get(short) and not given.get(env_name(path)):
                given[env_name(path)] = self.environ[short]
                self.origin[env_name(path).lower()] = short
        for name in given:
            self.origin.setdefault(name.lower(), name)
        return parse_env_vars(given, self.case_sensitive, self.env_ignore_empty, self.env_parse_none_str)

    def unknown(self, sections: Mapping[str, type[BaseModel]]) -> list[str]:
        """Variables of the form ``ENGRAM_<SECTION>__<SETTING>`` that name no setting."""
        unknown = []
        for name, value in self.env_vars.items():
            section, sep, field = name.removeprefix("engram_").partition("__")
            if sep and value and (section not in sections or field not in sections[section].model_fields):
                unknown.append(self.origin.get(name, name.upper()))
        return sorted(unknown)

    def variable(self, loc: tuple[int | str, ...]) -> str:
        """The variable behind an error's location, or the setting's dotted name (a keyword override)."""
        for depth in range(len(loc), 0, -1):
            name = env_name(".".join(str(p) for p in loc[:depth])).lower()
            if name in self.origin:
                return self.origin[name]
        return ".".join(str(p) for p in loc) or "settings"

    def error(self, errors: Sequence[Mapping[str, Any]]) -> ConfigurationError:
        """Pydantic's errors as one ``ConfigurationError``, each detail naming its variable."""
        details = [
            {
                "field": self.variable(tuple(err["loc"])),
                "problem": str(err["msg"]).removeprefix("Value error, "),
                "type": str(err["type"]),
            }
            for err in errors
        ]
        message = "; ".join(f"{d['field']}: {d['problem']}" for d in details)
        return ConfigurationError(f"invalid settings: {message}", details=details)
