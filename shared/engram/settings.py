"""Every tunable constant of DESIGN §5–7 in one model, overridable per tenant.

``Settings.from_env`` is the only place that reads the environment (one variable per setting,
``engram.settings_env``), and only the composition root (``engram.app``), the handlers and the
CLI call it. Every rule a configuration must follow is a validator here, so an invalid one fails
where it is read, naming the variable. Per-tenant overrides are a nested dict stored on the
tenant (``{"recall": {"candidate_pool_min": 40}}``) and applied with ``for_tenant``.
"""

from __future__ import annotations

import copy
import urllib.parse
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, Optional

import annotated_types
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from engram.errors import ConfigurationError
from engram.settings_env import EnvironSource, canonical_names, deprecated_names, reading
from engram.strict_json import MAX_INT


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RecallSettings(_Section):
    fusion: Literal["weighted", "rrf", "bm25", "vector"] = "weighted"
    """``bm25`` and ``vector`` rank by one channel alone (baselines for evaluation)."""
    # candidate_pool = max(candidate_pool_min, candidate_pool_factor * limit)
    candidate_pool_min: int = Field(default=20, ge=1)
    candidate_pool_factor: int = Field(default=5, ge=1)
    weight_vector: float = Field(default=0.8, ge=0)
    weight_bm25: float = Field(default=0.2, ge=0)
    rrf_k: int = Field(default=60, ge=1)
    # Cosine calibration 1 - exp(-(cos - floor) / scale): unrelated (0.15) -> 0.22, paraphrase (0.32) -> 0.67.
    cosine_floor: float = 0.10
    cosine_scale: float = Field(default=0.2, gt=0)
    min_score: float = Field(default=0.47, ge=0, le=1)
    """On the final score. 0.47 keeps the relevance bar of a fresh memory (prior 0.921) where it
    was when the whole lifecycle multiplier (0.685 for it) entered the score and the bar was 0.35."""
    min_results: int = Field(default=1, ge=0, le=100)
    """When fewer than this many memories reach ``min_score``, the best of those that still match
    the query and score at least ``near_miss``·``min_score`` join them (an absolute bar on a fused
    score is fragile: a clear paraphrase can land just under it); nothing joins when nothing
    matches. 0: the bar alone."""
    near_miss: float = Field(default=0.85, ge=0, le=1)
    match_cosine: float = Field(default=0.27, ge=0, le=1)
    """A memory matches a query when its cosine reaches this (unrelated short sentences sit below
    ~0.2 with the bundled model, though the best of hundreds of chat turns can reach 0.3; a clear
    paraphrase at 0.28 and up), or when it shares a query word and its cosine reaches
    ``match_cosine_with_word`` (or it has no vector yet)."""
    match_cosine_with_word: float = Field(default=0.2, ge=0, le=1)
    lifecycle_weight: float = Field(default=0.25, ge=0, le=1)
    """How much of the score is query-independent: it is multiplied by ``1 - w·(1 - m)``, m the
    lifecycle multiplier with frequency left out, so in [1 - 0.7·w, 1] (0: relevance alone)."""
    embed_inline_max: int = Field(default=8, ge=0, le=64)
    """A recall embeds its tenant's backlog first when it holds at most this many memories (one
    short retain: a paraphrase then finds them at once); a larger backlog is left to the
    background embedder and found by BM25 until embedded (0: never wait)."""
    access_top: int = Field(default=3, ge=0, le=100)
    """A tracked recall counts an access only for its best this many memories (what an agent puts
    in its prompt first); the rest were shown, not used. 0: none."""
    length_norm_anchor: int = Field(default=1000, ge=1)
    """Characters a memory may hold before the length norm pushes it down: a chat turn with an
    image caption runs past 500 (at 500 the calibrated set lost 4.1 points), a document past 1,000."""
    length_norm_strength: float = Field(default=0.5, ge=0)
    length_norm_floor: float = Field(default=0.5, ge=0, le=1)
    entity_weight: float = Field(default=0.0, ge=0)
    """Bonus weight for memories naming the query's entities: ``(s + w·share) / (1 + w)``."""
    context_weight: float = Field(default=0.0, ge=0, le=1)
    """BM25F: a transcript turn's BM25 document also holds the turns before and after it in its
    thread at this field weight (0: the turn alone). The embedded index only."""
    thread_weight: float = Field(default=0.1, ge=0)
    """Bonus weight for turns of the threads that match the query best as a whole (each thread's
    turns as one BM25 document, divided by the best thread's). The embedded index only."""
    when_weight: float = Field(default=0.4, ge=0)
    """For a question asking when ("When did ...", "What year ..."), bonus weight for memories
    that say when something happened ("last weekend", "on Saturday", "in May"); 0: off."""
    amount_weight: float = Field(default=0.3, ge=0)
    """For a question asking how much or how many, bonus weight for memories that state a number
    or an amount ("$400", "5 nights", "two kids"); 0: off (on since it won on the calibrated dev set)."""
    place_weight: float = Field(default=0.3, ge=0)
    """For "where" questions, bonus weight for memories naming a place ("at the lake house"); 0: off."""
    person_weight: float = Field(default=0.15, ge=0)
    """For "who" questions, bonus weight for memories naming a person the question does not; 0: off."""
    bm25_without_speakers: bool = True
    """BM25 scores a query naming a speaker without the name (``gather.topic_hits``)."""
    vector_without_speakers: bool = True
    """The query is embedded without those names too (``gather.vector_query``; the embedded index)."""
    speaker_weight: float = Field(default=0.3, ge=0)
    """Bonus weight for transcript turns whose speaker label ("Priya: ...") the query names, when
    it names the speaker of any candidate; 0: off (on since it won on the calibrated dev set)."""
    time_weight: float = Field(default=0.3, ge=0)
    """Bonus weight for memories inside a period the query names ("in May 2023", "last week"),
    which are also searched for as extra candidates."""
    neighbour_weight: float = Field(default=0.7, ge=0, le=1)
    """A memory next to one of the ``neighbour_seeds`` best hits in its session scores at least
    this share of that hit (0 turns session context off)."""
    neighbour_span: int = Field(default=1, ge=1, le=5)
    neighbour_seeds: int = Field(default=10, ge=1, le=100)
    brevity_anchor: int = Field(default=6, ge=0)
    """Transcript turns (raw, in a session or a retain batch) with fewer informative words than this are scored
    down by ``max(floor, (words/anchor)^strength)`` (0: off)."""
    brevity_strength: float = Field(default=1.0, ge=0)
    brevity_floor: float = Field(default=0.3, ge=0, le=1)
    mmr_lambda: float = Field(default=0.7, ge=0, le=1)
    mmr_threshold: float = Field(default=0.8, ge=0, lt=1)
    """Only similarity above this counts against a memory in MMR (0: classic MMR)."""
    rerank: bool = True
    """Rerank when a provider is configured (``rerank`` in the request overrides it)."""
    rerank_top: int = Field(default=30, ge=1, le=200)
    """How many of the best fused candidates the reranker sees; the rest keep ``(1-w)·fused``."""
    rerank_weight: float = Field(default=0.6, ge=0, le=1)
    """``w`` in ``w·rerank + (1-w)·fused``."""
    rerank_budget_ms: int = Field(default=300, ge=1)
    """How long recall waits for the reranker; past it the fused order stands."""
    context_max_chars: int = Field(default=2_000, ge=100)


