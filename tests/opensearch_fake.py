"""A scripted JSON endpoint over real HTTP: OpenSearch for the adapter's contract tests, and
the OpenAI-compatible embeddings endpoint for the provider tests.

It records every request (method, path, query, JSON or NDJSON body) and answers each with the
next scripted response (status, body); with none scripted it answers 200 ``{}``. The adapter
talks to it through the real opensearch-py client, so what is recorded is exactly what would be
sent to a domain.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    headers: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"method": self.method, "path": self.path, "query": self.query, "body": self.body}


@dataclass
class FakeOpenSearch:
    server: ThreadingHTTPServer
    requests: list[Recorded] = field(default_factory=list)
    script: deque[tuple[Any, ...]] = field(default_factory=deque)
    delay_s: float = 0.0
    fail_with: tuple[int, Any] | None = None
    """While set, every request gets this answer (an outage), scripted answers wait."""

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def answer(self, *responses: tuple[Any, ...]) -> None:
        """Queue answers: (status, JSON body) or (status, JSON body, extra headers)."""
        self.script.extend(responses)

    def client(self, **kwargs: Any) -> Any:
        from opensearchpy import OpenSearch

        options: dict[str, Any] = {"timeout": 2, "max_retries": 0} | kwargs
        return OpenSearch(hosts=[self.url], use_ssl=False, **options)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _parse(path: str, raw: bytes) -> Any:
    if not raw:
        return None
    text = raw.decode()
    if path.endswith(("/_bulk", "/_msearch")):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return json.loads(text)


def start() -> FakeOpenSearch:
    fake: FakeOpenSearch

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            return

        def _serve(self) -> None:
            parsed = urllib.parse.urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = _parse(parsed.path, self.rfile.read(length) if length else b"")
            query = dict(urllib.parse.parse_qsl(parsed.query))
            headers = {k.lower(): v for k, v in self.headers.items()}
            fake.requests.append(Recorded(self.command, parsed.path, query, body, headers))
            if fake.delay_s:
                threading.Event().wait(fake.delay_s)
            scripted: tuple[Any, ...] = (200, {})
            if fake.fail_with is not None:
                scripted = fake.fail_with
            elif fake.script:
                scripted = fake.script.popleft()
            status, answer = scripted[0], scripted[1]
            extra: dict[str, str] = scripted[2] if len(scripted) > 2 else {}
            payload = json.dumps(answer).encode() if self.command != "HEAD" else b""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in extra.items():
                self.send_header(name, value)
            self.end_headers()
            if payload:
                self.wfile.write(payload)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _serve

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            return  # a client that gave up (a timeout test) closed its socket: nothing to report

    server = Server(("127.0.0.1", 0), Handler)
    fake = FakeOpenSearch(server=server)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return fake
