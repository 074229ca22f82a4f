"""``engram bench`` and ``engram bench-compare`` (checkouts side by side on one bench file), through
the real commands."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from engram.engine import Engine
from engram.models import RetainItem, RetainRequest
from engram.settings import Settings
from engram_dev.bench import TENANT

REPO = Path(__file__).resolve().parents[2]

FACTS = [
    "the invoice service failed with error E1042 after the Kafka upgrade",
    "Elena moved the Grafana dashboards to the new cluster on Monday",
    "the login page is slow when the cache is cold",
    "Omar prefers the release notes written in plain language",
    "the pipeline for the mobile app runs every night at two",
    "error E2210 means the payment provider rejected the card",
]


def _seed(data_dir: Path) -> None:
    engine = Engine.local(Settings(data_dir=data_dir, background_embedding=False))
    engine.create_tenant(TENANT)
    for n, scope in enumerate(("user:u000", "user:u001")):
        texts = [f"{fact} ({scope}, note {n})" for fact in FACTS]
        engine.retain(
            TENANT, RetainRequest(scope=scope, items=[RetainItem(text=t) for t in texts], mode="raw")
        )
    engine.close()


def test_two_copies_of_one_checkout_rank_alike_and_the_tables_name_both(tmp_path: Path) -> None:
    # Given a small bench file
    data = tmp_path / "data"
    _seed(data)
    # When this checkout is compared with itself under two names
    done = subprocess.run(
        [sys.executable, "-m", "engram_cli", "bench-compare", "--data", str(data), "--queries", "6", "--warmup", "1",
         f"base={REPO}", f"again={REPO}"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    # Then both workers answered every query, with the same top 10, in tables per stage
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("same top 10 6 of 6") == 2, done.stdout
    assert "| stage | base | again |" in done.stdout and "| total |" in done.stdout
    # And the bench file itself was only read
    assert sorted(p.name for p in data.iterdir() if p.suffix == ".db") == ["engram.db"]


def test_a_folder_without_the_bench_tenant_is_named_in_the_error(tmp_path: Path) -> None:
    # Given a data folder of another tenant
    engine = Engine.local(Settings(data_dir=tmp_path / "other", background_embedding=False))
    engine.create_tenant("acme")
    engine.close()
    # When it is given to bench-compare
    done = subprocess.run(
        [sys.executable, "-m", "engram_cli", "bench-compare", "--data", str(tmp_path / "other"), f"a={REPO}", f"b={REPO}"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    # Then it says what is missing and how to make it
    assert done.returncode != 0
    assert "engram bench --keep-data" in done.stderr


def test_the_bench_prints_its_floor_both_ways_and_the_targets_ratios(tmp_path: Path) -> None:
    # When a small bench runs
    done = subprocess.run(
        [sys.executable, "-m", "engram_cli", "bench", "--n", "200", "--queries", "5", "--tenants", "2",
         "--out", str(tmp_path / "out"), "--json"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # Then the floor's embedding is measured in a tight loop and right after a recall, 5 of each
    floor = result["floor"]
    assert {"query_embed", "query_embed_after_recall", "scan_one", "scan_all"} <= set(floor)
    assert all(floor[k]["p50"] > 0 for k in ("query_embed", "query_embed_after_recall"))
    # And the report prints the ratios the latency targets are judged by, from those numbers
    one, every = result["recall"]["one_scope"]["total"]["p50"], result["recall"]["all_scopes"]["total"]["p50"]
    tight = floor["query_embed"]["p50"] + floor["scan_one"]["p50"]
    printed = re.search(
        r"p50 ratios: one scope ([0-9.]+)x its floor .* all scopes ([0-9.]+)x one scope", done.stdout
    )
    assert printed is not None, done.stdout[-2000:]
    assert float(printed.group(1)) == round(one / tight, 2) and float(printed.group(2)) == round(
        every / one, 2
    )
    assert "(query embed right after a recall)" in done.stdout
    # And the same ratios side by side, block by block (5 queries: one block), as the JSON has them
    paired = result["paired"]
    assert paired["blocks"] == {"count": 1, "size": 20}
    beside = re.search(
        r"in 1 blocks of 20 queries .* one scope ([0-9.]+)x its floor .* all scopes ([0-9.]+)x one scope",
        done.stdout,
    )
    assert beside is not None, done.stdout[-2000:]
    assert float(beside.group(1)) == round(paired["one_vs_floor"]["median"], 2) > 1.0
    assert float(beside.group(2)) == round(paired["all_vs_one"]["median"], 2) > 0.0
    # And the first recall after another process's retain, which reads the rows that changed
    foreign = result["after_foreign_retain"]
    assert foreign["loads"] == 0 and foreign["p50"] > 0
    assert (
        f"another process's retain (a second engine on the file, as another worker of engram serve): p50 {foreign['p50']:.1f} ms"
        in done.stdout
    )
