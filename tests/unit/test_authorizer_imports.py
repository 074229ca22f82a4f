"""The authorizer runs before every request: importing it must stay cheap (no numpy, no model)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "onnxruntime", "boto3", "opensearchpy")


def _modules_after_loading(function: str) -> set[str]:
    """The modules a fresh interpreter holds once it has loaded ``functions/<function>/handler.py``
    the way Lambda does (``engram_http.loader``)."""
    code = (
        "import json, sys\n"
        "from engram_http.loader import load_handler\n"
        f"load_handler({function!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    paths = [str(ROOT / part) for part in ("shared", "functions")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout))


def test_importing_the_authorizer_loads_no_numpy_nor_any_other_heavy_package() -> None:
    # Given a fresh interpreter
    # When it loads the authorizer's handler
    loaded = _modules_after_loading("authorizer")

    # Then none of the heavy packages came along (the key check needs hashing and pydantic only)
    assert "engram.auth.keys" in loaded
    assert {m.split(".")[0] for m in loaded} & set(HEAVY) == set()
