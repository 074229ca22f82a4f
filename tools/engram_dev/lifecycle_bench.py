"""``engram lifecycle plot`` and ``engram lifecycle bench``.

``plot`` draws the retention curves R(t) of each tier and the tier populations of the scripted
180-day simulation (``lifecycle_sim``) into one PNG. ``bench`` seeds N memories with random unit
vectors straight into the store of one tenant (a spread of ages, accesses, importances, tiers,
pins and expiries; no embedding model), loads the tenant's search cache as a serving process
would have it, and times a dry run, the real run and a second run at the same instant (which
must change nothing) of the lifecycle job, printing one table.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from engram.adapters.clock import FixedClock
from engram.engine import Engine
from engram.identity import content_hash
from engram.models import LifecycleReport, MemoryRecord, Tier
from engram.ports import Conditions, WriteBatch
from engram.scopes import ScopeSet
from engram.scoring.lifecycle import retention
from engram.settings import LifecycleSettings, Settings
from engram_dev.lifecycle_sim import DAYS, TIERS_SHOWN, simulate

BENCH_TENANT = "lifecycle-bench"
BENCH_NOW = datetime(2026, 6, 1, 3, 0, tzinfo=UTC)
SEED = 11
COLOURS = {"core": "#1b7837", "working": "#2166ac", "peripheral": "#e08214", "archived": "#878787"}


def _pyplot() -> Any:
    try:
        # Imported by name: matplotlib is optional and not a dependency of the package.
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        return importlib.import_module("matplotlib.pyplot")
    except ImportError:
        return None


def _engine(data_dir: Path, clock: FixedClock) -> Engine:
    return Engine.local(Settings(data_dir=data_dir, background_embedding=False), clock=clock)


# -- plot ------------------------------------------------------------------------------------------


def plot(args: argparse.Namespace) -> int:
    plt = _pyplot()
    if plt is None:
        print("matplotlib is not installed (pip install matplotlib)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="engram-lifecycle-") as tmp:
        clock = FixedClock(BENCH_NOW)
        engine = _engine(Path(tmp), clock)
        engine.create_tenant("sim")
        sim = simulate(engine, clock, "sim", days=args.days)
        engine.close()
    settings = LifecycleSettings()
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    days = np.linspace(0, DAYS, 361)
    betas = {
        "core": settings.beta_core,
        "working": settings.beta_working,
        "peripheral": settings.beta_peripheral,
    }
    for tier, beta in betas.items():
        for importance, style in ((0.5, "-"), (0.0, ":"), (1.0, "--")):
            left.plot(
                days,
                [retention(t, importance, beta) for t in days],
                style,
                color=COLOURS[tier],
                label=f"{tier} (β={beta}), importance {importance}",
                linewidth=2 if importance == 0.5 else 1,
            )
    left.axhline(settings.archive_max_retention, color="black", linewidth=0.8)
    left.annotate(f"archive below R = {settings.archive_max_retention}", (DAYS * 0.62, 0.075), fontsize=8)
    left.set_xlabel("days since last access")
    left.set_ylabel("retention R = exp(−λ·t^β)")
    left.set_title("Weibull retention per tier (λ = ln2 / (30 d · e^(1.5·importance)))")
    left.legend(fontsize=7, ncol=1)
    x = np.arange(1, len(sim.populations) + 1)
    stacks = [[p[tier] for p in sim.populations] for tier in TIERS_SHOWN]
    right.stackplot(
        x,
        *stacks,
        sim.deleted,
        labels=[*TIERS_SHOWN, "deleted (expired)"],
        colors=[*(COLOURS[t] for t in TIERS_SHOWN), "#d6604d"],
        alpha=0.85,
    )
    right.set_xlabel("simulated day (job runs daily)")
    right.set_ylabel("memories")
    right.set_title("1,000 memories over 180 days: tier populations")
    right.legend(loc="upper right", fontsize=8)
    right.set_xlim(1, len(sim.populations))
    fig.tight_layout()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    summary = {"out": str(out), "end": sim.populations[-1], "deleted": sim.deleted[-1]}
    print(json.dumps(summary) if args.json else f"wrote {out}; day {len(sim.populations)}: {summary['end']}")
    return 0


# -- bench -----------------------------------------------------------------------------------------


def _records(n: int, rng: random.Random, dimension: int) -> tuple[list[MemoryRecord], np.ndarray]:
    """N memories of one tenant with a spread of lifecycle states, and random unit vectors."""
    records = []
    tiers: list[Tier] = ["peripheral", "peripheral", "peripheral", "peripheral", "peripheral", "peripheral"]
    tiers += ["peripheral", "working", "working", "core"]  # 70 / 20 / 10 %
    for i in range(n):
        created = BENCH_NOW - timedelta(days=rng.uniform(0, 365))
        accessed = rng.random() < 0.4
        access_count = int(rng.expovariate(1 / 8)) + 1 if accessed else 0
        last = created + (BENCH_NOW - created) * rng.random() if accessed else None
        roll = rng.random()
        expires = (
            BENCH_NOW - timedelta(days=1)
            if roll < 0.01
            else BENCH_NOW + timedelta(days=30)
            if roll < 0.02
            else None
        )
        text = f"bench memory {i}: {rng.getrandbits(64):016x}"
        records.append(
            MemoryRecord(
                tenant_id=BENCH_TENANT,
                id=f"mem_{i:032x}",
                scope=f"user:u{i % 100}",
                content=text,
                abstract=text,
                importance=round(rng.random(), 3),
                confidence=1.0,
                tier=rng.choice(tiers),
                feedback_weight=0.5 if rng.random() < 0.8 else round(rng.uniform(0.1, 0.9), 3),
                access_count=access_count,
                last_accessed_at=last,
                created_at=created,
                updated_at=created,
                pinned=rng.random() < 0.02,
                expires_at=expires,
                content_hash=content_hash(text),
                embedding_model="random-unit",
            )
        )
    vectors = np.random.default_rng(SEED).standard_normal((n, dimension)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return records, vectors


def _row(name: str, seconds: float, report: LifecycleReport) -> str:
    return (
        f"| {name} | {seconds:.2f} | {report.scanned:,} | {report.promoted:,} | {report.demoted:,} | "
        f"{report.archived:,} | {report.expired:,} | {report.conflicts} | {report.pages} |"
    )


def bench(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data_dir = Path(tempfile.mkdtemp(prefix="engram-lifecycle-bench-", dir=out))
    try:
        clock = FixedClock(BENCH_NOW)
        engine = _engine(data_dir, clock)
        engine.create_tenant(BENCH_TENANT)
        started = time.perf_counter()
        records, vectors = _records(args.n, random.Random(SEED), engine.embedder.dimension)
        for start in range(0, args.n, 1000):
            engine.store.records.write(
                BENCH_TENANT,
                WriteBatch(
                    records=records[start : start + 1000], vectors=list(vectors[start : start + 1000])
                ),
            )
        seed_s = time.perf_counter() - started
        started = time.perf_counter()
        engine.index.knn(
            BENCH_TENANT, vectors[0], 10, Conditions(scopes=ScopeSet.every())
        )  # a serving process's cache
        load_s = time.perf_counter() - started
        runs: list[tuple[str, float, LifecycleReport]] = []
        for name, dry in (("dry run", True), ("run", False), ("second run, same now", False)):
            started = time.perf_counter()
            report = engine.run_lifecycle(BENCH_TENANT, now=BENCH_NOW, dry_run=dry)
            runs.append((name, time.perf_counter() - started, report))
        engine.close()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    header = (
        f"Lifecycle job on {args.n:,} memories of one tenant (page size {LifecycleSettings().job_page_size}); "
        f"seeded in {seed_s:.1f} s, search cache loaded in {load_s:.1f} s.\n\n"
        "| run | seconds | scanned | promoted | demoted | archived | expired | conflicts | pages |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    print("\n".join([header, *(_row(n, s, r) for n, s, r in runs)]))
    final = runs[1][2]
    print(f"\ntiers after the run: {json.dumps(final.by_tier, sort_keys=True)}")
    result = {
        "n": args.n,
        "seed_s": round(seed_s, 2),
        "cache_load_s": round(load_s, 2),
        "runs": [{"run": n, "seconds": round(s, 3), "report": r.model_dump(mode="json")} for n, s, r in runs],
    }
    (out / "lifecycle-bench.json").write_text(json.dumps(result, indent=2) + "\n")
    if args.json:
        print(json.dumps({"n": args.n, "seconds": {n: round(s, 3) for n, s, _ in runs}}))
    changed = runs[2][2]
    return 0 if changed.promoted + changed.demoted + changed.archived + changed.expired == 0 else 1
