"""``engram serve`` in a subprocess, and a small HTTP client for it (the tests' real server)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Server:
    url: str
    data_dir: Path
    operator_token: str
    process: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)  # what the server printed after its banner

    def output(self) -> str:
        return "".join(self.lines)

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str]


@contextmanager
def running_server(
    data_dir: Path,
    *args: str,
    env: Mapping[str, str] | None = None,
    prelude: str = "",
    python: str = sys.executable,
    cwd: Path = ROOT,
) -> Iterator[Server]:
    """``engram --data-dir DIR serve --port 0 ARGS`` until the block ends (then SIGTERM).

    ``prelude`` is Python run in the server process before the CLI starts (e.g. a thread switch
    interval), so a test can change the interpreter without a knob in the product. ``python`` and
    ``cwd`` run it from another environment (an installed wheel, outside the checkout).
    """
    code = f"{prelude}\nimport sys\nfrom engram_cli.main import main\nsys.exit(main(sys.argv[1:]))"
    process = subprocess.Popen(
        [python, "-c", code, "--data-dir", str(data_dir), "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first.startswith("Engram listening on "), first + process.stdout.read()
    server = Server(
        url=first.split()[3],
        data_dir=data_dir,
        operator_token=(data_dir / "operator-token").read_text().strip(),
        process=process,
    )
    # Keep reading what it prints: a full pipe would block the server's next log line.
    reader = threading.Thread(
        target=lambda: server.lines.extend(iter(process.stdout.readline, "")), daemon=True
    )  # type: ignore[union-attr]
    reader.start()
    try:
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def running_mcp_http(api_url: str) -> Iterator[str]:
    """``engram mcp --transport http`` on a free port against ``api_url``; yields its /mcp URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "engram_cli", "mcp", "--transport", "http", "--port", "0", "--url", api_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first.startswith("Engram MCP on "), first + process.stdout.read()
    # Keep reading what it prints, as running_server does: a full pipe would block it.
    threading.Thread(target=lambda: process.stdout.read(), daemon=True).start()  # type: ignore[union-attr]
    try:
        yield first.split()[3]
    finally:
        process.terminate()
        process.wait(timeout=30)


def call(
    server: Server,
    method: str,
    path: str,
    body: Any = None,
    *,
    key: str | None = None,
    headers: dict[str, str] | None = None,
    raw: bytes | None = None,
) -> Reply:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(server.url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, payload, got = response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        status, payload, got = error.code, error.read(), dict(error.headers)
    text = payload.decode()
    try:
        parsed: Any = json.loads(text)
    except json.JSONDecodeError:
        parsed = text
    return Reply(status, parsed, got)


def new_tenant(server: Server, name: str | None = None) -> str:
    name = name or "t-" + uuid.uuid4().hex[:10]
    reply = call(server, "POST", "/v1/admin/tenants", {"tenant_id": name}, key=server.operator_token)
    assert reply.status == 201, reply.body
    return name


def new_key(server: Server, tenant: str, **options: Any) -> str:
    reply = call(server, "POST", f"/v1/admin/tenants/{tenant}/keys", options, key=server.operator_token)
    assert reply.status == 201, reply.body
    return str(reply.body["api_key"])
