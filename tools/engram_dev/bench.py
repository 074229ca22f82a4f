"""``engram bench``: seed synthetic memories into a throwaway data dir and time retain and recall.

Everything runs in-process on the embedded default (SQLite + the local ONNX model), in a fresh
temporary data dir that is removed at the end, so the user's memories are never touched. The
data is generated from a fixed seed, so two runs on the same machine measure the same work.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engram.engine import Engine
from engram.models import RecallRequest, RetainItem, RetainRequest
from engram.ports import Conditions
from engram.scopes import ScopeSet
from engram.settings import ScanSettings, Settings

SEED = 20240601
TENANT = "bench"
SCOPES = tuple(f"user:u{i:03d}" for i in range(100))
BATCH = 100  # the API's MAX_BATCH_ITEMS: the largest retain a client can send
OTHER_PER_TENANT = 300
WARMUP = 20
KNN_CHECK = 50  # the k-NN list a recall of limit 10 asks for (candidate pool 5 × 10)
BLOCK = 20  # queries between two tight loops of their embeddings (``_recall``'s floor in blocks)


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


STAGES = _words(
    "embed beside_embed candidates fetch fusion context rerank lifecycle mmr access serialise total wall http"
)
# A small vocabulary so that words recur across memories (BM25 has term statistics to work with)
# and clauses carry topics (people, places, products) the embedding model can tell apart.
VOCAB = {
    "name": _words("Alice Bob Carla Dmitri Elena Farid Grace Hiro Ines Jonas Keiko Liam Maya Nora Omar"),
    "place": _words("Berlin Lisbon Tokyo Nairobi Toronto Madrid Oslo Seoul Lima Dublin Austin Prague Mumbai"),
    "product": _words("Postgres Kubernetes Terraform Redis Kafka Grafana Jenkins Figma Slack Jira Stripe"),
    "verb": _words("deployed migrated debugged reviewed upgraded configured benchmarked documented patched"),
    "noun": _words("invoice dashboard pipeline budget contract outage roadmap checkout login cache backup"),
    "adj": _words("slow broken urgent expensive flaky stable late critical delayed"),
    "month": _words("January February March April May June July August September October November December"),
}
LEADS = ("what do we know about", "remind me about", "anything on", "what happened with", "notes on")
CLAUSES = (
    "{name} {verb} the {product} {noun} in {place}",
    "on {month} {day}",
    "after the {noun} failed with error {code}",
    "because the {noun} was {adj}",
    "and asked {name2} to check the {noun}",
    "{name} prefers {product} over {product2} for the {noun}",
    "the {place} team {verb} the {noun} last {month}",
    "{name2} said the {product} {noun} is {adj} again",
    "we should move the {noun} to {product2} before {month} {day}",
    "ticket for {name} mentions {code} on the {product} {noun}",
    "{name} flew to {place} to meet {name2} about the {noun}",
    "so the {adj} {noun} blocked the {product} release",
)
CODE = re.compile(r"\bE\d{4}\b")  # error codes: rare exact tokens, the case BM25 exists for


def _sentence(rng: random.Random) -> str:
    """10–30 words of clauses, cut at the target length."""
    target = rng.randint(10, 30)
    words: list[str] = []
    while len(words) < target:
        fields: dict[str, object] = {kind: rng.choice(options) for kind, options in VOCAB.items()}
        fields.update(name2=rng.choice(VOCAB["name"]), product2=rng.choice(VOCAB["product"]))
        fields.update(day=rng.randint(1, 28), code=f"E{rng.randint(1000, 9999)}")
        words += rng.choice(CLAUSES).format(**fields).split()
    return " ".join(words[:target]) + "."


def _pct(values: Sequence[float], ps: Sequence[int] = (50, 95, 99)) -> dict[str, float]:
    arr = np.asarray(values, dtype=np.float64)
    return {f"p{p}": round(float(np.percentile(arr, p)), 3) for p in ps} if arr.size else {}


def _retain(engine: Engine, tenant: str, scope: str, texts: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    response = engine.retain(
        tenant, RetainRequest(scope=scope, items=[RetainItem(text=t) for t in texts], mode="raw")
    )
    return (time.perf_counter() - start) * 1000.0, sum(r.action == "created" for r in response.results)


def _seed(
    engine: Engine, rng: random.Random, n: int, tenants: int
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    from tqdm import tqdm

    engine.create_tenant(TENANT)
    others: list[tuple[str, str, list[str]]] = []
    for t in range(1, tenants):
        engine.create_tenant(f"other-{t}")
        for b in range(0, OTHER_PER_TENANT, BATCH):
            others.append((f"other-{t}", SCOPES[b // BATCH], [_sentence(rng) for _ in range(BATCH)]))
    batches = (n + BATCH - 1) // BATCH
    # Other tenants' batches are spread between the measured ones so their rows interleave on disk.
    stride = max(1, batches // max(1, len(others)))
    corpus: list[tuple[str, str]] = []
    batch_ms: list[float] = []
    created = other_created = 0
    began = time.perf_counter()
    with tqdm(total=n, desc="seeding", unit="mem", file=sys.stderr) as bar:
        for b in range(batches):
            if others and b % stride == 0:
                other_created += _retain(engine, *others.pop())[1]
            scope = SCOPES[b % len(SCOPES)]
            texts = [_sentence(rng) for _ in range(min(BATCH, n - b * BATCH))]
            ms, count = _retain(engine, TENANT, scope, texts)
            batch_ms.append(ms)
            created += count
            corpus += [(scope, t) for t in texts]
            bar.update(len(texts))
    for other in others:
        other_created += _retain(engine, *other)[1]
    # Retain acknowledges once a batch is durable; vectors follow on the background embedder.
    # Closing waits for that backlog, so this is the rate at which memories become searchable.
    engine.close()
    searchable_s = time.perf_counter() - began
    return {
        "items": n,
        "created": created,
        "skipped": n - created,
        "other_tenant_memories": other_created,
        "items_per_s": round(n / (sum(batch_ms) / 1000.0), 1),
        "embedded_items_per_s": round((n + other_created) / searchable_s, 1),
        "batch_ms": _pct(batch_ms, (50, 95)),
    }, corpus


def _queries(rng: random.Random, corpus: list[tuple[str, str]], count: int) -> list[tuple[str, str, str]]:
    """(kind, query, scope): paraphrase-like, exact rare keyword, random words, in turn."""
    coded = [(scope, code) for scope, text in corpus for code in CODE.findall(text)]
    vocab = [w for kind, words in VOCAB.items() if kind != "month" for w in words]
    seeded = sorted({scope for scope, _ in corpus})
    out: list[tuple[str, str, str]] = []
    for i in range(count):
        kind = ("paraphrase", "keyword", "random")[i % 3]
        if kind == "keyword" and coded:
            scope, code = rng.choice(coded)
            out.append((kind, f"error {code}", scope))
        elif kind == "random":
            out.append((kind, " ".join(rng.sample(vocab, rng.randint(2, 5))), rng.choice(seeded)))
        else:
            scope, text = rng.choice(corpus)
            words = [w.strip(".") for w in text.split() if len(w) > 3]
            picked = rng.sample(words, min(len(words), rng.randint(3, 6)))
            out.append(("paraphrase", f"{rng.choice(LEADS)} {' '.join(picked)}", scope))
    return out


def _recall(
    engine: Engine, queries: list[tuple[str, str, str]], *, floor_blocks: bool = False
) -> tuple[dict[str, dict[str, list[float]]], list[list[float]]]:
    """Per-stage samples for one scope and all scopes, alternating per query so drift hits both
    alike; with ``floor_blocks``, after each ``BLOCK`` of queries their embeddings alone in a tight
    loop (one list per block), then one recall not measured, so that the next block's first recall
    meets the model as every other recall does. ``_paired`` sets each block's recalls against the
    floor measured beside them, which a slow host during one phase cannot skew."""
    samples: dict[str, dict[str, list[float]]] = {"one_scope": {}, "all_scopes": {}}
    blocks: list[list[float]] = []
    for start in range(0, len(queries), BLOCK):
        block = queries[start : start + BLOCK]
        for _, query, scope in block:
            for setting, scopes in (("one_scope", [scope]), ("all_scopes", None)):
                request = RecallRequest(query=query, scopes=scopes, limit=10, min_score=0.0)
                began = time.perf_counter()
                response = engine.recall(TENANT, request, with_timings=True)
                wall = (time.perf_counter() - began) * 1000.0
                for stage, ms in {**(response.timings_ms or {}), "wall": wall}.items():
                    samples[setting].setdefault(stage, []).append(ms)
        if floor_blocks:
            engine.embedder.embed([block[0][1]])  # the loop's first embedding would meet a recall's traffic
            tight = []
            for _, query, _ in block:
                began = time.perf_counter()
                engine.embedder.embed([query])
                tight.append((time.perf_counter() - began) * 1000.0)
            blocks.append(tight)
            _, query, scope = block[-1]
            engine.recall(TENANT, RecallRequest(query=query, scopes=[scope], track_access=False))
    return samples, blocks


def _paired(
    samples: dict[str, dict[str, list[float]]], blocks: list[list[float]], scan_one_p50: float
) -> dict[str, dict[str, float]]:
    """Each block's p50 ratios (one scope's total against its floor embedding + the exact scan, all
    scopes' total against one scope's), then their median and range over the blocks."""
    one, every = samples["one_scope"]["total"], samples["all_scopes"]["total"]
    to_floor, all_to_one = [], []
    for i, tight in enumerate(blocks):
        part = slice(i * BLOCK, i * BLOCK + len(tight))
        one_p50 = statistics.median(one[part])
        to_floor.append(one_p50 / (statistics.median(tight) + scan_one_p50))
        all_to_one.append(statistics.median(every[part]) / one_p50)

    def spread(values: list[float]) -> dict[str, float]:
        return {
            "median": round(statistics.median(values), 3),
            "min": round(min(values), 3),
            "max": round(max(values), 3),
        }

    return {
        "blocks": {"count": len(to_floor), "size": BLOCK},
        "one_vs_floor": spread(to_floor),
        "all_vs_one": spread(all_to_one),
    }


def _after_foreign_retain(
    engine: Engine, settings: Settings, queries: list[tuple[str, str, str]], times: int = 5
) -> dict[str, float]:
    """The first recall after another process's retain (a second engine on the same file, as the
    CLI or another worker of ``engram serve`` is): p50 and max over ``times``, and how many times
    the tenant was loaded again for them (the change log makes it none)."""
    other = Engine.local(settings)
    loads = getattr(engine.index, "loads", 0)
    took = []
    try:
        for i, (_, query, scope) in enumerate(queries[:times]):
            text = f"written by another process, note {i}: {query}"
            other.retain(TENANT, RetainRequest(scope=scope, text=text, mode="raw"))
            request = RecallRequest(query=query, scopes=[scope], limit=10, min_score=0.0, track_access=False)
            began = time.perf_counter()
            engine.recall(TENANT, request)
            took.append((time.perf_counter() - began) * 1000.0)
    finally:
        other.close()
    return {
        "p50": round(statistics.median(took), 3),
        "max": round(max(took), 3),
        "loads": getattr(engine.index, "loads", 0) - loads,
    }


def _recall_http(
    engine: Engine, queries: list[tuple[str, str, str]], warmup: list[tuple[str, str, str]]
) -> dict[str, list[float]]:
    """The same recalls over HTTP through the local gateway (authorizer + handler + JSON), wall time."""
    for name in ("POWERTOOLS_TRACE_DISABLED", "POWERTOOLS_METRICS_DISABLED"):
        os.environ.setdefault(name, "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    from engram.tenants import admin
    from engram_dev.gateway_bench import GatewayClient, local_gateway

    key, _ = engine.deps.call(admin.create_key, TENANT)
    samples: dict[str, list[float]] = {"one_scope": [], "all_scopes": []}
    with local_gateway(engine) as (host, port):
        client = GatewayClient(host, port, key)
        for measured, batch in ((False, warmup), (True, queries)):
            for _, query, scope in batch:
                for setting, scopes in (("one_scope", [scope]), ("all_scopes", None)):
                    body = {"query": query, "limit": 10, "min_score": 0.0}
                    if scopes:
                        body["scopes"] = scopes
                    elapsed = client.recall(body)
                    if measured:
                        samples[setting].append(elapsed)
        client.close()
    return samples


def _floor(engine: Engine, queries: list[tuple[str, str, str]]) -> dict[str, dict[str, float]]:
    """Exact brute force over the same vectors: the least any recall could cost on this machine."""
    vectors: list[Any] = []
    scope_of: list[str] = []
    ids: list[str] = []
    for record, vector in engine.store.records.iter_records(TENANT):
        if vector is not None and record.status == "active":
            vectors.append(vector)
            scope_of.append(record.scope)
            ids.append(record.id)
    matrix = np.stack(vectors).astype(np.float32)
    scopes = np.asarray(scope_of)
    per_scope = {s: np.ascontiguousarray(matrix[scopes == s]) for s in set(scope_of)}
    embed_ms: list[float] = []
    scan_all: list[float] = []
    scan_one: list[float] = []
    query_vectors = []
    for _, query, _ in queries:
        start = time.perf_counter()
        query_vectors.append(engine.embedder.embed([query])[0])
        embed_ms.append((time.perf_counter() - start) * 1000.0)
    # The same embedding as a recall meets it: right after the previous query's recall (its
    # memory traffic evicts the model's weights from the caches), nothing beside it. The tight
    # loop above is the least an embedding costs here; this is the least a recall's can.
    after_recall: list[float] = []
    for (_, before, scope), (_, query, _) in zip([queries[-1], *queries[:-1]], queries, strict=True):
        engine.recall(TENANT, RecallRequest(query=before, scopes=[scope], track_access=False))
        start = time.perf_counter()
        engine.embedder.embed([query])
        after_recall.append((time.perf_counter() - start) * 1000.0)
    # Scanned in a second pass: right after an embed, onnxruntime's spinning worker threads compete
    # with numpy for the cores and would inflate what is meant to be a floor.
    time.sleep(0.1)
    for (_, _, scope), vector in zip(queries, query_vectors, strict=True):
        for target, sink in ((matrix, scan_all), (per_scope[scope], scan_one)):
            start = time.perf_counter()
            sims = target @ vector
            np.argpartition(-sims, min(10, sims.shape[0]) - 1)[:10]
            sink.append((time.perf_counter() - start) * 1000.0)
    # How much of the exact top 50 over all scopes the index's k-NN returns (below
    # ``scan.exact_max_rows`` rows the index scans exactly and this is 1.0).
    found = []
    for vector in query_vectors:
        exact = np.argpartition(-(matrix @ vector), KNN_CHECK - 1)[:KNN_CHECK]
        got = {i for i, _ in engine.index.knn(TENANT, vector, KNN_CHECK, Conditions(scopes=ScopeSet.every()))}
        found.append(len(got & {ids[int(row)] for row in exact}) / KNN_CHECK)
    return {
        "query_embed": _pct(embed_ms),
        "query_embed_after_recall": _pct(after_recall),
        "scan_all": _pct(scan_all),
        "scan_one": _pct(scan_one),
        "knn_recall_at_50": {"mean": round(float(np.mean(found)), 5), "min": round(float(np.min(found)), 3)},
    }


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return (
            "| "
            + " | ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            )
            + " |"
        )

    sep = "|" + "|".join("-" * (w + 1) + (":" if i else "-") for i, w in enumerate(widths)) + "|"
    return "\n".join([line(header), sep, *(line(r) for r in rows)])


def _report(result: dict[str, Any]) -> str:
    r, f, foreign = result["retain"], result["floor"], result["after_foreign_retain"]
    columns = {
        "N": str(result["n"]),
        "retain items/s (acknowledged)": f"{r['items_per_s']:.0f}",
        "items/s embedded": f"{r['embedded_items_per_s']:.0f}",
        "batch p50 ms": f"{r['batch_ms']['p50']:.1f}",
        "batch p95 ms": f"{r['batch_ms']['p95']:.1f}",
        "floor p50 ms": f"{f['scan_all']['p50']:.3f}",
        "floor p95 ms": f"{f['scan_all']['p95']:.3f}",
        "peak RSS MB": f"{result['peak_rss_mb']:.0f}",
        "disk MB/100k": f"{result['disk']['mb_per_100k']:.0f}",
    }
    summary = _table(list(columns), [list(columns.values())])

    def cells(stats: dict[str, float]) -> list[str]:
        return [f"{stats[p]:.3f}" if p in stats else "-" for p in ("p50", "p95", "p99")]

    one, every = result["recall"]["one_scope"], result["recall"]["all_scopes"]
    rows = [
        [
            {
                "wall": "wall (around call)",
                "http": "HTTP via local gateway",
                "beside_embed": "(BM25 + its records, during embed)",
            }.get(stage, stage),
            *cells(one.get(stage, {})),
            *cells(every.get(stage, {})),
        ]
        for stage in STAGES
        if stage in one or stage in every
    ]
    rows += [
        ["floor: query embed", *cells(f["query_embed"]), *cells(f["query_embed"])],
        [
            "(query embed right after a recall)",
            *cells(f["query_embed_after_recall"]),
            *cells(f["query_embed_after_recall"]),
        ],
        ["floor: exact scan + top-10", *cells(f["scan_one"]), *cells(f["scan_all"])],
    ]
    stages = _table(["stage (ms)", "1 scope p50", "p95", "p99", "all scopes p50", "p95", "p99"], rows)
    d = result["disk"]
    notes = (
        f"{r['created']} of {r['items']} memories created in tenant '{TENANT}' over "
        f"{result['scopes']} scopes ({r['skipped']} skipped as duplicates), beside "
        f"{r['other_tenant_memories']} in {result['tenants'] - 1} other tenants; "
        f"{result['queries']} queries (+{WARMUP} warm-up).\n"
        f"Disk: {d['mb']:.1f} MB {d['files_mb']} for {d['memories']} memories in all tenants, scaled linearly "
        "to 100k. "
        "Peak RSS is taken before the floor step loads its own copy of the vectors.\n"
        f"First recall of a fresh engine (loads the tenant's vectors and postings): "
        f"{result['cold_first_recall_ms']:.0f} ms.\n"
        f"First recall after another process's retain (a second engine on the file, as another worker "
        f"of engram serve): p50 {foreign['p50']:.1f} ms, max {foreign['max']:.1f} ms over 5; the tenant "
        f"loaded again {foreign['loads']} times.\n"
        f"k-NN over all scopes (above {result['scan']['exact_max_rows']:,} rows: sign-bit pass, then "
        f"float32 on the best {result['scan']['rescore']}): it returns {f['knn_recall_at_50']['mean']:.2%} "
        f"of the exact top 50 (worst query {f['knn_recall_at_50']['min']:.0%})."
    )
    return f"{summary}\n\n{stages}\n\n{notes}\n{_ratios(result)}"


def _ratios(result: dict[str, Any]) -> str:
    """The latency targets' ratios at p50: one scope's total against its floor (the query embedding
    alone, in a tight loop and right after a recall, plus the exact scan), all scopes' against one."""
    f, one, every = result["floor"], result["recall"]["one_scope"], result["recall"]["all_scopes"]
    total, scan = one["total"]["p50"], f["scan_one"]["p50"]
    tight, after = f["query_embed"]["p50"] + scan, f["query_embed_after_recall"]["p50"] + scan
    return (
        f"p50 ratios: one scope {total / tight:.2f}x its floor ({tight:.2f} ms; {total / after:.2f}x with "
        f"the embedding as measured right after a recall, {after:.2f} ms); all scopes "
        f"{every['total']['p50'] / total:.2f}x one scope." + _paired_line(result.get("paired"))
    )


