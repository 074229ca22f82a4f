"""The ``Extractor`` port on a language model, with the rules as its fallback.

``LlmExtractor(llm, fallback=RuleExtractor())`` asks the model (``extraction.llm``) and hands the
messages to ``fallback`` when the gate finds nothing worth a call, or when the call fails or
answers off-schema. The composition root builds it when an LLM is configured (the rules alone
otherwise); ``for_retain`` gives one retain the extractors it uses, counting into that retain's
``LlmUsage`` and reading that tenant's retain settings.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from engram.extraction.llm import LlmUsage, llm_extract
from engram.extraction.rules import RuleExtractor
from engram.models import ExtractedMemory, Message
from engram.ports import LLM, Extractor
from engram.settings import RetainSettings

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LlmExtractor:
    """Memories from the LLM when it answers on-schema, else ``fallback``'s."""

    llm: LLM
    fallback: Extractor = field(default_factory=RuleExtractor)
    settings: RetainSettings = field(default_factory=RetainSettings)
    usage: LlmUsage | None = None
    """Where calls, tokens and fallbacks are counted (one retain's); None counts nothing."""

    def extract(self, messages: Sequence[Message], *, reference_time: datetime) -> list[ExtractedMemory]:
        r = self.settings
        found = llm_extract(
            messages,
            llm=self.llm,
            reference_time=reference_time,
            max_memories=r.max_memories_per_call,
            char_budget=r.input_char_budget,
            min_chars=r.min_chars,
        )
        if self.usage is not None:
            self.usage.add(
                calls=found.calls,
                input_tokens=found.input_tokens,
                output_tokens=found.output_tokens,
                failed=found.error is not None,
            )
            self.usage.extracted(by_llm=found.error is None and not found.gated, error=found.error)
        if found.error is None and not found.gated:
            return found.memories
        if found.error is not None:
            logger.warning("LLM extraction failed; using the rules", extra={"reason": found.error})
        return self.fallback.extract(messages, reference_time=reference_time)

    def metered(self, usage: LlmUsage, settings: RetainSettings) -> LlmExtractor:
        """The same extractor, counting into ``usage`` and reading ``settings`` (one tenant's)."""
        return replace(self, usage=usage, settings=settings)


def extractor_for(llm: LLM | None) -> Extractor:
    """What the composition root gives retain: the LLM with the rules behind it, or the rules."""
    return RuleExtractor() if llm is None else LlmExtractor(llm)


def for_retain(
    extractor: Extractor, *, llm_allowed: bool, settings: RetainSettings, usage: LlmUsage
) -> tuple[Extractor, Extractor]:
    """(the extractor of a text or a conversation, the one of a batch of items) for one retain.

    A batch of up to 100 items stays on the rules (one LLM call per item would not fit a
    request), and so does a retain that may not use the LLM (its budget is spent).
    """
    if not isinstance(extractor, LlmExtractor):
        return extractor, extractor
    if not llm_allowed:
        return extractor.fallback, extractor.fallback
    return extractor.metered(usage, settings), extractor.fallback
