"""``engram coldstart``: what importing each Lambda handler costs a fresh interpreter.

For every ``functions/<name>/handler.py``, a new ``python -X importtime`` loads the module by path
(as ``engram_http.loader`` does) N times. Per handler: the median and p95 import time (the summed
cumulative microseconds of the top-level, depth-0 imports, interpreter start-up included), the
wall time of the process, and whether a heavy package came along (and through which imports).
The ``(baseline)`` row is the same interpreter loading no handler: subtract it for the handler's
own share. Nothing here imports a handler in this process.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FUNCTIONS_DIR = ROOT / "functions"
ORDER = ("authorizer", "retain", "recall", "forget", "feedback", "memories", "admin", "docs")
WATCHED = ("onnxruntime", "aws_cdk", "opensearchpy", "numpy", "boto3")
BASELINE = "(baseline)"
DEFAULT_REPEAT = 5

# Run with argv = [module name, handler path]; with no arguments it loads nothing (the baseline).
LOAD_BY_PATH = """\
import importlib.util
import sys

if len(sys.argv) > 2:
    name, path = sys.argv[1], sys.argv[2]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"no handler at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
"""

_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \| ( *)(\S+)\s*$")


@dataclass(frozen=True)
class Import:
    """One line of ``-X importtime``: a module, its cumulative microseconds and its depth."""

    name: str
    cumulative_us: int
    depth: int


def parse_importtime(stderr: str) -> list[Import]:
    """The import lines of ``-X importtime`` output, in the order Python wrote them.

    >>> lines = parse_importtime(
    ...     "import time: self [us] | cumulative | imported package\\n"
    ...     "import time:       225 |        225 |     _json\\n"
    ...     "import time:       259 |        764 |   json.decoder\\n"
    ...     "import time:       154 |       1246 | json\\n"
    ...     "Traceback (most recent call last):\\n"
    ... )
    >>> [(i.name, i.cumulative_us, i.depth) for i in lines]
    [('_json', 225, 2), ('json.decoder', 764, 1), ('json', 1246, 0)]
    """
    found = []
    for line in stderr.splitlines():
        match = _LINE.match(line)
        if match:
            _self_us, cumulative, indent, name = match.groups()
            found.append(Import(name=name, cumulative_us=int(cumulative), depth=len(indent) // 2))
    return found


def top_level_us(imports: Sequence[Import]) -> int:
    """The summed cumulative time of the depth-0 imports: the whole import cost of the process.

    >>> top_level_us([Import("_json", 225, 2), Import("json.decoder", 764, 1), Import("json", 1246, 0)])
    1246
    """
    return sum(i.cumulative_us for i in imports if i.depth == 0)


def imports_package(imports: Sequence[Import], package: str) -> bool:
    """Whether ``package`` or any module under it was imported.

    >>> imports_package([Import("numpy.linalg", 1, 1)], "numpy"), imports_package([Import("numpyx", 1, 0)], "numpy")
    (True, False)
    """
    return any(i.name == package or i.name.startswith(package + ".") for i in imports)


def import_chain(imports: Sequence[Import], package: str) -> list[str]:
    """Who imported ``package``: the top-level import first, ``package`` (or its first module) last.

    ``-X importtime`` writes a module after everything it imported, so a module's importer is the
    next line at a smaller depth.

    >>> tree = [Import("numpy", 9, 2), Import("engram.models", 10, 1), Import("engram_fn_retain", 11, 0)]
    >>> import_chain(tree, "numpy")
    ['engram_fn_retain', 'engram.models', 'numpy']
    >>> import_chain(tree, "boto3")
    []
    """
    hits = [n for n, i in enumerate(imports) if i.name == package]
    if not hits:
        hits = [n for n, i in enumerate(imports) if i.name.startswith(package + ".")]
    if not hits:
        return []
    start = hits[0]
    chain, depth = [imports[start].name], imports[start].depth
    for item in imports[start + 1 :]:
        if depth == 0:
            break
        if item.depth < depth:
            chain.append(item.name)
            depth = item.depth
    return list(reversed(chain))


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of a non-empty sample.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 95), percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50)
    (5.0, 3.0)
    """
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def handlers(functions_dir: Path = FUNCTIONS_DIR) -> list[str]:
    """Every folder with a ``handler.py``: the known ones in deployment order, then any others."""
    found = {path.parent.name for path in functions_dir.glob("*/handler.py")}
    return [name for name in ORDER if name in found] + sorted(found - set(ORDER))


