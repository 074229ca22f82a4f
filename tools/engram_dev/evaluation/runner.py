"""``engram eval locomo``: recall quality measured through the public HTTP API, as agents call it.

The evaluator is an ordinary API client. It creates a tenant (with the operator credential) or uses
the tenant of a given API key, retains every turn of every conversation in raw mode into scope
``user:<sample_id>`` (``metadata.dia_id``, ``occurred_at`` = the session's time; with sessions on,
one batch and ``session_id`` per session, with them off batches of 100 turns and no session id),
times the first recall right after and how long the backlog takes to become searchable by vector,
then asks every question of categories 1–4 in its scope, in a seeded shuffle, with ``min_score`` 0
and ``limit`` = the largest k. Variants are per-tenant recall settings (``PUT
/v1/admin/tenants/{t}/settings``) applied in turn to the same memories, so they are compared on
identical data in one run; ``default`` asks as an agent does (no ``track_access`` field: access is
tracked), ``untracked`` is the same with ``track_access: false``, and the one-channel baselines
are untracked. Untracked variants run first, so each sees the memories as retained.

``--local`` starts ``engram serve`` on a throwaway data dir and a free port and stops it at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
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
    Turn,
    approx_tokens,
    load,
    summarise,
)
from engram_dev.evaluation.report import plot, report

# The one-channel and naive-hybrid baselines switch off everything beyond plain fusion.
PLAIN: dict[str, Any] = {
    "mmr_lambda": 1.0,
    "entity_weight": 0.0,
    "time_weight": 0.0,
    "neighbour_weight": 0.0,
    "thread_weight": 0.0,
    "when_weight": 0.0,
    "amount_weight": 0.0,
    "place_weight": 0.0,
    "person_weight": 0.0,
    "speaker_weight": 0.0,
    "bm25_without_speakers": False,
    "vector_without_speakers": False,
    "context_weight": 0.0,
    "brevity_anchor": 0,
    "weight_vector": 0.7,
    "weight_bm25": 0.3,
}
PRESETS: dict[str, tuple[dict[str, Any], bool]] = {
    # name: (tenant settings, whether access is tracked as an agent's recall tracks it)
    "bm25": ({"recall": {**PLAIN, "fusion": "bm25"}}, False),
    "vector": ({"recall": {**PLAIN, "fusion": "vector"}}, False),
    "weighted": ({"recall": {**PLAIN, "fusion": "weighted"}}, False),
    "rrf": ({"recall": {**PLAIN, "fusion": "rrf"}}, False),
    "untracked": ({}, False),
    "default": ({}, True),
    "served": ({}, True),
}
SERVED = "served"
"""The preset that asks with only ``query`` and ``scopes``, as an agent's first call does: the
server's own ``limit`` (5) and ``min_score``; its empty answers are what an agent gets."""
BATCH = 100
DRAIN_TIMEOUT_S = 3_600.0


class EvalError(RuntimeError):
    """The evaluation cannot go on; the message says why."""


@dataclass(frozen=True)
class Variant:
    name: str
    settings: dict[str, Any]
    track_access: bool = True
    served: bool = False
    """Ask with only ``query`` and ``scopes`` (the server's defaults), not ``min_score`` 0."""


