"""What every command shares: the engine on the local store, output, JSON arguments, progress bars,
and the developer tools' entry points."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engram.errors import DependencyMissingError, ValidationFailedError

if TYPE_CHECKING:
    from engram.engine import Engine

Handler = Callable[[argparse.Namespace], int]
Command = Callable[[str, Handler, str], argparse.ArgumentParser]
"""Adds a subcommand (name, handler, help) with the common options and returns its parser."""


def json_arg(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationFailedError(f"{name}: not valid JSON ({exc.msg})") from None


def plain(text: str) -> str:
    """A docstring as ``--help`` shows it: reST's double backticks dropped (``x`` reads x)."""
    return text.replace("``", "")


def count(n: int, one: str, many: str | None = None) -> str:
    """``1 memory``, ``2 memories``: a number with its noun in the right number."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def fresh_data_dir_note(args: argparse.Namespace) -> str | None:
    """What to say when a command is about to create the data dir: no server has used it, so a
    server started elsewhere (``make run DATA_DIR=…``) will not know what this command writes."""
    path = Path(args.data_dir).expanduser()
    if path.exists():
        return None
    return (
        f"note: {path} did not exist, so no engram serve has used it; a server started with another "
        "data dir (make run DATA_DIR=…) will not know this tenant or key: pass the same --data-dir "
        "(or set ENGRAM_DATA_DIR for both)"
    )


def open_engine(args: argparse.Namespace) -> Engine:
    from engram.engine import Engine
    from engram.settings import Settings

    settings = Settings.from_env(
        os.environ, data_dir=Path(args.data_dir).expanduser() if args.data_dir else None
    )
    return Engine.from_settings(settings)


def out(args: argparse.Namespace, data: Any, human: str | None = None) -> None:
    if args.json or human is None:
        print(json.dumps(data, indent=None if args.json else 2, default=str))
    else:
        print(human)


def progress(total: int | None, desc: str, enabled: bool, *, leave: bool = False) -> Any:
    """A progress bar on stderr; ``leave`` keeps its last state (the final count) on screen."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="mem", disable=not enabled, file=sys.stderr, leave=leave)


def advance(bar: Any) -> Callable[[int, int], None]:
    """An import's progress callback: ``done`` of ``total`` on ``bar``, each batch drawn however
    fast it went (the total is known once the file is read)."""

    def advance(done: int, total: int) -> None:
        if bar.total != total:
            bar.reset(total=total)
        bar.update(done - bar.n)
        bar.refresh()

    return advance


def dev_tool(module: str, name: str = "run") -> Callable[[argparse.Namespace], int]:
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


def dev_command(module: str) -> Handler:
    """The handler of a command that runs ``engram_dev.<module>.run`` (imported when it runs)."""
    return lambda args: dev_tool(module)(args)
