"""Per-tenant, per-day usage counters: what each operation consumed, added up by the store.

An operation counts into a ``Counter`` it is handed (``usage``, from ``metered``); the service
adds it to the tenant's day in one atomic write (``UsageLedger.add``: one SQLite transaction, one
DynamoDB ``UpdateItem`` with ``ADD``). The monthly budgets (``limits.llm_tokens_per_month``,
``limits.embedding_tokens_per_month``) are checked here too, before the work. Counter names:

- ``requests`` and ``requests:<METHOD> <route>`` (``requests:POST /v1/recall``), counted by the
  HTTP layer; ``requests_limited`` for those refused with 429;
- ``retain_calls``, ``recall_calls``, ``forget_calls``, ``feedback_calls``, ``retained_items`` (memories created, merged or superseded);
- ``embedded_texts`` and ``embedding_tokens`` (estimated: UTF-8 bytes / 4, rounded up, the same
  rule for every provider);
- ``embedding_tokens_reserved`` (what a retain's deferred memories will cost, charged when it is
  accepted) and ``embedding_tokens_settled`` (the same estimate, counted when the background
  embeds them and ``embedding_tokens`` takes their real cost): the embedding budget counts what
  is spent plus what is reserved and not settled yet, so a bulk retain cannot overshoot it while
  its vectors wait;
- ``llm_calls``, ``llm_input_tokens``, ``llm_output_tokens``, ``llm_fallbacks``, and each of the
  first three per model as ``<name>:<provider>/<model>``; ``llm_budget_fallbacks`` when the
  tenant's LLM budget sent a retain to the rules;
- ``rerank_calls``.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from engram.errors import QuotaExceededError
from engram.ports import Clock, Embedder, MemoryRecords, Ports, SearchIndex, UsageLedger, Vector

if TYPE_CHECKING:
    from engram.settings import LimitsSettings

logger = logging.getLogger(__name__)


def day_of(moment: datetime) -> str:
    """The UTC day of ``moment`` as the counters key it (``YYYY-MM-DD``).

    >>> from datetime import UTC
    >>> day_of(datetime(2026, 12, 1, 23, 59, tzinfo=UTC))
    '2026-12-01'
    """
    return moment.date().isoformat()


def month_start(day: str) -> str:
    """The first day of ``day``'s month.

    >>> month_start("2026-12-17")
    '2026-12-01'
    """
    return day[:8] + "01"


def days_back(day: str, count: int) -> str:
    """The day ``count`` days before ``day``.

    >>> days_back("2026-12-01", 30)
    '2026-11-01'
    """
    return (date.fromisoformat(day) - timedelta(days=count)).isoformat()


def estimated_tokens(texts: Sequence[str]) -> int:
    """Tokens of texts by the providers' rule of thumb, ~4 bytes of UTF-8 per token.

    >>> estimated_tokens(["I prefer dark mode"])
    5
    """
    return sum(-(-len(t.encode("utf-8")) // 4) for t in texts)


def totals(days: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    """Every counter summed over the given days.

    >>> totals({"2026-12-01": {"recall_calls": 2}, "2026-12-02": {"recall_calls": 1, "retain_calls": 4}})
    {'recall_calls': 3, 'retain_calls': 4}
    """
    out: Counter[str] = Counter()
    for counters in days.values():
        out.update(counters)
    return dict(sorted(out.items()))


def llm_counters(
    provider: str, model: str, *, calls: int, input_tokens: int, output_tokens: int
) -> dict[str, int]:
    """One model's calls and tokens, in total and under its ``<provider>/<model>`` label."""
    label = f"{provider}/{model}"
    values = {"llm_calls": calls, "llm_input_tokens": input_tokens, "llm_output_tokens": output_tokens}
    out = dict(values)
    out.update({f"{name}:{label}": amount for name, amount in values.items()})
    return {k: v for k, v in out.items() if v}


class MeteredEmbedder:
    """An ``Embedder`` that counts the texts it embeds and their estimated tokens into ``usage``
    (made per operation around the process's embedder)."""

    def __init__(self, inner: Embedder, usage: Counter[str]) -> None:
        self.inner = inner
        self.usage = usage
        self.model_id = inner.model_id
        self.dimension = inner.dimension

    def embed(self, texts: Sequence[str]) -> Vector:
        vectors = self.inner.embed(texts)
        if texts:
            self.usage["embedded_texts"] += len(texts)
            self.usage["embedding_tokens"] += estimated_tokens(texts)
        return vectors


