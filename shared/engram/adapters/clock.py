"""Clocks: the system clock and a settable one for simulations and tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class SystemClock:
    """The wall clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock that only moves when told to.

    >>> c = FixedClock(datetime(2026, 1, 1, tzinfo=UTC)); c.advance(days=1); c.now().day
    2
    """

    def __init__(self, start: datetime) -> None:
        self._now = start

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when

    def advance(self, **delta: float) -> None:
        self._now += timedelta(**delta)
