"""180 simulated days of 1,000 memories on a real engine with a settable clock (``lifecycle_sim``):
the job runs daily and each scripted group must end where its behaviour leads."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import timedelta

import pytest

from engram.adapters.clock import FixedClock
from engram.engine import Engine
from engram.models import LifecycleReport, RecallRequest
from engram.settings import Settings
from engram_dev.lifecycle_sim import CORRECTION_DAY, EXPIRY_DAY, START, Simulation, simulate, specs

TENANT = "sim"


@pytest.fixture(scope="module")
def played(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Engine, Simulation, dict[int, object]]]:
    """The whole scenario, played once for the module; what was seen on the days tests look at."""
    clock = FixedClock(START)
    engine = Engine.local(
        Settings(data_dir=tmp_path_factory.mktemp("sim"), background_embedding=False), clock=clock
    )
    engine.create_tenant(TENANT)
    seen: dict[int, object] = {}

    def on_day(day: int, sim: Simulation) -> None:
        if day == CORRECTION_DAY:
            seen[day] = {i: engine.store.history.history(TENANT, i)[-1] for i in sim.groups["corrected"]}
        if day == 60:  # the job is idempotent: a second run at the same time changes nothing
            seen[day] = engine.run_lifecycle(TENANT, now=clock.now())

    sim = simulate(engine, clock, TENANT, on_day=on_day)
    yield engine, sim, seen
    engine.close()


def tiers(engine: Engine, ids: list[str]) -> Counter[str]:
    records = engine.store.records.get_many(TENANT, ids)
    return Counter(records[i].tier if i in records else "deleted" for i in ids)


def test_the_scenario_has_a_thousand_memories_of_mixed_importance() -> None:
    # Given the scenario
    items = specs()

    # When its memories are counted
    importances = {round(s.importance, 1) for s in items}

    # Then there are 1,000 distinct texts spanning importance from 0.1 to 0.9
    assert len(items) == len({s.text for s in items}) == 1000
    assert min(importances) <= 0.1 and max(importances) >= 0.9


def test_frequently_used_important_memories_end_in_core(
    played: tuple[Engine, Simulation, dict[int, object]],
) -> None:
    # Given the hot group (importance 0.9, accessed every 2 days, "used" every 10)
    engine, sim, _ = played

    # When the 180 days are over
    # Then all of them are core
    assert tiers(engine, sim.groups["hot"]) == {"core": 60}


def test_regularly_used_memories_of_middling_importance_end_in_working(
    played: tuple[Engine, Simulation, dict[int, object]],
) -> None:
    # Given the warm group (importance 0.5, accessed weekly): core needs importance ≥ 0.8
    engine, sim, _ = played

    # Then all of them are working
    assert tiers(engine, sim.groups["warm"]) == {"working": 200}


def test_untouched_peripheral_memories_end_archived(
    played: tuple[Engine, Simulation, dict[int, object]],
) -> None:
    # Given the cold group (importance 0.1-0.9, never touched) and the fading group (working, used twice)
    engine, sim, _ = played

    # Then all of them are archived (fading ones after their demotion to peripheral at day 61)
    assert tiers(engine, sim.groups["cold"]) == {"archived": 500}
    assert tiers(engine, sim.groups["fading"]) == {"archived": 100}


def test_pinned_untouched_memories_are_unchanged_and_never_expire(
    played: tuple[Engine, Simulation, dict[int, object]],
) -> None:
    # Given the pinned group (10 per tier, untouched, 10 with an expiry at day 90)
    engine, sim, _ = played
    start = {s.text: s.tier for s in specs() if s.group == "pinned"}

    # Then each is in its starting tier and none was deleted
    records = engine.store.records.get_many(TENANT, sim.groups["pinned"])
    assert len(records) == 30
    assert {r.content: r.tier for r in records.values()} == start


def test_expired_memories_are_deleted_on_their_day_with_a_log_entry(
    played: tuple[Engine, Simulation, dict[int, object]],
) -> None:
    # Given the ttl group (expiring at day 90, though used and in core by then)
    engine, sim, _ = played

    # Then they are gone since day 90, and the deletion log says why
    assert tiers(engine, sim.groups["ttl"]) == {"deleted": 30}
    assert sim.deleted[EXPIRY_DAY - 2] == 0 and sim.deleted[EXPIRY_DAY - 1] == 30
    log = [e for e in engine.store.deletion_log.deletion_log(TENANT) if e.reason == "expired"]
    assert sorted(i for e in log for i in e.ids) == sorted(sim.groups["ttl"])
    assert {e.at for e in log} == {START + timedelta(days=EXPIRY_DAY)}


def test_ignored_memories_are_demoted_and_not_promoted_again(
    played: tuple[Engine, Simulation, dict[int, object]],
) -> None:
    # Given the ignored group (working, accessed every 3 days, ignored three times early on)
    engine, sim, _ = played

    # Then they are peripheral although still accessed (feedback below neutral blocks promotion)
    assert tiers(engine, sim.groups["ignored"]) == {"peripheral": 60}


def test_corrected_memories_were_demoted_at_once(
    played: tuple[Engine, Simulation, dict[int, object]],
) -> None:
    # Given the corrected group (core, used every 2 days, corrected on day 30)
    engine, sim, seen = played

    # Then the correction's history entry moved each from core to working, and they stayed there
    entries = seen[CORRECTION_DAY]
    assert isinstance(entries, dict)
    assert {(e.detail["from_tier"], e.detail["to_tier"], e.detail["by"]) for e in entries.values()} == {
        ("core", "working", "feedback")
    }
    assert tiers(engine, sim.groups["corrected"]) == {"working": 20}


def test_a_second_run_on_the_same_day_changes_nothing(
    played: tuple[Engine, Simulation, dict[int, object]],
) -> None:
    # Given day 60, when the daily run was followed by a second run at the same time
    _, sim, seen = played
    again = seen[60]
    assert isinstance(again, LifecycleReport)

    # Then the second run moved nothing and counted the same tiers
    assert (again.promoted, again.demoted, again.archived, again.expired) == (0, 0, 0, 0)
    assert {t: again.by_tier.get(t, 0) for t in sim.populations[59]} == sim.populations[59]


def test_recall_of_an_archived_memory_misses_it_while_get_still_returns_it(
    played: tuple[Engine, Simulation, dict[int, object]],
) -> None:
    # Given an archived memory of the cold group
    engine, sim, _ = played
    memory = sim.groups["cold"][0]
    record = engine.store.records.get(TENANT, memory)
    assert record is not None and record.tier == "archived"

    # When its exact text is recalled, and it is read by id
    hits = engine.recall(
        TENANT, RecallRequest(query=record.content, limit=20, min_score=0.0, track_access=False)
    )
    view = engine.get(TENANT, memory)

    # Then recall does not return it, GET does, and the populations add up every day
    assert memory not in [m.id for m in hits.memories]
    assert hits.memories, "recall still finds the active memories"
    assert all(m.tier != "archived" for m in hits.memories)
    assert (view.content, view.tier) == (record.content, "archived")
    assert all(sum(p.values()) + d == 1000 for p, d in zip(sim.populations, sim.deleted, strict=True))
