"""One tenant's memories: retain, recall, forget, feedback, get, list, stats, usage, restore, release."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from engram.errors import ValidationFailedError
from engram.models import (
    MAX_BATCH_ITEMS,
    FeedbackRequest,
    ForgetRequest,
    ListRequest,
    RecallRequest,
    RetainRequest,
    dump,
    parse,
)
from engram_cli.common import Command, Handler, count, json_arg, open_engine, out, progress


def cmd_retain(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    base: dict[str, Any] = {"scope": args.scope, "mode": args.mode}
    if args.metadata:
        base["metadata"] = json_arg(args.metadata, "--metadata")
    if args.occurred_at:
        base["occurred_at"] = args.occurred_at
    if args.session_id:
        base["session_id"] = args.session_id
    if args.tag:
        base["tags"] = args.tag
    if args.text is not None:
        body = {**base, "text": args.text, "idempotency_key": args.idempotency_key}
        response = engine.retain(args.tenant, parse(RetainRequest, body))
        engine.close()  # embeds what was deferred before the process ends
        data = dump(response)
        human = (
            "\n".join(
                f"{r.action:10} {r.id}  {r.memory.content if r.memory else r.reason or ''}"
                for r in response.results
            )
            or "nothing worth remembering"
        )
        out(args, data, human)
        return 0
    # JSONL: every line is validated first, then batches of 100 each commit on their own.
    items = list(_jsonl_items(args.jsonl))
    requests = [
        parse(RetainRequest, {**base, "items": items[i : i + MAX_BATCH_ITEMS]})
        for i in range(0, len(items), MAX_BATCH_ITEMS)
    ]
    results: list[Any] = []
    with progress(len(items), "retain", not args.json and len(items) > MAX_BATCH_ITEMS) as bar:
        for request in requests:
            results.extend(engine.retain(args.tenant, request).results)
            bar.update(len(request.items or []))
    engine.close()  # embeds what was deferred before the process ends
    counts: dict[str, int] = {}
    for r in results:
        counts[r.action] = counts.get(r.action, 0) + 1
    out(
        args,
        {"results": [dump(r) for r in results]} if args.json else counts,
        ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())),
    )
    return 0


def _jsonl_items(path: str) -> Iterator[dict[str, Any]]:
    handle: TextIO = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    with handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                item = json_arg(line, f"{path} line {number}")
                if not isinstance(item, dict):
                    raise ValidationFailedError(f"{path} line {number}: expected an object with 'text'")
                yield item


def add_retain(command: Command) -> None:
    p = command("retain", cmd_retain, "store a text or a JSONL file of items")
    p.add_argument("--tenant", required=True)
    p.add_argument("--scope", required=True)
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--text")
    group.add_argument(
        "--jsonl", help='file of {"text", "metadata", "occurred_at", "tags"} lines, - for stdin'
    )
    p.add_argument("--mode", choices=["raw", "auto", "smart"], default="auto")
    p.add_argument("--metadata", help="JSON object")
    p.add_argument("--occurred-at", help="ISO-8601 with time zone")
    p.add_argument("--session-id")
    p.add_argument("--tag", action="append")
    p.add_argument("--idempotency-key")


def cmd_recall(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    body: dict[str, Any] = {
        "query": args.query,
        "limit": args.limit,
        "debug": args.debug,
        "context": args.context,
    }
    for name, value in (("scopes", args.scope), ("min_score", args.min_score), ("fusion", args.fusion)):
        if value is not None:
            body[name] = value
    if args.filters:
        body["filters"] = json_arg(args.filters, "--filters")
    response = engine.recall(args.tenant, parse(RecallRequest, body))
    lines = []
    for m in response.memories:
        lines.append(f"{m.score:.3f}  [{m.category}] {m.content}  ({m.id})")
        if m.trace:  # --debug: each stage's score
            lines += [f"         {stage}: {_traced(value)}" for stage, value in m.trace.items()]
    if response.timings_ms:
        lines.append("timings ms: " + ", ".join(f"{k} {v:.2f}" for k, v in response.timings_ms.items()))
    if response.context:
        lines += ["", response.context]
    out(args, dump(response), "\n".join(lines) or "no memory passed min_score")
    return 0


def _traced(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_traced(v)}" for k, v in value.items())
    return str(value)


def add_recall(command: Command) -> None:
    p = command("recall", cmd_recall, "the memories that matter for a query")
    p.add_argument("--tenant", required=True)
    p.add_argument("--scope", action="append", help="repeatable; default: every scope")
    p.add_argument("--query", required=True)
    p.add_argument("--limit", type=int, default=5)
    p.add_argument("--min-score", type=float)
    p.add_argument("--filters", help="JSON object of filters")
    p.add_argument("--fusion", choices=["weighted", "rrf", "bm25", "vector"])
    p.add_argument("--debug", action="store_true")
    p.add_argument("--context", action="store_true")


def cmd_forget(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    body: dict[str, Any] = {"dry_run": args.dry_run}
    if args.id:
        body["ids"] = args.id
    if args.query:
        body.update(query=args.query, threshold=args.threshold)
        if args.scope:
            body["scopes"] = args.scope
    if args.filter:
        body["filter"] = json_arg(args.filter, "--filter")
    response = engine.forget(args.tenant, parse(ForgetRequest, body))
    ids = response.would_delete if response.dry_run else response.deleted
    human = f"{'would delete' if response.dry_run else 'deleted'} {len(ids)}"
    if response.candidates:  # by query: each with its score
        human += "".join(f"\n{c['score']:.3f}  {c['id']}  {c['content']}" for c in response.candidates)
    elif ids:
        human += ": " + " ".join(ids)
    out(args, dump(response), human + (f"\nreceipt {response.receipt_id}" if response.receipt_id else ""))
    return 0


def add_forget(command: Command) -> None:
    p = command(
        "forget",
        cmd_forget,
        "delete by ids, by query or by filter (a whole scope: --filter '{\"scope\": …}')",
    )
    p.add_argument("--tenant", required=True)
    p.add_argument("--id", action="append")
    p.add_argument("--query")
    p.add_argument("--scope", action="append")
    p.add_argument("--threshold", type=float, default=0.6)
    p.add_argument("--filter", help="JSON: scope, category, tier, tags_any, older_than, session_id")
    p.add_argument("--dry-run", action="store_true")


def cmd_feedback(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    response = engine.feedback(args.tenant, args.id, parse(FeedbackRequest, {"signal": args.signal}))
    out(args, dump(response), f"{response.id} feedback_weight={response.feedback_weight:.4f}")
    return 0


def add_feedback(command: Command) -> None:
    p = _one_memory(command, "feedback", cmd_feedback, "say whether a recalled memory helped")
    p.add_argument("--signal", required=True)


def cmd_get(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    view = engine.get(args.tenant, args.id, with_history=args.history)
    out(args, dump(view))
    return 0


def add_get(command: Command) -> None:
    p = _one_memory(command, "get", cmd_get, "one memory")
    p.add_argument("--history", action="store_true")


def cmd_list(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    body = {
        k: v
        for k, v in (
            ("scope", args.scope),
            ("category", args.category),
            ("tier", args.tier),
            ("tag", args.tag),
            ("status", args.status),
            ("cursor", args.cursor),
            ("limit", args.limit),
        )
        if v is not None
    }
    response = engine.list_memories(args.tenant, parse(ListRequest, body))
    human = "\n".join(f"{m.id}  {m.scope:20} [{m.category}/{m.tier}] {m.content}" for m in response.memories)
    if response.next_cursor:
        human += f"\nnext cursor: {response.next_cursor}"
    out(args, dump(response), human or "(no memories)")
    return 0


def add_list(command: Command) -> None:
    p = command("list", cmd_list, "memories page by page")
    p.add_argument("--tenant", required=True)
    for name in ("scope", "category", "tier", "tag", "status", "cursor"):
        p.add_argument(f"--{name}")
    p.add_argument("--limit", type=int)


def cmd_stats(args: argparse.Namespace) -> int:
    out(args, dump(open_engine(args).stats(args.tenant)))
    return 0


def add_stats(command: Command) -> None:
    p = command("stats", cmd_stats, "counts by scope, category, tier; storage; usage")
    p.add_argument("--tenant", required=True)


def cmd_usage(args: argparse.Namespace) -> int:
    report = open_engine(args).usage(args.tenant, since=args.since, until=args.until)
    lines = [f"{report.tenant_id}: {report.since} .. {report.until}"]
    lines += [f"  {name:48} {value}" for name, value in report.totals.items()]
    stored = count(report.stored_memories, "memory", "memories")
    lines.append(f"  stored: {stored}, {count(report.stored_bytes, 'byte')}")
    out(args, dump(report), "\n".join(lines))
    return 0


def add_usage(command: Command) -> None:
    p = command("usage", cmd_usage, "metered usage of a tenant per day (default: this month)")
    p.add_argument("--tenant", required=True)
    p.add_argument("--since", help="first day, YYYY-MM-DD (default: the first of until's month)")
    p.add_argument("--until", help="last day, YYYY-MM-DD (default: today, UTC)")


def cmd_restore(args: argparse.Namespace) -> int:
    from engram.models import RestoreRequest

    engine = open_engine(args)
    request = parse(RestoreRequest, {"tier": args.tier})
    if engine.get(args.tenant, args.id).tier != "archived":
        from engram.errors import ConflictError

        raise ConflictError(f"memory '{args.id}' is not archived: nothing to restore")
    view = engine.restore(args.tenant, args.id, request)
    out(args, dump(view), f"{view.id} is {view.tier}")
    return 0


def add_restore(command: Command) -> None:
    p = _one_memory(command, "restore", cmd_restore, "bring an archived memory back into the search index")
    p.add_argument("--tier", choices=["peripheral", "working", "core"], default="peripheral")


def cmd_release(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    view = engine.release(args.tenant, args.id, released_by=f"cli:{getpass.getuser()}")
    engine.close()
    out(args, dump(view), f"{view.id} is {view.status}")
    return 0


def add_release(command: Command) -> None:
    _one_memory(command, "release", cmd_release, "return a quarantined memory to recall after review")


def _one_memory(command: Command, name: str, fn: Handler, help_text: str) -> argparse.ArgumentParser:
    """A command on one memory: ``--tenant`` and ``--id``, both required."""
    p = command(name, fn, help_text)
    p.add_argument("--tenant", required=True)
    p.add_argument("--id", required=True)
    return p
