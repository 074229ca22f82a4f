"""``engram lifecycle``: run the job, show its reports, or plot and benchmark it (developer tools)."""

from __future__ import annotations

import argparse
from typing import Any

from engram.errors import ValidationFailedError
from engram.models import (
    dump,
)
from engram_cli.common import Command, dev_tool, open_engine, out


def cmd_lifecycle(args: argparse.Namespace) -> int:
    if args.action in ("plot", "bench"):
        return dev_tool("lifecycle_bench", args.action)(args)
    engine = open_engine(args)
    if args.action == "reports":
        if not args.tenant:
            raise ValidationFailedError("--tenant: required for reports")
        import engram.lifecycle.service

        reports = engine.deps.call(engram.lifecycle.service.lifecycle_reports, args.tenant, args.limit)
        out(
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
    out(args, data, "\n".join(map(_report_line, reports)) or "(no tenants)")
    return 0


def _report_line(report: Any) -> str:
    tiers = ", ".join(f"{k} {v}" for k, v in sorted(report.by_tier.items()))
    return (
        f"{report.tenant_id}: {report.status}{' (dry run)' if report.dry_run else ''} at {report.now.isoformat()}"
        f" — promoted {report.promoted}, demoted {report.demoted}, archived {report.archived},"
        f" expired {report.expired}, conflicts {report.conflicts}; scanned {report.scanned} in"
        f" {report.duration_s:.2f} s; tiers: {tiers or '(none)'}"
    )


def add_lifecycle(command: Command) -> None:
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