class LifecycleSettings(_Section):
    half_life_days: float = Field(default=30.0, gt=0)
    importance_stretch: float = 1.5
    beta_core: float = 0.8
    beta_working: float = 1.0
    beta_peripheral: float = 1.3
    frequency_scale: float = Field(default=5.0, gt=0)
    weight_retention: float = 0.4
    weight_frequency: float = 0.3
    weight_importance: float = 0.3
    multiplier_base: float = 0.3
    floor_core: float = 0.9
    floor_working: float = 0.7
    floor_peripheral: float = 0.5
    feedback_alpha: float = Field(default=0.3, gt=0, le=1)
    feedback_default: float = Field(default=0.5, ge=0, le=1)
    # Tier rules (DESIGN §7), applied by the lifecycle job.
    working_min_access: int = Field(default=3, ge=0)
    working_min_composite: float = Field(default=0.4, ge=0)
    core_min_access: int = Field(default=10, ge=0)
    core_min_composite: float = Field(default=0.7, ge=0)
    core_min_importance: float = Field(default=0.8, ge=0, le=1)
    demote_max_composite: float = Field(default=0.15, ge=0)
    """working -> peripheral and core -> working when C is below this."""
    demote_min_age_days: float = Field(default=60.0, ge=0)
    """working -> peripheral also when older than this and accessed fewer than ``demote_max_access``."""
    demote_max_access: int = Field(default=3, ge=0)
    archive_max_retention: float = Field(default=0.05, ge=0, le=1)
    archive_min_idle_days: float = Field(default=30.0, ge=0)
    feedback_demote_below: float = Field(default=0.2, ge=0, le=1)
    """A negative signal leaving the feedback weight below this demotes one tier; ``corrected`` always."""
    promote_min_feedback: float = Field(default=0.5, ge=0, le=1)
    """The job promotes only memories whose feedback weight is at least this (neutral by default),
    so a corrected or ignored memory is not promoted again until a positive signal lifts it."""
    job_page_size: int = Field(default=1_000, ge=1, le=10_000)
    top_movers: int = Field(default=10, ge=0, le=1_000)


