"""Request rates in ``engram serve``: a token bucket per tenant, as API Gateway's usage plans do
in the cloud (there every API key of a tenant shares the tenant's usage-plan key, so the bucket
is the tenant's).

A tenant's ``limits.requests_per_second`` and ``limits.burst`` (tenant settings) size its bucket;
without a rate it is not limited. A request over the rate is answered 429 with ``Retry-After``
before its handler runs — and, once its key has been verified in this process, before the
authorizer runs too — so a noisy tenant costs the others little. (A key revoked meanwhile may
then hear 429 instead of 401 while its tenant is over the rate; it is never let through.)
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

FAILED_AUTH_RATE = 5.0
"""Failed authentications a source may make per second, on average (a wrong, revoked or missing key)."""
FAILED_AUTH_BURST = 50
"""… and in a burst, before its requests with a key not verified before are refused (429)."""
MAX_SOURCES = 10_000
"""Sources whose failures are remembered (then forgotten all at once)."""
MAX_CREDENTIALS = 10_000
"""Verified credentials remembered (then forgotten all at once)."""
Limits = tuple[float | None, int | None]
"""(requests per second, burst) of a tenant; a rate of None is no limit."""


@dataclass
class TokenBucket:
    """``capacity`` tokens, refilled at ``rate`` per second; a request takes one.

    >>> bucket = TokenBucket(rate=2.0, capacity=1, tokens=1.0, updated=0.0)
    >>> bucket.take(0.0), bucket.take(0.1), bucket.take(0.5)
    (0.0, 0.4, 0.0)
    """

    rate: float
    capacity: int
    tokens: float
    updated: float

    def take(self, now: float) -> float:
        """0 if a token was taken, else the seconds until one is there."""
        self.tokens = min(float(self.capacity), self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


class RateLimiter:
    """One bucket per tenant; each tenant's limits are read through ``limits_of`` at most every
    ``refresh_s`` seconds (a change of its settings applies within that)."""

    def __init__(
        self,
        limits_of: Callable[[str], Limits],
        *,
        clock: Callable[[], float] = time.monotonic,
        refresh_s: float = 5.0,
    ) -> None:
        self._limits_of = limits_of
        self._clock = clock
        self._refresh_s = refresh_s
        self._lock = threading.Lock()
        self._buckets: dict[str, TokenBucket] = {}
        self._read: dict[str, tuple[float, Limits]] = {}
        self._tenants: dict[str, str] = {}

    def remember(self, credential: str, tenant_id: str) -> None:
        """Note the tenant a verified credential (a digest of the key) belongs to."""
        with self._lock:
            if len(self._tenants) >= MAX_CREDENTIALS:
                self._tenants.clear()
            self._tenants[credential] = tenant_id

    def forget(self, credential: str) -> None:
        """A credential that failed (revoked meanwhile) is no longer known."""
        with self._lock:
            self._tenants.pop(credential, None)

    def tenant_of(self, credential: str) -> str | None:
        """The tenant of a credential verified before, if any."""
        with self._lock:
            return self._tenants.get(credential)

    def _limits(self, tenant_id: str, now: float) -> Limits:
        read = self._read.get(tenant_id)
        if read is None or now - read[0] >= self._refresh_s:
            read = (now, self._limits_of(tenant_id))
            self._read[tenant_id] = read
        return read[1]

    def retry_after(self, tenant_id: str) -> int | None:
        """None if the tenant may go on now, else whole seconds to wait (at least 1)."""
        with self._lock:
            now = self._clock()
            rate, burst = self._limits(tenant_id, now)
            if rate is None:
                self._buckets.pop(tenant_id, None)
                return None
            capacity = burst or max(1, math.ceil(rate))
            bucket = self._buckets.get(tenant_id)
            if bucket is None or (bucket.rate, bucket.capacity) != (rate, capacity):
                bucket = TokenBucket(rate=rate, capacity=capacity, tokens=float(capacity), updated=now)
                self._buckets[tenant_id] = bucket
            wait = bucket.take(now)
        return None if wait == 0.0 else max(1, math.ceil(wait))


class FailedAuthLimiter:
    """Failed authentications per source address: each takes a token of the source's bucket
    (``FAILED_AUTH_BURST``, refilled at ``FAILED_AUTH_RATE``); an empty bucket refuses the
    source's requests before the authorizer runs, so guessing keys (or a flood with a revoked
    one) costs the server little. A credential verified before is never refused here."""

    def __init__(
        self,
        *,
        rate: float = FAILED_AUTH_RATE,
        burst: int = FAILED_AUTH_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self._clock = rate, burst, clock
        self._lock = threading.Lock()
        self._buckets: dict[str, TokenBucket] = {}
        self._verified: set[str] = set()

    def vouch(self, credential: str) -> None:
        """Note a credential (a digest of a key or token) the authorizer accepted."""
        with self._lock:
            if len(self._verified) >= MAX_CREDENTIALS:
                self._verified.clear()
            self._verified.add(credential)

    def verified(self, credential: str) -> bool:
        with self._lock:
            return credential in self._verified

    def _bucket(self, source: str, now: float) -> TokenBucket:
        bucket = self._buckets.get(source)
        if bucket is None:
            if len(self._buckets) >= MAX_SOURCES:
                self._buckets.clear()
            bucket = self._buckets[source] = TokenBucket(self.rate, self.burst, float(self.burst), now)
        return bucket

    def retry_after(self, source: str) -> int | None:
        """None while the source may try again, else whole seconds to wait (at least 1)."""
        with self._lock:
            if source not in self._buckets:
                return None
            now = self._clock()
            bucket = self._bucket(source, now)
            bucket.tokens = min(float(bucket.capacity), bucket.tokens + (now - bucket.updated) * bucket.rate)
            bucket.updated = now
            if bucket.tokens >= 1.0:
                return None
            return max(1, math.ceil((1.0 - bucket.tokens) / bucket.rate))

    def failed(self, source: str, credential: str) -> None:
        """Count one failed authentication of ``source``; ``credential`` is no longer vouched for."""
        with self._lock:
            self._verified.discard(credential)
            self._bucket(source, self._clock()).take(self._clock())
