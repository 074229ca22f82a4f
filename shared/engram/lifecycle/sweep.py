"""The lifecycle job (DESIGN §7): per tenant, page by page, memories decay, move between tiers,
leave the hot index when archived, and are deleted when their ``expires_at`` is due.

A run looks at every memory of one tenant at one instant ``now`` and moves each to the fixed
point of the tier rules (``scoring.lifecycle.settle``), so running it again for the same ``now``
changes nothing. It works only through the store and index ports, so any backend runs it. Each
page is committed with the run's report (cursor and counts); a run that stops early (a time
budget, a crash) is resumed by the next call for the same tenant and rules. ``rules`` selects
what a run may do: ``decay`` (expiry and archival), ``tiering`` (promotions and demotions) or
``all`` — the cloud schedules the first two as separate functions, the CLI and ``engram serve``
run ``all``.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, TypedDict, Unpack

from engram.identity import receipt_id
from engram.lifecycle.ports import LifecyclePorts
from engram.memories.history import entry as history_entry
from engram.models import (
    DeletionLogEntry,
    HistoryEntry,
    LifecycleReport,
    MemoryRecord,
    TierMove,
)
from engram.ports import ConditionalUpdate, Conditions, LifecycleReports, MemoryRecords, SearchIndex
from engram.scopes import ScopeSet
from engram.scoring import lifecycle as rules_math
from engram.settings import Settings

RuleSet = Literal["all", "decay", "tiering"]
ALLOWED: dict[str, frozenset[str]] = {
    "all": frozenset({"expire", "archive", "promote", "demote"}),
    "decay": frozenset({"expire", "archive"}),
    "tiering": frozenset({"promote", "demote"}),
}
EVERYTHING = Conditions(scopes=ScopeSet.every(), statuses=(), exclude_tiers=())
EXPIRE_BATCH = 5_000


def run_id() -> str:
    return "lc_" + uuid.uuid4().hex


def _settle(record: MemoryRecord, now: datetime, settings: Settings, allowed: frozenset[str]) -> list[Any]:
    return rules_math.settle(
        **rules_math.state_of(record),
        now=now,
        settings=settings.lifecycle,
        allowed=allowed,
    )


def _composite(record: MemoryRecord, tier: str, now: datetime, settings: Settings) -> float:
    values = rules_math.explain(
        **rules_math.state_of(record, tier=tier),
        now=now,
        settings=settings.lifecycle,
    )
    return float(values["composite"])


def _kind(source: str, target: str) -> str:
    if target == "archived":
        return "archived"
    return "promoted" if rules_math.tier_rank(target) > rules_math.tier_rank(source) else "demoted"


def _top(movers: list[TierMove], limit: int) -> list[TierMove]:
    """The biggest moves first (most tiers crossed), then the clearest (C furthest in their direction)."""

    def key(m: TierMove) -> tuple[int, float, str]:
        steps = rules_math.tier_rank(m.to_tier) - rules_math.tier_rank(m.from_tier)
        return (-abs(steps), -m.composite if steps > 0 else m.composite, m.id)

    return sorted(movers, key=key)[:limit]


def _resumable(
    reports: LifecycleReports, tenant_id: str, rules: RuleSet, now: datetime | None
) -> LifecycleReport | None:
    """The tenant's latest run of these rules, if it stopped early (at ``now``, when one is given)."""
    # Decay and tiering are scheduled apart: the latest run of the same rules is the one to resume.
    latest = [r for r in reports.lifecycle_reports(tenant_id, 20) if r.rules == rules][:1]
    if not latest:
        return None
    report = latest[0]
    if report.status != "running" or (now is not None and report.now != now):
        return None
    return report


@dataclass
class _Page:
    """What one page of the run changes."""

    expired: list[str] = field(default_factory=list)
    updates: list[ConditionalUpdate] = field(default_factory=list)
    movers: dict[str, TierMove] = field(default_factory=dict)
    tiers: dict[str, int] = field(default_factory=dict)


class LifecycleOptions(TypedDict, total=False):
    """How a run goes: at ``now`` (default: the clock's time), as a ``dry_run``, with ``rules``
    (default ``all``), stopping early when ``should_stop`` says so."""

    now: datetime | None
    dry_run: bool
    rules: RuleSet
    should_stop: Callable[[], bool] | None


