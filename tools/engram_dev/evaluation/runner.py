"""``engram eval locomo``: recall quality measured through the public HTTP API, as a client sees it.

The evaluator is an ordinary API client. It creates a tenant (with the operator credential) or uses
the tenant of a given API key, retains every turn of every conversation in raw mode into scope
``user:<sample_id>`` (``metadata.dia_id``, ``occurred_at`` = the session's time, one batch per session),
then asks every question of categories 1–4 in its scope with ``min_score`` 0 and ``limit`` = the
largest k. Variants are per-tenant recall settings (``PUT /v1/admin/tenants/{t}/settings``) applied
in turn to the same memories, so they are compared on identical data in one run.

``--local`` starts ``engram serve`` on a throwaway data dir and a free port and stops it at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engram_dev.evaluation.locomo import (
    CATEGORIES,
    FormatError,
    QuestionResult,
    Sample,
    approx_tokens,
    load,
    summarise,
)

# The one-channel and naive-hybrid baselines switch off everything beyond plain fusion.
PLAIN: dict[str, Any] = {
    "mmr_lambda": 1.0,
    "entity_weight": 0.0,
    "time_weight": 0.0,
    "neighbour_weight": 0.0,
    "brevity_anchor": 0,
    "weight_vector": 0.7,
    "weight_bm25": 0.3,
}
PRESETS: dict[str, dict[str, Any]] = {
    "bm25": {"recall": {**PLAIN, "fusion": "bm25"}},
    "vector": {"recall": {**PLAIN, "fusion": "vector"}},
    "weighted": {"recall": {**PLAIN, "fusion": "weighted"}},
    "rrf": {"recall": {**PLAIN, "fusion": "rrf"}},
    "default": {},
}
BATCH = 100


class EvalError(RuntimeError):
    """The evaluation cannot go on; the message says why."""


@dataclass(frozen=True)
class Variant:
    name: str
    settings: dict[str, Any]


def parse_variants(text: str) -> list[Variant]:
    """``bm25,vector,default`` or ``name={"recall": {...}}`` entries, separated by commas outside JSON.

    >>> [v.name for v in parse_variants('bm25,wide={"recall": {"candidate_pool_min": 60}},default')]
    ['bm25', 'wide', 'default']
    """
    variants: list[Variant] = []
    depth, start = 0, 0
    pieces: list[str] = []
    for position, char in enumerate(text + ","):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            pieces.append(text[start:position].strip())
            start = position + 1
    if depth != 0 or start <= len(text):
        raise EvalError(f"variants: unbalanced braces in {text!r}")
    for piece in filter(None, pieces):
        name, _, spec = piece.partition("=")
        name = name.strip()
        if spec:
            try:
                settings = json.loads(spec)
            except json.JSONDecodeError as exc:
                raise EvalError(f"variant {name}: settings are not JSON ({exc})") from None
            if not isinstance(settings, dict) or set(settings) - {"recall", "lifecycle"}:
                raise EvalError(
                    f'variant {name}: settings must be {{"recall": {{...}}, "lifecycle": {{...}}}}'
                )
        elif name in PRESETS:
            settings = PRESETS[name]
        else:
            raise EvalError(f"unknown variant {name!r}; presets: {', '.join(PRESETS)}, or name={{json}}")
        variants.append(Variant(name, settings))
    if len({v.name for v in variants}) != len(variants):
        raise EvalError("variant names must differ")
    return variants


class Client:
    """JSON over one kept-alive HTTP connection."""

    def __init__(self, url: str, *, key: str, timeout: float = 120.0) -> None:
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise EvalError(f"not an http(s) URL: {url!r}")
        cls = http.client.HTTPSConnection if parsed.scheme == "https" else http.client.HTTPConnection
        self._connection = cls(parsed.hostname, parsed.port, timeout=timeout)
        self._base = parsed.path.rstrip("/")
        self.key = key

    def call(self, method: str, path: str, body: Any = None, *, key: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {key or self.key}", "Content-Type": "application/json"}
        payload = json.dumps(body) if body is not None else None
        for attempt in (1, 2):
            try:
                self._connection.request(method, self._base + path, payload, headers)
                reply = self._connection.getresponse()
                data = reply.read()
                break
            except (ConnectionError, http.client.HTTPException):
                self._connection.close()  # a dropped keep-alive: reconnect once
                if attempt == 2:
                    raise
        if reply.status == 429 and attempt == 1:
            time.sleep(float(reply.getheader("Retry-After") or 1))
            return self.call(method, path, body, key=key)
        parsed = json.loads(data) if data else None
        if reply.status >= 400:
            raise EvalError(f"{method} {path} answered {reply.status}: {json.dumps(parsed)[:500]}")
        return parsed

    def close(self) -> None:
        self._connection.close()


@contextmanager
def local_server() -> Iterator[tuple[str, str]]:
    """``engram serve`` on a throwaway data dir and a free port: yields (url, operator token)."""
    folder = Path(tempfile.mkdtemp(prefix="engram-eval-"))
    process = subprocess.Popen(
        [sys.executable, "-m", "engram_cli", "--data-dir", str(folder), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        if not first.startswith("Engram listening on "):
            raise EvalError("engram serve did not start: " + first + process.stdout.read())
        yield first.split()[3], (folder / "operator-token").read_text().strip()
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)


def scope_of(sample_id: str) -> str:
    """``user:<sample_id>``, with what a scope id may not hold replaced by ``-``."""
    return "user:" + (re.sub(r"[^A-Za-z0-9._@-]", "-", sample_id)[:100] or "sample")


def _progress(total: int, desc: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="it", file=sys.stderr, leave=False, disable=None)


def ingest(client: Client, samples: Sequence[Sample]) -> dict[str, dict[str, frozenset[str]]]:
    """Retain every turn; per scope, each memory id → the dia ids it holds (a repeated text is one memory)."""
    memory_dia: dict[str, dict[str, set[str]]] = {}
    with _progress(sum(len(s.turns) for s in samples), "retain") as bar:
        for sample in samples:
            scope = scope_of(sample.sample_id)
            owned = memory_dia.setdefault(scope, {})
            existing = client.call(
                "GET", "/v1/memories?" + urllib.parse.urlencode({"scope": scope, "limit": 1})
            )
            if existing["memories"]:
                raise EvalError(f"scope {scope} already holds memories; evaluate in a fresh tenant")
            for number, turns in sample.sessions().items():
                for start in range(0, len(turns), BATCH):
                    chunk = turns[start : start + BATCH]
                    body: dict[str, Any] = {
                        "scope": scope,
                        "mode": "raw",
                        "session_id": f"{sample.sample_id}:session-{number}"[:128],
                        "items": [
                            {
                                "text": turn.document(),
                                "metadata": {"dia_id": turn.dia_id},
                                **({"occurred_at": turn.occurred_at.isoformat()} if turn.occurred_at else {}),
                            }
                            for turn in chunk
                        ],
                    }
                    reply = client.call("POST", "/v1/memories", body)
                    for turn, result in zip(chunk, reply["results"], strict=True):
                        owned.setdefault(result["id"], set()).add(turn.dia_id)
                    bar.update(len(chunk))
    return {scope: {i: frozenset(d) for i, d in ids.items()} for scope, ids in memory_dia.items()}


def ask(
    client: Client,
    samples: Sequence[Sample],
    memory_dia: dict[str, dict[str, frozenset[str]]],
    ks: Sequence[int],
    desc: str,
) -> list[QuestionResult]:
    results: list[QuestionResult] = []
    questions = [(s, q) for s in samples for q in s.questions if q.category in CATEGORIES and q.evidence]
    with _progress(len(questions), desc) as bar:
        for sample, question in questions:
            scope = scope_of(sample.sample_id)
            body = {
                "query": question.question,
                "scopes": [scope],
                "limit": max(ks),
                "min_score": 0.0,
                "track_access": False,
            }
            started = time.perf_counter()
            reply = client.call("POST", "/v1/recall", body)
            latency = (time.perf_counter() - started) * 1000.0
            memories = reply["memories"]
            ranked = [memory_dia[scope].get(m["id"], frozenset()) for m in memories]
            tokens = {k: sum(approx_tokens(m["content"]) for m in memories[:k]) for k in ks}
            results.append(
                QuestionResult(
                    category=question.category,
                    evidence=question.evidence,
                    ranked=ranked,
                    context_tokens=tokens,
                    latency_ms=latency,
                )
            )
            bar.update(1)
    return results


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def report(summaries: dict[str, dict[str, dict[str, float]]], ks: Sequence[int]) -> str:
    """Markdown tables: the variants side by side, then each variant's full metrics."""
    head = 10 if 10 in ks else max(ks)
    groups = [*CATEGORIES.values(), "overall"]
    lines = [f"Fractional recall@{head} (%) by category, n questions in brackets", ""]
    first = next(iter(summaries.values()))
    header = ["variant", *[f"{g} ({int(first[g]['n'])})" for g in groups if g in first], "p50 ms", "p95 ms"]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, table in summaries.items():
        cells = [name, *[_fmt(table[g][f"recall@{head}"]) for g in groups if g in table]]
        cells += [_fmt(table["overall"]["latency_p50_ms"]), _fmt(table["overall"]["latency_p95_ms"])]
        lines.append("| " + " | ".join(cells) + " |")
    columns = [
        *[f"recall@{k}" for k in ks],
        f"all@{head}",
        f"any@{head}",
        f"session_any@{head}",
        "mrr",
        f"context_tokens@{head}",
        "latency_p50_ms",
        "latency_p95_ms",
    ]
    for name, table in summaries.items():
        lines += ["", f"Variant {name}", "", "| category | n | " + " | ".join(columns) + " |"]
        lines.append("|" + "---|" * (len(columns) + 2))
        for group in groups:
            if group in table:
                row = table[group]
                lines.append(
                    f"| {group} | {int(row['n'])} | " + " | ".join(_fmt(row[c]) for c in columns) + " |"
                )
    return "\n".join(lines)


