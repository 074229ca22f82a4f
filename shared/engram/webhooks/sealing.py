"""Webhook signing secrets, sealed at rest: AES-256-GCM under a key kept beside the database.

API keys are stored as hashes, but a signing secret must be read back to sign each delivery, so
it is stored encrypted instead (``sealed:v1:<base64 of nonce + ciphertext>``, the tenant and
endpoint bound in as associated data, so a sealed value copied to another row does not open).
The key is its own file in the data dir (``webhook-key``, 0600), so a copy of the SQLite file
alone (a backup, a stolen disk image of it) does not reveal the secrets. A value written before
sealing existed is read as it is and sealed again on its next write.

>>> sealer = Sealer.from_key_text(b"bm90LWEtcmVhbC1rZXktYnV0LTMyLWJ5dGVzLWxvbmchIQ")
>>> sealed = sealer.seal("whsec_abc", "acme", "wh_1")
>>> sealed.startswith("sealed:v1:") and sealer.open(sealed, "acme", "wh_1")
'whsec_abc'
"""

from __future__ import annotations

import base64
import os

PREFIX = "sealed:v1:"


class Sealer:
    """Seals and opens short secrets with one 256-bit key."""

    def __init__(self, key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        if len(key) != 32:
            raise ValueError("the sealing key must be 32 bytes")
        self._aead = AESGCM(key)

    @classmethod
    def from_key_text(cls, text: bytes) -> Sealer:
        """A sealer under the key a ``webhook-key`` file holds (URL-safe base64 of 32 bytes; the
        composition root reads or makes it, ``engram.adapters.private_files``)."""
        return cls(base64.urlsafe_b64decode(text + b"=" * (-len(text) % 4))[:32])

    def seal(self, secret: str, *context: str) -> str:
        nonce = os.urandom(12)
        box = self._aead.encrypt(nonce, secret.encode(), "\n".join(context).encode())
        return PREFIX + base64.b64encode(nonce + box).decode()

    def open(self, stored: str, *context: str) -> str:
        """The secret of a sealed value (one stored before sealing is returned as it is)."""
        if not stored.startswith(PREFIX):
            return stored
        raw = base64.b64decode(stored[len(PREFIX) :])
        return self._aead.decrypt(raw[:12], raw[12:], "\n".join(context).encode()).decode()
