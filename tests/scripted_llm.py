"""A scripted OpenAI-compatible server: a real local HTTP server standing in for a remote model.

It speaks ``POST /v1/chat/completions`` and answers from recorded exchanges, each keyed by the
schema name the request asks for (``response_format.json_schema.name``) and by phrases that must
appear in the data the request fences (the decoded conversation or memory lists). Answers have the
shape of real chat completions (id, choices, finish_reason, usage). Every request is kept for
assertions; ``fail_next`` and ``delay`` script outages.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "llm"
INJECTION_CORPUS = Path(__file__).resolve().parent / "fixtures" / "injection_corpus.json"
_FENCED = re.compile(r"<(conversation|memories)-([0-9a-f]+)>\n(.*)\n</\1-\2>", re.DOTALL)


@dataclass
class Exchange:
    schema: str
    match: list[str]
    answer: dict[str, Any]
    finish_reason: str = "stop"
    raw_content: str | None = None
    """Content sent as is instead of ``answer`` (to record a model answering non-JSON)."""


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    data: Any
    """The fenced data of the user message, decoded."""


def load_exchanges(*names: str) -> list[Exchange]:
    out = []
    for name in names:
        for item in json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8")):
            out.append(Exchange(**item))
    return out


def corpus_exchanges() -> list[Exchange]:
    """The answers of a model that obeys every injection of the corpus (and seeds its dedup cases)."""
    out = []
    for case in json.loads(INJECTION_CORPUS.read_text(encoding="utf-8")):
        out.append(Exchange("engram_extraction", [case["messages"][-1]["content"]], case["extraction"]))
        if "seed" in case:
            seed = case["seed"]
            out.append(Exchange("engram_extraction", [seed["message"]], {"memories": [seed["memory"]]}))
        if "dedup" in case:
            answer = {k: v for k, v in case["dedup"].items() if k != "match"}
            out.append(Exchange("engram_dedup_decision", case["dedup"]["match"], answer))
    return out


def fenced_data(body: dict[str, Any]) -> Any:
    """The JSON between the nonce markers of the request's user message (None if absent)."""
    user = next((m["content"] for m in body.get("messages", []) if m.get("role") == "user"), "")
    found = _FENCED.search(user)
    return json.loads(found.group(3)) if found else None


def _texts(data: Any) -> str:
    """Every content string of fenced data, newline-joined, for phrase matching."""
    if isinstance(data, list):
        return "\n".join(str(m.get("content", "")) for m in data)
    if isinstance(data, dict):
        return "\n".join(str(m.get("content", "")) for part in data.values() for m in part)
    return ""


@dataclass
class ScriptedLLM:
    exchanges: list[Exchange]
    requests: list[Seen] = field(default_factory=list)
    failures: deque[int] = field(default_factory=deque)
    delay_s: float = 0.0
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def fail_next(self, status: int, times: int = 1) -> None:
        self.failures.extend([status] * times)

    def reset(self) -> None:
        self.requests.clear()
        self.failures.clear()
        self.delay_s = 0.0

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        if self.failures:
            status = self.failures.popleft()
            return (
                status,
                {"error": {"message": "scripted outage", "type": "server_error"}},
                {"Retry-After": "0"},
            )
        schema = body.get("response_format", {}).get("json_schema", {}).get("name")
        text = _texts(fenced_data(body))
        for exchange in self.exchanges:
            if exchange.schema == schema and all(phrase in text for phrase in exchange.match):
                content = (
                    exchange.raw_content if exchange.raw_content is not None else json.dumps(exchange.answer)
                )
                prompt_tokens = sum(len(m["content"]) for m in body["messages"]) // 4
                completion_tokens = max(1, len(content) // 4)
                return (
                    200,
                    {
                        "id": f"chatcmpl-scripted{len(self.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model"),
                        "system_fingerprint": "fp_scripted",
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": content, "refusal": None},
                                "logprobs": None,
                                "finish_reason": exchange.finish_reason,
                            }
                        ],
                        "usage": {
                            "prompt_tokens": prompt_tokens,
                            "completion_tokens": completion_tokens,
                            "total_tokens": prompt_tokens + completion_tokens,
                        },
                    },
                    {},
                )
        return (
            400,
            {"error": {"message": f"no recorded answer for {schema}", "type": "invalid_request_error"}},
            {},
        )

    def start(self) -> ScriptedLLM:
        scripted = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                scripted.requests.append(
                    Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, body, fenced_data(body))
                )
                if scripted.delay_s:
                    time.sleep(scripted.delay_s)
                if self.path != "/v1/chat/completions":
                    status, payload, headers = 404, {"error": {"message": "not found"}}, {}
                else:
                    status, payload, headers = scripted.answer(body)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a deadline test)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