def plot(summaries: dict[str, dict[str, dict[str, float]]], ks: Sequence[int], path: Path) -> None:
    """A grouped bar chart of fractional recall@10 per category, one bar per variant."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    head = 10 if 10 in ks else max(ks)
    groups = [g for g in [*CATEGORIES.values(), "overall"] if g in next(iter(summaries.values()))]
    width = 0.8 / len(summaries)
    figure, axes = plt.subplots(figsize=(9, 4.5))
    for offset, (name, table) in enumerate(summaries.items()):
        values = [table[g][f"recall@{head}"] for g in groups]
        positions = [i + (offset - (len(summaries) - 1) / 2) * width for i in range(len(groups))]
        bars = axes.bar(positions, values, width, label=name)
        axes.bar_label(bars, fmt="%.0f", fontsize=7)
    axes.set_xticks(range(len(groups)), [f"{g}\n(n={int(summaries[name][g]['n'])})" for g in groups])
    axes.set_ylabel(f"fractional recall@{head} (%)")
    axes.set_ylim(0, 118)  # room above the bars for the legend
    axes.set_yticks(range(0, 101, 20))
    axes.legend(ncols=min(6, len(summaries)), fontsize=8, loc="upper center")
    axes.set_title("Recall of the evidence turns, per question category")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def evaluate(
    url: str,
    *,
    operator_token: str | None,
    api_key: str | None,
    samples: Sequence[Sample],
    variants: Sequence[Variant],
    ks: Sequence[int],
    keep: bool = False,
) -> dict[str, dict[str, dict[str, float]]]:
    """Ingest once, run every variant's questions; the summaries by variant name."""
    tenant: str | None = None
    if api_key is None:
        if operator_token is None:
            raise EvalError("give --api-key, --operator-token or --local")
        admin = Client(url, key=operator_token)
        tenant = f"eval-{uuid.uuid4().hex[:12]}"
        admin.call("POST", "/v1/admin/tenants", {"tenant_id": tenant, "name": "evaluation"})
        api_key = admin.call("POST", f"/v1/admin/tenants/{tenant}/keys", {})["api_key"]
    elif any(v.settings for v in variants):
        raise EvalError("variants other than 'default' change tenant settings: they need --operator-token")
    client = Client(url, key=str(api_key))
    try:
        memory_dia = ingest(client, samples)
        summaries = {}
        for variant in variants:
            if tenant is not None:
                admin.call("PUT", f"/v1/admin/tenants/{tenant}/settings", {"settings": variant.settings})
            results = ask(client, samples, memory_dia, ks, variant.name)
            summaries[variant.name] = summarise(results, ks)
        return summaries
    finally:
        client.close()
        if tenant is not None and not keep:
            admin.call("DELETE", f"/v1/admin/tenants/{tenant}")
        if tenant is not None:
            admin.close()


