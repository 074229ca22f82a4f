"""Typed contracts: the memory record, API requests and responses (DESIGN §3–4).

Requests forbid unknown fields and never carry server-owned fields (tenant, tier on create,
feedback weight, embedding, counters); the domain record and the response views are separate
models so a caller can never set what the server owns.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

MAX_TEXT_CHARS = 32_000
MAX_BATCH_ITEMS = 100
MAX_MESSAGES = 200
MAX_QUERY_CHARS = 4_000
MAX_FORGET_BY_QUERY = 100  # a forget by query is one recall: its limit is recall's

METADATA_KEY = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$"
NOT_BLANK = r"[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
r"""A character that is not white space as JSON Schema's regexes (ECMA-262 ``\s``) define it; the
pattern is unanchored, so a text matching it is not blank. Spelled out because Python's ``\s``
and ``str.isspace`` also count control characters such as U+001F."""
TENANT_ID = r"^[a-z0-9][a-z0-9-]{2,62}$"
TenantId = Annotated[str, StringConstraints(pattern=TENANT_ID), Field(examples=["acme"])]
MEMORY_ID = r"^mem_[0-9a-f]{32}$"
JOB_ID = r"^job_[0-9a-f]{32}$"
MemoryId = Annotated[
    str, StringConstraints(pattern=MEMORY_ID), Field(examples=["mem_2dc26cf4374a7cbd11f85a6cba1507ab"])
]
Scope = Annotated[
    str,
    StringConstraints(pattern=r"^(global|(agent|user|project|session):[A-Za-z0-9][A-Za-z0-9._@:+-]{0,127})$"),
    Field(examples=["user:alice"]),
]
Tag = Annotated[
    str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 _.:/+-]{0,63}$"), Field(examples=["travel"])
]
MetadataKey = Annotated[str, StringConstraints(pattern=METADATA_KEY)]
Scalar = str | int | float | bool


_NOT_BLANK_SCHEMA: dict[str, Any] = {"pattern": NOT_BLANK}  # checked by _not_blank, with a plain message


def _not_blank(value: str) -> str:
    if not re.search(NOT_BLANK, value):
        raise ValueError("must not be empty or whitespace only")
    return value


Text = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_TEXT_CHARS,
        json_schema_extra=_NOT_BLANK_SCHEMA,
        examples=["I prefer dark mode"],
    ),
    AfterValidator(_not_blank),
]


QueryText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        json_schema_extra=_NOT_BLANK_SCHEMA,
        examples=["what theme do I like?"],
    ),
    AfterValidator(_not_blank),
]


def _iso_string(value: Any) -> Any:
    if isinstance(value, int | float):
        raise ValueError("must be an ISO 8601 date-time string with a time zone, not a number")
    return value


IsoDatetime = Annotated[AwareDatetime, Field(strict=False), BeforeValidator(_iso_string)]
"""A request's date-time: an ISO 8601 string with a zone (``2026-05-08T10:00:00Z``), never a number."""
Category = Literal["profile", "preference", "entity", "event", "case", "pattern", "fact", "raw"]
Tier = Literal["peripheral", "working", "core", "archived"]
Status = Literal["active", "superseded", "archived", "quarantined"]
"""``quarantined``: instruction-like content kept for review, never recalled by default."""
RetainMode = Literal["raw", "smart", "auto"]
Signal = Literal["used", "ignored", "corrected", "positive", "negative"]
Action = Literal["created", "merged", "skipped", "superseded"]
Trust = Literal["user-stated", "assistant-inferred", "tool", "imported"]

CATEGORIES: tuple[str, ...] = ("profile", "preference", "entity", "event", "case", "pattern", "fact", "raw")
TIERS: tuple[str, ...] = ("peripheral", "working", "core", "archived")


def _check_metadata(value: dict[str, Any]) -> dict[str, Any]:
    if len(value) > 32:
        raise ValueError("at most 32 metadata keys")
    for key, item in value.items():
        items = item if isinstance(item, list) else [item]
        for v in items:
            if v is not None and not isinstance(v, str | int | float | bool):
                raise ValueError(f"metadata '{key}' must be a string, number, boolean or a list of them")
            if isinstance(v, str) and len(v) > 1024:
                raise ValueError(f"metadata '{key}' is longer than 1024 characters")
            if isinstance(v, float) and not math.isfinite(v):
                raise ValueError(f"metadata '{key}' must be a finite number")
    return value


