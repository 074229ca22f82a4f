"""A scripted lifecycle simulation on a real engine with a settable clock.

1,000 memories in eight groups of known behaviour, seeded with real embeddings; each simulated day
the script records accesses and feedback, then the lifecycle job runs once. Used by the simulation
test (which asserts each group's end state) and by ``engram lifecycle plot`` (tier populations).

| group | n | importance | start tier | script |
|---|---:|---|---|---|
| hot | 60 | 0.9 | peripheral | accessed every 2 days, ``used`` every 10 |
| warm | 200 | 0.5 | peripheral | accessed every 7 days |
| cold | 500 | 0.1–0.9 | peripheral | never touched |
| fading | 100 | 0.5 | working | accessed on days 5 and 10, then never |
| ignored | 60 | 0.7 | working | accessed every 3 days, ``ignored`` on days 3, 6 and 9 |
| corrected | 20 | 0.9 | core | accessed every 2 days, ``corrected`` on day 30 |
| pinned | 30 | 0.1–0.9 | 10 per tier | pinned, never touched; 10 expire on day 90 |
| ttl | 30 | 0.9 | peripheral | accessed every 2 days, expire on day 90 |
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from engram.identity import content_hash, memory_id
from engram.models import FeedbackRequest, MemoryRecord, Signal, Tier
from engram.ports import WriteBatch

if TYPE_CHECKING:
    from engram.adapters.clock import FixedClock
    from engram.engine import Engine

START = datetime(2026, 1, 1, 3, 0, tzinfo=UTC)
DAYS = 180
EXPIRY_DAY = 90
CORRECTION_DAY = 30
SCOPE = "user:sim"
TIERS_SHOWN: tuple[Tier, ...] = ("core", "working", "peripheral", "archived")

_SUBJECTS = ["Alice", "Bob", "The team", "My manager", "The client", "Our landlord", "My sister", "The vet"]
_VERBS = ["prefers", "asked about", "mentioned", "is worried about", "booked", "cancelled", "recommended"]
_OBJECTS = [
    "the Lisbon trip",
    "dark mode",
    "the quarterly report",
    "vegetarian food",
    "the billing bug",
    "a new laptop",
    "the piano lessons",
    "the dentist appointment",
    "the Kubernetes upgrade",
    "weekend hiking",
]


@dataclass(frozen=True)
class Spec:
    group: str
    text: str
    importance: float
    tier: Tier
    pinned: bool = False
    expires: bool = False


@dataclass
class Simulation:
    """The seeded ids per group and, per simulated day, the tier populations after the job."""

    groups: dict[str, list[str]]
    populations: list[dict[str, int]] = field(default_factory=list)
    deleted: list[int] = field(default_factory=list)
    """Memories deleted so far (expired), per day."""


def specs(seed: int = 7) -> list[Spec]:
    """The 1,000 memories of the scenario, each with a distinct text."""
    rng = random.Random(seed)
    out: list[Spec] = []

    def text(i: int) -> str:
        return f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} (note {i})"

    def add(group: str, n: int, importance: Callable[[], float], tier: Tier, **flags: bool) -> None:
        for _ in range(n):
            out.append(Spec(group, text(len(out)), round(importance(), 3), tier, **flags))

    add("hot", 60, lambda: 0.9, "peripheral")
    add("warm", 200, lambda: 0.5, "peripheral")
    add("cold", 500, lambda: rng.uniform(0.1, 0.9), "peripheral")
    add("fading", 100, lambda: 0.5, "working")
    add("ignored", 60, lambda: 0.7, "working")
    add("corrected", 20, lambda: 0.9, "core")
    for tier in ("core", "working", "peripheral"):
        add("pinned", 5, lambda: rng.uniform(0.1, 0.9), tier, pinned=True)
        add("pinned", 5, lambda: rng.uniform(0.1, 0.9), tier, pinned=True, expires=True)
    add("ttl", 30, lambda: 0.9, "peripheral", expires=True)
    return out


def seed(engine: Engine, tenant_id: str, items: list[Spec], *, at: datetime = START) -> dict[str, list[str]]:
    """Write the memories with their real embeddings, created at ``at``; their ids per group."""
    groups: dict[str, list[str]] = {}
    for start in range(0, len(items), 250):
        chunk = items[start : start + 250]
        vectors = engine.embedder.embed([s.text for s in chunk])
        records = [
            MemoryRecord(
                tenant_id=tenant_id,
                id=memory_id(tenant_id, SCOPE, s.text),
                scope=SCOPE,
                content=s.text,
                abstract=s.text,
                importance=s.importance,
                tier=s.tier,
                pinned=s.pinned,
                expires_at=at + timedelta(days=EXPIRY_DAY) if s.expires else None,
                created_at=at,
                updated_at=at,
                content_hash=content_hash(s.text),
                embedding_model=engine.embedder.model_id,
            )
            for s in chunk
        ]
        engine.store.records.write(tenant_id, WriteBatch(records=records, vectors=list(vectors)))
        engine.index.upsert(tenant_id, records, list(vectors))
        for s, r in zip(chunk, records, strict=True):
            groups.setdefault(s.group, []).append(r.id)
    return groups


def script_day(engine: Engine, tenant_id: str, groups: dict[str, list[str]], day: int, now: datetime) -> None:
    """The accesses and feedback of one simulated day."""
    accessed: list[str] = []
    if day % 2 == 0:
        accessed += groups["hot"] + groups["corrected"] + groups["ttl"]
    if day % 7 == 0:
        accessed += groups["warm"]
    if day in (5, 10):
        accessed += groups["fading"]
    if day % 3 == 0:
        accessed += groups["ignored"]
    engine.store.records.record_access(tenant_id, accessed, now)  # what recall does for what it returns
    signals: list[tuple[list[str], Signal]] = []
    if day % 10 == 0:
        signals.append((groups["hot"], "used"))
    if day in (3, 6, 9):
        signals.append((groups["ignored"], "ignored"))
    if day == CORRECTION_DAY:
        signals.append((groups["corrected"], "corrected"))
    for ids, signal in signals:
        for memory_id_ in ids:
            engine.feedback(tenant_id, memory_id_, FeedbackRequest(signal=signal))


def simulate(
    engine: Engine,
    clock: FixedClock,
    tenant_id: str,
    *,
    days: int = DAYS,
    on_day: Callable[[int, Simulation], None] | None = None,
) -> Simulation:
    """Seed the scenario at ``START`` and play ``days`` days: script, then one lifecycle run, per day.

    ``on_day(day, simulation)`` is called after each day's run (tests look at the state there).
    """
    clock.set(START)
    sim = Simulation(groups=seed(engine, tenant_id, specs()))
    total = sum(len(ids) for ids in sim.groups.values())
    for day in range(1, days + 1):
        now = START + timedelta(days=day)
        clock.set(now)
        script_day(engine, tenant_id, sim.groups, day, now)
        report = engine.run_lifecycle(tenant_id, now=now)
        sim.populations.append({tier: report.by_tier.get(tier, 0) for tier in TIERS_SHOWN})
        sim.deleted.append(total - sum(report.by_tier.values()))
        if on_day is not None:
            on_day(day, sim)
    return sim
