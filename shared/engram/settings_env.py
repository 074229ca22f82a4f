"""How ``Settings.from_env`` reads the environment: one variable per setting, old names for one
release, and errors that name the variable.

Each setting has one canonical variable (``CANONICAL``): the name the stack, the README and the
docs use. That is ``ENGRAM_<SETTING>`` at the top level, ``ENGRAM_<SECTION>__<SETTING>`` inside
a section (``ENGRAM_RECALL__MIN_SCORE``), except the sections and settings that have always had a
shorter name (``SHORT_NAMES``, ``SHORT_PREFIXES``: ``ENGRAM_TABLE``, ``ENGRAM_LLM_MODEL``,
``ENGRAM_WEBHOOK_SENDERS``, and ``AWS_REGION``, which the Lambda runtime sets). A whole section
may also be given as JSON (``ENGRAM_RECALL='{"min_score": 0.3}'``); a variable of its own wins.

The section-and-setting twin of a short name (``ENGRAM_AWS__TABLE`` for ``ENGRAM_TABLE``) is an
old name (``DEPRECATED``): still read for one release, with a ``DeprecationWarning`` and a log
line naming the canonical one, which wins when both are set. docs/operations.md lists them.

The values reach ``Settings`` through ``EnvironSource``, a pydantic-settings source (its public
``PydanticBaseSettingsSource`` API) that ``Settings.settings_customise_sources`` adds while
``from_env`` runs: ``Settings(...)`` alone reads no environment.
"""

from __future__ import annotations

import contextvars
import json
import logging
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

from engram.errors import ConfigurationError

logger = logging.getLogger(__name__)

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
            "memory_reads",
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
"""Canonical short name -> the setting it sets (``ENGRAM_TABLE`` -> ``aws.table``)."""

SHORT_PREFIXES = {"llm": "ENGRAM_LLM_", "rerank": "ENGRAM_RERANK_", "webhook": "ENGRAM_WEBHOOK_"}
"""Sections whose every setting is named ``<prefix><SETTING>`` (``ENGRAM_LLM_MODEL``)."""


def nested_name(path: str) -> str:
    """pydantic-settings' name of a setting: ``recall.min_score`` -> ``ENGRAM_RECALL__MIN_SCORE``."""
    return "ENGRAM_" + path.upper().replace(".", "__")


def sections(settings_cls: type[BaseModel]) -> dict[str, type[BaseModel]]:
    """The sections of ``settings_cls`` (its fields that are models) by name."""
    found = {}
    for name, info in settings_cls.model_fields.items():
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            found[name] = info.annotation
    return found


def canonical_names(settings_cls: type[BaseModel]) -> dict[str, str]:
    """Every setting of ``settings_cls`` (dotted path) -> its one canonical variable."""
    short = {path: name for name, path in SHORT_NAMES.items()}
    names = {name: nested_name(name) for name in settings_cls.model_fields}
    for section, model in sections(settings_cls).items():
        del names[section]
        prefix = SHORT_PREFIXES.get(section)
        for field in model.model_fields:
            path = f"{section}.{field}"
            names[path] = short.get(path) or (f"{prefix}{field.upper()}" if prefix else nested_name(path))
    return names


def deprecated_names(settings_cls: type[BaseModel]) -> dict[str, str]:
    """Every old variable (read for one release) -> the setting it sets."""
    return {
        nested_name(path): path
        for path, name in canonical_names(settings_cls).items()
        if name != nested_name(path)
    }


def _deprecated(old: str, new: str, ignored: bool) -> None:
    why = f" (ignored: {new} is set)" if ignored else ""
    message = f"{old} is deprecated and will not be read after the next release: set {new}{why}"
    warnings.warn(message, DeprecationWarning, stacklevel=4)
    logger.warning("deprecated setting variable %s: set %s%s", old, new, why)


class EnvironSource(PydanticBaseSettingsSource):
    """The settings a given mapping of variables (not ``os.environ``) sets, as nested values, and
    which variable gave each (``variable``, for the errors). Empty variables count as unset."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        self.canonical = canonical_names(settings_cls)
        self.origin: dict[str, str] = {}
        """Dotted setting (or section) -> the variable that gave its value."""
        given = {name: value for name, value in environ.items() if value != ""}
        self.values: dict[str, Any] = self._sections(settings_cls, given)
        old = deprecated_names(settings_cls)
        for name, path in old.items():
            if name in given:
                _deprecated(name, self.canonical[path], ignored=self.canonical[path] in given)
                if self.canonical[path] not in given:
                    self._put(path, given[name], name)
        for path, name in self.canonical.items():
            if name in given:
                self._put(path, given[name], name)
        self.unknown = sorted(
            name
            for name in given
            if name.startswith("ENGRAM_")
            and "__" in name
            and name not in old
            and name not in self.canonical.values()
        )
        """Variables of the form ``ENGRAM_<SECTION>__<SETTING>`` that name no setting."""

    def _sections(self, settings_cls: type[BaseModel], given: Mapping[str, str]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for section in sections(settings_cls):
            name = nested_name(section)
            if name in given:
                try:
                    value = json.loads(given[name])
                except ValueError:
                    value = None
                if not isinstance(value, dict):
                    raise self.error(
                        [{"loc": (section,), "msg": "must be a JSON object", "type": "json"}], name
                    )
                values[section] = value
                self.origin[section] = name
        return values

    def _put(self, path: str, value: str, name: str) -> None:
        section, _, field = path.rpartition(".")
        (self.values.setdefault(section, {}) if section else self.values)[field] = value
        self.origin[path] = name

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return self.values.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return {
            name: dict(value) if isinstance(value, dict) else value for name, value in self.values.items()
        }

    def variable(self, loc: tuple[int | str, ...]) -> str:
        """The variable behind an error's location, or the setting's dotted name (a keyword override)."""
        for depth in range(len(loc), 0, -1):
            path = ".".join(str(p) for p in loc[:depth])
            if path in self.origin:
                return self.origin[path]
        return ".".join(str(p) for p in loc) or "settings"

    def error(self, errors: Sequence[Mapping[str, Any]], name: str | None = None) -> ConfigurationError:
        """Pydantic's errors as one ``ConfigurationError``, each detail naming its variable."""
        details = [
            {
                "field": name or self.variable(tuple(err["loc"])),
                "problem": str(err["msg"]).removeprefix("Value error, "),
                "type": str(err["type"]),
            }
            for err in errors
        ]
        message = "; ".join(  # a rule across settings names its variables in its own words
            d["problem"] if d["field"] == "settings" else f"{d['field']}: {d['problem']}" for d in details
        )
        return ConfigurationError(f"invalid settings: {message}", details=details)


reading: contextvars.ContextVar[EnvironSource | None] = contextvars.ContextVar("reading", default=None)
"""The source ``Settings.from_env`` is reading from (``settings_customise_sources`` adds it)."""
