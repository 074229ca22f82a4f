"""The ports a lifecycle run takes, in a module of their own: ``engram.deps`` names them for every
function, and the sweep itself is only the lifecycle job's."""

from __future__ import annotations

from dataclasses import dataclass

from engram.ports import Clock, LifecycleReports, MemoryRecords, SearchIndex, TenantRegistry
from engram.settings import Settings


@dataclass(frozen=True, kw_only=True)
class LifecyclePorts:
    """The ports a lifecycle run takes (a ``Deps.call`` bundle). ``settings`` are the service's
    in ``engram.lifecycle.service`` and the tenant's once ``run`` is given them."""

    records: MemoryRecords
    reports: LifecycleReports
    tenants: TenantRegistry
    index: SearchIndex
    clock: Clock
    settings: Settings
