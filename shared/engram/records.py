"""The memory record and what every contract shares: limits, field types, the request base, and
``parse``/``dump`` (DESIGN §3–4). ``engram.models`` re-exports all of it."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
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
)

from engram.scopes import ScopeSet

# The fields' patterns live with their words (engram.validation_words); re-exported here.
from engram.validation_words import JOB_ID as JOB_ID
from engram.validation_words import MEMORY_ID as MEMORY_ID
from engram.validation_words import METADATA_KEY as METADATA_KEY
from engram.validation_words import SCOPE as SCOPE
from engram.validation_words import TAG as TAG
from engram.validation_words import TENANT_ID as TENANT_ID

MAX_TEXT_CHARS = 32_000
MAX_BATCH_ITEMS = 100
MAX_MESSAGES = 200
MAX_QUERY_CHARS = 4_000
MAX_FORGET_BY_QUERY = 100  # a forget by query is one recall: its limit is recall's

NOT_BLANK = r"[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
r"""A character that is not white space as JSON Schema's regexes (ECMA-262 ``\s``) define it; the
pattern is unanchored, so a text matching it is not blank. Spelled out because Python's ``\s``
and ``str.isspace`` also count control characters such as U+001F."""
TenantId = Annotated[str, StringConstraints(pattern=TENANT_ID), Field(examples=["acme"])]
MemoryId = Annotated[
    str, StringConstraints(pattern=MEMORY_ID), Field(examples=["mem_2dc26cf4374a7cbd11f85a6cba1507ab"])
]
Scope = Annotated[str, StringConstraints(pattern=SCOPE), Field(examples=["user:alice"])]
Tag = Annotated[str, StringConstraints(pattern=TAG), Field(examples=["travel"])]
MetadataKey = Annotated[str, StringConstraints(pattern=METADATA_KEY)]
Scalar = str | int | float | bool


_NOT_BLANK_SCHEMA: dict[str, Any] = {"pattern": NOT_BLANK}  # checked by _not_blank, with a plain message


def _not_blank(value: str) -> str:
    if not re.search(NOT_BLANK, value):
        raise ValueError("must not be empty or whitespace only")
    return value


_SomeText = Annotated[str, Field(min_length=1, json_schema_extra=_NOT_BLANK_SCHEMA)]
Text = Annotated[
    _SomeText, Field(max_length=MAX_TEXT_CHARS, examples=["I prefer dark mode"]), AfterValidator(_not_blank)
]
QueryText = Annotated[
    _SomeText,
    Field(max_length=MAX_QUERY_CHARS, examples=["what theme do I like?"]),
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


# -- credentials (the key store keeps records, a verified key speaks for a principal) ---------------


@dataclass(frozen=True)
class ApiKeyRecord:
    """What the store keeps for one key; never the secret itself. Empty ``scopes`` = every scope."""

    key_id: str
    tenant_id: str
    display_prefix: str
    secret_hash: str
    scopes: tuple[str, ...]
    read_only: bool
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None


@dataclass(frozen=True)
class Principal:
    """Who a verified key speaks for, and the scopes it may touch.

    >>> p = Principal(tenant_id="acme", key_id="k", scopes=ScopeSet.of(["user:ann"]), can_write=False)
    >>> p.allows("user:ann"), p.allows("user:bob")
    (True, False)
    """

    tenant_id: str
    key_id: str
    scopes: ScopeSet
    can_write: bool

    def allows(self, scope: str) -> bool:
        return self.scopes.allows(scope)