class RetainSettings(_Section):
    dedup_cosine: float = Field(default=0.95, ge=0, le=1)
    prefilter_cosine: float = Field(default=0.7, ge=0, le=1)
    min_chars: int = Field(default=5, ge=1)
    default_importance: float = Field(default=0.5, ge=0, le=1)
    # Raw texts, events and cases are acknowledged once durable and embedded in the background;
    # every read first embeds what its tenant still has pending, so recall never misses them.
    defer_embedding: bool = True
    embed_previous: bool = True
    """Embed a deferred transcript turn (raw, in a thread, in a session or read as a turn) with
    the turn before it in its thread (the stored content stays the turn alone); with the part
    "asked" it wins on all three dev sets (docs/evaluation.md)."""
    embed_previous_part: Literal["whole", "asked"] = "asked"
    """With ``embed_previous``: the whole turn before, or only what it asks (its questions, else
    its last sentence), which is what a reply answers."""
    max_memories_per_call: int = Field(default=10, ge=1, le=50)
    """At most this many memories from one LLM extraction call."""
    input_char_budget: int = Field(default=12_000, ge=500)
    """The LLM sees the latest messages up to this many characters."""
    dedup_candidates: int = Field(default=3, ge=1, le=10)
    """Existing memories (cosine >= ``prefilter_cosine``) shown to the LLM per new memory."""


class ScanSettings(_Section):
    """How the embedded default's k-NN scans a tenant's vectors (process-wide, not per tenant)."""

    exact_max_rows: int = Field(default=32_768, ge=0)
    """Scans over more rows pick candidates by sign bits first, then score those on float32 vectors."""
    rescore: int = Field(default=1_000, ge=1)
    """Candidates per query the first pass hands on (at least 4 × k)."""
    cached_rows: int = Field(default=1_000_000, ge=0)
    """Rows one process's search caches hold over all tenants; loading or writing one drops the least
    recently searched others until the rest fit (it stays whatever its size)."""


