"""Unit tests of the key format and service (``engram.auth.keys``), header extraction
(``engram_http.headers``) and the secret files (``engram.adapters.private_files``)."""

from __future__ import annotations

import math
import stat
from pathlib import Path

import pytest

from engram.adapters.private_files import load_or_create_secret
from engram.auth.keys import (
    BASE62,
    SECRET_CHARS,
    display_prefix,
    format_key,
    new_key,
    parse_key,
    verify_operator,
)
from engram_http.headers import extract_key


def _other_char(char: str) -> str:
    """A different character of the same class (so only the checksum can catch the change)."""
    if char in "abcdefghijklmnopqrstuvwxyz234567":
        return "b" if char == "a" else "a"
    return "B" if char == "A" else "A"


# --- format ----------------------------------------------------------------------------------


def test_a_new_key_parses_back_to_its_key_id_and_secret() -> None:
    # Given a freshly generated key
    key, key_id, secret = new_key()

    # When it is parsed
    parsed = parse_key(key)

    # Then the parts come back unchanged, and formatting them rebuilds the same key
    assert parsed == (key_id, secret)
    assert format_key(key_id, secret) == key


def test_a_key_has_the_documented_shape() -> None:
    # Given a freshly generated key
    key, key_id, secret = new_key()

    # Then it reads egk_<12 base32>_<32 base62><6 base62 checksum>
    assert key.startswith(f"egk_{key_id}_{secret}")
    assert len(key_id) == 12 and set(key_id) <= set("abcdefghijklmnopqrstuvwxyz234567")
    assert len(key) == len("egk_") + 12 + 1 + 32 + 6


def test_the_checksum_catches_any_single_changed_character() -> None:
    # Given a valid key
    key, _, _ = new_key()

    # When each character after the prefix (except the separator) is changed to another valid one
    rejected = []
    for i in range(len("egk_"), len(key)):
        if key[i] == "_":
            continue
        altered = key[:i] + _other_char(key[i]) + key[i + 1 :]
        rejected.append(parse_key(altered) is None)

    # Then every altered key is rejected
    assert rejected and all(rejected)


@pytest.mark.parametrize(
    "presented",
    [
        pytest.param("", id="empty"),
        pytest.param("sk_" + "a" * 12 + "_" + "A" * 38, id="wrong prefix"),
        pytest.param("EGK_" + "a" * 12 + "_" + "A" * 38, id="upper-case prefix"),
        pytest.param(format_key("a" * 11, "A" * 32), id="key id too short"),
        pytest.param(format_key("a" * 12, "A" * 31), id="secret too short"),
        pytest.param(format_key("a" * 12, "A" * 32) + "A", id="too long"),
        pytest.param(format_key("a" * 12, "A" * 32)[:-1], id="checksum truncated"),
        pytest.param(format_key("A" * 12, "A" * 32), id="upper-case key id"),
        pytest.param(format_key("a1" * 6, "A" * 32), id="non-base32 digit in key id"),
        pytest.param(format_key("a" * 12, "A" * 31 + "-"), id="non-base62 char in secret"),
        pytest.param(" " + format_key("a" * 12, "A" * 32), id="leading space"),
        pytest.param(format_key("a" * 12, "A" * 32) + "\n", id="trailing newline"),
        pytest.param(format_key("a" * 12, "A" * 32).replace("_", "-"), id="wrong separator"),
    ],
)
def test_parse_key_rejects_a_malformed_key(presented: str) -> None:
    # Given a key of the wrong prefix, length or alphabet (with a checksum that would otherwise match)
    # When it is parsed
    # Then it is rejected
    assert parse_key(presented) is None


def test_the_secret_carries_at_least_128_bits() -> None:
    # Given a freshly generated secret
    _, _, secret = new_key()

    # Then it is 32 characters drawn from a 62-letter alphabet: 32 * log2(62) ≈ 190 bits
    assert len(BASE62) == 62 and len(set(BASE62)) == 62
    assert len(secret) == SECRET_CHARS and set(secret) <= set(BASE62)
    assert SECRET_CHARS * math.log2(len(BASE62)) >= 128


def test_two_keys_never_share_an_id_or_a_secret() -> None:
    # Given many freshly generated keys
    keys = [new_key() for _ in range(500)]

    # Then no key id and no secret repeats
    assert len({key_id for _, key_id, _ in keys}) == 500
    assert len({secret for _, _, secret in keys}) == 500


def test_the_display_prefix_ends_with_the_separator() -> None:
    # Given a key
    key, key_id, _ = new_key()

    # When its display prefix is taken
    prefix = display_prefix(key_id)

    # Then it ends with "_" (so one id is never a prefix of another) and starts the key
    assert prefix.endswith("_")
    assert key.startswith(prefix)