OVERSHOOT = 0.10
"""How far past the embedding budget one accepted retain may take it (its estimate's error)."""


def embedding_spent(month: Mapping[str, int]) -> int:
    """Tokens spent this month plus those reserved by accepted retains and not settled yet.

    >>> embedding_spent({"embedding_tokens": 100, "embedding_tokens_reserved": 50, "embedding_tokens_settled": 20})
    130
    """
    outstanding = month.get("embedding_tokens_reserved", 0) - month.get("embedding_tokens_settled", 0)
    return month.get("embedding_tokens", 0) + max(0, outstanding)


@dataclass(frozen=True)
class Meter:
    """A tenant's usage today and its monthly budgets, over the process's ledger (None meters
    nothing) and clock."""

    ledger: UsageLedger | None
    clock: Clock

    @contextlib.contextmanager
    def metered(self, tenant_id: str, *counted: str) -> Iterator[Counter[str]]:
        """A counter for what one operation of the tenant consumes, added to its day at the end
        (also when the operation fails: what it spent was spent). ``counted`` names start at 1."""
        usage: Counter[str] = Counter(dict.fromkeys(counted, 1))
        try:
            yield usage
        finally:
            self.add(tenant_id, usage)

    def add(self, tenant_id: str, counters: Mapping[str, int]) -> None:
        """Add counters to the tenant's usage today; a failure is logged, never raised (the
        operation it counts has already happened)."""
        if self.ledger is None or not any(counters.values()):
            return
        try:
            self.ledger.add(tenant_id, day_of(self.clock.now()), counters)
        except Exception:
            logger.exception("usage counters could not be written")

    def month_so_far(self, tenant_id: str) -> dict[str, int]:
        """The tenant's counters summed over this UTC month so far."""
        if self.ledger is None:
            return {}
        today = day_of(self.clock.now())
        return totals(self.ledger.days(tenant_id, since=month_start(today), until=today))

    def llm_budget_spent(self, tenant_id: str, limits: LimitsSettings) -> str | None:
        """Why a retain extracts by the rules (the tenant's LLM budget is spent), or None."""
        budget = limits.llm_tokens_per_month
        if budget is None:
            return None
        month = self.month_so_far(tenant_id)
        spent = month.get("llm_input_tokens", 0) + month.get("llm_output_tokens", 0)
        if spent < budget:
            return None
        return f"llm budget spent: {spent} of {budget} tokens this month; extracted by the rules"

    def check_embedding_budget(self, tenant_id: str, limits: LimitsSettings, *, estimate: int = 0) -> None:
        """``QuotaExceededError`` (429 until the month ends) once the embedding budget is spent, or
        when ``estimate`` more tokens (what this operation will embed) would pass it by more than
        ``OVERSHOOT``."""
        budget = limits.embedding_tokens_per_month
        if budget is None:
            return
        spent = embedding_spent(self.month_so_far(tenant_id))
        if spent >= budget or spent + estimate > budget * (1 + OVERSHOOT):
            now = self.clock.now()
            first = (now.replace(day=1) + timedelta(days=32)).replace(
                day=1, hour=0, minute=0, second=0, microsecond=0
            )
            what = "spent" if spent >= budget else f"too small for this request (~{estimate} tokens)"
            raise QuotaExceededError(
                f"embedding budget {what}: {spent} of {budget} tokens this month",
                retry_after=max(1, int((first - now).total_seconds())),
            )


@dataclass(frozen=True, kw_only=True)
class MeteredPorts:
    """The ports of an operation that reads, writes and embeds, and the meter its embedding is
    counted by (a ``Deps.call`` bundle): ``with metered_ports.ports(tenant_id) as ports: ...``."""

    records: MemoryRecords
    index: SearchIndex
    embedder: Embedder
    meter: Meter
    clock: Clock

    @contextlib.contextmanager
    def ports(self, tenant_id: str, *counted: str) -> Iterator[Ports]:
        """``Ports`` whose embedder counts into the tenant's usage (``Meter.metered``)."""
        with self.meter.metered(tenant_id, *counted) as usage:
            yield Ports(self.records, self.index, MeteredEmbedder(self.embedder, usage), self.clock)
