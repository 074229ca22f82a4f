"""What a request presents as its credential, read from its headers (the authorizer's first step)."""

from __future__ import annotations

from collections.abc import Mapping


def extract_key(headers: Mapping[str, str]) -> str | None:
    """The presented key: ``Authorization: Bearer <key>`` first, then ``x-api-key``.

    >>> extract_key({"X-API-Key": "k1"}), extract_key({"authorization": "bearer k2", "x-api-key": "k1"})
    ('k1', 'k2')
    """
    lowered = {name.lower(): value for name, value in headers.items()}
    scheme, _, credential = lowered.get("authorization", "").strip().partition(" ")
    if scheme.lower() == "bearer" and credential.strip():
        return credential.strip()
    return lowered.get("x-api-key", "").strip() or None