@dataclass
class Result:
    """The runs of one handler (or of the baseline)."""

    handler: str
    import_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)
    modules: set[str] = field(default_factory=set)
    chains: dict[str, list[str]] = field(default_factory=dict)
    error: str | None = None

    def watched(self) -> dict[str, bool]:
        listed = [Import(name, 0, 0) for name in self.modules]
        return {package: imports_package(listed, package) for package in WATCHED}

    def to_dict(self) -> dict[str, Any]:
        def summary(values: list[float]) -> dict[str, Any]:
            if not values:
                return {"median": None, "p95": None, "samples": []}
            return {
                "median": round(statistics.median(values), 2),
                "p95": round(percentile(values, 95), 2),
                "samples": [round(v, 2) for v in values],
            }

        return {
            "handler": self.handler,
            "import_ms": summary(self.import_ms),
            "wall_ms": summary(self.wall_ms),
            "imports": self.watched(),
            "chains": self.chains,
            "modules": len(self.modules),
            "error": self.error,
        }


def measure_once(handler: str | None, result: Result, root: Path = ROOT) -> None:
    """One fresh interpreter loading ``handler`` (None: nothing); adds its numbers to ``result``."""
    argv = [sys.executable, "-X", "importtime", "-c", LOAD_BY_PATH]
    if handler is not None:
        argv += [f"engram_fn_{handler}", str(root / "functions" / handler / "handler.py")]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPROFILEIMPORTTIME"}
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=False)
    wall = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        other = [line for line in done.stderr.splitlines() if not line.startswith("import time:")]
        result.error = (other[-1] if other else f"exit code {done.returncode}").strip()
        return
    imports = parse_importtime(done.stderr)
    result.import_ms.append(top_level_us(imports) / 1000)
    result.wall_ms.append(wall)
    result.modules.update(i.name for i in imports)
    for package in WATCHED:
        if package not in result.chains:
            chain = import_chain(imports, package)
            if chain:
                result.chains[package] = chain


def measure(names: Sequence[str], repeat: int, root: Path = ROOT) -> tuple[Result, list[Result]]:
    """The baseline and every handler, ``repeat`` rounds, interleaved so drift hits all alike."""
    baseline = Result(BASELINE)
    results = [Result(name) for name in names]
    for _ in range(repeat):
        measure_once(None, baseline, root)
        for result in results:
            if result.error is None:
                measure_once(result.handler, result, root)
    return baseline, results


def _ms(values: list[float], how: str) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values) if how == 'median' else percentile(values, 95):.1f}"


def table(rows: Sequence[Result]) -> str:
    """The results as a markdown table."""
    head = ["handler", "median import ms", "p95 import ms", "median wall ms", *WATCHED]
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join(["---"] + ["---:"] * 3 + [":---:"] * len(WATCHED)) + "|",
    ]
    for row in rows:
        flags = ["-"] * len(WATCHED) if row.error else ["yes" if v else "no" for v in row.watched().values()]
        cells = [
            row.handler,
            _ms(row.import_ms, "median"),
            _ms(row.import_ms, "p95"),
            _ms(row.wall_ms, "median"),
            *flags,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Measure every handler's cold import; 1 if a handler could not be imported at all.
    ``--first-call``: the retain function's whole cold start instead (``cold_invocation``)."""
    if getattr(args, "first_call", False):
        from engram_dev import cold_invocation

        return cold_invocation.run(args)
    repeat = max(1, int(getattr(args, "repeat", None) or DEFAULT_REPEAT))
    baseline, results = measure(handlers(), repeat)
    failed = [r for r in [baseline, *results] if r.error]
    if getattr(args, "json", False):
        print(
            json.dumps(
                {
                    "python": sys.version.split()[0],
                    "repeat": repeat,
                    "baseline": baseline.to_dict(),
                    "handlers": [r.to_dict() for r in results],
                }
            )
        )
        return 1 if failed else 0
    print(f"cold import of each handler, {repeat} fresh interpreters each (python {sys.version.split()[0]})")
    print()
    print(table([baseline, *results]))
    heavy = [
        (r.handler, package, r.chains[package])
        for r in results
        for package in ("onnxruntime", "aws_cdk")
        if package in r.chains
    ]
    for handler, package, chain in heavy:
        print(f"\n{handler} imports {package}: " + " -> ".join(chain))
    for result in failed:
        print(f"\n{result.handler} failed to import: {result.error}")
    return 1 if failed else 0