def _keyed_by_metadata_key(value: dict[str, Any], *, max_properties: int | None = None) -> WithJsonSchema:
    """The JSON Schema of an object whose keys are metadata keys (and no other keys)."""
    schema: dict[str, Any] = {
        "type": "object",
        "patternProperties": {METADATA_KEY: {"anyOf": [value, {"type": "array", "items": value}]}},
        "additionalProperties": False,
    }
    if max_properties is not None:
        schema["maxProperties"] = max_properties
    return WithJsonSchema(schema)


_SCALAR = [{"type": "string", "maxLength": 1024}, {"type": "number"}, {"type": "boolean"}]
Metadata = Annotated[
    dict[MetadataKey, Any],
    AfterValidator(_check_metadata),
    _keyed_by_metadata_key({"anyOf": [*_SCALAR, {"type": "null"}]}, max_properties=32),
]
_FilterScalar = Annotated[str, Field(max_length=1024)] | int | float | bool
MetadataFilter = Annotated[
    dict[MetadataKey, _FilterScalar | list[_FilterScalar]], _keyed_by_metadata_key({"anyOf": _SCALAR})
]


RequestT = TypeVar("RequestT", bound=BaseModel)


class Request(BaseModel):
    """Base of every request: unknown fields are errors, strings are stripped of nothing, and
    types are strict (``"5"`` is not a number, ``1`` is not ``true``)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)


# ---------------------------------------------------------------------------------------------
# Domain record


class Source(BaseModel):
    model_config = ConfigDict(extra="forbid")

    session_id: str | None = None
    message_refs: list[int] = Field(default_factory=list)
    agent: str | None = None
    role: str | None = None
    batch_id: str | None = None
    """Set by retain on transcript turns that came in one call without a session id: the call's
    batch then stands for the session (its order is the conversation's)."""


class MemoryRecord(BaseModel):
    """One memory as the store keeps it (DESIGN §4). The embedding lives beside it, not in it."""

    model_config = ConfigDict(extra="forbid")

    tenant_id: str
    id: str
    scope: str
    category: Category = "raw"
    content: str
    abstract: str = ""
    overview: str = ""
    key_facts: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    importance: float = 0.5
    confidence: float = 1.0
    tier: Tier = "peripheral"
    feedback_weight: float = 0.5
    access_count: int = 0
    last_accessed_at: datetime | None = None
    created_at: datetime
    updated_at: datetime
    occurred_at: datetime | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    status: Status = "active"
    supersedes: str | None = None
    superseded_by: str | None = None
    version: int = 1
    source: Source = Field(default_factory=Source)
    trust: Trust = "user-stated"
    pinned: bool = False
    expires_at: datetime | None = None
    content_hash: str
    embedding_model: str = ""

    @property
    def thread(self) -> str | None:
        """The conversation this memory is a turn of: its session, else the retain call's batch."""
        if self.source.session_id is not None:
            return self.source.session_id
        return f"batch:{self.source.batch_id}" if self.source.batch_id else None


class HistoryEntry(BaseModel):
    """One change of a memory: what it became and why."""

    model_config = ConfigDict(extra="forbid")

    memory_id: str
    version: int
    event: Literal["created", "merged", "updated", "superseded", "feedback", "tier", "released"]
    at: datetime
    content: str
    detail: dict[str, Any] = Field(default_factory=dict)


class Tenant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tenant_id: str
    name: str
    created_at: datetime
    settings_overrides: dict[str, Any] = Field(default_factory=dict)
    erasing: bool = False
    """Its erasure has started (in steps, in the cloud): it answers nothing any more."""


# ---------------------------------------------------------------------------------------------
# Requests


class NewTenant(Request):
    tenant_id: TenantId
    name: str = Field(min_length=1, max_length=200)


class Message(Request):
    role: Literal["user", "assistant", "system", "tool"]
    content: Text
    name: str | None = Field(default=None, max_length=128)


class RetainItem(Request):
    text: Text
    metadata: Metadata = Field(default_factory=dict)
    occurred_at: IsoDatetime | None = None
    tags: list[Tag] = Field(default_factory=list, max_length=32)


def _exactly_one(model: BaseModel, names: tuple[str, ...]) -> None:
    """Exactly one of ``names`` given, and not null (the schema's ``oneOf`` of ``required``)."""
    given = [name for name in names if name in model.model_fields_set]
    if len(given) != 1 or getattr(model, given[0]) is None:
        raise ValueError(
            "give exactly one of " + ", ".join(f"'{n}'" for n in names[:-1]) + f" or '{names[-1]}'"
        )


def _without_null(prop: dict[str, Any]) -> None:
    """A property's JSON Schema without its ``null`` branch or default: null is refused."""
    branches = [b for b in prop.pop("anyOf", []) if b != {"type": "null"}]
    if branches:
        prop.update(branches[0] if len(branches) == 1 else {"anyOf": branches})
    prop.pop("default", None)


def _one_of(*names: str) -> Callable[[dict[str, Any]], None]:
    """The JSON Schema of "exactly one of ``names``, not null": a ``oneOf`` of ``required``,
    and those properties without their ``null`` branch."""

    def edit(schema: dict[str, Any]) -> None:
        schema["oneOf"] = [{"required": [name]} for name in names]
        for name in names:
            _without_null(schema["properties"][name])

    return edit


class RetainRequest(Request):
    """``POST /v1/memories``: exactly one of ``text``, ``messages`` or ``items``."""

    model_config = ConfigDict(json_schema_extra=_one_of("text", "messages", "items"))

    scope: Scope
    text: Text | None = None
    messages: list[Message] | None = Field(default=None, min_length=1, max_length=MAX_MESSAGES)
    items: list[RetainItem] | None = Field(default=None, min_length=1, max_length=MAX_BATCH_ITEMS)
    mode: RetainMode = "auto"
    metadata: Metadata = Field(default_factory=dict)
    tags: list[Tag] = Field(default_factory=list, max_length=32)
    occurred_at: IsoDatetime | None = None
    session_id: str | None = Field(default=None, min_length=1, max_length=128)
    expires_at: IsoDatetime | None = None
    """When the lifecycle job deletes the memories kept by this request (unless pinned)."""
    async_: bool = Field(default=False, alias="async")
    idempotency_key: str | None = Field(default=None, min_length=1, max_length=256)

    @property
    def runs_async(self) -> bool:
        """``async: true``, or ``mode: smart`` unless ``async: false`` is given."""
        return self.async_ or (self.mode == "smart" and "async_" not in self.model_fields_set)

    @model_validator(mode="after")
    def _one_input(self) -> RetainRequest:
        _exactly_one(self, ("text", "messages", "items"))
        return self


class TimeRange(Request):
    gte: IsoDatetime | None = None
    gt: IsoDatetime | None = None
    lte: IsoDatetime | None = None
    lt: IsoDatetime | None = None


class RecallFilters(Request):
    """Whitelisted filter keys; anything else is a 400 naming the key."""

    category: Category | list[Category] | None = None
    tier: Tier | list[Tier] | None = None
    tags_any: list[Tag] | None = None
    tags_all: list[Tag] | None = None
    session_id: str | None = None
    metadata: MetadataFilter | None = None
    occurred_at: TimeRange | None = None
    created_at: TimeRange | None = None


def _scope_as_scopes(data: Any) -> Any:
    """Recall also takes retain's ``scope`` (one scope) as a one-element ``scopes``."""
    if isinstance(data, dict) and "scope" in data:
        if "scopes" in data:
            raise PydanticCustomError("scope_and_scopes", "give either 'scope' or 'scopes', not both")
        data = {k: v for k, v in data.items() if k != "scope"} | {"scopes": [data["scope"]]}
    return data


def _recall_schema(schema: dict[str, Any]) -> None:
    """Document ``scope`` beside ``scopes`` (never both)."""
    scopes = schema["properties"]["scopes"]
    schema["properties"] = {
        "query": schema["properties"]["query"],
        "scope": {
            **scopes["anyOf"][0]["items"],
            "title": "Scope",
            "description": "one scope to search (the same as scopes: [scope])",
        },
        **{k: v for k, v in schema["properties"].items() if k != "query"},
    }
    schema["not"] = {"required": ["scope", "scopes"]}


class RecallRequest(Request):
    """``POST /v1/recall``. ``scope`` (one) or ``scopes`` (several); neither: every scope the key may read."""

    model_config = ConfigDict(json_schema_extra=_recall_schema)

    query: QueryText
    scopes: list[Scope] | None = Field(default=None, min_length=1, max_length=50)
    limit: int = Field(default=5, ge=1, le=100)
    filters: RecallFilters | None = None
    min_score: float | None = Field(default=None, ge=0.0, le=1.0)
    debug: bool = False
    context: bool = False
    fusion: Literal["weighted", "rrf", "bm25", "vector"] | None = None
    rerank: bool | None = None
    track_access: bool = True
    as_of: IsoDatetime | None = None
    """Recall what was true at this time (superseded memories included while they were valid)."""

    @model_validator(mode="before")
    @classmethod
    def _one_scope(cls, data: Any) -> Any:
        return _scope_as_scopes(data)


def _no_nulls(schema: dict[str, Any]) -> None:
    """JSON Schema edit: every property without its ``null`` branch (null is refused)."""
    for prop in schema["properties"].values():
        _without_null(prop)
    schema["minProperties"] = 1


class ForgetFilter(Request):
    """What a forget by filter deletes: at least one condition, none of them null or empty, so a
    filter can never mean "everything" by accident."""

    model_config = ConfigDict(json_schema_extra=_no_nulls)

    scope: Scope | None = None
    category: Category | Annotated[list[Category], Field(min_length=1)] | None = None
    tier: Tier | Annotated[list[Tier], Field(min_length=1)] | None = None
    tags_any: list[Tag] | None = Field(default=None, min_length=1)
    older_than: IsoDatetime | None = None
    session_id: str | None = Field(default=None, min_length=1, max_length=128)

    @model_validator(mode="after")
    def _not_empty(self) -> ForgetFilter:
        nulls = [name for name in self.model_fields_set if getattr(self, name) is None]
        if nulls:
            raise ValueError(f"filter conditions must not be null: {', '.join(sorted(nulls))}")
        if not self.model_fields_set:
            raise ValueError("filter must name at least one condition")
        return self


class ForgetRequest(Request):
    """``POST /v1/forget``: exactly one of ``ids``, ``query`` or ``filter``."""

    model_config = ConfigDict(json_schema_extra=_one_of("ids", "query", "filter"))

    ids: list[MemoryId] | None = Field(default=None, min_length=1, max_length=1000)
    query: QueryText | None = None
    scopes: list[Scope] | None = Field(default=None, min_length=1, max_length=50)
    threshold: float = Field(default=0.6, ge=0.0, le=1.0)
    limit: int = Field(default=100, ge=1, le=MAX_FORGET_BY_QUERY)
    """How many of the best matches above ``threshold`` a forget by query deletes (repeat for more)."""
    filter: ForgetFilter | None = None
    dry_run: bool = False

    @model_validator(mode="after")
    def _one_selector(self) -> ForgetRequest:
        _exactly_one(self, ("ids", "query", "filter"))
        return self


class FeedbackRequest(Request):
    signal: Signal


class PatchRequest(Request):
    """``PATCH /v1/memories/{id}``. ``tier`` moves a memory by hand (out of ``archived``: a restore);
    ``expires_at: null`` clears an expiry."""

    content: Text | None = None
    tags: list[Tag] | None = Field(default=None, max_length=32)
    metadata: Metadata | None = None
    pinned: bool | None = None
    tier: Tier | None = None
    expires_at: IsoDatetime | None = None


class RestoreRequest(Request):
    """``POST /v1/memories/{id}/restore``: bring an archived memory back (default tier peripheral)."""

    tier: Literal["peripheral", "working", "core"] = "peripheral"


class ListRequest(Request):
    scope: Scope | None = None
    category: Category | None = None
    tier: Tier | None = None
    tag: Tag | None = None
    status: Status | None = None
    cursor: str | None = Field(default=None, max_length=512)
    limit: int = Field(default=50, ge=1, le=500)


# ---------------------------------------------------------------------------------------------
# Responses


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


class RecallResponse(BaseModel):
    memories: list[RecalledMemory]
    context: str | None = None
    timings_ms: dict[str, float] | None = None


class ForgetResponse(BaseModel):
    """``deleted``: what went (always empty on a dry run); ``would_delete``: what a dry run
    selected (empty otherwise)."""

    deleted: list[str]
    would_delete: list[str] = Field(default_factory=list)
    dry_run: bool
    receipt_id: str | None
    candidates: list[dict[str, Any]] | None = None


class ImportResponse(BaseModel):
    imported: int
    skipped: int
    """Memories whose id the tenant already had."""


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
    """Calls so far by kind (``USAGE_COUNTERS``); empty for a key limited to scopes."""
    pending_embedding: int = 0
    """Memories stored and searchable by BM25 that wait for their vector (the embedding backlog)."""
    last_lifecycle_run: LifecycleReport | None = None
    """The tenant's last lifecycle run; null before the first (and for a key limited to scopes)."""


class Job(BaseModel):
    """An asynchronous retain: ``queued`` -> ``running`` -> ``succeeded`` | ``failed``."""

    job_id: str
    status: Literal["queued", "running", "succeeded", "failed"]
    scope: str | None = None
    """The retain's scope: a key limited to other scopes does not see the job."""
    created_at: datetime
    updated_at: datetime
    results: list[RetainResult] | None = None
    error: str | None = None
    request: dict[str, Any] | None = Field(default=None, exclude=True)
    """The retain body while the job waits or runs (persisted so a restart resumes it); then dropped."""


class JobAccepted(BaseModel):
    job_id: str
    status: Literal["queued"] = "queued"


class DeletionLogEntry(BaseModel):
    """Content-free record of a forget: what ids went, when, and under which receipt."""

    receipt_id: str
    tenant_id: str
    at: datetime
    ids: list[str]
    reason: str


class ExtractedMemory(BaseModel):
    """A memory candidate produced by an extractor, before dedup and storage."""

    model_config = ConfigDict(extra="forbid")

    category: Category
    content: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)
    abstract: str = ""
    overview: str = ""
    key_facts: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    importance: float = Field(default=0.5, ge=0, le=1)
    confidence: float = Field(default=0.8, ge=0, le=1)
    occurred_at: datetime | None = None
    message_refs: list[int] = Field(default_factory=list)
    role: str | None = None
    trust: Trust = "user-stated"


