"""Typed contracts: the memory record, API requests and responses (DESIGN §3–4).

Requests forbid unknown fields and never carry server-owned fields (tenant, tier on create,
feedback weight, embedding, counters); the domain record and the response views are separate
models so a caller can never set what the server owns.

The requests are defined here; the record and the shared field types (``engram.records``) and the
responses (``engram.responses``) are re-exported, so ``from engram.models import X`` finds every
contract.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    model_validator,
)
from pydantic_core import PydanticCustomError

from engram.records import *  # noqa: F403 (re-exported: engram.models is every contract)
from engram.records import (
    MAX_BATCH_ITEMS,
    MAX_FORGET_BY_QUERY,
    MAX_MESSAGES,
    Category,
    IsoDatetime,
    MemoryId,
    Metadata,
    MetadataFilter,
    QueryText,
    Request,
    RetainMode,
    Scope,
    Signal,
    Status,
    Tag,
    TenantId,
    Text,
    Tier,
)
from engram.responses import *  # noqa: F403 (re-exported: engram.models is every contract)


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
