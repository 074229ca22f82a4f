"""``engram bench-compare``: recall latency of several checkouts side by side, on one bench file.

``engram bench --keep-data`` leaves its seeded data folder behind; this copies its database once
per checkout (``NAME=PATH``: a checkout or worktree of this repository, e.g. another commit), starts
one worker process per checkout that imports *that* checkout's ``engram``, and asks every worker
the same queries in turn (the order rotated each query, so drift hits all alike), one scope and
all scopes. It prints p50 / p95 per stage, the median per-query ratio of each checkout's wall time
to the first one's, and how many queries returned the same top 10 as the first (and with the same scores).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any

from engram_dev.bench import SEED, TENANT, _queries

STAGES = (
    "embed",
    "candidates",
    "fetch",
    "fusion",
    "context",
    "lifecycle",
    "mmr",
    "access",
    "serialise",
    "total",
)

WORKER = r"""
import json, sys, time
from pathlib import Path
try:
    from engram.engine import Engine
except ImportError:  # a checkout from before the façade had its own module
    from engram.app import Engine
from engram.models import RecallRequest
from engram.settings import Settings
engine = Engine.local(Settings(data_dir=Path(sys.argv[1]), background_embedding=False))
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    ask = json.loads(line)
    request = RecallRequest(query=ask["query"], scopes=ask["scopes"], limit=10, min_score=0.0)
    began = time.perf_counter()
    response = engine.recall(sys.argv[2], request, with_timings=True)
    wall = (time.perf_counter() - began) * 1000.0
    ids = [m.id for m in response.memories]
    scores = [m.score for m in response.memories]
    print(json.dumps({"wall": wall, "timings": response.timings_ms, "ids": ids, "scores": scores}), flush=True)
"""


class Worker:
    """One checkout's recall, in a process of its own, on its own copy of the database."""

    def __init__(self, name: str, checkout: Path, source: Path, folder: Path) -> None:
        self.name = name
        folder.mkdir(mode=0o700)
        original, copy = sqlite3.connect(source / "engram.db"), sqlite3.connect(folder / "engram.db")
        with closing(original), closing(copy):
            original.backup(copy)
        for secret in ("pepper", "operator-token"):
            if (source / secret).exists():
                shutil.copy(source / secret, folder / secret)
        path = os.pathsep.join(str(checkout / part) for part in ("shared", "tools"))
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(folder), TENANT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": path},
            cwd=folder,
        )
        if not self._read().get("ready"):
            raise RuntimeError(f"the worker of {name} did not start")

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker of {self.name} stopped (see its error output above)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def recall(self, query: str, scopes: list[str] | None) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"query": query, "scopes": scopes}) + "\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def _corpus(database: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        rows = db.execute(
            "SELECT scope, json_extract(doc, '$.content') FROM memories WHERE tenant_id = ? ORDER BY rowid",
            (TENANT,),
        ).fetchall()
    if not rows:
        raise SystemExit(
            f"no memories of the tenant '{TENANT}' in {database}: seed it with engram bench --keep-data"
        )
    return [(scope, content) for scope, content in rows]


def compare(workers: list[Worker], queries: list[tuple[str, str, str]]) -> dict[str, dict[str, list[Any]]]:
    """Each worker's answers per setting (``one``: the query's scope, ``all``: every scope)."""
    answers: dict[str, dict[str, list[Any]]] = {w.name: {"one": [], "all": []} for w in workers}
    for i, (_, query, scope) in enumerate(queries):
        turn = workers[i % len(workers) :] + workers[: i % len(workers)]
        for setting, scopes in (("one", [scope]), ("all", None)):
            for worker in turn:
                answers[worker.name][setting].append(worker.recall(query, scopes))
    return answers


def _p50_p95(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return (
        f"{statistics.median(ordered):.2f} / {ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]:.2f}"
    )


def report(answers: dict[str, dict[str, list[Any]]]) -> str:
    """The tables: p50 / p95 per stage and checkout, then each checkout against the first."""
    names = list(answers)
    lines: list[str] = []
    for setting, title in (("one", "one scope"), ("all", "all scopes")):
        count = len(answers[names[0]][setting])
        lines += [f"\n## {title}, {count} queries: p50 / p95 ms", "", "| stage | " + " | ".join(names) + " |"]
        lines.append("|---|" + "---:|" * len(names))
        for stage in (*STAGES, "wall"):
            cells = []
            for name in names:
                got = [
                    a["wall"] if stage == "wall" else (a["timings"] or {}).get(stage)
                    for a in answers[name][setting]
                ]
                cells.append(_p50_p95([v for v in got if v is not None]))
            lines.append(f"| {stage} | " + " | ".join(cells) + " |")
        first = answers[names[0]][setting]
        for name in names[1:]:
            other = answers[name][setting]
            ratio = statistics.median(b["wall"] / a["wall"] for a, b in zip(first, other, strict=True))
            same = sum(a["ids"] == b["ids"] for a, b in zip(first, other, strict=True))
            scored = sum(
                a["ids"] == b["ids"] and a["scores"] == b["scores"] for a, b in zip(first, other, strict=True)
            )
            lines.append(
                f"\n{name} / {names[0]}: median per-query wall ratio {ratio:.3f}; same top 10 {same} of {count}"
                f" (and the same scores: {scored})"
            )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    source = Path(args.data)
    sides = [side.split("=", 1) for side in args.checkouts]
    if len(sides) < 2 or any(len(side) != 2 for side in sides):
        raise SystemExit("name at least two checkouts as NAME=PATH")
    corpus = _corpus(source / "engram.db")
    queries = _queries(random.Random(SEED + 1), corpus, args.queries)
    warmup = _queries(random.Random(SEED + 2), corpus, args.warmup)
    scratch = Path(tempfile.mkdtemp(prefix="engram-compare-"))
    workers: list[Worker] = []
    try:
        for name, checkout in sides:
            workers.append(Worker(name, Path(checkout).resolve(), source, scratch / name))
        compare(workers, warmup)  # the model sessions, vector caches and page caches
        answers = compare(workers, queries)
    finally:
        for worker in workers:
            worker.close()
        shutil.rmtree(scratch, ignore_errors=True)
    print(report(answers))
    return 0
