"""What a recall records of itself: each stage's time (always), and each memory's per-stage
scores (only for a ``debug`` answer: off, the trace is ``NO_TRACE``, which is falsy and keeps
nothing, and the stages guard every entry they would build with ``if trace:``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class Timer:
    """Milliseconds per stage (a stage run twice adds up)."""

    def __init__(self) -> None:
        self.stages: dict[str, float] = {}

    def run(self, stage: str, fn: Callable[[], T]) -> T:
        start = time.perf_counter()
        try:
            return fn()
        finally:
            self.stages[stage] = self.stages.get(stage, 0.0) + (time.perf_counter() - start) * 1000.0


class Trace:
    """Each memory's scores by stage, as the ``debug`` answer shows them (``trace`` of a memory)."""

    def __init__(self) -> None:
        self.memories: dict[str, dict[str, Any]] = {}

    def __bool__(self) -> bool:
        return True

    def start(self, memory_id: str, values: dict[str, Any]) -> None:
        """A memory's first entry (its channels and fusion)."""
        self.memories[memory_id] = values

    def note(self, memory_id: str, values: dict[str, Any]) -> None:
        """Values a later stage adds to a memory already traced."""
        if memory_id in self.memories:
            self.memories[memory_id].update(values)

    def adopt(self, memory_id: str, first: dict[str, Any], values: dict[str, Any]) -> None:
        """``values`` on a memory a later stage brought in (``first`` unless it is traced already)."""
        self.memories.setdefault(memory_id, first).update(values)

    def note_all(self, values: dict[str, Any]) -> None:
        for entry in self.memories.values():
            entry.update(values)

    def of(self, memory_id: str, rank: int) -> dict[str, Any] | None:
        """What the answer shows of a memory: its entry and its place after MMR."""
        return {**self.memories[memory_id], "mmr_rank": rank}


class _NoTrace(Trace):
    """The trace when ``debug`` is off: nothing is kept, and ``if trace:`` is false."""

    def __bool__(self) -> bool:
        return False

    def start(self, memory_id: str, values: dict[str, Any]) -> None:
        pass

    def note(self, memory_id: str, values: dict[str, Any]) -> None:
        pass

    def adopt(self, memory_id: str, first: dict[str, Any], values: dict[str, Any]) -> None:
        pass

    def note_all(self, values: dict[str, Any]) -> None:
        pass

    def of(self, memory_id: str, rank: int) -> dict[str, Any] | None:
        return None


NO_TRACE: Trace = _NoTrace()