class LlmSettings(_Section):
    """The extraction model (DESIGN §10); ``none`` keeps the rule-based extractor alone."""

    provider: Literal["none", "openai", "bedrock"] = "none"
    base_url: str | None = None
    """OpenAI-compatible endpoint up to ``/v1`` (e.g. ``http://localhost:11434/v1`` for Ollama)."""
    model: str | None = None
    api_key: SecretStr | None = None
    """The key itself, or the ARN of a Secrets Manager secret holding it (read on first use)."""
    region: str | None = None
    timeout_s: float = Field(default=20.0, gt=0)
    """Per attempt."""
    deadline_s: float = Field(default=45.0, gt=0)
    """For all attempts of one call together; below the Lambda timeout."""
    max_attempts: int = Field(default=3, ge=1, le=10)
    backoff_s: float = Field(default=0.5, ge=0)
    """Base of the capped exponential backoff with full jitter between attempts."""
    max_output_tokens: int = Field(default=2_000, ge=64)

    @model_validator(mode="after")
    def _complete(self) -> LlmSettings:
        if self.provider != "none" and not self.model:
            raise ValueError("ENGRAM_LLM_MODEL is required when an LLM provider is configured")
        if self.provider == "openai" and not self.base_url:
            raise ValueError("ENGRAM_LLM_BASE_URL is required for the openai provider")
        return self


class LimitsSettings(_Section):
    """A tenant's request rate and monthly budgets (None: no limit). The rate is enforced by
    ``engram serve`` (in the cloud, by the tenant's API Gateway usage plan); the budgets count
    the UTC calendar month's metered tokens."""

    requests_per_second: float | None = Field(default=None, gt=0, le=100_000)
    burst: int | None = Field(default=None, ge=1, le=1_000_000)
    """Requests allowed at once (default: the rate, at least 1)."""
    llm_tokens_per_month: int | None = Field(default=None, ge=0, le=MAX_INT)
    """Input plus output tokens; once spent, smart and auto retains extract by the rules."""
    embedding_tokens_per_month: int | None = Field(default=None, ge=0, le=MAX_INT)
    """Once spent, retains and recalls answer 429 until the month ends."""


class WebhookSettings(_Section):
    """How ``engram serve`` sends webhook deliveries (``engram.webhooks.dispatch``)."""

    poll_s: float = Field(default=0.25, gt=0)
    """How often the outbox is read (a few cheap indexed queries)."""
    timeout_s: float = Field(default=5.0, gt=0)
    """Per attempt, in all: connect, send, and read the answer (a receiver trickling bytes is cut off)."""
    max_attempts: int = Field(default=8, ge=1)
    backoff_s: float = Field(default=2.0, ge=0)
    """The wait before the first retry; it doubles with each attempt (1 + 7 retries ≈ 4 min at the default)."""
    max_backoff_s: float = Field(default=600.0, ge=0)
    senders: int = Field(default=16, ge=1, le=64)
    """Endpoints sent to at the same time; each endpoint has its own queue, so one slow receiver
    holds up only its own deliveries."""
    max_response_bytes: int = Field(default=65_536, ge=0)
    """Of a receiver's answer, at most this much is read (the status is what counts)."""
    allow_private: bool = False
    """Local development only: allow http and loopback/private addresses (by default a webhook
    must be https to a public address, checked again at each send)."""
    keep_days: float = Field(default=7.0, gt=0)
    """Finished deliveries stay in the log this long."""


class EventsSettings(_Section):
    """Whether a tenant's changes go on the cloud's EventBridge bus (opt-in: $1.00 a million events
    whether a rule takes them or not); an operator turns it on with the rule that consumes them.
    ``ENGRAM_EVENTS__PUBLISH`` is the stage's default. Not the embedded server's webhooks."""

    publish: bool = False


