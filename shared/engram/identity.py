"""Deterministic identities: a replayed retain of the same text in the same scope is a no-op."""

from __future__ import annotations

import hashlib
import re
import unicodedata
import uuid

_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed: the form two texts must share to be 'the same'.

    >>> normalise("  I  prefer\\nDark mode ")
    'i prefer dark mode'
    """
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


def content_hash(text: str) -> str:
    return hashlib.sha256(normalise(text).encode()).hexdigest()


def memory_id(tenant_id: str, scope: str, text: str) -> str:
    """``mem_`` + 32 hex of sha256(tenant, scope, normalised content)."""
    digest = hashlib.sha256("\x1f".join((tenant_id, scope, normalise(text))).encode()).hexdigest()
    return "mem_" + digest[:32]


def receipt_id() -> str:
    return "rcpt_" + uuid.uuid4().hex


def job_id(tenant_id: str | None = None, idempotency_key: str | None = None) -> str:
    """A new job's id: random, or derived from the tenant and the request's ``Idempotency-Key``,
    so a retried submit of the same key finds its job instead of queueing another."""
    if idempotency_key is None:
        return "job_" + uuid.uuid4().hex
    return "job_" + hashlib.sha256(f"{tenant_id}\x00{idempotency_key}".encode()).hexdigest()[:32]


def scoped_key(scope: str, idempotency_key: str) -> str:
    """What an ``Idempotency-Key`` is stored under: the scope written to and the key, so one
    scope's keys never meet another's and a 409 (the key was used for another body) says nothing
    about any other scope.

    >>> scoped_key("user:alice", "k1") != scoped_key("user:bob", "k1")
    True
    """
    return "sk1_" + hashlib.sha256(f"{scope}\x00{idempotency_key}".encode()).hexdigest()[:40]
