"""What the API answers: the response models (DESIGN §3–4). ``engram.models`` re-exports them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    Field,
)

from engram.records import (
    Action,
    Category,
    HistoryEntry,
    MemoryRecord,
    Source,
    Status,
    Tier,
    Trust,
)


class MemoryView(BaseModel):
    """A memory as the API returns it."""

    id: str
    scope: str
    category: Category
    content: str
    abstract: str
    overview: str
    key_facts: list[str]
    entities: list[str]
    tags: list[str]
    metadata: dict[str, Any]
    importance: float
    confidence: float
    tier: Tier
    status: Status
    feedback_weight: float
    access_count: int
    last_accessed_at: datetime | None
    created_at: datetime
    updated_at: datetime
    occurred_at: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None
    supersedes: str | None
    superseded_by: str | None
    version: int
    source: Source
    trust: Trust
    pinned: bool
    expires_at: datetime | None
    history: list[HistoryEntry] | None = None
    lifecycle: dict[str, Any] | None = None
    """On ``GET``: R, F, I, C and the multiplier now, why the memory is in its tier, what the job would do."""

    @classmethod
    def of(cls, record: MemoryRecord, history: list[HistoryEntry] | None = None) -> MemoryView:
        data = record.model_dump(exclude={"tenant_id", "content_hash", "embedding_model"})
        return cls(**data, history=history)


class RetainResult(BaseModel):
    id: str
    action: Action
    memory: MemoryView | None = None
    reason: str | None = None


class RetainResponse(BaseModel):
    results: list[RetainResult]
    replayed: bool = False
    extraction: Literal["llm", "rules"] | None = None
    """Who extracted the memories of a smart or auto retain: the LLM, or the rules (None: raw)."""
    embedding_truncated: list[str] | None = None
    """Memories whose text is longer than the embedding model takes (Titan V2: 8,192 tokens):
    their vector is of the text's start; keyword search still sees all of it."""
    fallback: str | None = None
    """Why a smart or auto retain extracted by the rules instead of the LLM: its LLM budget is
    spent, or the LLM call failed (``llm: <reason>``)."""


class RecalledMemory(BaseModel):
    id: str
    content: str
    category: Category
    scope: str
    score: float
    tier: Tier
    tags: list[str]
    metadata: dict[str, Any]
    created_at: datetime
    occurred_at: datetime | None
    trust: Trust = "user-stated"
    """Who said it: ``user-stated``, ``assistant-inferred``, ``tool`` or ``imported``."""
    trace: dict[str, Any] | None = None


class RerankTrace(BaseModel):
    """What the rerank stage did (``debug``): ``ok``, or why the fused order was kept."""

    provider: str
    model: str
    status: Literal["ok", "timeout", "error"]
    reranked: int
    """Memories the provider scored (0 when it did not answer)."""
    ms: float = 0.0
    reason: str | None = None


class RecallResponse(BaseModel):
    memories: list[RecalledMemory]
    context: str | None = None
    timings_ms: dict[str, float] | None = None
    rerank: RerankTrace | None = None
    """With ``debug``, when a reranker is configured and asked for."""


class ForgetResponse(BaseModel):
    """``deleted``: what went (always empty on a dry run); ``would_delete``: what a dry run
    selected (empty otherwise)."""

    deleted: list[str]
    would_delete: list[str] = Field(default_factory=list)
    dry_run: bool
    receipt_id: str | None
    candidates: list[dict[str, Any]] | None = None


class ImportResponse(BaseModel):
    """An import written within its call (a larger one answers ``JobAccepted``, 202)."""

    imported: int
    skipped: int
    """Memories whose id the tenant already had (for a key limited to scopes: in its own scopes),
    and lines repeating an earlier line's id."""


class ImportReport(BaseModel):
    """An import of another service's export (``?from=mem0|jsonl|memory-lancedb-pro``): every
    record of the file is imported (counted by scope) or skipped with why; a dry run writes
    nothing and says the same of what an import would do."""

    format: Literal["mem0", "jsonl", "memory-lancedb-pro"]
    dry_run: bool
    read: int
    """Records in the file (lines, or items of a JSON document)."""
    imported: int
    skipped: int
    skipped_reasons: list[dict[str, Any]]
    """The first 100 skipped records, each ``{"line" | "item": n, "reason": ...}``."""
    by_scope: dict[str, int]
    mapping: dict[str, dict[str, int]] | None = None
    """How the source's scopes, categories, tiers, states and unmapped fields mapped, where the
    format says (memory-lancedb-pro)."""


class HealthResponse(BaseModel):
    status: Literal["ok"]
    version: str


class FeedbackResponse(BaseModel):
    id: str
    feedback_weight: float