def _paired_line(paired: dict[str, Any] | None) -> str:
    if not paired:
        return ""
    blocks, floor, every = paired["blocks"], paired["one_vs_floor"], paired["all_vs_one"]
    return (
        f"\nThe same ratios side by side, in {blocks['count']} blocks of {blocks['size']} queries (each "
        "block's recalls against a tight loop of their embeddings right after them; median over the "
        f"blocks, range): one scope {floor['median']:.2f}x its floor ({floor['min']:.2f}-{floor['max']:.2f}); "
        f"all scopes {every['median']:.2f}x one scope ({every['min']:.2f}-{every['max']:.2f})."
    )


def _plot(result: dict[str, Any], path: Path) -> None:
    try:
        # Imported by name: matplotlib is optional and not a dependency of the package.
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        print("matplotlib is not installed; skipping bench.png", file=sys.stderr)
        return
    one, every = result["recall"]["one_scope"], result["recall"]["all_scopes"]
    stages = [s for s in STAGES if s in one and s in every]
    x = np.arange(len(stages))
    fig, ax = plt.subplots(figsize=(12, 5))
    series = [
        (f"{name} {p}", stats, p)
        for name, stats in (("1 scope", one), ("all scopes", every))
        for p in ("p50", "p95")
    ]
    for i, (label, stats, p) in enumerate(series):
        ax.bar(x + (i - 1.5) * 0.2, [stats[s][p] for s in stages], 0.2, label=label)
    ax.set_xticks(x, stages)
    ax.set_yscale("log")  # stages span from microseconds to the embedding's milliseconds
    ax.set_ylabel("ms (log)")
    ax.set_title(f"engram recall latency by stage, N={result['n']}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data_dir = Path(tempfile.mkdtemp(prefix="engram-bench-", dir=out))
    try:
        scan = (
            ScanSettings()
            if args.exact_max_rows is None
            else ScanSettings(exact_max_rows=args.exact_max_rows)
        )
        settings = Settings(data_dir=data_dir, scan=scan)
        engine = Engine.local(settings)
        rng = random.Random(SEED)
        retain, corpus = _seed(engine, rng, args.n, args.tenants)
        queries = _queries(random.Random(SEED + 1), corpus, args.queries)
        warmup = _queries(random.Random(SEED + 2), corpus, WARMUP)
        # A fresh engine on the same file, as a new process would be: its first recall loads the
        # tenant's vectors and postings.
        engine = Engine.local(settings)
        start = time.perf_counter()
        engine.recall(TENANT, RecallRequest(query=warmup[0][1], limit=10, min_score=0.0))
        cold_ms = (time.perf_counter() - start) * 1000.0
        _recall(engine, warmup)  # loads the model session, the vector cache and SQLite's page cache
        samples, blocks = _recall(engine, queries, floor_blocks=True)
        for setting, values in _recall_http(engine, queries, warmup).items():
            samples[setting]["http"] = values
        peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux
        floor = _floor(engine, queries)
        foreign = _after_foreign_retain(engine, settings, queries)
        files = {name: data_dir / name for name in ("engram.db", "engram.db-wal")}
        sizes = {name: round(p.stat().st_size / 2**20, 2) for name, p in files.items() if p.exists()}
        disk_mb = sum(sizes.values())
        memories = retain["created"] + retain["other_tenant_memories"]
        result: dict[str, Any] = {
            "n": args.n,
            "tenants": args.tenants,
            "scopes": min(len(SCOPES), len({s for s, _ in corpus})),
            "queries": args.queries,
            "retain": retain,
            "recall": {
                setting: {stage: _pct(v) for stage, v in stages.items()}
                for setting, stages in samples.items()
            },
            "floor": floor,
            "paired": _paired(samples, blocks, floor["scan_one"]["p50"]),
            "scan": engine.settings.scan.model_dump(),
            "peak_rss_mb": round(peak_rss_mb, 1),
            "cold_first_recall_ms": round(cold_ms, 1),
            "after_foreign_retain": foreign,
            "disk": {
                "mb": round(disk_mb, 2),
                "files_mb": sizes,
                "memories": memories,
                "mb_per_100k": round(disk_mb * 100_000 / max(1, memories), 1),
            },
        }
    finally:
        if not getattr(args, "keep_data", False):
            shutil.rmtree(data_dir, ignore_errors=True)
    print(_report(result))
    if getattr(args, "keep_data", False):
        print(f"data kept in {data_dir} (engram bench-compare --data {data_dir} NAME=CHECKOUT ...)")
    if args.json:
        print(json.dumps(result))
    (out / "bench.json").write_text(json.dumps(result, indent=2) + "\n")
    _plot(result, out / "bench.png")
    return 0
