"""What a memory is embedded as: its text, or, for a transcript turn, its text in context.

The stored content stays the turn; only the vector's key changes. With ``retain.embed_previous``
a turn (raw, in a thread: a session, or one retain call without one) is embedded with the turn
before it, so that an answer ("A lopsided blue bowl, haha.") carries what it answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.models import MemoryRecord
from engram.ports import Conditions, MemoryRecords
from engram.scopes import ScopeSet
from engram.scoring import words
from engram.settings import RetainSettings

PREVIOUS_CHARS = 300  # enough of the turn before to say what is answered; the model reads 256 tokens
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
_LABEL = re.compile(r"^\s*[A-Za-z][\w'.-]*(?: [A-Z][\w'.-]*)?:\s+")


def asked(previous: str) -> str:
    """What a turn asks: its questions (sentences ending in "?"), or its last sentence when it
    asks none; a speaker label stays in front.

    >>> asked("Lucia: Saoirse came over lately. Jealous! How long were you there?")
    'Lucia: How long were you there?'
    >>> asked("Jonah: I went to the lake. It was great.")
    'Jonah: It was great.'
    """
    label = _LABEL.match(previous)
    head = label.group(0) if label else ""
    sentences = [s.strip() for s in _SENTENCE.findall(previous[len(head) :]) if s.strip()]
    questions = [s for s in sentences if s.endswith("?")] or sentences[-1:]
    return head + " ".join(questions)


def key_text(content: str, previous: str | None = None, part: str = "whole") -> str:
    """The text embedded for a turn: the turn before (whole, or only what it ``asked``) then the turn.

    >>> key_text("Maya: A lopsided blue bowl.", previous="Jonah: What did you make?")
    'Jonah: What did you make?\\nMaya: A lopsided blue bowl.'
    >>> key_text("Maya: Blue.", previous="Jonah: Nice weather. What colour is it?", part="asked")
    'Jonah: What colour is it?\\nMaya: Blue.'
    >>> key_text("I prefer dark mode")
    'I prefer dark mode'
    """
    if not previous:
        return content
    before = asked(previous) if part == "asked" else previous
    return f"{before[:PREVIOUS_CHARS]}\n{content}"


def texts_to_embed(
    tenant_id: str, pending: Sequence[tuple[str, str, str]], *, store: MemoryRecords, settings: RetainSettings
) -> list[str]:
    """The key of each pending (id, content, hash): the content itself unless the settings ask
    for context, which only transcript turns get (raw, in a thread, and in a session or read as
    a turn: several facts sent in one call are not a conversation)."""
    contents = [content for _, content, _ in pending]
    if not settings.embed_previous:
        return contents
    records = store.get_many(tenant_id, [memory_id for memory_id, _, _ in pending])
    turns = {i: r for i, r in records.items() if transcript_turn(r)}
    previous = _previous_turns(tenant_id, turns, store)
    return [
        key_text(content, previous.get(memory_id), settings.embed_previous_part)
        for (memory_id, _, _), content in zip(pending, contents, strict=True)
    ]


def transcript_turn(record: MemoryRecord) -> bool:
    """A raw memory in a session, or in a retain call's batch when it reads as a turn (a role, or
    a speaker label); what recall's brevity prior takes as a turn too."""
    if record.category != "raw" or record.thread is None:
        return False
    return bool(record.source.session_id or record.source.role or words.has_speaker_label(record.content))


def _previous_turns(tenant_id: str, turns: dict[str, MemoryRecord], store: MemoryRecords) -> dict[str, str]:
    """The content of the turn before each one in its thread, where there is one."""
    if not turns:
        return {}
    scopes = tuple(sorted({r.scope for r in turns.values()}))
    around = store.neighbours(tenant_id, list(turns), Conditions(scopes=ScopeSet.of(scopes)), 1)
    near = store.get_many(tenant_id, list({i for ids in around.values() for i in ids}))
    out = {}
    for memory_id, ids in around.items():
        seed = turns[memory_id]
        before = [near[i] for i in ids if i in near and near[i].created_at < seed.created_at]
        if before:
            out[memory_id] = before[-1].content
    return out