def parse(model: type[RequestT], data: Any) -> RequestT:
    """Validate untrusted input into ``model``; errors name every offending field.

    Unknown fields are a 422 (``UnprocessableError``), anything else a 400.
    """
    from pydantic import ValidationError

    from engram.errors import from_validation

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise from_validation(exc.errors(include_url=False, include_input=False)) from None


def check_expiry(expires_at: datetime | None, now: datetime) -> None:
    """An ``expires_at`` a request sets must lie ahead of ``now`` (the service's clock): one in
    the past would delete what the request keeps at the next lifecycle run."""
    from engram.errors import ValidationFailedError

    if expires_at is not None and expires_at <= now:
        problem = f"must be later than now ({now.isoformat()})"
        detail = {"field": "expires_at", "problem": problem, "type": "expires_in_past"}
        raise ValidationFailedError(f"invalid request: expires_at: {problem}", details=[detail])


def dump(model: BaseModel) -> dict[str, Any]:
    """The JSON shape the API returns: every field of the response model, null ones included,
    exactly as the OpenAPI document describes it."""
    return model.model_dump(mode="json")


class ExportLink(BaseModel):
    """An export written to object storage (the cloud): the JSONL is fetched from ``url``."""

    url: str
    expires_at: datetime
    memories: int
    bytes: int
