"""Counters written behind: what the DynamoDB adapters add up in a process and write later, one
write per key instead of one per call (#28's "batched" lever).

Two counters use it, each its own ``WriteBehind``:

- the usage ledger (``DynamoUsage.add``): a request's counters (the operation's and the HTTP
  layer's) become one ``UpdateItem`` per tenant and day, written when the invocation ends;
- recall's access tracking (``record_access``): one ``UpdateItem`` per memory (its count and its
  latest access) per interval, written at the end of the first invocation after ``max_age_s``
  (30 s) or as soon as ``max_keys`` (100) memories wait.

Buffering happens only inside an invocation (``invocation()``, which the Lambda entry point of the
HTTP functions opens): anything else (the workers, the CLI, tests) writes through, as before. What
waits is written when the invocation ends (usage) or is due (access), when the process exits
normally (``atexit``), and before a lifecycle run reads access counts. What a crash or a Lambda
container reclaimed while idle loses: the access counts of its last interval (at most 30 s or
100 memories of that container), never usage (written before each invocation returns). A
container sees its own waiting counts in what it reads (``pending``).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Callable, Hashable, Iterator
from typing import Any

logger = logging.getLogger(__name__)

_open = 0
_open_lock = threading.Lock()
_buffers: weakref.WeakSet[WriteBehind] = weakref.WeakSet()


def buffering() -> bool:
    """Whether an invocation is open in this process (counts wait; else they are written at once)."""
    return _open > 0


@contextlib.contextmanager
def invocation() -> Iterator[None]:
    """One invocation: counts added meanwhile wait, and are written at its end when due."""
    global _open
    with _open_lock:
        _open += 1
    try:
        yield
    finally:
        with _open_lock:
            _open -= 1
        for buffer in list(_buffers):
            buffer.flush(only_if_due=True)


def flush_all() -> None:
    """Write everything that waits (a normal exit; a lifecycle run before it reads counts)."""
    for buffer in list(_buffers):
        buffer.flush()


atexit.register(flush_all)


class WriteBehind:
    """Values merged per key (``merge(old, new)``) and written by ``write(key, value)``: at the end
    of an invocation (``each_invocation``) or once the oldest waits ``max_age_s``; at once when
    ``max_keys`` keys wait. A failed write is logged and its value dropped (counting never fails
    the operation it counts), like a direct write's failure."""

    def __init__(
        self,
        write: Callable[[Any, Any], None],
        merge: Callable[[Any, Any], Any],
        *,
        max_age_s: float,
        max_keys: int,
        each_invocation: bool = False,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._write, self._merge = write, merge
        self.max_age_s, self.max_keys, self.each_invocation = max_age_s, max_keys, each_invocation
        self._monotonic = monotonic
        self._pending: dict[Hashable, Any] = {}
        self._since: float | None = None
        self._lock = threading.Lock()
        self.writes = 0
        _buffers.add(self)

    def add(self, key: Hashable, value: Any) -> None:
        """Merge ``value`` into what waits under ``key``; written at once outside an invocation."""
        if not buffering():
            self._write(key, value)
            self.writes += 1
            return
        with self._lock:
            self._pending[key] = self._merge(self._pending[key], value) if key in self._pending else value
            if self._since is None:
                self._since = self._monotonic()
            full = len(self._pending) >= self.max_keys
        if full:
            self.flush()

    def pending(self, key: Hashable) -> Any:
        """What waits under ``key`` (None: nothing)."""
        with self._lock:
            return self._pending.get(key)

    def waiting(self) -> dict[Hashable, Any]:
        """A copy of everything that waits."""
        with self._lock:
            return dict(self._pending)

    def due(self) -> bool:
        with self._lock:
            if not self._pending or self._since is None:
                return False
            return self.each_invocation or self._monotonic() - self._since >= self.max_age_s

    def flush(self, *, only_if_due: bool = False) -> int:
        """Write what waits (``only_if_due``: only when it is due); the number of writes."""
        if only_if_due and not self.due():
            return 0
        with self._lock:
            taken, self._pending, self._since = self._pending, {}, None
        for key, value in taken.items():
            try:
                self._write(key, value)
                self.writes += 1
            except Exception:
                logger.exception("counters written behind could not be written")
        return len(taken)
