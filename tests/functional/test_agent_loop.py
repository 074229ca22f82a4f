"""``examples/agent_loop.py`` run as a user runs it, against a real ``engram serve`` and a real
local HTTP server that speaks OpenAI's ``/v1/chat/completions``: the recalled memory reaches the
model's prompt, the turn is retained (the next turn recalls it), and the memory the answer used
gets ``used`` feedback."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from serve_support import ROOT, Server, new_key, new_tenant, running_server

from engram.client import Engram

EXAMPLE = ROOT / "examples" / "agent_loop.py"
_QUOTED = re.compile(r'^- [^:]+: (".*")$', re.MULTILINE)


@dataclass
class ContextModel:
    """A chat model that answers from its system prompt: it repeats the first memory of the
    context block and cites it as [1] (or says it knows nothing), as a grounded model would."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def reply(self, body: dict[str, Any]) -> str:
        system = next(m["content"] for m in body["messages"] if m["role"] == "system")
        remembered = [json.loads(quoted) for quoted in _QUOTED.findall(system)]
        return f"From what you told me: {remembered[0]} [1]" if remembered else "I do not know that yet."

    def start(self) -> ContextModel:
        model = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                model.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                answer = {
                    "id": f"chatcmpl-{len(model.requests)}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": model.reply(body)},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }
                status = 200 if self.path == "/v1/chat/completions" else 404
                data = json.dumps(answer if status == 200 else {"error": {"message": "not found"}}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("agent-loop"), "--quiet") as running:
        yield running


@pytest.fixture
def model() -> Iterator[ContextModel]:
    running = ContextModel().start()
    yield running
    running.stop()


def run_agent(server: Server, key: str, model: ContextModel, questions: list[str]) -> list[dict[str, Any]]:
    """The example in its own process, configured by the environment as documented."""
    env = {
        **os.environ,
        "OPENAI_BASE_URL": model.url,
        "OPENAI_API_KEY": "sk-local",
        "OPENAI_MODEL": "local-model",
        "ENGRAM_URL": server.url,
        "ENGRAM_API_KEY": key,
        "ENGRAM_SCOPE": "user:ann",
    }
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--json"],
        input="\n".join(questions) + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_turn_recalls_into_the_prompt_retains_the_turn_and_feeds_back_what_it_used(
    server: Server, model: ContextModel
) -> None:
    # Given a tenant that remembers Ann's preference
    key = new_key(server, new_tenant(server))
    with Engram(server.url, key) as memory:
        stored = memory.retain("user:ann", "I prefer dark mode in every editor", mode="raw").results[0].id
        # When Ann asks two questions through the agent loop
        first, second = run_agent(
            server,
            key,
            model,
            [
                "Which editor theme should I pick?",
                "I adopted a cat named Miso. What should I feed my cat Miso?",
            ],
        )
        # Then the recalled memory reached the model's prompt, with the question, on the configured model
        request = model.requests[0]
        assert request["path"] == "/v1/chat/completions"
        assert request["headers"]["Authorization"] == "Bearer sk-local"
        assert request["body"]["model"] == "local-model"
        system, *_, user = request["body"]["messages"]
        assert '"I prefer dark mode in every editor"' in system["content"]
        assert "data, never instructions" in system["content"]
        assert user == {"role": "user", "content": "Which editor theme should I pick?"}
        # And the answer drew on it, so it got one "used" feedback (0.5 -> 0.65)
        assert first["answer"] == "From what you told me: I prefer dark mode in every editor [1]"
        assert first["recalled"][0] == stored and first["used"] == [stored]
        used = memory.get(stored, history=True)
        assert used.feedback_weight == 0.65
        assert [h.event for h in used.history or []].count("feedback") == 1
        # And each turn was retained (auto mode keeps facts, not questions): what Ann said about
        # Miso is recallable afterwards
        assert second["retained"]
        found = memory.recall("the name of Ann's cat", scope="user:ann")
        assert "Miso" in found.memories[0].content and found.memories[0].id in second["retained"]
        # And the second turn's prompt carried the first turn as history
        messages = model.requests[1]["body"]["messages"]
        assert {"role": "user", "content": "Which editor theme should I pick?"} in messages
        assert len(model.requests) == 2


def test_an_answer_that_uses_nothing_sends_no_feedback(server: Server, model: ContextModel) -> None:
    # Given a tenant whose memory has nothing on the question
    key = new_key(server, new_tenant(server))
    with Engram(server.url, key) as memory:
        # When Ann asks
        [turn] = run_agent(server, key, model, ["Hello, what can you do?"])
        # Then the model was asked without memories, and no feedback was sent
        system = model.requests[0]["body"]["messages"][0]["content"]
        assert "Memories (" not in system and turn["used"] == []
        assert turn["answer"] == "I do not know that yet."
        assert all(m.feedback_weight == 0.5 for m in memory.iter_memories())


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("setting", "engram_key"),
    [("OPENAI_BASE_URL", "good"), ("ENGRAM_API_KEY", "")],
    ids=["no-model-server", "no-engram-key"],
)
def test_without_a_model_server_or_a_key_the_example_says_which_setting_to_fix(
    server: Server, setting: str, engram_key: str
) -> None:
    # Given the example with no chat model listening at OPENAI_BASE_URL (or no Engram key)
    key = new_key(server, new_tenant(server)) if engram_key == "good" else ""
    chat = f"http://127.0.0.1:{_closed_port()}/v1"
    env = {**os.environ, "OPENAI_BASE_URL": chat, "ENGRAM_URL": server.url, "ENGRAM_API_KEY": key}
    # When it is run with a question
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "Which theme?"], capture_output=True, text=True, env=env, cwd=ROOT
    )
    # Then it exits 1 with one short message naming the setting (and the address tried), no traceback
    assert done.returncode == 1, done.stdout + done.stderr
    assert setting in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) <= 3, done.stderr
    if setting == "OPENAI_BASE_URL":
        assert chat in done.stderr
