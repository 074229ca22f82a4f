"""``supports``: an optional port's check, remembered per class, answers as ``isinstance`` does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engram.ports import Conditions, SpeakerLabels, ThreadNeighbours, ThreadSearch, supports
from engram.scopes import ScopeSet


class Speaking:
    def speakers(self, tenant_id: str, scopes: ScopeSet) -> frozenset[str]:
        return frozenset({"maya"})


class Linking:
    def neighbours(
        self, tenant_id: str, memory_ids: Sequence[str], conditions: Conditions, span: int
    ) -> dict[str, list[str]] | None:
        return None


class Proxy:
    def __init__(self, inner: object) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def test_supports_answers_as_isinstance_for_each_class_and_port() -> None:
    # Given two adapters, each with one optional port, asked twice (the second from memory)
    for _ in range(2):
        # Then each supports its own port and no other, as isinstance says
        for port in (Speaking(), Linking(), object()):
            for protocol in (SpeakerLabels, ThreadNeighbours, ThreadSearch):
                assert supports(port, protocol) == isinstance(port, protocol)
        assert supports(Speaking(), SpeakerLabels) and not supports(Speaking(), ThreadNeighbours)
        assert supports(Linking(), ThreadNeighbours) and not supports(Linking(), SpeakerLabels)


def test_a_proxy_supports_what_the_object_it_wraps_supports() -> None:
    # Given one proxy class around an adapter with a port, then around one without
    around_speaking, around_nothing = Proxy(Speaking()), Proxy(object())

    # Then each is asked afresh: the first supports the port, the second does not
    for _ in range(2):
        assert supports(around_speaking, SpeakerLabels)
        assert not supports(around_nothing, SpeakerLabels)
