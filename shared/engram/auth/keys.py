"""API keys and the operator token (DESIGN §9): the key format and the key service.

A key reads ``egk_<key_id>_<secret><checksum>``: ``key_id`` (12 base32 chars, 60 bits) finds the
record, ``secret`` (32 base62 chars, ~190 bits) proves possession, and a 6-char base62 CRC32
rejects typos and garbage before any lookup. Only ``HMAC-SHA-256(pepper, secret)`` and the
display prefix ``egk_<key_id>_`` are stored; the plaintext key is shown once, by ``create``.
"""

from __future__ import annotations

import builtins
import hashlib
import hmac
import re
import secrets
import zlib
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Literal

from pydantic import TypeAdapter, ValidationError

from engram.errors import NotFoundError, UnauthorizedError, ValidationFailedError
from engram.records import ApiKeyRecord, Principal, Scope, TenantId
from engram.scopes import ScopeSet

if TYPE_CHECKING:  # the authorizer's cold start must not pay for numpy via engram.ports
    from engram.ports import Clock, KeyStore
    from engram.settings import Settings

KEY_PREFIX = "egk_"
KEY_ID_CHARS = 12
SECRET_CHARS = 32
CHECKSUM_CHARS = 6
BASE32 = "abcdefghijklmnopqrstuvwxyz234567"
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
KEY_LENGTH = len(KEY_PREFIX) + KEY_ID_CHARS + 1 + SECRET_CHARS + CHECKSUM_CHARS
TOUCH_INTERVAL = timedelta(minutes=1)
"""last_used_at is written at most this often per key (not once per request)."""
MAX_KEY_DAYS = 36_500
INVALID_KEY = "invalid or missing API key"
"""The one message for every rejected key, so a caller learns nothing about why."""

KEY_ID_PATTERN = rf"^[a-z2-7]{{{KEY_ID_CHARS}}}$"
_KEY_RE = re.compile(
    rf"{KEY_PREFIX}([a-z2-7]{{{KEY_ID_CHARS}}})_([0-9A-Za-z]{{{SECRET_CHARS}}})([0-9A-Za-z]{{{CHECKSUM_CHARS}}})"
)
_TENANT: TypeAdapter[str] = TypeAdapter(TenantId)
_SCOPE: TypeAdapter[str] = TypeAdapter(Scope)


def _base62(value: int, width: int) -> str:
    chars = []
    for _ in range(width):
        value, digit = divmod(value, 62)
        chars.append(BASE62[digit])
    return "".join(reversed(chars))


def _checksum(body: str) -> str:
    return _base62(zlib.crc32(body.encode("ascii")), CHECKSUM_CHARS)


DEFAULT_STAGE_PREFIX = "engram-"


def usage_key(tenant_id: str, stage_prefix: str | None = None) -> str:
    """The value (and name) of the tenant's API Gateway usage-plan key in one stage, which the
    authorizer returns as ``usageIdentifierKey``. ``stage_prefix`` is the stage's resource prefix
    (``engram-<stage>-``, the stack's ``ENGRAM_USAGE_PLAN_PREFIX``): key values are unique in an
    account and region, so two stages there must never share one (erasing a tenant in one stage
    would cut it off in the other). API Gateway wants 20–128 characters.

    >>> usage_key("abc", "engram-dev-")
    'engram-dev-usage-plan-key-abc'
    >>> usage_key("abc")
    'engram-usage-plan-key-abc'
    """
    return f"{stage_prefix or DEFAULT_STAGE_PREFIX}usage-plan-key-{tenant_id}"


def display_prefix(key_id: str) -> str:
    """The non-secret prefix shown in listings; it ends with the separator.

    >>> display_prefix("abcdefghijkl")
    'egk_abcdefghijkl_'
    """
    return f"{KEY_PREFIX}{key_id}_"


