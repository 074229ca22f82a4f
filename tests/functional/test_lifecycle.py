"""The lifecycle job on a real engine with a settable clock: archival, restore, expiry, pins,
feedback demotion, idempotency, resumption, visibility, isolation and the CLI."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import BACKENDS, build_engine
from store_support import with_parts

from engram.adapters.clock import FixedClock
from engram.engine import Engine
from engram.identity import content_hash
from engram.models import FeedbackRequest, LifecycleReport, PatchRequest, RecallRequest, RetainRequest
from engram.ports import ConditionalUpdate
from engram.settings import Settings
from engram_cli.main import main

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
LATER = T0 + timedelta(days=200)  # an untouched peripheral memory of importance 0.5 has R ≈ 0
SCOPE = "user:alice"
TEXT = "My passport number ends in 4471 and expires in March"


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0)


@pytest.fixture(params=BACKENDS)
def timed(data_dir: Path, clock: FixedClock, request: pytest.FixtureRequest) -> Iterator[Engine]:
    """acme and globex on an engine whose clock the test moves, on each backend."""
    engine = build_engine(request.param, data_dir, request, clock=clock)
    engine.create_tenant("acme")
    engine.create_tenant("globex")
    yield engine
    engine.close()
    if request.param == "dynamodb":
        store: Any = engine.store
        store.records.client.delete_table(TableName=store.records.table)


def retain(engine: Engine, text: str, tenant: str = "acme", **extra: object) -> str:
    response = engine.retain(
        tenant, RetainRequest.model_validate({"scope": SCOPE, "text": text, "mode": "raw", **extra})
    )
    return response.results[0].id


def recalled(engine: Engine, query: str, tenant: str = "acme") -> list[str]:
    request = RecallRequest(query=query, limit=10, min_score=0.0, track_access=False)
    return [m.id for m in engine.recall(tenant, request).memories]


# -- archival and restore ------------------------------------------------------------------------


def test_an_untouched_memory_is_archived_and_leaves_recall_but_get_still_returns_it(
    timed: Engine, clock: FixedClock
) -> None:
    # Given a memory retained at T0 that recall finds
    memory = retain(timed, TEXT)
    assert memory in recalled(timed, "passport number")

    # When the job runs 200 days later
    clock.set(LATER)
    report = timed.run_lifecycle("acme")

    # Then it is archived, recall no longer returns it, and GET does, with its tier and why
    assert (report.archived, report.by_tier) == (1, {"archived": 1})
    assert memory not in recalled(timed, "passport number")
    view = timed.get("acme", memory)
    assert view.tier == "archived"
    assert view.lifecycle is not None
    assert "peripheral → archived" in view.lifecycle["why"] and "R " in view.lifecycle["why"]


def test_restore_brings_an_archived_memory_back_into_recall_and_restarts_its_clock(
    timed: Engine, clock: FixedClock
) -> None:
    # Given an archived memory
    memory = retain(timed, TEXT)
    clock.set(LATER)
    timed.run_lifecycle("acme")

    # When it is restored (to peripheral, the default), and the job runs again at the same time
    view = timed.restore("acme", memory)
    again = timed.run_lifecycle("acme")

    # Then recall finds it, and the job leaves it there (its decay restarted now: R = 1)
    assert view.tier == "peripheral"
    assert view.last_accessed_at == LATER
    assert memory in recalled(timed, "passport number")
    assert (again.archived, again.demoted) == (0, 0)
    assert timed.get("acme", memory).tier == "peripheral"


def test_restoring_a_memory_that_is_not_archived_changes_nothing(timed: Engine) -> None:
    # Given an active peripheral memory at version 1
    memory = retain(timed, TEXT)

    # When it is restored
    view = timed.restore("acme", memory)

    # Then it is returned as it was
    assert (view.tier, view.version) == ("peripheral", 1)


def test_patching_the_tier_to_archived_and_back_moves_it_out_of_and_into_recall(timed: Engine) -> None:
    # Given a memory recall finds
    memory = retain(timed, TEXT)

    # When it is patched to archived, then back to core
    timed.patch("acme", memory, PatchRequest(tier="archived"))
    while_archived = recalled(timed, "passport number")
    timed.patch("acme", memory, PatchRequest(tier="core"))

    # Then recall misses it only while archived, and its history says who moved it
    assert memory not in while_archived
    assert memory in recalled(timed, "passport number")
    history = timed.get("acme", memory, with_history=True).history or []
    assert [(h.event, h.detail.get("to_tier")) for h in history] == [
        ("created", None),
        ("tier", "archived"),
        ("tier", "core"),
    ]


def test_a_fresh_process_does_not_load_archived_memories_into_its_search_cache(
    timed: Engine, clock: FixedClock, data_dir: Path
) -> None:
    if timed.settings.backend != "local":
        pytest.skip("the embedded default's own search cache (the cloud index drops archived documents)")
    # Given an archived memory and an active one
    archived = retain(timed, TEXT)
    clock.set(LATER)
    timed.run_lifecycle("acme")
    active = retain(timed, "My passport photo was taken in Porto")

    # When a new engine on the same file (a new process) searches
    fresh = Engine.local(Settings(data_dir=data_dir, background_embedding=False))
    found = recalled(fresh, "passport")

    # Then only the active memory is there
    assert active in found and archived not in found


# -- pins and expiry -----------------------------------------------------------------------------


def test_a_pinned_memory_is_never_archived(timed: Engine, clock: FixedClock) -> None:
    # Given a pinned memory, untouched for 200 days
    memory = retain(timed, TEXT)
    timed.patch("acme", memory, PatchRequest(pinned=True))
    clock.set(LATER)

    # When the job runs
    report = timed.run_lifecycle("acme")

    # Then it stays peripheral and its retention is 1
    assert report.archived == 0
    view = timed.get("acme", memory)
    assert view.tier == "peripheral"
    assert view.lifecycle is not None and view.lifecycle["retention"] == 1.0


def test_an_expired_memory_is_deleted_with_a_deletion_log_entry_and_a_pinned_one_stays(
    timed: Engine, clock: FixedClock
) -> None:
    # Given two memories expiring after 10 days, one of them pinned, and one without expiry
    due = T0 + timedelta(days=10)
    doomed = retain(timed, TEXT, expires_at=due.isoformat())
    kept = retain(timed, "The spare key is under the blue flower pot", expires_at=due.isoformat())
    timed.patch("acme", kept, PatchRequest(pinned=True))
    other = retain(timed, "Our wifi password changes every quarter")

    # When the job runs a day before and on the due time
    clock.set(due - timedelta(days=1))
    before = timed.run_lifecycle("acme")
    clock.set(due)
    after = timed.run_lifecycle("acme")

    # Then only the unpinned expired memory is gone, with a content-free log entry
    assert (before.expired, after.expired) == (0, 1)
    assert timed.store.records.get("acme", doomed) is None
    assert (
        timed.store.records.get("acme", kept) is not None
        and timed.store.records.get("acme", other) is not None
    )
    log = timed.store.deletion_log.deletion_log("acme")
    assert [(e.ids, e.reason) for e in log] == [([doomed], "expired")]


def test_patch_sets_and_clears_an_expiry(timed: Engine, clock: FixedClock) -> None:
    # Given a memory given an expiry, which is then cleared with null
    memory = retain(timed, TEXT)
    timed.patch("acme", memory, PatchRequest(expires_at=T0 + timedelta(days=1)))
    timed.patch("acme", memory, PatchRequest.model_validate({"expires_at": None}))

    # When the job runs after the old expiry
    clock.set(T0 + timedelta(days=2))
    report = timed.run_lifecycle("acme")

    # Then nothing expired
    assert report.expired == 0
    assert timed.get("acme", memory).expires_at is None


# -- feedback and access -------------------------------------------------------------------------


def test_a_corrected_memory_is_demoted_at_once_and_not_promoted_back(timed: Engine) -> None:
    # Given a core memory
    memory = retain(timed, TEXT)
    timed.patch("acme", memory, PatchRequest(tier="core"))

    # When the user corrects it, and the job runs
    timed.feedback("acme", memory, FeedbackRequest(signal="corrected"))
    tier_at_once = timed.get("acme", memory).tier
    timed.store.records.record_access("acme", [memory] * 1, T0)
    timed.run_lifecycle("acme")

    # Then it went to working at once and stays there
    assert tier_at_once == "working"
    view = timed.get("acme", memory)
    assert view.tier == "working"
    assert view.lifecycle is not None and "corrected by the user" in view.lifecycle["why"]


def test_used_feedback_counts_an_access_and_a_recall_only_its_best_few(
    timed: Engine, clock: FixedClock
) -> None:
    # Given five memories about one topic
    ids = [retain(timed, f"Reminder {n}: the passport office opens at nine") for n in range(5)]

    # When a recall returns all five (access tracked), and one of them is reported used a day later
    hits = timed.recall("acme", RecallRequest(query="passport office", limit=5, min_score=0.0))
    clock.set(T0 + timedelta(days=1))
    timed.feedback("acme", ids[4], FeedbackRequest(signal="used"))

    # Then only the best access_top (3) of the recall gained an access, and the used one one more
    returned = [m.id for m in hits.memories]
    counts = {i: timed.store.records.get("acme", i).access_count for i in ids}  # type: ignore[union-attr]
    assert len(returned) == 5
    expected = {i: int(i in returned[:3]) + int(i == ids[4]) for i in ids}
    assert counts == expected
    used = timed.store.records.get("acme", ids[4])
    assert used is not None and used.last_accessed_at == T0 + timedelta(days=1)


def test_three_ignores_in_a_row_demote_a_working_memory(timed: Engine) -> None:
    # Given a working memory
    memory = retain(timed, TEXT)
    timed.patch("acme", memory, PatchRequest(tier="working"))

    # When it is ignored three times
    tiers = []
    for _ in range(3):
        timed.feedback("acme", memory, FeedbackRequest(signal="ignored"))
        tiers.append(timed.get("acme", memory).tier)

    # Then the third ignore (weight 0.1715 < 0.2) demotes it
    assert tiers == ["working", "working", "peripheral"]


def test_a_pinned_memory_is_not_demoted_by_a_correction(timed: Engine) -> None:
    # Given a pinned core memory
    memory = retain(timed, TEXT)
    timed.patch("acme", memory, PatchRequest(tier="core", pinned=True))

    # When it is corrected
    response = timed.feedback("acme", memory, FeedbackRequest(signal="corrected"))

    # Then its weight drops but it stays in core
    assert response.feedback_weight == pytest.approx(0.35)
    assert timed.get("acme", memory).tier == "core"


def test_accesses_and_positive_feedback_promote_an_important_memory_to_core(
    timed: Engine, clock: FixedClock
) -> None:
    # Given an important memory (0.9) recalled and used over twenty days
    memory = retain(timed, TEXT)
    record = timed.store.records.get("acme", memory)
    assert record is not None
    timed.store.records.update(
        "acme", record.model_copy(update={"importance": 0.9, "version": 2}), expected_version=1
    )
    for day in range(1, 21):
        clock.set(T0 + timedelta(days=day))
        hits = timed.recall("acme", RecallRequest(query="when does my passport expire", limit=1))
        assert [m.id for m in hits.memories] == [memory]
        if day % 5 == 0:
            timed.feedback("acme", memory, FeedbackRequest(signal="used"))

    # When the job runs
    report = timed.run_lifecycle("acme")

    # Then it went peripheral -> working -> core, and the report lists it as the top mover
    assert report.promoted == 1
    assert timed.get("acme", memory).tier == "core"
    assert [(m.id, m.from_tier, m.to_tier) for m in report.top_movers] == [(memory, "peripheral", "core")]


# -- the job itself ------------------------------------------------------------------------------


def _seed_mix(engine: Engine, clock: FixedClock) -> list[str]:
    """Six memories with different fates at LATER."""
    ids = [retain(engine, f"{word} is a note about the garden shed") for word in ("One", "Two", "Three")]
    ids += [retain(engine, f"{word} reminder about the dentist") for word in ("Four", "Five", "Six")]
    engine.patch("acme", ids[3], PatchRequest(tier="working"))
    engine.patch("acme", ids[4], PatchRequest(tier="core", pinned=True))
    clock.set(LATER - timedelta(days=1))
    engine.store.records.record_access("acme", [ids[5]] * 1, clock.now())
    clock.set(LATER)
    return ids


def test_a_second_run_at_the_same_time_changes_nothing(timed: Engine, clock: FixedClock) -> None:
    # Given a mix of memories and a first run at LATER
    ids = _seed_mix(timed, clock)
    first = timed.run_lifecycle("acme", now=LATER)
    versions = {i: r.version for i, r in timed.store.records.get_many("acme", ids).items()}

    # When the job runs again for the same time
    second = timed.run_lifecycle("acme", now=LATER)

    # Then the first run changed things and the second changed nothing, record by record
    assert first.archived + first.demoted > 0
    assert (second.promoted, second.demoted, second.archived, second.expired) == (0, 0, 0, 0)
    assert {i: r.version for i, r in timed.store.records.get_many("acme", ids).items()} == versions
    assert second.by_tier == first.by_tier


def test_a_dry_run_reports_the_changes_but_makes_none_and_stores_no_report(
    timed: Engine, clock: FixedClock
) -> None:
    # Given a mix of memories
    ids = _seed_mix(timed, clock)
    tiers = {i: r.tier for i, r in timed.store.records.get_many("acme", ids).items()}

    # When the job runs dry, then for real
    dry = timed.run_lifecycle("acme", dry_run=True)
    unchanged = {i: r.tier for i, r in timed.store.records.get_many("acme", ids).items()}
    stored_after_dry = timed.store.reports.lifecycle_reports("acme")
    real = timed.run_lifecycle("acme")

    # Then the dry run predicted exactly the real run's counts and touched nothing
    assert unchanged == tiers and stored_after_dry == []
    assert dry.dry_run is True
    counts = ("promoted", "demoted", "archived", "expired")
    assert [getattr(dry, c) for c in counts] == [getattr(real, c) for c in counts]
    assert dry.by_tier == real.by_tier


def test_an_interrupted_run_resumes_from_its_cursor_and_completes(timed: Engine, clock: FixedClock) -> None:
    # Given pages of two memories and a run told to stop after its first page
    timed.configure_tenant("acme", {"lifecycle": {"job_page_size": 2}})
    _seed_mix(timed, clock)
    partial = timed.run_lifecycle("acme", should_stop=lambda: True)

    # When the job is called again
    resumed = timed.run_lifecycle("acme")

    # Then the first call stopped after one page and the second finished the same run
    assert (partial.status, partial.pages, partial.scanned) == ("running", 1, 2)
    assert partial.cursor is not None
    assert resumed.run_id == partial.run_id
    assert (resumed.status, resumed.pages, resumed.scanned) == ("completed", 3, 6)
    assert resumed.now == partial.now
    assert sum(resumed.by_tier.values()) == 6


def test_the_report_counts_are_integers_and_the_stored_report_is_in_stats(
    timed: Engine, clock: FixedClock
) -> None:
    # Given a mix of memories and one run
    _seed_mix(timed, clock)
    report = timed.run_lifecycle("acme")

    # When the stats are read
    stats = timed.stats("acme")

    # Then the last run is there with integer counts and the tier distribution matches the store
    assert stats.last_lifecycle_run is not None
    assert stats.last_lifecycle_run.run_id == report.run_id
    for name in ("promoted", "demoted", "archived", "expired"):
        assert isinstance(getattr(report, name), int)
    assert {k: v for k, v in stats.by_tier.items() if v} == report.by_tier


def test_tenant_overrides_change_the_rules_for_that_tenant_only(timed: Engine, clock: FixedClock) -> None:
    # Given the same memory in acme and globex, 20 days old, and acme archiving after 5 idle days
    # at R < 0.9
    timed.configure_tenant("acme", {"lifecycle": {"archive_max_retention": 0.9, "archive_min_idle_days": 5}})
    in_acme, in_globex = retain(timed, TEXT), retain(timed, TEXT, tenant="globex")
    clock.set(T0 + timedelta(days=20))

    # When the job runs for both
    timed.run_lifecycle_all()

    # Then only acme's copy is archived
    assert timed.get("acme", in_acme).tier == "archived"
    assert timed.get("globex", in_globex).tier == "peripheral"


def test_a_run_on_one_tenant_never_touches_or_counts_another(timed: Engine, clock: FixedClock) -> None:
    # Given old memories in both tenants
    retain(timed, TEXT)
    theirs = retain(timed, TEXT, tenant="globex")
    clock.set(LATER)

    # When the job runs for acme only
    report = timed.run_lifecycle("acme")

    # Then acme's memory is counted and archived, globex's is untouched and globex has no report
    assert report.scanned == 1
    assert timed.get("globex", theirs).tier == "peripheral"
    assert timed.store.reports.lifecycle_reports("globex") == []
    assert theirs in recalled(timed, "passport number", tenant="globex")


def test_only_the_latest_hundred_reports_of_a_tenant_are_kept(timed: Engine) -> None:
    # Given a tenant whose job has run 103 times
    runs = [timed.run_lifecycle("acme").run_id for _ in range(103)]

    # When its reports are listed
    kept = [r.run_id for r in timed.store.reports.lifecycle_reports("acme", 500)]

    # Then the newest 100 remain, newest first
    assert kept == runs[::-1][:100]


def test_erasing_a_tenant_removes_its_lifecycle_reports(timed: Engine) -> None:
    # Given a tenant with a stored report
    retain(timed, TEXT)
    timed.run_lifecycle("acme")

    # When the tenant is erased
    timed.erase_tenant("acme")

    # Then no report of it remains
    assert timed.store.reports.lifecycle_reports("acme") == []


def test_get_explains_retention_composite_tier_and_the_next_move(timed: Engine, clock: FixedClock) -> None:
    # Given a memory of importance 0.5 (confidence 1, neutral feedback), 30 days later, untouched:
    #   λ = ln2/(30·e^0.75) = 0.0109140, 30^1.3 = 83.2257, R = e^-0.908324 = 0.403199
    #   F = 0, I = 0.5 → C = 0.4·0.403199 + 0.15 = 0.311280
    memory = retain(timed, TEXT)
    clock.set(T0 + timedelta(days=30))

    # When it is read
    life = timed.get("acme", memory).lifecycle

    # Then R, C, the tier and the reasons are there
    assert life is not None
    assert life["retention"] == pytest.approx(0.403199, abs=1e-5)
    assert life["composite"] == pytest.approx(0.311280, abs=1e-5)
    assert life["tier"] == "peripheral"
    assert life["why"] == "peripheral since it was stored (no tier change yet)"
    assert life["next"] == "stays"


def test_the_serve_scheduler_runs_the_job_at_once_and_stops_on_close(
    timed: Engine, clock: FixedClock
) -> None:
    # Given an old memory
    memory = retain(timed, TEXT)
    clock.set(LATER)

    # When the scheduler starts with a long interval and the engine closes after its first run
    timed.start_lifecycle(3600.0)
    deadline = datetime.now(UTC) + timedelta(seconds=30)
    while (
        not timed.store.reports.lifecycle_reports("acme")
        or timed.store.reports.lifecycle_reports("acme")[0].status != "completed"
    ):
        assert datetime.now(UTC) < deadline, "the scheduled run did not finish"
    timed.close()

    # Then the memory was archived by the scheduled run
    assert timed.get("acme", memory).tier == "archived"


# -- the store methods the job uses ----------------------------------------------------------------


def test_update_many_applies_current_versions_skips_stale_ones_and_stores_the_report(timed: Engine) -> None:
    # Given two memories, one of which changed since it was read, and one whose text is new
    same, stale = retain(timed, TEXT), retain(timed, "The car insurance renews in April")
    records = timed.store.records.get_many("acme", [same, stale])
    timed.store.records.record_access("acme", [stale], T0)
    report = LifecycleReport(run_id="lc_test", tenant_id="acme", now=T0, started_at=T0)
    changes = [
        ConditionalUpdate(records[same].model_copy(update={"tier": "core", "version": 2}), 1),
        ConditionalUpdate(records[stale].model_copy(update={"tier": "core", "version": 2}), 1),
    ]
    renamed = records[same].model_copy(
        update={
            "content": "Bicycle lock code 5512",
            "content_hash": content_hash("Bicycle lock code 5512"),
            "version": 3,
        }
    )

    # When they are applied with a report, then a change of text at the next version
    applied = timed.store.records.update_many("acme", changes, report=report)
    again = timed.store.records.update_many("acme", [ConditionalUpdate(renamed, 2)])

    # Then only the current one was applied, the report is stored, and the new text is searchable
    assert applied == [same] and again == [same]
    left = timed.store.records.get("acme", stale)
    assert left is not None and left.tier == "peripheral"
    assert [r.run_id for r in timed.store.reports.lifecycle_reports("acme")] == ["lc_test"]
    assert same in recalled(timed, "bicycle lock")


def test_get_vectors_returns_stored_vectors_of_this_tenant_only(timed: Engine) -> None:
    # Given a memory in acme (embedded) and one in globex
    mine, theirs = retain(timed, TEXT), retain(timed, TEXT, tenant="globex")
    timed.embed_pending("acme")
    timed.embed_pending("globex")

    # When acme asks for both ids and an unknown one
    vectors = timed.store.records.get_vectors("acme", [mine, theirs, "mem_" + "0" * 32])

    # Then only its own comes back, as a unit vector of the model's dimension
    assert mine != theirs and list(vectors) == [mine]
    assert vectors[mine].shape == (timed.embedder.dimension,)
    assert abs(float((vectors[mine] ** 2).sum()) - 1.0) < 1e-4


class RacingRecords:
    """The engine's memory records, with a recall landing on the first memory of every page the
    job reads (between its read and its write): a fake adapter for the race the version check guards."""

    def __init__(self, inner: Any, clock: FixedClock) -> None:
        self.inner = inner
        self.clock = clock

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def list_page(self, tenant_id: str, conditions: Any, **kwargs: Any) -> Any:
        page = self.inner.list_page(tenant_id, conditions, **kwargs)
        if page.records:
            self.inner.record_access(tenant_id, [page.records[0].id], self.clock.now())
        return page


def test_a_memory_recalled_while_the_job_runs_keeps_its_access_and_is_counted_as_a_conflict(
    timed: Engine, clock: FixedClock
) -> None:
    # Given two old memories and a recall that lands on the first one while the job looks at it
    first, second = retain(timed, TEXT), retain(timed, "The car insurance renews in April")
    clock.set(LATER)
    timed = timed.with_ports(store=with_parts(timed.store, records=RacingRecords(timed.store.records, clock)))

    # When the job runs
    report = timed.run_lifecycle("acme")

    # Then the raced memory is not overwritten (its access stays), and is a conflict, not an archival
    raced = timed.store.records.get("acme", first)
    assert raced is not None and (raced.access_count, raced.tier) == (1, "peripheral")
    assert (report.archived, report.conflicts) == (1, 1)
    assert timed.get("acme", second).tier == "archived"
    assert report.by_tier == {"archived": 1, "peripheral": 1}
    assert [m.id for m in report.top_movers] == [second]


def test_the_cli_lists_stored_reports_newest_first(
    timed: Engine, clock: FixedClock, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if timed.settings.backend != "local":
        pytest.skip("the CLI works on the embedded default's data dir")
    # Given two runs of acme
    import json

    retain(timed, TEXT)
    first = timed.run_lifecycle("acme")
    clock.set(LATER)
    second = timed.run_lifecycle("acme")

    # When `engram lifecycle reports --tenant acme --json` runs
    code = main(["--data-dir", str(data_dir), "--json", "lifecycle", "reports", "--tenant", "acme"])

    # Then both are listed, newest first
    assert code == 0
    reports = json.loads(capsys.readouterr().out)["reports"]
    assert [r["run_id"] for r in reports] == [second.run_id, first.run_id]


# -- the CLI -------------------------------------------------------------------------------------


def test_the_cli_runs_the_job_at_a_given_time_with_integer_counts(
    timed: Engine, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if timed.settings.backend != "local":
        pytest.skip("the CLI works on the embedded default's data dir")
    # Given a memory retained at T0 in acme
    import json

    retain(timed, TEXT)

    # When `engram lifecycle run --tenant acme --now <T0+200d> --json` runs, dry then for real, twice
    def run(*extra: str) -> tuple[int, dict[str, object]]:
        code = main(["--data-dir", str(data_dir), "--json", "lifecycle", "run", "--tenant", "acme", *extra])
        return code, json.loads(capsys.readouterr().out)

    at = ["--now", LATER.isoformat()]
    dry = run(*at, "--dry-run")
    real = run(*at)
    again = run(*at)

    # Then each answers 0 with the report; the real run archived, the dry one and the repeat did not
    assert [code for code, _ in (dry, real, again)] == [0, 0, 0]
    assert (dry[1]["archived"], dry[1]["dry_run"]) == (1, True)
    assert (real[1]["archived"], real[1]["by_tier"]) == (1, {"archived": 1})
    assert again[1]["archived"] == 0
    assert all(isinstance(real[1][k], int) for k in ("promoted", "demoted", "archived", "expired"))


def test_the_cli_refuses_a_time_without_a_zone(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Given a time with no zone
    # When the job is asked to run at it
    code = main(["--data-dir", str(data_dir), "lifecycle", "run", "--now", "2026-06-01T00:00:00"])

    # Then it is bad input (exit 2) naming --now
    assert code == 2
    assert "--now" in capsys.readouterr().err


def test_serve_refuses_a_lifecycle_interval_that_is_not_positive(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an interval of 0 seconds
    # When the server is asked to run the job that often
    code = main(["--data-dir", str(data_dir), "serve", "--port", "0", "--lifecycle-interval", "0"])

    # Then it is bad input naming the flag, before anything is served
    assert code == 2
    assert "--lifecycle-interval" in capsys.readouterr().err
