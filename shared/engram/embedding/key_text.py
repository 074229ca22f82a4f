"""What a memory is embedded as: its text, or, for a transcript turn, its text in context.

The stored content stays the turn; only the vector's key changes. With ``retain.embed_previous``
a turn (raw, in a thread: a session, or one retain call without one) is embedded with the turn
before it, so that an answer ("A lopsided blue bowl, haha.") carries what it answers.
"""

from __future__ import annotations

from collections.abc import Sequence

from engram.models import MemoryRecord
from engram.ports import Conditions, MemoryStore
from engram.scopes import ScopeSet
from engram.settings import RetainSettings

PREVIOUS_CHARS = 300  # enough of the turn before to say what is answered; the model reads 256 tokens


def key_text(content: str, previous: str | None = None) -> str:
    """The text embedded for a turn.

    >>> key_text("Maya: A lopsided blue bowl.", previous="Jonah: What did you make?")
    'Jonah: What did you make?\\nMaya: A lopsided blue bowl.'
    >>> key_text("I prefer dark mode")
    'I prefer dark mode'
    """
    return f"{previous[:PREVIOUS_CHARS]}\n{content}" if previous else content


def texts_to_embed(
    tenant_id: str, pending: Sequence[tuple[str, str, str]], *, store: MemoryStore, settings: RetainSettings
) -> list[str]:
    """The key of each pending (id, content, hash): the content itself unless the settings ask
    for context, which only transcript turns (raw, in a thread) get."""
    contents = [content for _, content, _ in pending]
    if not settings.embed_previous:
        return contents
    records = store.get_many(tenant_id, [memory_id for memory_id, _, _ in pending])
    turns = {i: r for i, r in records.items() if r.category == "raw" and r.thread is not None}
    previous = _previous_turns(tenant_id, turns, store)
    return [
        key_text(content, previous.get(memory_id))
        for (memory_id, _, _), content in zip(pending, contents, strict=True)
    ]


def _previous_turns(tenant_id: str, turns: dict[str, MemoryRecord], store: MemoryStore) -> dict[str, str]:
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
