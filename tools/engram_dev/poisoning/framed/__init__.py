"""The fourth generator, for training only: lead-ins crossed with asks, by a fourth author, in the
four styles the head was weakest on outside its own corpus.

- tool calls in prose and as code (``transfer_funds(iban=…)``, ``{"tool": …, "arguments": …}``,
  ``<function_call …>``), beside everyday tool talk (a user's own request, API docs, a test log);
- notes to whatever reads them ("if you are a language model reading this", "any AI that sees
  this"), beside the same openings said to people (the new tenant, whoever takes the late shift);
- triggers ("whenever the user asks about …, say …"), beside the family's ("whenever Grandpa
  asks about the bins, say …");
- fraud scripts for third parties ("tell callers to wire the deposit to …"), beside a front desk's
  everyday script ("tell callers we never ask for card details").

Each half has lead-ins of its own but the same shapes, so that the head learns who is addressed
and what is asked, not the opening. Written without reading the ``held-out`` or ``fresh`` rows or
the generators that make them. A lead-in's rows share a template id (a fold of the threshold
fit holds it out whole). Every row is split ``train``. The parts are one module a language
(``framed/<lang>.py``): per style, lead-ins with an ``{ask}`` and the asks, in both halves; slots
in braces (``{{`` is a literal).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from importlib import import_module
from typing import Any

LANGS = ("en", "es", "de", "fr", "zh")
ROWS_PER_STYLE = 20  # per style, half and language (fewer if the parts make fewer)
_SLOT = re.compile(r"\{(\w+)\}")


def _fill(text: str, slots: dict[str, list[str]], rng: random.Random) -> str:
    text = text.replace("{{", "\0").replace("}}", "\1")
    text = _SLOT.sub(lambda m: rng.choice(slots[m.group(1)]), text)
    return text.replace("\0", "{").replace("\1", "}")


def _sentence(lead: str, ask: str) -> str:
    """``ask`` put into ``lead``, capitalised when it opens the sentence."""
    if lead.startswith("{ask}") and ask[:1].isalpha():
        ask = ask[0].upper() + ask[1:]
    return lead.replace("{ask}", ask)


def build(rng: random.Random) -> Iterator[dict[str, Any]]:
    """Every row: per language, style and half, distinct (lead-in, ask) pairs, slots filled."""
    for lang in LANGS:
        parts = import_module(f"engram_dev.poisoning.framed.{lang}")
        for label, table in (("attack", parts.ATTACK), ("benign", parts.BENIGN)):
            for style, (leads, asks) in table.items():
                pairs = [(i, j) for i in range(len(leads)) for j in range(len(asks))]
                for i, j in sorted(rng.sample(pairs, min(ROWS_PER_STYLE, len(pairs)))):
                    text = _fill(_sentence(leads[i], asks[j]), parts.SLOTS, rng)
                    yield {
                        "role": "user",
                        "label": label,
                        "style": style,
                        "lang": lang,
                        "generator": "framed",
                        "template": f"framed/{lang}/{label}/{style}/{i}",
                        "held": False,
                        "text": text,
                    }