class RerankSettings(_Section):
    """The cross-encoder provider (DESIGN §6.3, §10); ``none``: recall never reranks."""

    provider: Literal["none", "tei", "bedrock"] = "none"
    url: str | None = None
    """``tei``: the full URL of a Jina/TEI-compatible rerank endpoint (``http://host:8080/rerank``)."""
    model: str | None = None
    """``bedrock``: a model id (``amazon.rerank-v1:0``, ``cohere.rerank-v3-5:0``) or its ARN;
    ``tei``: sent as ``model`` when set (hosted Jina-style APIs need it)."""
    api_key: SecretStr | None = None
    """``tei``: a bearer token, or the ARN of a Secrets Manager secret holding it."""
    region: str | None = None
    timeout_s: float = Field(default=2.0, gt=0)
    """Of one rerank call; recall itself waits only ``recall.rerank_budget_ms``."""

    @model_validator(mode="after")
    def _complete(self) -> RerankSettings:
        if self.provider == "bedrock" and not self.model:
            raise ValueError("ENGRAM_RERANK_MODEL is required for the bedrock rerank provider")
        if self.provider == "tei" and not self.url:
            raise ValueError("ENGRAM_RERANK_URL is required for the tei rerank provider")
        return self


class AwsSettings(_Section):
    """Where the AWS backend (``backend="aws"``) finds its services; read only on that backend."""

    region: str | None = None
    table: str = "engram"
    """The DynamoDB table (single-table design; see the README's key design)."""
    dynamodb_endpoint: str | None = None
    """Only for DynamoDB Local; None uses the region's endpoint."""
    max_attempts: int = Field(default=4, ge=1, le=10)
    """botocore "standard" retry mode: total attempts per call, jittered exponential backoff."""
    memory_reads: Literal["consistent", "eventual"] = "consistent"
    """How the store reads memories by id (``get_many``): ``eventual`` costs half the read units
    and may be up to about a second stale; the stack sets it on the recall function only, whose
    reads by id rank candidates and never feed a write."""
    index: Literal["opensearch", "memory"] = "opensearch"
    """``memory``: the in-process index loaded from DynamoDB (tests, one-process deployments)."""
    opensearch_endpoint: str | None = None
    opensearch_service: Literal["es", "aoss"] = "es"
    """SigV4 service name: ``es`` for a managed domain, ``aoss`` for a Serverless collection."""
    opensearch_index: str = "engram-memories"
    opensearch_timeout_s: float = Field(default=5.0, gt=0)
    """Each attempt of an OpenSearch request (the client makes up to three), capped by the
    invocation's time left."""
    opensearch_shards: int = Field(default=1, ge=1, le=64)
    opensearch_replicas: int = Field(default=0, ge=0, le=5)
    """Replicas of the memory index: the stack sets 0 on a one-node domain (a replica there could
    never be assigned and the cluster would stay yellow), 1 otherwise."""
    hybrid_pipeline: str | None = None
    """Name of a search pipeline with a normalization processor: recall then asks OpenSearch
    (>= 2.19) for one server-side ``hybrid`` query instead of two candidate lists."""
    bedrock_model: str = "amazon.titan-embed-text-v2:0"
    embedding_dimensions: int = Field(default=1024, ge=1, le=8192)
    """Titan V2 offers 256, 512 or 1024; an OpenAI-compatible model, what it supports. The stack
    sets 512 (``infra/cdk.json``: ~99 % of 1,024's retrieval accuracy by AWS's measure, one
    DynamoDB write unit less a memory); the default here stays 1,024, the size a store made with an
    earlier version holds (an index refuses vectors of another size: ``IndexSetup.check_dimension``)."""
    openai_base_url: str | None = None
    openai_model: str = "text-embedding-3-small"
    openai_api_key: SecretStr | None = None
    fallback_embedder: Literal["bedrock", "openai", "local"] | None = None
    provider_timeout_s: float = Field(default=5.0, gt=0)
    provider_deadline_s: float = Field(default=20.0, gt=0)
    """Total time an embedding call may take, retries included (and never past the invocation's
    own end: see ``engram.deadline``)."""
    key_pepper: SecretStr | None = None
    """HMAC pepper for API keys (env ENGRAM_KEY_PEPPER, from Secrets Manager in the stack)."""
    usage_plan_prefix: str | None = None
    """Set (env ENGRAM_USAGE_PLAN_PREFIX): a new tenant gets an API Gateway key in the usage plan
    named ``<prefix><tier>``, deleted with the tenant."""
    usage_plan_tiers: str = "standard"
    """Comma-separated tiers (env ENGRAM_TIERS); new tenants go to the first."""
    bucket: str | None = None
    """S3 bucket (env ENGRAM_BUCKET) for job bodies too large for an item and for exports."""
    step_queue_url: str | None = None
    """SQS queue (env ENGRAM_STEP_QUEUE_URL) of tenant-wide work in resumable steps: erasures and
    the scheduled lifecycle run of every tenant."""
    export_url_expiry_s: int = Field(default=900, ge=60, le=43_200)
    event_bus: str | None = None
    """EventBridge bus (env ENGRAM_EVENT_BUS) of the events of tenants with ``events.publish`` on."""

    @field_validator("opensearch_endpoint")
    @classmethod
    def _endpoint_url(cls, endpoint: str | None) -> str | None:
        """A managed domain or a collection listens on 443 over TLS only; a bare host name would
        make the client speak plain HTTP to port 9200, so it is refused rather than guessed."""
        if endpoint is None:
            return None
        parts = urllib.parse.urlsplit(endpoint)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise ValueError(f"must be a URL with its scheme (https://host), not {endpoint!r}")
        if parts.path not in ("", "/") or parts.query:
            raise ValueError(f"must be scheme://host[:port], not {endpoint!r}")
        return endpoint


