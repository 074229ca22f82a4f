"""``ScopeSet``: which scopes of a tenant a credential, a call or a search may touch.

One value with two shapes: *every* scope of the tenant (a key not limited to some scopes, the
operator, the lifecycle job), or a non-empty set of named scopes. It is the one encoding inside
the service; at its edges it is read from a key record (no scopes stored = every scope) and
written into the authorizer context as ``"*"`` or a JSON list (the wire format deployed
authorizers and handlers share).

>>> ScopeSet.every().allows("user:ann"), ScopeSet.of(["user:ann"]).allows("user:bob")
(True, False)
>>> ScopeSet.decode(ScopeSet.of(["user:ann", "team:x"]).encode()).names
('user:ann', 'team:x')
>>> ScopeSet.decode("*") == ScopeSet.every()
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engram.errors import ForbiddenError

EVERY = "*"
"""The authorizer context's word for every scope."""


@dataclass(frozen=True)
class ScopeSet:
    """Every scope (``ScopeSet.every()``) or a non-empty set of names (``ScopeSet.of``), in the
    order first given. Iterating, ``len`` and ``names`` need a named set: code that must treat
    every scope differently asks ``is_every`` first."""

    _names: tuple[str, ...] | None

    @classmethod
    def every(cls) -> ScopeSet:
        return _EVERY

    @classmethod
    def of(cls, names: Iterable[str]) -> ScopeSet:
        """The named scopes (duplicates dropped); ``ValueError`` for none, or for ``"*"``."""
        if isinstance(names, str):
            raise TypeError("ScopeSet.of takes scope names, not one string")
        unique = tuple(dict.fromkeys(names))
        if not unique:
            raise ValueError("a ScopeSet names at least one scope (ScopeSet.every() for all)")
        if EVERY in unique:
            raise ValueError(f"'{EVERY}' is not a scope name (ScopeSet.every() for all)")
        return cls(unique)

    @classmethod
    def of_key(cls, stored: Iterable[str]) -> ScopeSet:
        """A key record's scopes: none stored means the key may touch every scope."""
        names = tuple(stored)
        return cls.of(names) if names else _EVERY

    @property
    def is_every(self) -> bool:
        return self._names is None

    @property
    def names(self) -> tuple[str, ...]:
        """The named scopes; ``ValueError`` for every scope (which has no list)."""
        if self._names is None:
            raise ValueError("every scope: there is no list of names")
        return self._names

    def allows(self, scope: str) -> bool:
        return self._names is None or scope in self._names

    def narrow(self, requested: Iterable[str] | None) -> ScopeSet:
        """The scopes a call touches: what it names, which must all be allowed here
        (``ForbiddenError`` names those that are not), or all of these when it names none."""
        wanted = tuple(dict.fromkeys(requested or ()))
        if not wanted:
            return self
        denied = [s for s in wanted if not self.allows(s)]
        if denied:
            raise ForbiddenError(f"scope not allowed for this key: {', '.join(denied)}")
        return ScopeSet.of(wanted)

    def encode(self) -> str:
        """The authorizer context's form: ``"*"`` or a JSON list of names."""
        return EVERY if self._names is None else json.dumps(list(self._names))

    @classmethod
    def decode(cls, raw: str | None) -> ScopeSet:
        """What ``encode`` wrote (missing or empty: every scope, as the authorizer has always meant)."""
        if not raw or raw == EVERY:
            return _EVERY
        return cls.of(str(s) for s in json.loads(raw))

    def __contains__(self, scope: object) -> bool:
        return isinstance(scope, str) and self.allows(scope)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __bool__(self) -> bool:
        return True  # never empty: every scope, or at least one name

    def __repr__(self) -> str:
        return "ScopeSet.every()" if self._names is None else f"ScopeSet.of({list(self._names)!r})"


_EVERY = ScopeSet(None)
EVERY_SCOPE = _EVERY
"""``ScopeSet.every()`` as a constant (a default argument's value)."""
