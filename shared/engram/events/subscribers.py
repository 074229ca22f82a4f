"""Which tenants' events go on the cloud's bus: each one's ``events.publish`` in effect, cached.

Events are opt-in per tenant (``engram.settings.EventsSettings``): the stage's setting with the
tenant's overrides decides, as for every other section. The stream consumer asks for a batch's
tenants; a tenant's answer is kept ``ttl_s`` (a minute by default), so a container reads each
tenant's overrides at most once a minute, in one read for all the tenants of a batch whose answer
has expired. A tenant's change of the setting reaches its events within that minute.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from engram.settings import Settings

logger = logging.getLogger(__name__)

TTL_S = 60.0


class PublishingTenants:
    """``publishing(tenant_ids)`` -> those of the tenants whose events are published.

    ``read(tenant_ids)`` answers the stored overrides of the tenants it finds (a tenant it does
    not find, one erased, takes the stage's setting)."""

    def __init__(
        self,
        settings: Settings,
        read: Callable[[Sequence[str]], Mapping[str, Mapping[str, Any]]],
        *,
        ttl_s: float = TTL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.read = read
        self.ttl_s = ttl_s
        self.clock = clock
        self._known: dict[str, tuple[bool, float]] = {}
        self.reads = 0
        """How many reads were made (one per batch with an expired tenant; the cost model counts them)."""

    def __call__(self, tenant_ids: Collection[str]) -> set[str]:
        now = self.clock()
        expired = sorted(t for t in tenant_ids if t not in self._known or self._known[t][1] <= now)
        if expired:
            overrides = self.read(expired)
            self.reads += 1
            for tenant_id in expired:
                self._known[tenant_id] = (
                    self._publishes(tenant_id, overrides.get(tenant_id)),
                    now + self.ttl_s,
                )
        return {t for t in tenant_ids if self._known[t][0]}

    def _publishes(self, tenant_id: str, overrides: Mapping[str, Any] | None) -> bool:
        try:
            return self.settings.for_tenant(overrides).events.publish
        except ValueError:  # stored before a section changed: the stage's setting, and say so
            logger.warning(
                "tenant settings unreadable; the stage's events.publish applies",
                extra={"tenant_id": tenant_id},
            )
            return self.settings.events.publish
