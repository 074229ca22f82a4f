"""Failed authentications are limited per source address in ``engram serve``: a flood of wrong
or revoked keys is refused (429) before the authorizer runs, while keys verified before keep
working from the same address."""

from __future__ import annotations

import secrets
from pathlib import Path

from serve_support import call, new_key, new_tenant, running_server

from engram_http.ratelimit import FAILED_AUTH_BURST, FailedAuthLimiter


def test_a_source_guessing_keys_is_refused_while_verified_keys_keep_working(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", "--no-lifecycle", "--workers", "1") as server:
        # Given a tenant whose key (and the operator's token) have been used before
        tenant = new_tenant(server)
        key = new_key(server, tenant)
        created = call(server, "POST", f"/v1/admin/tenants/{tenant}/keys", {}, key=server.operator_token).body
        other = created["api_key"]
        assert call(server, "GET", "/v1/stats", key=key).status == 200
        assert call(server, "GET", "/v1/stats", key=other).status == 200
        # When one address presents many wrong keys in a row
        statuses = [
            call(server, "GET", "/v1/stats", key=f"egm_{secrets.token_hex(16)}").status
            for _ in range(FAILED_AUTH_BURST + 40)
        ]
        # Then the burst is answered 401, then mostly 429 (a few 401s as tokens refill at
        # FAILED_AUTH_RATE), each refused before the authorizer runs
        after = statuses[FAILED_AUTH_BURST:]
        assert statuses[:FAILED_AUTH_BURST] == [401] * FAILED_AUTH_BURST
        assert set(after) <= {401, 429} and after.count(429) >= len(after) / 2, statuses
        # (a token may have refilled meanwhile on a slow machine: it is spent by one more 401)
        tries = [call(server, "GET", "/v1/stats", key="egm_wrong") for _ in range(3)]
        refused = next((reply for reply in tries if reply.status != 401), tries[-1])
        assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1
        assert "failed authentications" in refused.body["error"]["message"]
        # And the verified key and the operator token still work from that address
        assert call(server, "GET", "/v1/stats", key=key).status == 200
        assert call(server, "GET", "/v1/admin/tenants", key=server.operator_token).status == 200
        # And a verified key revoked meanwhile fails once, then counts as any unknown key
        revoked = call(server, "DELETE", f"/v1/admin/keys/{created['key_id']}", key=server.operator_token)
        assert revoked.status in (200, 204), revoked.body
        assert call(server, "GET", "/v1/stats", key=other).status == 401
        assert 429 in [call(server, "GET", "/v1/stats", key=other).status for _ in range(3)]


def test_failed_authentications_refill_at_their_rate() -> None:
    now = [0.0]
    limiter = FailedAuthLimiter(rate=2.0, burst=3, clock=lambda: now[0])
    for _ in range(3):
        assert limiter.retry_after("10.0.0.1") is None
        limiter.failed("10.0.0.1", "digest")
    assert limiter.retry_after("10.0.0.1") == 1
    assert limiter.retry_after("10.0.0.2") is None  # another source is not affected
    now[0] = 0.5  # one token back
    assert limiter.retry_after("10.0.0.1") is None