class ListResponse(BaseModel):
    memories: list[MemoryView]
    next_cursor: str | None


class TierMove(BaseModel):
    """One memory the lifecycle job moved: from and to which tier, by which rules."""

    id: str
    from_tier: Tier
    to_tier: Tier
    composite: float
    reason: str


class LifecycleReport(BaseModel):
    """What one run of the lifecycle job did to one tenant (stored, and returned by the CLI and the
    scheduled functions). ``cursor`` is where a run that stopped early resumes."""

    run_id: str
    tenant_id: str
    now: datetime
    rules: Literal["all", "decay", "tiering"] = "all"
    dry_run: bool = False
    status: Literal["running", "completed"] = "running"
    started_at: datetime
    finished_at: datetime | None = None
    cursor: str | None = None
    pages: int = 0
    scanned: int = 0
    promoted: int = 0
    demoted: int = 0
    archived: int = 0
    expired: int = 0
    conflicts: int = 0
    """Memories changed by someone else while the job looked at them; the next run sees them."""
    pending_expired: list[str] = Field(default_factory=list)
    """Expired ids found but not yet deleted (deletion is batched); empty once a run completes."""
    by_tier: dict[str, int] = Field(default_factory=dict)
    top_movers: list[TierMove] = Field(default_factory=list)
    duration_s: float = 0.0


USAGE_COUNTERS = ("retain_calls", "recall_calls", "forget_calls", "feedback_calls")
"""The calls ``GET /v1/stats`` counts per tenant (each is there, 0 until the first call)."""


class StatsResponse(BaseModel):
    tenant_id: str
    total: int
    by_scope: dict[str, int]
    by_category: dict[str, int]
    by_tier: dict[str, int]
    by_status: dict[str, int]
    storage_bytes: int
    usage: dict[str, int]
    """Every usage counter summed over all days, the call counters (``USAGE_COUNTERS``) at 0 until
    used; empty for a key limited to scopes (see the README's Usage metering)."""
    usage_by_day: dict[str, dict[str, int]] = Field(default_factory=dict)
    """The counters of each of the last 31 days (UTC) that has any, by ``YYYY-MM-DD``."""
    pending_embedding: int = 0
    """Memories stored and searchable by BM25 that wait for their vector (the embedding backlog)."""
    last_lifecycle_run: LifecycleReport | None = None
    """The tenant's last lifecycle run; null before the first (and for a key limited to scopes)."""


class UsageReport(BaseModel):
    """A tenant's metered usage per UTC day, with what it stores now."""

    tenant_id: str
    since: str
    until: str
    days: dict[str, dict[str, int]]
    totals: dict[str, int]
    stored_memories: int
    stored_bytes: int


class ImportProgress(BaseModel):
    """How far an import job is: of ``total`` memories in the file, ``done`` were written
    (``imported``) or found already there (``skipped``, with the file's own repeats)."""

    total: int = 0
    done: int = 0
    imported: int = 0
    skipped: int = 0


class Job(BaseModel):
    """An asynchronous retain or import: ``queued`` -> ``running`` -> ``succeeded`` | ``failed``."""

    job_id: str
    kind: Literal["retain", "import"] = "retain"
    status: Literal["queued", "running", "succeeded", "failed"]
    scope: str | None = None
    """The retain's scope: a key limited to other scopes does not see the job."""
    scopes: list[str] | None = None
    """An import's: the scopes of the key that made it (null: every scope); only a key allowed
    all of them sees the job."""
    progress: ImportProgress | None = None
    """An import's counts, kept as it goes (a job that stops at a deadline resumes from ``done``)."""
    created_at: datetime
    updated_at: datetime
    results: list[RetainResult] | None = None
    error: str | None = None
    extraction: Literal["llm", "rules"] | None = None
    """As in the retain's answer: who extracted the memories."""
    fallback: str | None = None
    """As in the retain's answer: why it extracted by the rules."""
    request: dict[str, Any] | None = Field(default=None, exclude=True)
    """The retain body while the job waits or runs (persisted so a restart resumes it); then dropped."""


class JobAccepted(BaseModel):
    job_id: str
    status: Literal["queued"] = "queued"


class ImportUpload(BaseModel):
    """Where to put a large import (the cloud): ``PUT`` the JSONL to ``upload_url`` before
    ``expires_at``, then ``POST /v1/import?upload=<job_id>`` starts the job."""

    job_id: str
    upload_url: str
    method: Literal["PUT"] = "PUT"
    expires_at: datetime
    max_bytes: int


class ExportLink(BaseModel):
    """An export written to object storage (the cloud): the JSONL is fetched from ``url``."""

    url: str
    expires_at: datetime
    memories: int
    bytes: int