def format_key(key_id: str, secret: str) -> str:
    """Assemble a key from its parts, appending the checksum.

    >>> parse_key(format_key("abcdefghijkl", "A" * 32)) == ("abcdefghijkl", "A" * 32)
    True
    """
    body = display_prefix(key_id) + secret
    return body + _checksum(body)


def new_key() -> tuple[str, str, str]:
    """A fresh (key, key_id, secret) from ``secrets``.

    >>> key, key_id, secret = new_key(); parse_key(key) == (key_id, secret)
    True
    """
    bits = secrets.randbits(5 * KEY_ID_CHARS)
    key_id = "".join(BASE32[(bits >> (5 * i)) & 31] for i in range(KEY_ID_CHARS))
    secret = "".join(secrets.choice(BASE62) for _ in range(SECRET_CHARS))
    return format_key(key_id, secret), key_id, secret


def parse_key(presented: str) -> tuple[str, str] | None:
    """(key_id, secret) of a well-formed key with a good checksum, else None. No I/O.

    >>> parse_key("egk_short") is None
    True
    """
    if len(presented) != KEY_LENGTH:
        return None
    match = _KEY_RE.fullmatch(presented)
    if match is None:
        return None
    key_id, secret, checksum = match.groups()
    if not hmac.compare_digest(checksum, _checksum(display_prefix(key_id) + secret)):
        return None
    return key_id, secret


def hash_secret(secret: str, pepper: bytes) -> str:
    """Hex HMAC-SHA-256 of the secret, keyed with the server-side pepper."""
    return hmac.new(pepper, secret.encode("ascii"), hashlib.sha256).hexdigest()


def _invalid(field: str, problem: str) -> ValidationFailedError:
    return ValidationFailedError(f"{field}: {problem}", details=[{"field": field, "problem": problem}])


def _check(adapter: TypeAdapter[str], value: Any, field: str) -> str:
    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        raise _invalid(field, exc.errors(include_url=False)[0]["msg"]) from None