def run(tenant_id: str, ports: LifecyclePorts, **options: Unpack[LifecycleOptions]) -> LifecycleReport:
    """Run (or resume) the lifecycle job on one tenant with ``ports.settings`` (the tenant's).

    ``should_stop`` is asked after every page; when it says yes, the run returns a ``running``
    report whose cursor the next call resumes from. A dry run writes nothing and stores no report.
    Example: ``engram lifecycle run --tenant acme --now 2026-06-01T00:00:00Z --json`` calls this.
    """
    clock, settings = ports.clock, ports.settings
    now, dry_run, should_stop = options.get("now"), options.get("dry_run", False), options.get("should_stop")
    rules = options.get("rules", "all")
    began = time.perf_counter()
    report = None if dry_run else _resumable(ports.reports, tenant_id, rules, now)
    if report is None:
        report = LifecycleReport(
            run_id=run_id(),
            tenant_id=tenant_id,
            now=now or clock.now(),
            rules=rules,
            dry_run=dry_run,
            started_at=clock.now(),
        )
    while True:
        page = ports.records.list_page(
            tenant_id, EVERYTHING, cursor=report.cursor, limit=settings.lifecycle.job_page_size
        )
        changes = _settle_page(page.records, report, settings, ALLOWED[rules])
        counted = _counted(report, changes, len(page.records), settings.lifecycle.top_movers)
        counted.cursor = page.next_cursor
        counted.duration_s = round(report.duration_s + time.perf_counter() - began, 3)
        began = time.perf_counter()
        if page.next_cursor is None:
            counted.status = "completed"
            counted.finished_at = clock.now()
        report = counted if dry_run else _commit(tenant_id, counted, changes, ports)
        stop = report.status == "completed" or (should_stop is not None and should_stop())
        if report.pending_expired and (stop or len(report.pending_expired) >= EXPIRE_BATCH):
            report = _expire(tenant_id, report, ports)
        if stop:
            return report


def _settle_page(
    records: list[MemoryRecord], report: LifecycleReport, settings: Settings, allowed: frozenset[str]
) -> _Page:
    """Each memory of a page at the run's instant: expired, moved to its settled tier, or kept."""
    at, changes = report.now, _Page()
    for record in records:
        if "expire" in allowed and rules_math.is_expired(record.expires_at, at, pinned=record.pinned):
            changes.expired.append(record.id)
            continue
        tier = record.tier
        moves = _settle(record, at, settings, allowed) if record.status == "active" else []
        if moves:
            tier = moves[-1].target
            reason = "; ".join(f"{m.source} → {m.target}: {m.reason}" for m in moves)
            composite = round(_composite(record, tier, at, settings), 6)
            changes.movers[record.id] = TierMove(
                id=record.id, from_tier=record.tier, to_tier=tier, composite=composite, reason=reason
            )
            updated = record.model_copy(update={"tier": tier, "version": record.version + 1})
            detail = {"from_tier": record.tier, "to_tier": tier, "by": "lifecycle", "run_id": report.run_id}
            entry = history_entry(updated, "tier", at, {**detail, "reason": reason}, content=record.content)
            changes.updates.append(ConditionalUpdate(updated, record.version, entry))
        changes.tiers[tier] = changes.tiers.get(tier, 0) + 1
    return changes


def _counted(report: LifecycleReport, changes: _Page, scanned: int, top: int) -> LifecycleReport:
    """The report with one more page counted in."""
    counted = report.model_copy(deep=True)
    counted.pages += 1
    counted.scanned += scanned
    if report.dry_run:
        counted.expired += len(changes.expired)
    else:  # deleted in batches: each delete rewrites the tenant's text index
        counted.pending_expired += changes.expired
    for move in changes.movers.values():
        kind = _kind(move.from_tier, move.to_tier)
        setattr(counted, kind, getattr(counted, kind) + 1)
    for name, n in changes.tiers.items():
        counted.by_tier[name] = counted.by_tier.get(name, 0) + n
    counted.top_movers = _top([*counted.top_movers, *changes.movers.values()], top)
    return counted


def _commit(
    tenant_id: str, report: LifecycleReport, changes: _Page, ports: LifecyclePorts
) -> LifecycleReport:
    """The page's moves, each only if the memory did not change meanwhile, with the report."""
    updates = changes.updates
    applied = set(ports.records.update_many(tenant_id, updates, report=report))
    missed = [u.record.id for u in updates if u.record.id not in applied]
    if missed:  # changed meanwhile (an access, a feedback): the next run looks again
        report = _uncount(report, [changes.movers[i] for i in missed], ports.settings.lifecycle.top_movers)
        ports.reports.put_lifecycle_report(tenant_id, report)
    changed = [u.record for u in updates if u.record.id in applied]
    _reindex(tenant_id, changed, records=ports.records, index=ports.index)
    return report


def _expire(tenant_id: str, report: LifecycleReport, ports: LifecyclePorts) -> LifecycleReport:
    """Delete the expired memories the run has collected (one deletion-log entry), then store the report."""
    log = DeletionLogEntry(
        receipt_id=receipt_id(),
        tenant_id=tenant_id,
        at=report.now,
        ids=report.pending_expired,
        reason="expired",
    )
    deleted = ports.records.delete(tenant_id, report.pending_expired, log)
    ports.index.remove(tenant_id, deleted)
    done = report.model_copy(update={"pending_expired": [], "expired": report.expired + len(deleted)})
    ports.reports.put_lifecycle_report(tenant_id, done)
    return done


