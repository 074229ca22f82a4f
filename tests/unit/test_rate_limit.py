"""The local gateway's token bucket per tenant, on a hand-driven clock."""

from __future__ import annotations

from engram_http.ratelimit import Limits, RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _limiter(limits: dict[str, Limits], clock: Clock) -> RateLimiter:
    return RateLimiter(lambda t: limits.get(t, (None, None)), clock=clock, refresh_s=5.0)


def test_a_burst_passes_then_the_rate_holds_with_retry_after() -> None:
    # Given a tenant allowed 2 requests per second with a burst of 3
    clock = Clock()
    limiter = _limiter({"acme": (2.0, 3)}, clock)
    # When it sends four at once, then one more after half a second
    first = [limiter.retry_after("acme") for _ in range(4)]
    clock.now += 0.5
    later = limiter.retry_after("acme")
    # Then three pass, the fourth is told to wait a second, and a token is back after 0.5 s
    assert first == [None, None, None, 1]
    assert later is None


def test_tenants_have_their_own_buckets_and_no_rate_is_no_limit() -> None:
    clock = Clock()
    limiter = _limiter({"noisy": (1.0, 1)}, clock)
    assert [limiter.retry_after("noisy") for _ in range(3)] == [None, 1, 1]
    assert all(limiter.retry_after("quiet") is None for _ in range(100))


def test_a_new_limit_applies_once_the_settings_are_read_again() -> None:
    # Given a tenant at 1 request per second that was just limited
    clock = Clock()
    limits: dict[str, Limits] = {"acme": (1.0, 1)}
    limiter = _limiter(limits, clock)
    assert [limiter.retry_after("acme") for _ in range(2)] == [None, 1]
    # When its limit is lifted and the settings are read again
    limits["acme"] = (None, None)
    clock.now += 5.0
    # Then it is no longer limited
    assert all(limiter.retry_after("acme") is None for _ in range(10))