def parse_variants(text: str) -> list[Variant]:
    """``bm25,vector,default`` or ``name={"recall": {...}}`` entries, separated by commas outside JSON;
    a JSON entry may add ``"track_access": false`` (tracked otherwise, as agents call) and
    ``"served": true`` (ask with only ``query`` and ``scopes``, as ``served`` does).

    >>> [(v.name, v.track_access) for v in parse_variants('bm25,wide={"recall": {"candidate_pool_min": 60}}')]
    [('bm25', False), ('wide', True)]
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
            if not isinstance(settings, dict) or set(settings) - {
                "recall",
                "lifecycle",
                "track_access",
                "served",
            }:
                raise EvalError(
                    f'variant {name}: settings must be {{"recall": {{...}}, "lifecycle": {{...}}}}'
                    ' (and optionally "track_access": false, "served": true)'
                )
            tracked = settings.pop("track_access", True)
            served = settings.pop("served", False)
            if not isinstance(tracked, bool) or not isinstance(served, bool):
                raise EvalError(f"variant {name}: track_access and served must be true or false")
        elif name in PRESETS:
            (settings, tracked), served = PRESETS[name], name == SERVED
        else:
            raise EvalError(f"unknown variant {name!r}; presets: {', '.join(PRESETS)}, or name={{json}}")
        variants.append(Variant(name, settings, tracked, served=served))
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
    """``engram serve`` on a throwaway data dir and a free port: yields (url, operator token).

    The server's output (one access-log line per request) goes to a file in that dir, never to a
    pipe: a pipe nobody reads fills after 64 KB and blocks the server's next log line.
    """
    folder = Path(tempfile.mkdtemp(prefix="engram-eval-"))
    log_path = folder / "server.log"
    with log_path.open("w", encoding="utf-8") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "engram_cli", "--data-dir", str(folder / "data"), "serve", "--port", "0"],
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
    # a `kill` of the evaluator (SIGTERM) ends it through this `finally` too, not leaving the server
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm) if main_thread else None
    try:
        first = _first_line(process, log_path)
        token = (folder / "data" / "operator-token").read_text().strip()
        yield first.split()[3], token
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _first_line(process: subprocess.Popen[str], log_path: Path, timeout_s: float = 300.0) -> str:
    """The server's announcement, once it is in its log; the log when the server stops first."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        text = log_path.read_text(encoding="utf-8")
        first, newline, _ = text.partition("\n")
        if newline:
            if not first.startswith("Engram listening on "):
                raise EvalError("engram serve did not start: " + text[-2000:])
            return first
        if process.poll() is not None:
            raise EvalError("engram serve did not start: " + text[-2000:])
        time.sleep(0.05)
    raise EvalError(f"engram serve printed nothing within {timeout_s:.0f} s")


def scope_of(sample_id: str) -> str:
    """``user:<sample_id>``, with what a scope id may not hold replaced by ``-``."""
    return "user:" + (re.sub(r"[^A-Za-z0-9._@-]", "-", sample_id)[:100] or "sample")


def _progress(total: int, desc: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="it", file=sys.stderr, leave=False, disable=None)


def _batches(sample: Sample, sessions: bool) -> Iterator[tuple[str | None, list[Turn]]]:
    """(session id, turns) per retain call: each session in batches of 100 with its id, or, with
    sessions off, the whole conversation in order in batches of 100 with none."""
    if not sessions:
        for start in range(0, len(sample.turns), BATCH):
            yield None, list(sample.turns[start : start + BATCH])
        return
    for number, turns in sample.sessions().items():
        for start in range(0, len(turns), BATCH):
            yield f"{sample.sample_id}:session-{number}"[:128], turns[start : start + BATCH]