class Settings(BaseSettings):
    """Process-wide settings. ``Settings(...)`` takes values only as given; ``from_env`` reads
    the environment (``engram.settings_env``: each setting's variable is in ``ENV_NAMES``)."""

    model_config = SettingsConfigDict(extra="forbid", frozen=True)  # variables: engram.settings_env

    backend: Literal["local", "aws"] = "local"
    data_dir: Path = Path("~/.engram").expanduser()
    embedder: Literal["local", "bedrock", "openai"] = "local"
    background_embedding: bool = True
    """Embed deferred memories on a background thread (off: only reads and ``close`` embed them)."""
    blas_threads: int | None = Field(default=1, ge=1)
    """Threads numpy's BLAS may use in this process (None leaves it alone). Recall's products are
    small and memory-bound; extra BLAS threads only spin against the embedding model's threads."""
    sqlite_mmap_mb: int = Field(default=4_096, ge=0)
    """How much of the SQLite file reads may map into memory (0: read() every page)."""
    lifecycle_interval_s: float = Field(default=3_600.0, gt=0)
    """How often ``engram serve`` runs the lifecycle job over every tenant (``--no-lifecycle`` turns it off)."""
    extract_queue_url: str | None = None
    """SQS queue of asynchronous retains (env ENGRAM_EXTRACT_QUEUE_URL); unset: a local job thread."""
    operator_token: SecretStr | None = None
    """The admin routes' credential (env ENGRAM_OPERATOR_TOKEN); locally a generated file by default."""
    recall: RecallSettings = RecallSettings()
    lifecycle: LifecycleSettings = LifecycleSettings()
    retain: RetainSettings = RetainSettings()
    scan: ScanSettings = ScanSettings()
    aws: AwsSettings = AwsSettings()
    llm: LlmSettings = LlmSettings()
    rerank: RerankSettings = RerankSettings()
    limits: LimitsSettings = LimitsSettings()
    webhook: WebhookSettings = WebhookSettings()
    events: EventsSettings = EventsSettings()

    @field_validator("data_dir")
    @classmethod
    def _expand_home(cls, value: Path) -> Path:
        return value.expanduser()

    @model_validator(mode="after")
    def _aws_complete(self) -> Settings:
        if self.backend == "aws" and self.aws.index == "opensearch" and not self.aws.opensearch_endpoint:
            raise ValueError("ENGRAM_OPENSEARCH_ENDPOINT is required for the aws backend")
        return self

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource, *_: Any, **__: Any
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The values given, then the variables ``from_env`` is reading (and no others: the
        constructor alone reads no environment)."""
        source = reading.get()
        return (init_settings,) if source is None else (init_settings, source)

    @classmethod
    def from_env(cls, environ: Mapping[str, str], **overrides: Any) -> Settings:
        """Settings from the variables of ``environ`` (``ENV_NAMES``; empty ones count as unset);
        keyword overrides win. Any invalid value or rule is a ``ConfigurationError`` naming its
        variable; an old variable name works, with a ``DeprecationWarning`` naming the new one."""
        source = EnvironSource(cls, environ)
        if source.unknown:
            raise ConfigurationError(f"unknown setting variable(s): {', '.join(source.unknown)}")
        token = reading.set(source)
        try:
            return cls(**{k: v for k, v in overrides.items() if v is not None})
        except ValidationError as exc:
            raise source.error(exc.errors()) from None
        finally:
            reading.reset(token)

    def for_tenant(self, overrides: Mapping[str, Any] | None) -> Settings:
        """These settings with a tenant's overrides applied (only ``TENANT_SECTIONS``)."""
        if not overrides:
            return self
        unknown = set(overrides) - set(TENANT_SECTIONS)
        if unknown:
            raise ValueError(f"unknown settings sections: {sorted(unknown)}")
        sections: dict[str, Any] = {}
        for name, values in overrides.items():
            current: _Section = getattr(self, name)
            sections[name] = type(current).model_validate({**current.model_dump(), **values})
        return self.model_copy(update=sections)


