"""Running Engram: ``engram serve`` (the local gateway), ``engram mcp`` and ``engram demo``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from typing import Any

from engram.errors import ValidationFailedError, envelope
from engram.models import (
    RecallRequest,
    RetainRequest,
    parse,
)
from engram_cli.common import Command, open_engine


def cmd_serve(args: argparse.Namespace) -> int:
    """The local gateway: the Lambda handlers behind a real HTTP server, on the embedded default."""
    if args.max_connections < 1 or args.idle_timeout <= 0:
        raise ValidationFailedError("--max-connections and --idle-timeout: must be more than 0")
    if args.workers is not None and args.workers < 1:
        raise ValidationFailedError("--workers: must be at least 1")
    if args.timeout is not None and args.timeout <= 0:
        raise ValidationFailedError("--timeout: must be more than 0 seconds")
    if args.lifecycle_interval is not None and args.lifecycle_interval <= 0:
        raise ValidationFailedError(
            "--lifecycle-interval: must be more than 0 seconds (--no-lifecycle turns it off)"
        )
    # Set before Powertools objects exist: no X-Ray daemon or metric sink on a laptop.
    os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    import logging

    from engram.webhooks.dispatch import start_dispatcher
    from engram_http import gateway, runtime
    from engram_http.workers import WorkerPool

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    engine = _server_engine(args)
    runtime.use_engine(engine)  # this process's own reads: the tenants' rate limits
    pool = WorkerPool(args.workers or os.cpu_count() or 1, engine.settings, on_notes=_background(engine))
    pool.start()  # the workers load while the server starts (a request waits for the first)
    resumed = engine.resume_jobs()
    if not args.no_lifecycle:
        engine.start_lifecycle(args.lifecycle_interval or engine.settings.lifecycle_interval_s)
    dispatcher = engine.deps.call(start_dispatcher)  # webhooks: sent on a background thread
    cap = args.timeout

    def invoke(function: str, event: dict[str, Any], timeout_s: float) -> Any:
        return pool.invoke(function, event, timeout_s if cap is None else min(cap, timeout_s))

    def announce(server: Any) -> None:
        host, port = server.server_address[:2]
        print(f"Engram listening on http://{host}:{port}  (docs: http://{host}:{port}/v1/docs)", flush=True)
        print(
            f"data: {engine.settings.data_dir}   operator token: {engine.settings.data_dir / 'operator-token'}"
            + (f"   resumed jobs: {resumed}" if resumed else ""),
            flush=True,
        )

    try:
        gateway.serve(
            args.host,
            args.port,
            invoke=invoke,
            on_start=announce,
            max_connections=args.max_connections,
            idle_timeout=args.idle_timeout,
            access_log=None if args.quiet else _access_line,
        )
    finally:
        pool.stop()
        if dispatcher is not None:
            dispatcher.stop()
        engine.close()
        runtime.use_engine(None)
    print("Engram stopped", flush=True)
    return 0


def _server_engine(args: argparse.Namespace) -> Any:
    """The server process's engine: its background embedder embeds batches only (queries are
    the workers'), so the local model gets one two-thread session here (~175 MB less)."""
    from pathlib import Path

    from engram.adapters.local_embedder import LocalEmbedder
    from engram.engine import Engine
    from engram.settings import Settings

    data_dir = Path(args.data_dir).expanduser() if args.data_dir else None
    settings = Settings.from_env(os.environ, data_dir=data_dir)
    if settings.backend != "local" or settings.embedder != "local":
        return open_engine(args)
    return Engine.local(settings, embedder=LocalEmbedder(threads=2, query_threads=2))


def _background(engine: Any) -> Any:
    """What the workers hand back goes to this process's background work: a deferred embedding
    wakes the embedder, an accepted job joins the job runner."""

    def take(notes: Any) -> None:
        if notes.wake_embedder:
            engine.deps.backlog.wake.set()
        runner = engine.deps.runner
        for tenant_id, job in notes.jobs:
            if runner is not None:
                runner.submit(tenant_id, job)

    return take


