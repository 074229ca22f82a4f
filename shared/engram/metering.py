"""Per-tenant, per-day usage counters: what each operation consumed, added up by the store.

An operation counts into a ``Counter`` it is handed (``usage``); the engine adds it to the
tenant's day in one atomic write (``MemoryStore.add_usage``: one SQLite transaction, one DynamoDB
``UpdateItem`` with ``ADD``). Counter names:

- ``requests`` and ``requests:<METHOD> <route>`` (``requests:POST /v1/recall``), counted by the
  HTTP layer; ``requests_limited`` for those refused with 429;
- ``retain_calls``, ``recall_calls``, ``forget_calls``, ``feedback_calls``, ``retained_items`` (memories created, merged or superseded);
- ``embedded_texts`` and ``embedding_tokens`` (estimated: UTF-8 bytes / 4, rounded up, the same
  rule for every provider);
- ``llm_calls``, ``llm_input_tokens``, ``llm_output_tokens``, ``llm_fallbacks``, and each of the
  first three per model as ``<name>:<provider>/<model>``; ``llm_budget_fallbacks`` when the
  tenant's LLM budget sent a retain to the rules;
- ``rerank_calls``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta

from engram.ports import Embedder, Vector


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
