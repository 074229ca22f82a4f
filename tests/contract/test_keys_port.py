"""``KeyStore``: API key records found by id, listed per tenant, revoked once, touched forward."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_support import T0, Backend, key_record

from engram.errors import ConflictError


def test_api_keys_are_found_by_id_listed_per_tenant_revoked_and_touched(backend: Backend) -> None:
    keys = backend.keys
    keys.put_key(key_record("aaaaaaaaaaaa", "acme"))
    keys.put_key(key_record("bbbbbbbbbbbb", "acme", 1))
    keys.put_key(key_record("cccccccccccc", "globex"))
    with pytest.raises(ConflictError):
        keys.put_key(key_record("aaaaaaaaaaaa", "globex"))
    assert keys.get_key("aaaaaaaaaaaa") == key_record("aaaaaaaaaaaa", "acme")
    assert [k.key_id for k in keys.list_keys("acme")] == ["aaaaaaaaaaaa", "bbbbbbbbbbbb"]
    assert keys.revoke_key("aaaaaaaaaaaa", T0 + timedelta(days=1))
    assert keys.revoke_key("aaaaaaaaaaaa", T0 + timedelta(days=2))
    assert not keys.revoke_key("zzzzzzzzzzzz", T0)
    revoked = keys.get_key("aaaaaaaaaaaa")
    assert revoked is not None and revoked.revoked_at == T0 + timedelta(days=1)
    keys.touch_key("bbbbbbbbbbbb", T0 + timedelta(hours=2))
    keys.touch_key("bbbbbbbbbbbb", T0 + timedelta(hours=1))
    touched = keys.get_key("bbbbbbbbbbbb")
    assert touched is not None and touched.last_used_at == T0 + timedelta(hours=2)
    assert keys.delete_tenant_keys("acme") == 2
    assert keys.list_keys("acme") == [] and keys.get_key("cccccccccccc") is not None
    assert [k.key_id for k in keys.list_keys("globex")] == ["cccccccccccc"]
