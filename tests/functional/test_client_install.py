"""``pip install 'engram-recall[client]'`` alone gives a working client: a fresh virtual environment
with the project's wheel and its ``client`` extra (httpx and pydantic, from the package index
through pip's cache), nothing of the server, used against a real ``engram serve``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_support import Server, new_key, new_tenant, running_server

SERVER_PACKAGES = {
    "numpy",
    "onnxruntime",
    "boto3",
    "botocore",
    "aws-lambda-powertools",
    "sqlean-py",
    "tokenizers",
}

SCRIPT = """
import json, sys
from engram.client import Engram, NotFound
url, key = sys.argv[1], sys.argv[2]
with Engram(url, key) as memory:
    kept = memory.retain("user:alice", "I prefer dark mode", mode="raw")
    found = memory.recall("what theme do I like?", context=True)
    try:
        memory.get("mem_" + "0" * 32)
        missing = None
    except NotFound as exc:
        missing = exc.code
print(json.dumps({"id": kept.results[0].id, "recalled": found.memories[0].id, "missing": missing,
                  "modules": sorted(m for m in sys.modules if m.split(".")[0] in
                                    ("numpy", "onnxruntime", "boto3", "aws_lambda_powertools"))}))
"""


@pytest.fixture(scope="module")
def client_venv(engram_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv holding only the project's wheel with its ``client`` extra."""
    work = tmp_path_factory.mktemp("client-venv")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "install", "--quiet", f"{engram_wheel}[client]"], check=True)
    return venv


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("client-install"), "--quiet") as running:
        yield running


def test_the_client_extra_installs_httpx_and_pydantic_and_nothing_of_the_server(client_venv: Path) -> None:
    # Given the fresh venv
    # When its packages are listed
    listed = subprocess.run(
        [str(client_venv / "bin" / "python"), "-m", "pip", "list", "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    )
    names = {p["name"].lower() for p in json.loads(listed.stdout)}
    # Then it has the client's two dependencies and none of the server's
    assert {"engram-recall", "httpx", "pydantic"} <= names
    assert not names & SERVER_PACKAGES, names & SERVER_PACKAGES


def test_the_client_alone_retains_recalls_and_raises_typed_errors(client_venv: Path, server: Server) -> None:
    # Given a tenant's key on a running server
    key = new_key(server, new_tenant(server))
    # When a script in the fresh venv uses the client
    ran = subprocess.run(
        [str(client_venv / "bin" / "python"), "-c", SCRIPT, server.url, key],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # Then it retained and recalled the memory, got a typed 404, and imported nothing of the server
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    assert result["recalled"] == result["id"] and result["missing"] == "not_found"
    assert result["modules"] == []