# --- extract_key -----------------------------------------------------------------------------


def test_extract_key_prefers_the_bearer_token_over_x_api_key() -> None:
    # Given both headers
    headers = {"Authorization": "Bearer from-bearer", "x-api-key": "from-header"}

    # When the key is extracted
    # Then the bearer token wins
    assert extract_key(headers) == "from-bearer"


def test_extract_key_ignores_the_case_of_header_names_and_scheme() -> None:
    # Given headers in unusual cases
    # When the key is extracted
    # Then case does not matter
    assert extract_key({"AUTHORIZATION": "bEaReR k1"}) == "k1"
    assert extract_key({"X-Api-Key": "k2"}) == "k2"


def test_extract_key_falls_back_to_x_api_key_when_authorization_is_not_bearer() -> None:
    # Given a Basic authorization header and an x-api-key header
    headers = {"authorization": "Basic dXNlcjpwYXNz", "x-api-key": "k3"}

    # When the key is extracted
    # Then x-api-key is used
    assert extract_key(headers) == "k3"


@pytest.mark.parametrize(
    "headers",
    [{}, {"authorization": "Bearer "}, {"x-api-key": "  "}, {"authorization": "Basic abc"}],
    ids=["no headers", "empty bearer", "blank x-api-key", "basic only"],
)
def test_extract_key_returns_none_when_no_key_is_presented(headers: dict[str, str]) -> None:
    # Given headers without a usable key
    # When the key is extracted
    # Then there is none
    assert extract_key(headers) is None


# --- verify_operator -------------------------------------------------------------------------


def test_verify_operator_accepts_the_expected_token() -> None:
    # Given the configured token
    # When the same token is presented
    # Then it is accepted
    assert verify_operator("op-token-123", "op-token-123") is True


def test_verify_operator_rejects_a_different_token() -> None:
    # Given the configured token
    # When a different token is presented
    # Then it is rejected
    assert verify_operator("op-token-124", "op-token-123") is False


@pytest.mark.parametrize(
    ("presented", "expected"),
    [(None, "tok"), ("", "tok"), ("tok", None), ("tok", ""), (None, None), ("", "")],
)
def test_verify_operator_rejects_when_either_side_is_missing(
    presented: str | None, expected: str | None
) -> None:
    # Given a missing or empty token on either side
    # When it is checked
    # Then it is rejected (an unset operator token never means "open")
    assert verify_operator(presented, expected) is False


# --- load_or_create_secret -------------------------------------------------------------------


def test_load_or_create_secret_creates_a_private_file_once(tmp_path: Path) -> None:
    # Given no secret file yet
    path = tmp_path / "state" / "pepper"

    # When the secret is loaded twice
    first = load_or_create_secret(path)
    second = load_or_create_secret(path)

    # Then it was created with mode 0600, is stable, and carries 32 random bytes (43 base64 chars)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert first == second
    assert len(first) == 43
    assert list(path.parent.iterdir()) == [path]  # no temporary file left behind


def test_load_or_create_secret_reads_an_existing_file(tmp_path: Path) -> None:
    # Given a secret file written by an operator
    path = tmp_path / "token"
    path.write_bytes(b"my-operator-token\n")

    # When it is loaded
    # Then its content is returned without surrounding whitespace
    assert load_or_create_secret(path) == b"my-operator-token"


def test_the_usage_plan_key_value_fits_api_gateway_for_the_shortest_tenant_id() -> None:
    # Given the shortest and longest canonical tenant ids (3 and 63 characters)
    from engram.auth.keys import usage_key

    shortest, longest = usage_key("abc"), usage_key("a" * 63)

    # Then the usage-plan key value is within API Gateway's 20-128 characters, and names the tenant
    assert 20 <= len(shortest) <= 128 and 20 <= len(longest) <= 128
    assert shortest.endswith("-abc")


def test_a_new_secret_never_starts_with_a_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given random text that would start with "-" first (argparse would read it as an option)
    import secrets

    drawn = iter(["-starts-like-an-option-xxxxxxxxxxxxxxxx", "plain-secret-xxxxxxxxxxxxxxxxxxxxxxxx"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda _n: next(drawn))
    # When a secret is created
    value = load_or_create_secret(tmp_path / "operator-token")
    # Then it is the first draw that does not start with a dash, and that is what the file holds
    assert value == b"plain-secret-xxxxxxxxxxxxxxxxxxxxxxxx"
    assert (tmp_path / "operator-token").read_bytes().strip() == value
