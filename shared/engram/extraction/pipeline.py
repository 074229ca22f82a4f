"""How retain runs extraction and dedup decisions with an LLM, falling back to the rules.

``Extraction`` asks the LLM first (``extraction.llm``) and the rule-based extractor when there is
no LLM, when the gate finds nothing worth a call, or when the call fails or answers off-schema.
``llm_decisions`` makes the one batched dedup call for the candidates that have stored memories
above the pre-filter cosine. Both count calls, tokens and fallbacks in ``LlmUsage``, which retain
adds to the tenant's usage counters.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from engram.extraction.dedup import Decision, NewMemory, decide
from engram.extraction.llm import llm_extract
from engram.models import ExtractedMemory, MemoryRecord, Message
from engram.ports import LLM, Extractor, MemoryStore
from engram.settings import Settings

logger = logging.getLogger(__name__)


@dataclass
class LlmUsage:
    """LLM calls and tokens of one retain, counted per tenant."""

    llm_calls: int = 0
    llm_input_tokens: int = 0
    llm_output_tokens: int = 0
    llm_fallbacks: int = 0

    def counters(self) -> dict[str, int]:
        return {k: v for k, v in vars(self).items() if v}


@dataclass
class Extraction:
    """The extractors one retain uses: the LLM (if any) first, the rules as its fallback."""

    rules: Extractor
    llm: LLM | None
    settings: Settings
    usage: LlmUsage

    def __call__(
        self, messages: list[Message], reference: datetime, *, use_llm: bool = True
    ) -> list[ExtractedMemory]:
        """Memories from the messages: the LLM's when it answers on-schema, else the rules'."""
        if self.llm is not None and use_llm:
            r = self.settings.retain
            found = llm_extract(
                messages,
                llm=self.llm,
                reference_time=reference,
                max_memories=r.max_memories_per_call,
                char_budget=r.input_char_budget,
                min_chars=r.min_chars,
            )
            self.usage.llm_calls += found.calls
            self.usage.llm_input_tokens += found.input_tokens
            self.usage.llm_output_tokens += found.output_tokens
            if found.error is None and not found.gated:
                return found.memories
            if found.error is not None:
                self.usage.llm_fallbacks += 1
                logger.warning("LLM extraction failed; using the rules", extra={"reason": found.error})
        return self.rules.extract(messages, reference_time=reference)


def llm_decisions(
    tenant_id: str,
    records: list[MemoryRecord],
    stored: dict[int, MemoryRecord],
    nearest: dict[int, list[tuple[str, float]]],
    *,
    llm: LLM,
    store: MemoryStore,
    settings: Settings,
    usage: LlmUsage,
) -> dict[int, Decision]:
    """One decision call for the candidates with stored memories above the pre-filter cosine."""
    asking = {
        position: [i for i, cos in hits if cos >= settings.retain.prefilter_cosine]
        for position, hits in nearest.items()
        if position not in stored
    }
    asking = {p: ids for p, ids in asking.items() if ids}
    if not asking:
        return {}
    existing = store.get_many(tenant_id, list(dict.fromkeys(i for ids in asking.values() for i in ids)))
    shown = [r for r in existing.values() if r.status == "active"]
    if not shown:
        return {}
    positions = list(asking)
    new = [NewMemory(records[p].category, records[p].content) for p in positions]
    outcome = decide(new, shown, llm=llm)
    usage.llm_calls += 1
    usage.llm_input_tokens += outcome.input_tokens
    usage.llm_output_tokens += outcome.output_tokens
    if outcome.error is not None:
        usage.llm_fallbacks += 1
        logger.warning("LLM dedup failed; using the rules", extra={"reason": outcome.error})
    return {positions[i]: d for i, d in outcome.decisions.items()}