def _uncount(report: LifecycleReport, missed: list[TierMove], top: int) -> LifecycleReport:
    """The report without moves that were not applied, each counted as a conflict instead."""
    fixed = report.model_copy(deep=True)
    gone = {m.id for m in missed}
    for move in missed:
        kind = _kind(move.from_tier, move.to_tier)
        setattr(fixed, kind, getattr(fixed, kind) - 1)
        fixed.by_tier[move.to_tier] -= 1
        fixed.by_tier[move.from_tier] = fixed.by_tier.get(move.from_tier, 0) + 1
        fixed.conflicts += 1
    fixed.top_movers = [m for m in fixed.top_movers if m.id not in gone][:top]
    return fixed


def _reindex(
    tenant_id: str, changed: list[MemoryRecord], *, records: MemoryRecords, index: SearchIndex
) -> None:
    """Archived memories leave the index; the others get their new tier (the index filters on it)."""
    if not changed:
        return
    archived = [r for r in changed if r.tier == "archived"]
    if archived:
        index.remove(tenant_id, [r.id for r in archived], states=archived)
    moved = [r for r in changed if r.tier != "archived"]
    if moved:
        vectors = records.get_vectors(tenant_id, [r.id for r in moved])
        index.upsert(tenant_id, moved, [vectors.get(r.id) for r in moved])


def describe(
    record: MemoryRecord, history: list[HistoryEntry], *, now: datetime, settings: Settings
) -> dict[str, Any]:
    """What ``GET /v1/memories/{id}`` shows of a memory's lifecycle: its values now, why it is in its
    tier (the last tier change, or its initial tier), and what the job would do at ``now``."""
    values = rules_math.explain(
        **rules_math.state_of(record),
        now=now,
        settings=settings.lifecycle,
    )
    out: dict[str, Any] = {k: round(v, 6) if isinstance(v, float) else v for k, v in values.items()}
    out["tier"] = record.tier
    out["pinned"] = record.pinned
    changes = [h for h in history if "to_tier" in h.detail]
    if changes:
        last = changes[-1]
        out["why"] = (
            f"{last.detail.get('from_tier')} → {last.detail['to_tier']} on {last.at.isoformat()}"
            f" by {last.detail.get('by', 'request')}: {last.detail.get('reason', '')}"
        )
    else:
        out["why"] = f"{record.tier} since it was stored (no tier change yet)"
    if record.pinned:
        out["why"] += "; pinned: never decays, moves down, archives or expires"
    if rules_math.is_expired(record.expires_at, now, pinned=record.pinned):
        out["next"] = "expires: deleted by the next lifecycle run"
    elif record.status != "active":
        out["next"] = None
    else:
        moves = _settle(record, now, settings, ALLOWED["all"])
        out["next"] = "; ".join(f"{m.source} → {m.target}: {m.reason}" for m in moves) if moves else "stays"
        out["outlook"] = outlook(record, now=now, settings=settings)
    return out


OUTLOOK_DAYS = 365
OUTLOOK_STEP_DAYS = 5


def outlook(
    record: MemoryRecord,
    *,
    now: datetime,
    settings: Settings,
    horizon_days: int = OUTLOOK_DAYS,
    step_days: int = OUTLOOK_STEP_DAYS,
) -> dict[str, Any]:
    """Retention and composite over the next ``horizon_days`` if the memory is not accessed again,
    and the first day (after today) the job would move it, with the move.

    The values come from the same formulas the job and recall use, so a chart of them cannot drift
    from what the engine does. Every ``step_days``-th day is a point. Without access R and C only
    fall and age only grows, so a rule that fires on some day fires on every later one (a promotion,
    which needs C to be high enough, can only happen today, which ``next`` reports): the first
    point where the job would move the memory is found step by step, then its exact day.
    """

    def at(day: int) -> datetime:
        return now + timedelta(days=day)

    def moves(day: int) -> list[Any]:
        return _settle(record, at(day), settings, ALLOWED["all"])

    points: list[dict[str, float]] = []
    move: dict[str, Any] | None = None
    for day in range(0, horizon_days + 1, step_days):
        values = rules_math.explain(**rules_math.state_of(record), now=at(day), settings=settings.lifecycle)
        points.append(
            {
                "day": day,
                "retention": round(values["retention"], 4),
                "composite": round(values["composite"], 4),
            }
        )
        if move is None and day > 0 and moves(day):
            first_day = next(d for d in range(max(1, day - step_days + 1), day + 1) if moves(d))
            first = moves(first_day)[0]
            move = {"in_days": first_day, "to_tier": first.target, "reason": first.reason}
    return {"points": points, "next_move": move, "assumes": "no further access or feedback"}