TENANT_SECTIONS: dict[str, type[_Section]] = {
    "recall": RecallSettings,
    "lifecycle": LifecycleSettings,
    "retain": RetainSettings,
    "limits": LimitsSettings,
    "events": EventsSettings,
}
"""The sections a tenant may override (``Settings.for_tenant``)."""

ENV_NAMES = canonical_names(Settings)
"""Every setting (``aws.table``) -> its one variable (``ENGRAM_TABLE``)."""
DEPRECATED_ENV_NAMES = {old: ENV_NAMES[path] for old, path in deprecated_names(Settings).items()}
"""Every old variable, read for one more release (``ENGRAM_AWS__TABLE``) -> its new name."""


def _override_model(name: str, section: type[_Section]) -> type[BaseModel]:
    """``section`` with every field optional: the shape of one section of a tenant's overrides
    (the same names, types and bounds; strict types, unknown names refused)."""
    fields: dict[str, Any] = {}
    for field, info in section.model_fields.items():
        optional = copy.copy(info)
        optional.default = None
        optional.default_factory = None
        if info.annotation is int and not any(hasattr(m, "le") or hasattr(m, "lt") for m in info.metadata):
            optional.metadata = [*info.metadata, annotated_types.Le(MAX_INT)]  # what JSON carries
        fields[field] = (Optional[info.annotation], optional)  # noqa: UP045 (a runtime type)
    config = ConfigDict(extra="forbid", strict=True)
    return create_model(f"{name.title()}Overrides", __config__=config, **fields)


_SECTION_FIELDS: dict[str, Any] = {
    name: (Optional[_override_model(name, section)], None)  # noqa: UP045 (a runtime type)
    for name, section in TENANT_SECTIONS.items()
}
TenantOverrides: type[BaseModel] = create_model(
    "TenantOverrides", __config__=ConfigDict(extra="forbid", strict=True), **_SECTION_FIELDS
)
"""``PUT /v1/admin/tenants/{t}/settings``'s ``settings``: the sections and fields a tenant may
override, so the OpenAPI document lists them and anything else is refused by name."""
