"""A scripted text-embeddings-inference server: a real local HTTP server speaking ``POST /rerank``.

It scores each text by the phrases it was given (the highest matching phrase's score, else
``default``) and answers in TEI's shape, ``[{"index", "score"}]`` sorted best first, or in
Jina's (``{"results": [{"index", "relevance_score"}]}``) with ``jina=True``. ``delay`` and
``status`` script a slow or failing server; every request body is kept.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ScriptedReranker:
    def __init__(self, phrases: dict[str, float] | None = None, *, default: float = 0.05) -> None:
        self.phrases = dict(phrases or {})
        self.default = default
        self.delay = 0.0
        self.status = 200
        self.jina = False
        self.seen: list[tuple[dict[str, str], dict[str, Any]]] = []
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/rerank"

    def score(self, text: str) -> float:
        found = [s for phrase, s in self.phrases.items() if phrase.lower() in text.lower()]
        return max(found, default=self.default)

    def answer(self, body: dict[str, Any]) -> Any:
        texts = body.get("texts") or body.get("documents") or []
        ranked = sorted(((i, self.score(t)) for i, t in enumerate(texts)), key=lambda p: -p[1])
        if self.jina:
            return {"results": [{"index": i, "relevance_score": s} for i, s in ranked]}
        return [{"index": i, "score": s} for i, s in ranked]

    def start(self) -> ScriptedReranker:
        script = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                script.seen.append((dict(self.headers), body))
                if script.delay:
                    time.sleep(script.delay)
                payload = json.dumps(script.answer(body) if script.status == 200 else {"error": "busy"})
                data = payload.encode()
                self.send_response(script.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