def ingest(
    client: Client, samples: Sequence[Sample], *, sessions: bool = True
) -> dict[str, dict[str, frozenset[str]]]:
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
            for session_id, chunk in _batches(sample, sessions):
                body: dict[str, Any] = {
                    "scope": scope,
                    "mode": "raw",
                    **({"session_id": session_id} if session_id else {}),
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


def settle(client: Client, samples: Sequence[Sample], started: float, acknowledged: float) -> dict[str, Any]:
    """Right after the retains: one recall, timed, then the wait until every turn has its vector."""
    first = next((s, q) for s in samples for q in s.questions)
    began = time.perf_counter()
    client.call("POST", "/v1/recall", {"query": first[1].question, "scopes": [scope_of(first[0].sample_id)]})
    first_recall_ms = (time.perf_counter() - began) * 1000.0
    backlog = int(client.call("GET", "/v1/stats").get("pending_embedding", 0))
    while client.call("GET", "/v1/stats").get("pending_embedding", 0):
        if time.perf_counter() - started > DRAIN_TIMEOUT_S:
            raise EvalError("the embedding backlog did not drain within an hour")
        time.sleep(0.2)
    searchable = time.perf_counter() - started
    turns = sum(len(s.turns) for s in samples)
    return {
        "turns": turns,
        "retain_items_per_s": turns / max(acknowledged - started, 1e-9),
        "first_recall_ms": first_recall_ms,
        "backlog_at_first_recall": backlog,
        "searchable_after_s": searchable,
        "vector_items_per_s": turns / max(searchable, 1e-9),
    }


def ask(
    client: Client,
    samples: Sequence[Sample],
    memory_dia: dict[str, dict[str, frozenset[str]]],
    ks: Sequence[int],
    variant: Variant,
    seed: int = 0,
) -> list[QuestionResult]:
    """Every question of categories 1–4, in a shuffle seeded by ``seed``, as the variant asks."""
    results: list[QuestionResult] = []
    questions = [(s, q) for s in samples for q in s.questions if q.category in CATEGORIES and q.evidence]
    random.Random(seed).shuffle(questions)
    with _progress(len(questions), variant.name) as bar:
        for sample, question in questions:
            scope = scope_of(sample.sample_id)
            body: dict[str, Any] = {"query": question.question, "scopes": [scope]}
            if not variant.served:
                body |= {"limit": max(ks), "min_score": 0.0}
            if not variant.track_access:  # an agent sends no such field: its recalls are tracked
                body["track_access"] = False
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


def evaluate(
    url: str,
    *,
    operator_token: str | None,
    api_key: str | None,
    samples: Sequence[Sample],
    variants: Sequence[Variant],
    ks: Sequence[int],
    keep: bool = False,
    sessions: bool = True,
    seed: int = 0,
    ingest_settings: dict[str, Any] | None = None,
) -> tuple[dict[str, dict[str, dict[str, float]]], dict[str, Any]]:
    """Ingest once, run every variant's questions (untracked ones first); the summaries by variant
    name in the order given, and the ingestion's timing."""
    tenant: str | None = None
    if api_key is None:
        if operator_token is None:
            raise EvalError("give --api-key, --operator-token or --local")
        admin = Client(url, key=operator_token)
        tenant = f"eval-{uuid.uuid4().hex[:12]}"
        admin.call("POST", "/v1/admin/tenants", {"tenant_id": tenant, "name": "evaluation"})
        api_key = admin.call("POST", f"/v1/admin/tenants/{tenant}/keys", {})["api_key"]
    elif any(v.settings for v in variants) or ingest_settings:  # "untracked" needs no settings
        raise EvalError("variants other than 'default' change tenant settings: they need --operator-token")
    client = Client(url, key=str(api_key))
    try:
        if tenant is not None and ingest_settings:  # what is embedded or indexed at retain
            admin.call("PUT", f"/v1/admin/tenants/{tenant}/settings", {"settings": ingest_settings})
        started = time.perf_counter()
        memory_dia = ingest(client, samples, sessions=sessions)
        timing = settle(client, samples, started, time.perf_counter())
        summaries = {}
        for variant in sorted(variants, key=lambda v: v.track_access):  # stable: untracked first
            if tenant is not None:
                admin.call("PUT", f"/v1/admin/tenants/{tenant}/settings", {"settings": variant.settings})
            results = ask(client, samples, memory_dia, ks, variant, seed)
            summaries[variant.name] = summarise(results, ks)
        return {v.name: summaries[v.name] for v in variants}, timing
    finally:
        client.close()
        if tenant is not None and not keep:
            admin.call("DELETE", f"/v1/admin/tenants/{tenant}")
        if tenant is not None:
            admin.close()


def _json_option(text: str | None, name: str) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EvalError(f"{name}: not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise EvalError(f'{name}: expected {{"retain": {{...}}, ...}}')
    return value


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
        options = {
            "samples": samples,
            "variants": variants,
            "ks": ks,
            "keep": args.keep,
            "sessions": args.sessions == "on",
            "seed": args.seed,
            "ingest_settings": _json_option(args.ingest_settings, "--ingest-settings"),
        }
        if args.local or not args.url:
            with local_server() as (url, token):
                summaries, timing = evaluate(url, operator_token=token, api_key=None, **options)
        else:
            summaries, timing = evaluate(
                args.url, operator_token=args.operator_token, api_key=args.api_key, **options
            )
    except (EvalError, FormatError, OSError) as exc:
        print(f"engram eval: {exc}", file=sys.stderr)
        return 2
    text = report(summaries, ks, timing)
    print(text)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        meta = {
            "data": str(args.data),
            "samples": len(samples),
            "turns": sum(len(s.turns) for s in samples),
            "k": ks,
            "sessions": args.sessions,
            "seed": args.seed,
            "ingest_settings": args.ingest_settings,
            "variants": {v.name: {**v.settings, "track_access": v.track_access} for v in variants},
            "timing": timing,
        }
        (out / "locomo.json").write_text(json.dumps({**meta, "results": summaries}, indent=2) + "\n")
        (out / "locomo.md").write_text("# Evaluation report\n\n" + text + "\n")
        plot(summaries, ks, out / "locomo.png")
        print(f"\nwrote {out / 'locomo.json'}, {out / 'locomo.md'} and {out / 'locomo.png'}")
    return 0
