"""``engram``: the operator CLI, in-process on the local store.

Every command takes ``--data-dir`` (default ``~/.engram``, env ``ENGRAM_DATA_DIR``) and ``--json``
(the same JSON shapes as the HTTP API). Exit codes: 0 ok, 2 bad input, 1 any other error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from engram.errors import EngramError, envelope
from engram_cli.commands import lifecycle, memories, serve, tenants, tools, transfer
from engram_cli.common import Command, Handler, plain
from engram_http.errors import http_status

PARSERS: tuple[Callable[[Command], None], ...] = (
    tenants.add_tenant,
    memories.add_retain,
    memories.add_recall,
    memories.add_forget,
    memories.add_feedback,
    memories.add_get,
    memories.add_list,
    memories.add_stats,
    memories.add_usage,
    transfer.add_export,
    transfer.add_import,
    transfer.add_reindex,
    serve.add_demo,
    tenants.add_key,
    serve.add_mcp,
    serve.add_serve,
    lifecycle.add_lifecycle,
    tools.add_doctor,
    tools.add_model,
    memories.add_restore,
    memories.add_release,
    tools.add_screen,
    tools.add_bench_gateway,
    tools.add_bench_concurrency,
    tools.add_coldstart,
    tools.add_cost,
    tools.add_smoke,
    tools.add_eval,
    tools.add_bench,
    tools.add_bench_compare,
)
"""Each subcommand's parser, in the order ``engram --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS, help="data folder (env ENGRAM_DATA_DIR)")
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print API-shaped JSON"
    )
    parser = argparse.ArgumentParser(prog="engram", description=plain(__doc__ or ""), parents=[common])
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, fn: Handler, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=plain(help_text), description=plain(help_text))
        p.set_defaults(func=fn)
        return p

    for add in PARSERS:
        add(command)
    return parser


def _check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """What argparse cannot say: the common options' defaults and the combinations refused."""
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _check(parser, args)
    try:
        return int(args.func(args))
    except EngramError as exc:
        print(json.dumps(exc.to_dict()), file=sys.stderr)
        return 2 if http_status(exc) in (400, 413, 422) else 1
    except ModuleNotFoundError as exc:  # an extra that is not installed: say which command adds it
        extra = _EXTRA_OF.get((exc.name or "").split(".")[0], "local")
        message = f"the {exc.name} module is not installed: pip install 'engram-recall[{extra}]'"
        print(json.dumps(envelope("dependency_missing", message)), file=sys.stderr)
        return 1
    except OSError as exc:
        print(json.dumps(envelope("io_error", str(exc))), file=sys.stderr)
        return 1


_EXTRA_OF = {"boto3": "aws", "botocore": "aws", "opensearchpy": "aws", "matplotlib": "dev", "onnx": "dev"}