class KeyService:
    """Create, verify, revoke and list API keys.

    >>> from datetime import UTC, datetime
    >>> from engram.adapters.clock import FixedClock
    >>> from engram.adapters.sqlite.keys import SqliteKeyStore
    >>> from engram.adapters.sqlite.database import SqliteDatabase
    >>> keys = KeyService(SqliteKeyStore(SqliteDatabase(":memory:")), pepper=b"p" * 32,
    ...                   clock=FixedClock(datetime(2026, 1, 1, tzinfo=UTC)))
    >>> plaintext, record = keys.create("acme", read_only=True)
    >>> keys.verify(plaintext).tenant_id, keys.verify(plaintext).can_write
    ('acme', False)
    """

    def __init__(self, store: KeyStore, *, pepper: bytes | Callable[[], bytes], clock: Clock) -> None:
        """``pepper`` may be a function: it is then read on the first key operation, not before
        (in the cloud it comes from Secrets Manager, which only the key-handling functions may read)."""
        self.store = store
        self.clock = clock
        self._pepper_source = pepper
        self._resolved: bytes | None = None

    @property
    def _pepper(self) -> bytes:
        if self._resolved is None:
            pepper = self._pepper_source() if callable(self._pepper_source) else self._pepper_source
            if len(pepper) < 16:
                raise ValueError("the pepper must be at least 16 bytes")
            self._resolved = pepper
        return self._resolved

    @property
    def _dummy_hash(self) -> str:
        return hash_secret("0" * SECRET_CHARS, self._pepper)

    def create(
        self,
        tenant_id: str,
        *,
        scopes: Sequence[str] = (),
        read_only: bool = False,
        expires_in_days: float | None = None,
    ) -> tuple[str, ApiKeyRecord]:
        """A new key for a tenant: (plaintext key, shown only now; its stored record)."""
        tenant = _check(_TENANT, tenant_id, "tenant_id")
        if isinstance(scopes, str):
            raise _invalid("scopes", "must be a list of scopes, not a string")
        checked = tuple(dict.fromkeys(_check(_SCOPE, s, f"scopes[{i}]") for i, s in enumerate(scopes)))
        if expires_in_days is not None and not 0 < expires_in_days <= MAX_KEY_DAYS:  # also rejects NaN
            raise _invalid("expires_in_days", f"must be more than 0 and at most {MAX_KEY_DAYS} days")
        now = self.clock.now()
        expires_at = None if expires_in_days is None else now + timedelta(days=expires_in_days)
        plaintext, key_id, secret = new_key()  # a 60-bit id collides ~never; put_key raises if it does
        record = ApiKeyRecord(
            key_id=key_id,
            tenant_id=tenant,
            display_prefix=display_prefix(key_id),
            secret_hash=hash_secret(secret, self._pepper),
            scopes=checked,
            read_only=read_only,
            created_at=now,
            expires_at=expires_at,
            revoked_at=None,
            last_used_at=None,
        )
        self.store.put_key(record)
        return plaintext, record

    def verify(self, presented: str | None) -> Principal:
        """The principal for a presented key; ``UnauthorizedError`` (one message) for any bad key."""
        parsed = parse_key(presented) if presented else None
        if parsed is None:  # garbage or a typo: rejected without touching the store
            raise UnauthorizedError(INVALID_KEY)
        key_id, secret = parsed
        record = self.store.get_key(key_id)
        expected = record.secret_hash if record is not None else self._dummy_hash
        matches = hmac.compare_digest(hash_secret(secret, self._pepper), expected)
        now = self.clock.now()
        if (
            record is None
            or not matches
            or record.revoked_at is not None
            or (record.expires_at is not None and now >= record.expires_at)
        ):
            raise UnauthorizedError(INVALID_KEY)
        if record.last_used_at is None or now - record.last_used_at >= TOUCH_INTERVAL:
            self.store.touch_key(key_id, now)
        return Principal(
            tenant_id=record.tenant_id,
            key_id=record.key_id,
            scopes=ScopeSet.of_key(record.scopes),
            can_write=not record.read_only,
        )

    def revoke(self, key_id: str) -> None:
        """Revoke a key at once; revoking twice keeps the first time. ``NotFoundError`` if unknown."""
        if not self.store.revoke_key(key_id, self.clock.now()):
            raise NotFoundError(f"API key '{key_id}' not found")

    def list(self, tenant_id: str) -> builtins.list[ApiKeyRecord]:
        """Every key of a tenant (records only; secrets are never retrievable)."""
        return self.store.list_keys(tenant_id)


def verify_operator(presented: str | None, expected: str | None) -> bool:
    """Constant-time operator-token check; False if either side is missing or empty.

    >>> verify_operator("t0ken", "t0ken"), verify_operator("", ""), verify_operator(None, "t0ken")
    (True, False, False)
    """
    if not presented or not expected:
        return False
    return hmac.compare_digest(presented.encode("utf-8"), expected.encode("utf-8"))


def authenticate(
    presented: str | None,
    *,
    keys: KeyService | None,
    operator_token: str | Callable[[], str | None] | None,
) -> Principal | Literal["operator"]:
    """Who presents this credential: the operator, or a key's principal; ``UnauthorizedError``
    (one message, whatever was wrong) for anything else. ``operator_token`` may be a function
    reading it (from Secrets Manager) when first needed."""
    expected = operator_token() if callable(operator_token) else operator_token
    if verify_operator(presented, expected):
        return "operator"
    if keys is None:
        raise UnauthorizedError(INVALID_KEY)
    return keys.verify(presented)


def usage_identifier(tenant_id: str, *, settings: Settings) -> str:
    """The API Gateway key whose usage plan throttles the tenant's callers (the authorizer's
    ``usageIdentifierKey``)."""
    return usage_key(tenant_id, settings.aws.usage_plan_prefix)