def run(args: argparse.Namespace) -> int:
    try:
        ks = sorted({int(k) for k in args.k.split(",") if k.strip()})
        if not ks or ks[0] < 1 or ks[-1] > 100:
            raise EvalError("--k takes values from 1 to 100")
        variants = parse_variants(args.variants)
        samples = load(Path(args.data))
        if args.samples:
            samples = samples[: args.samples]
        if args.questions:
            samples = [Sample(s.sample_id, s.turns, s.questions[: args.questions]) for s in samples]
        if not samples:
            raise EvalError(f"{args.data}: no samples")
        options = {"samples": samples, "variants": variants, "ks": ks, "keep": args.keep}
        if args.local or not args.url:
            with local_server() as (url, token):
                summaries = evaluate(url, operator_token=token, api_key=None, **options)
        else:
            summaries = evaluate(
                args.url, operator_token=args.operator_token, api_key=args.api_key, **options
            )
    except (EvalError, FormatError, OSError) as exc:
        print(f"engram eval: {exc}", file=sys.stderr)
        return 2
    text = report(summaries, ks)
    print(text)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        meta = {
            "data": str(args.data),
            "samples": len(samples),
            "turns": sum(len(s.turns) for s in samples),
            "k": ks,
            "variants": {v.name: v.settings for v in variants},
        }
        (out / "locomo.json").write_text(json.dumps({**meta, "results": summaries}, indent=2) + "\n")
        (out / "locomo.md").write_text(text + "\n")
        plot(summaries, ks, out / "locomo.png")
        print(f"\nwrote {out / 'locomo.json'}, {out / 'locomo.md'} and {out / 'locomo.png'}")
    return 0
