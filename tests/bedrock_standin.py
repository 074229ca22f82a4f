"""A Bedrock runtime stand-in over real HTTP: ``InvokeModel`` for Titan Text Embeddings V2 and
``Converse`` with forced tool use, the two calls Engram makes (``AWS_ENDPOINT_URL_BEDROCK_RUNTIME``).

It checks what it receives (the model id in the path, a SigV4 signature for ``bedrock``, Titan's
``inputText``/``dimensions``/``normalize``, one tool and a ``toolChoice`` naming it) and answers in
the documented shapes. Embeddings are hashed bags of words (the same words give close vectors, so
recall finds what was retained); the extraction answer keeps the conversation's last user turn
as one preference, and every dedup decision is ``create``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WORD = re.compile(r"[a-z0-9]+")


def embedding(text: str, dimension: int) -> list[float]:
    """A unit vector: each word adds to a few hashed dimensions."""
    vector = [0.0] * dimension
    for word in WORD.findall(text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        for i in range(0, 12, 3):
            vector[int.from_bytes(digest[i : i + 2], "little") % dimension] += (
                1.0 if digest[i + 2] % 2 else -1.0
            )
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


@dataclass
class BedrockStandIn:
    server: ThreadingHTTPServer
    requests: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _invoke(body: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    if set(body) != {"inputText", "dimensions", "normalize"}:
        problems.append(f"Titan body keys {sorted(body)}")
    if body.get("dimensions") not in (256, 512, 1024) or not isinstance(body.get("inputText"), str):
        problems.append(f"Titan body {str(body)[:80]}")
    text = str(body.get("inputText", ""))
    return {
        "embedding": embedding(text, int(body.get("dimensions", 1024))),
        "inputTextTokenCount": len(text.split()),
    }


def _converse(body: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    tools = body.get("toolConfig", {}).get("tools", [])
    choice = body.get("toolConfig", {}).get("toolChoice", {}).get("tool", {}).get("name")
    if len(tools) != 1 or tools[0]["toolSpec"]["name"] != choice:
        problems.append("converse without exactly one forced tool")
    user = " ".join(c.get("text", "") for m in body.get("messages", []) for c in m.get("content", []))
    if choice == "engram_extraction":
        said = re.findall(r"I prefer [^.\n\"]+", user)
        text = said[-1] if said else "The user shared something"
        answer: dict[str, Any] = {
            "memories": [
                {
                    "category": "preference",
                    "abstract": text,
                    "overview": text,
                    "content": text,
                    "key_facts": [text],
                    "importance": 0.6,
                    "confidence": 0.9,
                    "entities": [],
                    "tags": [],
                    "occurred_at": None,
                }
            ]
        }
    else:
        count = max(1, len(re.findall(r'"candidate": \d+', user)))
        answer = {
            "decisions": [
                {"candidate": i, "action": "create", "target": None, "merged_content": None}
                for i in range(count)
            ]
        }
    return {
        "output": {
            "message": {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "t1", "name": choice, "input": answer}}],
            }
        },
        "stopReason": "tool_use",
        "usage": {
            "inputTokens": len(user.split()),
            "outputTokens": 50,
            "totalTokens": len(user.split()) + 50,
        },
        "metrics": {"latencyMs": 5},
    }


def start() -> BedrockStandIn:
    stand_in: BedrockStandIn

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            auth = self.headers.get("Authorization", "")
            stand_in.requests.append({"path": path, "body": body})
            match = re.fullmatch(r"/model/([^/]+)/(invoke|converse)", path)
            if "/bedrock/aws4_request" not in auth:
                stand_in.problems.append(f"{path}: not signed for bedrock")
            if match is None:
                stand_in.problems.append(f"unknown path {path}")
                status, answer = 404, {"message": "unknown operation"}
            elif match.group(2) == "invoke":
                status, answer = 200, _invoke(body, stand_in.problems)
            else:
                if body.get("modelId") not in (None, match.group(1)):
                    stand_in.problems.append("modelId differs from the path")
                status, answer = 200, _converse(body, stand_in.problems)
            payload = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stand_in = BedrockStandIn(server=server)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return stand_in