def _access_line(line: str) -> None:
    """One write per line: the gateway's threads log at once, and print() writes the text and its
    newline separately, so two lines could interleave."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def add_serve(command: Command) -> None:
    p = command("serve", cmd_serve, "run the HTTP API locally (the Lambda handlers behind a local gateway)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--verbose", action="store_true", help="log at INFO level (the library's own logs)")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="no access log (one line per request: method, route, status, ms, tenant)",
    )
    p.add_argument(
        "--lifecycle-interval",
        type=float,
        metavar="SECONDS",
        help="run the lifecycle job over every tenant this often (default: setting lifecycle_interval_s, 3600)",
    )
    p.add_argument("--no-lifecycle", action="store_true", help="do not run the lifecycle job in this server")
    p.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="worker processes, each running one request at a time as a Lambda execution environment "
        "does (default: the number of cores; each takes ~250 MB with the local model)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="end any request after this long (504), if sooner than its function's configured timeout",
    )
    p.add_argument(
        "--max-connections", type=int, default=64, help="open connections at most (beyond: 503); default 64"
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="close a connection that sends nothing for this long (default 30)",
    )


def cmd_mcp(args: argparse.Namespace) -> int:
    """Engram as MCP tools: over stdio (key from ENGRAM_API_KEY) or streamable HTTP (key per request)."""
    try:
        from engram_cli import mcp_server
    except ImportError as exc:  # pragma: no cover - the extra is missing
        from engram.errors import DependencyMissingError

        raise DependencyMissingError(
            "engram mcp needs the mcp extra: pip install 'engram-recall[mcp]'"
        ) from exc
    url = args.url or os.environ.get("ENGRAM_URL", "http://127.0.0.1:8080")
    if args.transport == "stdio":
        from engram.client.errors import MISSING_KEY  # the client extra, which mcp's includes

        key = os.environ.get("ENGRAM_API_KEY", "")
        if not key.strip():  # serve anyway: the client then reads why in each tool's error
            print(json.dumps(envelope("unauthorized", MISSING_KEY)), file=sys.stderr, flush=True)
        mcp_server.run_stdio(url, key)
        return 0

    def announce(port: int) -> None:
        print(f"Engram MCP on http://{args.host}:{port}/mcp  (Engram API: {url})", flush=True)

    mcp_server.run_http(url, args.host, args.port, on_start=announce)
    return 0


def add_mcp(command: Command) -> None:
    p = command("mcp", cmd_mcp, "serve Engram's memory as MCP tools (stdio, or streamable HTTP)")
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    p.add_argument("--url", help="the Engram API (default: env ENGRAM_URL or http://127.0.0.1:8080)")
    p.add_argument("--host", default="127.0.0.1", help="HTTP only")
    p.add_argument("--port", type=int, default=8765, help="HTTP only (0: any free port)")


def cmd_demo(args: argparse.Namespace) -> int:
    """A first run: a demo tenant, a few memories, three recalls."""
    engine = open_engine(args)
    from engram.errors import ConflictError

    with contextlib.suppress(ConflictError):  # a second run reuses the demo tenant
        engine.create_tenant("demo")
    texts = [
        "I prefer dark mode in every editor",
        "Remember that my daughter Mia is allergic to peanuts",
        "We hit error E4711 when the billing job runs twice",
        "My flight to Lisbon is next Tuesday",
    ]
    for text in texts:
        engine.retain("demo", parse(RetainRequest, {"scope": "user:alice", "text": text}))
    print(f"Engram on the embedded default; data in {engine.settings.data_dir}")
    for query in ("what theme do I like?", "error E4711", "any food allergies in the family?"):
        response = engine.recall("demo", parse(RecallRequest, {"query": query, "scopes": ["user:alice"]}))
        print(f"\n? {query}")
        for m in response.memories:
            print(f"  {m.score:.3f}  [{m.category}] {m.content}")
    engine.close()
    print("\nTry: engram recall --tenant demo --scope user:alice --query 'where am I flying?'")
    return 0


def add_demo(command: Command) -> None:
    command("demo", cmd_demo, "a first run on the embedded default")
