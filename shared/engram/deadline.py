"""The time an invocation has left, so that every call it makes ends before the function does.

A Lambda handler opens ``within(seconds)`` with what ``context.get_remaining_time_in_millis()``
leaves after a margin for its answer; adapters then cap their own timeouts and retry deadlines
with ``left(configured)``. Outside any ``within`` (the CLI, background threads) the configured
values apply unchanged. The deadline is a context variable: ``propagate`` carries it into a
worker thread.

>>> left(20.0)
20.0
>>> with within(3.0):
...     left(20.0) <= 3.0
True
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar("engram_deadline", default=None)


@contextmanager
def within(seconds: float | None) -> Iterator[None]:
    """Run the block with at most ``seconds`` left (None: no limit beyond an enclosing one)."""
    if seconds is None:
        yield
        return
    ends = time.monotonic() + max(0.0, seconds)
    outer = _deadline.get()
    token = _deadline.set(ends if outer is None else min(outer, ends))
    try:
        yield
    finally:
        _deadline.reset(token)


def left(configured: float) -> float:
    """``configured`` seconds, or less if the invocation ends sooner (never below zero)."""
    ends = _deadline.get()
    if ends is None:
        return configured
    return max(0.0, min(configured, ends - time.monotonic()))


def propagate(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` bound to the caller's deadline, to run on other threads (any number at once)."""
    ends = _deadline.get()

    def run(*args: object, **kwargs: object) -> T:
        token = _deadline.set(ends)
        try:
            return fn(*args, **kwargs)
        finally:
            _deadline.reset(token)

    return run
