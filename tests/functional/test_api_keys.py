"""API keys end to end on a real SQLite file: create, verify, revoke, expire, isolate tenants."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engram.adapters.clock import FixedClock
from engram.adapters.sqlite.database import SqliteDatabase
from engram.adapters.sqlite.keys import SqliteKeyStore
from engram.auth.keys import KeyService, format_key, parse_key
from engram.errors import NotFoundError, UnauthorizedError, ValidationFailedError
from engram.ports import KeyStore
from engram.records import ApiKeyRecord, Principal
from engram.scopes import ScopeSet

PEPPER = b"test-pepper-0123456789abcdef"
START = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
INVALID = "invalid or missing API key"


class CountingKeyStore:
    """A fake ``KeyStore``: delegates to a real store and counts lookups."""

    def __init__(self, inner: KeyStore) -> None:
        self.inner = inner
        self.lookups = 0

    def put_key(self, record: ApiKeyRecord) -> None:
        self.inner.put_key(record)

    def get_key(self, key_id: str) -> ApiKeyRecord | None:
        self.lookups += 1
        return self.inner.get_key(key_id)

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        return self.inner.revoke_key(key_id, at)

    def touch_key(self, key_id: str, at: datetime) -> None:
        self.inner.touch_key(key_id, at)

    def list_keys(self, tenant_id: str) -> list[ApiKeyRecord]:
        return self.inner.list_keys(tenant_id)

    def delete_tenant_keys(self, tenant_id: str) -> int:
        return self.inner.delete_tenant_keys(tenant_id)


@pytest.fixture
def db(tmp_path: Path) -> SqliteDatabase:
    return SqliteDatabase(tmp_path / "t.db")


@pytest.fixture
def store(db: SqliteDatabase) -> CountingKeyStore:
    return CountingKeyStore(SqliteKeyStore(db))


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(START)


@pytest.fixture
def keys(store: CountingKeyStore, clock: FixedClock) -> KeyService:
    return KeyService(store, pepper=PEPPER, clock=clock)


def test_a_created_key_verifies_as_its_tenant_with_full_access(keys: KeyService) -> None:
    # Given a key created for acme with no limits
    plaintext, record = keys.create("acme")

    # When it is verified
    principal = keys.verify(plaintext)

    # Then it speaks for acme, in every scope, and may write
    assert principal == Principal(
        tenant_id="acme", key_id=record.key_id, scopes=ScopeSet.every(), can_write=True
    )


def test_the_stored_row_never_contains_the_plaintext_secret(keys: KeyService, db: SqliteDatabase) -> None:
    # Given a freshly created key
    plaintext, record = keys.create("acme", scopes=["user:ann"])
    parsed = parse_key(plaintext)
    assert parsed is not None
    _, secret = parsed

    # When its stored row is read back column by column
    row = db.connection().execute("SELECT * FROM api_keys WHERE key_id=?", (record.key_id,)).fetchone()

    # Then no column holds the secret or the key; only the prefix and a 64-hex-char HMAC are kept
    assert row is not None
    assert all(secret not in str(value) and plaintext not in str(value) for value in row)
    assert record.display_prefix in row and len(record.secret_hash) == 64


def test_the_secret_appears_nowhere_in_the_database_files(keys: KeyService, tmp_path: Path) -> None:
    # Given a freshly created key
    plaintext, _ = keys.create("acme")
    secret = plaintext[len("egk_") + 13 : -6]

    # When every file of the database (main file and WAL) is scanned
    contents = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("t.db"))

    # Then the secret's bytes are not there
    assert contents and secret.encode() not in contents


def _tamper_checksum(key: str) -> str:
    last = "B" if key[-1] == "A" else "A"
    return key[:-1] + last


def _wrong_secret(keys: KeyService, clock: FixedClock) -> str:
    _, record = keys.create("acme")
    return format_key(record.key_id, "B" * 32)


def _revoked(keys: KeyService, clock: FixedClock) -> str:
    plaintext, record = keys.create("acme")
    keys.revoke(record.key_id)
    return plaintext


def _expired(keys: KeyService, clock: FixedClock) -> str:
    plaintext, _ = keys.create("acme", expires_in_days=1)
    clock.advance(days=1)
    return plaintext


BAD_KEYS: dict[str, Callable[[KeyService, FixedClock], str | None]] = {
    "missing": lambda keys, clock: None,
    "empty": lambda keys, clock: "",
    "malformed": lambda keys, clock: "egk_not-a-key",
    "bad checksum": lambda keys, clock: _tamper_checksum(keys.create("acme")[0]),
    "unknown": lambda keys, clock: format_key("abcdefghijkl", "A" * 32),
    "wrong secret": _wrong_secret,
    "revoked": _revoked,
    "expired": _expired,
}


@pytest.mark.parametrize("kind", list(BAD_KEYS))
def test_every_kind_of_bad_key_is_rejected_with_the_same_message(
    kind: str, keys: KeyService, clock: FixedClock
) -> None:
    # Given a bad key of one kind
    presented = BAD_KEYS[kind](keys, clock)

    # When it is verified
    with pytest.raises(UnauthorizedError) as caught:
        keys.verify(presented)

    # Then the error says exactly what it says for every other kind
    assert caught.value.message == INVALID and str(caught.value) == INVALID


def test_a_bad_checksum_is_rejected_without_any_store_lookup(
    keys: KeyService, store: CountingKeyStore
) -> None:
    # Given a real key with its last checksum character changed
    plaintext, _ = keys.create("acme")
    tampered = _tamper_checksum(plaintext)

    # When it is verified
    with pytest.raises(UnauthorizedError):
        keys.verify(tampered)

    # Then the store was never asked
    assert store.lookups == 0


def test_a_well_formed_unknown_key_costs_exactly_one_lookup(
    keys: KeyService, store: CountingKeyStore
) -> None:
    # Given a key with a valid checksum but an id that was never issued
    presented = format_key("abcdefghijkl", "A" * 32)

    # When it is verified
    with pytest.raises(UnauthorizedError):
        keys.verify(presented)

    # Then the store was asked once (so the counting fake does count)
    assert store.lookups == 1


def test_a_read_only_key_cannot_write(keys: KeyService) -> None:
    # Given a read-only key
    plaintext, _ = keys.create("acme", read_only=True)

    # When it is verified
    # Then the principal may not write
    assert keys.verify(plaintext).can_write is False


def test_a_scoped_key_carries_exactly_its_scopes(keys: KeyService) -> None:
    # Given a key limited to two scopes
    plaintext, _ = keys.create("acme", scopes=["user:ann", "project:x"])

    # When it is verified
    principal = keys.verify(plaintext)

    # Then it allows those scopes and no other
    assert principal.scopes == ScopeSet.of(["user:ann", "project:x"])
    assert principal.allows("project:x") and not principal.allows("user:bob")


def test_a_key_still_verifies_just_before_it_expires(keys: KeyService, clock: FixedClock) -> None:
    # Given a key valid for one day
    plaintext, _ = keys.create("acme", expires_in_days=1)

    # When it is verified a second before expiry
    clock.advance(days=1, seconds=-1)

    # Then it is still accepted
    assert keys.verify(plaintext).tenant_id == "acme"


def test_first_use_records_the_last_used_time(keys: KeyService, store: CountingKeyStore) -> None:
    # Given an unused key
    plaintext, record = keys.create("acme")
    assert record.last_used_at is None

    # When it is verified
    keys.verify(plaintext)

    # Then its last-used time is now
    stored = store.get_key(record.key_id)
    assert stored is not None and stored.last_used_at == START


def test_use_within_a_minute_does_not_rewrite_the_last_used_time(
    keys: KeyService, store: CountingKeyStore, clock: FixedClock
) -> None:
    # Given a key used once
    plaintext, record = keys.create("acme")
    keys.verify(plaintext)

    # When it is used again 59 seconds later
    clock.advance(seconds=59)
    keys.verify(plaintext)

    # Then the last-used time still shows the first use
    stored = store.get_key(record.key_id)
    assert stored is not None and stored.last_used_at == START


def test_use_after_a_minute_updates_the_last_used_time(
    keys: KeyService, store: CountingKeyStore, clock: FixedClock
) -> None:
    # Given a key used once
    plaintext, record = keys.create("acme")
    keys.verify(plaintext)

    # When it is used again a minute later
    clock.advance(minutes=1)
    keys.verify(plaintext)

    # Then the last-used time moves to the second use
    stored = store.get_key(record.key_id)
    assert stored is not None and stored.last_used_at == clock.now()


def test_a_key_of_one_tenant_never_verifies_as_another(keys: KeyService) -> None:
    # Given one key for acme and one for globex
    key_a, record_a = keys.create("acme")
    key_b, record_b = keys.create("globex")
    parsed_a, parsed_b = parse_key(key_a), parse_key(key_b)
    assert parsed_a is not None and parsed_b is not None

    # When their key ids are swapped (each checksum recomputed so the keys are well-formed)
    swapped = [format_key(record_b.key_id, parsed_a[1]), format_key(record_a.key_id, parsed_b[1])]

    # Then neither verifies, as anyone
    for presented in swapped:
        with pytest.raises(UnauthorizedError, match=INVALID):
            keys.verify(presented)


def test_deleting_a_tenants_keys_removes_only_that_tenants_keys(
    keys: KeyService, store: CountingKeyStore
) -> None:
    # Given two keys for acme and one for globex
    acme_1, _ = keys.create("acme")
    keys.create("acme")
    globex, _ = keys.create("globex")

    # When acme's keys are deleted
    deleted = store.delete_tenant_keys("acme")

    # Then both acme keys are gone and globex's still works
    assert deleted == 2 and keys.list("acme") == []
    with pytest.raises(UnauthorizedError):
        keys.verify(acme_1)
    assert keys.verify(globex).tenant_id == "globex"


def test_list_returns_only_the_tenants_own_records(keys: KeyService) -> None:
    # Given keys for two tenants
    _, first = keys.create("acme")
    _, second = keys.create("acme", scopes=["global"], read_only=True, expires_in_days=30)
    keys.create("globex")

    # When acme's keys are listed
    listed = keys.list("acme")

    # Then exactly acme's records come back, with every field as created
    assert sorted(listed, key=lambda r: r.key_id) == sorted([first, second], key=lambda r: r.key_id)


def test_revoking_twice_keeps_the_first_revocation_time(
    keys: KeyService, store: CountingKeyStore, clock: FixedClock
) -> None:
    # Given a key revoked once
    _, record = keys.create("acme")
    keys.revoke(record.key_id)

    # When it is revoked again later
    clock.advance(hours=1)
    keys.revoke(record.key_id)

    # Then the recorded revocation time is the first one
    stored = store.get_key(record.key_id)
    assert stored is not None and stored.revoked_at == START


def test_revoking_an_unknown_key_is_not_found(keys: KeyService) -> None:
    # Given no such key
    # When it is revoked
    # Then NotFoundError
    with pytest.raises(NotFoundError):
        keys.revoke("abcdefghijkl")


@pytest.mark.parametrize(
    ("tenant_id", "options", "field"),
    [
        ("Acme", {}, "tenant_id"),
        ("ab", {}, "tenant_id"),
        ("acme", {"scopes": ["global", "team:x"]}, "scopes[1]"),
        ("acme", {"scopes": "global"}, "scopes"),
        ("acme", {"expires_in_days": 0}, "expires_in_days"),
        ("acme", {"expires_in_days": float("nan")}, "expires_in_days"),
        ("acme", {"expires_in_days": float("inf")}, "expires_in_days"),
        ("acme", {"expires_in_days": 1e12}, "expires_in_days"),
    ],
)
def test_create_rejects_invalid_input_naming_the_field(
    keys: KeyService, store: CountingKeyStore, tenant_id: str, options: dict[str, object], field: str
) -> None:
    # Given an invalid tenant id, scope or lifetime
    # When a key is created
    with pytest.raises(ValidationFailedError) as caught:
        keys.create(tenant_id, **options)  # type: ignore[arg-type]

    # Then the error names the field, and nothing was stored
    assert caught.value.details[0]["field"] == field
    assert store.list_keys(tenant_id) == []
