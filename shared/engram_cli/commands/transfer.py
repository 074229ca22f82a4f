"""Moving memories in and out: ``engram export``, ``engram import`` (Engram, mem0, JSONL) and ``engram reindex``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from engram_cli.common import Command, advance, open_engine, out, progress


def cmd_export(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    total = engine.stats(args.tenant).total
    handle: TextIO = sys.stdout if args.out in (None, "-") else open(args.out, "w", encoding="utf-8")  # noqa: SIM115
    with handle, progress(total, "export", handle is not sys.stdout and total > 1000) as bar:
        for line in engine.export_lines(args.tenant):
            handle.write(line + "\n")
            bar.update(1)
    if handle is not sys.stdout:
        print(
            json.dumps({"exported": total, "file": args.out})
            if args.json
            else f"exported {total} to {args.out}"
        )
    return 0


def add_export(command: Command) -> None:
    p = command("export", cmd_export, "all memories of a tenant as JSONL, with history")
    p.add_argument("--tenant", required=True)
    p.add_argument("--out", help="file (default stdout)")


def cmd_import(args: argparse.Namespace) -> int:
    if args.source != "engram":
        return _import_peer(args)
    engine = open_engine(args)
    handle: TextIO = sys.stdin if args.input == "-" else open(args.input, encoding="utf-8")  # noqa: SIM115
    with handle, progress(None, "import", not args.json, leave=True) as bar:
        counts = engine.import_lines(args.tenant, handle, progress=advance(bar))
    out(args, counts, f"imported {counts['imported']}, skipped {counts['skipped']}")
    return 0


def _import_peer(args: argparse.Namespace) -> int:
    """``import --from mem0|jsonl|memory-lancedb-pro``: another service's export, validated whole before any write."""
    from engram.imports.peers import summary

    engine = open_engine(args)
    text = sys.stdin.read() if args.input == "-" else Path(args.input).read_text(encoding="utf-8")
    with progress(None, f"import {args.source}", not args.json and not args.dry_run, leave=True) as bar:
        report = engine.import_peer(
            args.tenant,
            args.source,
            text,
            default_scope=args.scope,
            dry_run=args.dry_run,
            skip_invalid=args.skip_invalid,
            progress=advance(bar),
        )
    out(args, report.model_dump(mode="json"), summary(report))
    return 0


def add_import(command: Command) -> None:
    p = command("import", cmd_import, "import an Engram export, a mem0 export or a JSONL of texts")
    p.add_argument("--tenant", required=True)
    p.add_argument("file", nargs="?", help="file, - for stdin (or --in)")
    p.add_argument("--in", dest="input_option", metavar="FILE", help="file, - for stdin")
    p.add_argument(
        "--from",
        dest="source",
        choices=["engram", "mem0", "jsonl", "memory-lancedb-pro"],
        default="engram",
        help="engram: an `engram export` (default); mem0: mem0's get_all as JSON or JSONL; "
        'jsonl: one text a line, a string or {"text", "scope"?, "metadata"?, "tags"?, "occurred_at"?}; '
        "memory-lancedb-pro: what `openclaw memory-pro export` writes",
    )
    p.add_argument("--scope", default="global", help="jsonl: the scope of lines that name none")
    p.add_argument(
        "--dry-run", action="store_true", help="mem0/jsonl/memory-lancedb-pro: say what would be imported"
    )
    p.add_argument(
        "--skip-invalid", action="store_true", help="mem0/jsonl/memory-lancedb-pro: import the valid records"
    )


def cmd_reindex(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    from engram.tenants import admin as tenant_admin

    tenants = (
        [t.tenant_id for t in engine.deps.call(tenant_admin.list_tenants)] if args.all else [args.tenant]
    )
    total = sum(engine.stats(t).by_status.get("active", 0) for t in tenants)
    with progress(total, "reindex", not args.json) as bar:
        counts = engine.reindex(tenants, clean=args.clean, progress=bar.update)
    out(args, {"reindexed": counts}, "\n".join(f"{t}: {n} memories indexed" for t, n in counts.items()))
    return 0


def add_reindex(command: Command) -> None:
    p = command("reindex", cmd_reindex, "rebuild the search index from the system of record")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--tenant")
    group.add_argument("--all", action="store_true", help="every tenant")
    p.add_argument(
        "--clean", action="store_true", help="also remove documents of memories the store no longer indexes"
    )
