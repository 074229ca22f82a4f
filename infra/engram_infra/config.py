"""The deployment's settings: CDK context, with every default in ``infra/cdk.json``.

``cdk.json`` is the one place defaults live (the README's table explains each key); a key given
with ``-c key=value`` or in the app's context wins. Unknown keys are refused, so a typo in a
context key is an error instead of a silently ignored setting.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal

from constructs import Construct

INFRA_DIR = Path(__file__).resolve().parent.parent
REPO_ROOT = INFRA_DIR.parent
CDK_JSON = INFRA_DIR / "cdk.json"

SearchBackend = Literal["opensearch-domain", "opensearch-serverless"]


@dataclass(frozen=True, kw_only=True)
class UsagePlanLimits:
    """Throttle and quota of one tenant tier (requests per second, burst, requests per day).

    ``quota_per_day`` null (or absent) is no daily quota. The CDK CLI hands the app its context
    as JSON with every ``null`` member removed, so an absent key must mean the same as ``null``.
    """

    rate_limit: float
    burst_limit: int
    quota_per_day: int | None = None

    @classmethod
    def from_context(cls, tier: str, limits: Any) -> UsagePlanLimits:
        if not isinstance(limits, dict):
            raise ValueError(
                f"usage_plans.{tier}: expected an object of rate_limit, burst_limit, quota_per_day"
            )
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(limits) - known)
        if unknown:
            raise ValueError(f"usage_plans.{tier}: unknown key(s): {', '.join(unknown)}")
        missing = sorted({"rate_limit", "burst_limit"} - set(limits))
        if missing:
            raise ValueError(f"usage_plans.{tier}: missing {', '.join(missing)}")
        return cls(**limits)


@dataclass(frozen=True, kw_only=True)
class Config:
    stage: str
    """Stage name: the API stage, and part of every resource name."""
    backend: SearchBackend
    """``opensearch-domain`` (managed domain, default) or ``opensearch-serverless`` (VECTORSEARCH)."""
    python_version: str
    """Lambda Python runtime of every function and of the layer's wheels."""
    embedding_model_id: str
    embedding_dimensions: int
    llm_model_id: str
    rerank_provider: str
    """``none`` (default), ``bedrock`` (``rerank_model_id``) or ``tei`` (``rerank_url``)."""
    rerank_model_id: str
    rerank_url: str | None
    decay_schedule: str
    tiering_schedule: str
    usage_plans: dict[str, UsagePlanLimits]
    api_throttle: dict[str, float]
    authorizer_cache_ttl_seconds: int
    key_header: str
    cors_origins: list[str]
    waf: bool
    opensearch_vpc: bool
    opensearch_version: str
    opensearch_instance_type: str
    """The domain's instance type; unset (null in cdk.json): ``SEARCH_INSTANCE[stage == "dev"]``."""
    opensearch_instance_count: int
    opensearch_volume_gb: int
    extract_worker_timeout_seconds: int
    extract_worker_max_concurrency: int
    reserved_concurrency: dict[str, int]
    log_retention_days: int
    tracing_sample_rate: float
    """The share of API requests X-Ray traces (the stage's sampling rule, ``api``), and with them
    the workers they queue; 0: no tracing anywhere (no sampling rule, no X-Ray SDK loaded)."""
    alarm_email: str | None
    events_publish: bool
    """Publish every tenant's events on the bus (a tenant's ``events.publish`` setting still wins);
    off (the default): only the tenants an operator turned on, who pay for the events they use."""
    alarms: str
    """``all`` or ``essential`` (API 5xx, dead-letter queues, a red search cluster); unset (null in
    cdk.json): ``essential`` on the ``dev`` stage, ``all`` on any other (``observability``)."""
    retain_data: bool
    require_handlers: bool
    layer_dir: str

    @property
    def prefix(self) -> str:
        return f"engram-{self.stage}"

    @property
    def layer_path(self) -> Path:
        path = Path(self.layer_dir)
        return path if path.is_absolute() else (INFRA_DIR / path).resolve()

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        """The context block of ``infra/cdk.json``."""
        context: dict[str, Any] = json.loads(CDK_JSON.read_text())["context"]
        return context

    @classmethod
    def from_values(cls, values: dict[str, Any]) -> Config:
        """Defaults from cdk.json overlaid with ``values``; raises ValueError naming a bad key."""
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - names)
        if unknown:
            raise ValueError(f"unknown context key(s): {', '.join(unknown)}")
        merged = {**cls.defaults(), **values}
        missing = sorted(names - set(merged))
        if missing:
            raise ValueError(f"context key(s) without a default in cdk.json: {', '.join(missing)}")
        if merged.get("opensearch_instance_type") is None:
            merged["opensearch_instance_type"] = SEARCH_INSTANCE[merged["stage"] == "dev"]
        if merged.get("alarms") is None:
            merged["alarms"] = "essential" if merged["stage"] == "dev" else "all"
        merged["usage_plans"] = {
            tier: UsagePlanLimits.from_context(tier, limits)
            for tier, limits in dict(merged["usage_plans"]).items()
        }
        config = cls(**{name: merged[name] for name in names})
        config.validate()
        return config

    @classmethod
    def from_scope(cls, scope: Construct) -> Config:
        """The config of an app: each known key from its context (``-c`` or cdk.json)."""
        values = {}
        for f in fields(cls):
            value = scope.node.try_get_context(f.name)
            if value is not None:
                values[f.name] = _coerce(value, cls.defaults()[f.name])
        return cls.from_values(values)

    def validate(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9-]{0,15}", self.stage):
            raise ValueError(f"stage: '{self.stage}' must match [a-z][a-z0-9-]{{0,15}}")
        if self.backend not in ("opensearch-domain", "opensearch-serverless"):
            raise ValueError(f"backend: '{self.backend}' is not opensearch-domain or opensearch-serverless")
        if not re.fullmatch(r"3\.1[2-9]", self.python_version):
            raise ValueError(f"python_version: '{self.python_version}' must be 3.12 or later")
        for name in ("decay_schedule", "tiering_schedule"):
            if not re.fullmatch(r"(rate|cron)\(.+\)", getattr(self, name)):
                raise ValueError(f"{name}: expected rate(...) or cron(...)")
        if self.alarms not in ("all", "essential"):
            raise ValueError(f"alarms: '{self.alarms}' is not all or essential")
        if self.rerank_provider not in ("none", "bedrock", "tei"):
            raise ValueError(f"rerank_provider: '{self.rerank_provider}' is not none, bedrock or tei")
        if self.rerank_provider == "tei" and not self.rerank_url:
            raise ValueError("rerank_url: required when rerank_provider is tei")
        if not self.usage_plans:
            raise ValueError("usage_plans: at least one tier is needed")
        if not 0 <= self.authorizer_cache_ttl_seconds <= 3600:
            raise ValueError("authorizer_cache_ttl_seconds: must be between 0 and 3600")
        rate = self.tracing_sample_rate
        if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
            raise ValueError(f"tracing_sample_rate: {rate!r} must be a number between 0 and 1")
        if not 1 <= self.extract_worker_timeout_seconds <= 900:
            raise ValueError("extract_worker_timeout_seconds: must be between 1 and 900")
        from engram_infra.functions import ANSWER_MARGIN_S, extract_worst_case_s

        needed = extract_worst_case_s(45.0) + ANSWER_MARGIN_S
        if self.extract_worker_timeout_seconds <= needed:
            raise ValueError(
                f"extract_worker_timeout_seconds: must exceed {needed:g} s, what one smart retain may take "
                "(two 45 s LLM calls, the embeddings and the index reads)"
            )


SEARCH_INSTANCE = {True: "t3.small.search", False: "t3.medium.search"}
"""The default instance of a dev stage (True: one t3.small, 2 GiB, ≈ $26 a month, for ~200k
vectors of 512 dimensions in the k-NN memory) and of any other (a t3.medium, 4 GiB, ≈ $53)."""


def _coerce(value: Any, default: Any) -> Any:
    """``-c key=value`` always gives a string: parse it as JSON when the default is not a string."""
    if isinstance(value, str) and not isinstance(default, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value
