"""A smart retain whose LLM fails says so: the job carries ``extraction: rules`` and the reason in
``fallback``, and ``engram smoke`` fails on it (a retired or not enabled model shows up at the
post-deploy check, not only in a counter). Real ``engram serve`` against the scripted
OpenAI-compatible server, over HTTP."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scripted_llm import Exchange, ScriptedLLM
from serve_support import Server, call, new_key, new_tenant, running_server

ROOT = Path(__file__).resolve().parents[2]
SMOKE_PHRASE = "for the smart retain, remember that I water the office plants"
SMOKE_MEMORY = {
    "category": "preference",
    "abstract": "Waters the office plants on Mondays",
    "overview": "The user waters the office plants every Monday morning.",
    "content": "The user waters the office plants every Monday morning before the team meeting.",
    "key_facts": [],
    "importance": 0.5,
    "confidence": 0.9,
    "entities": [],
    "tags": [],
    "occurred_at": None,
    "source_messages": [0],
}


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory, scripted_llm_server: ScriptedLLM) -> Iterator[Server]:
    if not any(SMOKE_PHRASE in m for e in scripted_llm_server.exchanges for m in e.match):
        scripted_llm_server.exchanges.append(
            Exchange("engram_extraction", [SMOKE_PHRASE], {"memories": [SMOKE_MEMORY]})
        )
    env = {
        "ENGRAM_LLM_PROVIDER": "openai",
        "ENGRAM_LLM_BASE_URL": scripted_llm_server.url,
        "ENGRAM_LLM_MODEL": "scripted-model",
        "ENGRAM_LLM_API_KEY": "sk-test",
        "ENGRAM_LLM_MAX_ATTEMPTS": "1",
    }
    with running_server(tmp_path_factory.mktemp("fallback-serve"), env=env) as running:
        yield running


def _smart_job(serve: Server, key: str, text: str) -> dict[str, Any]:
    body = {"scope": "user:alice", "messages": [{"role": "user", "content": text}], "mode": "smart"}
    accepted = call(serve, "POST", "/v1/memories", body, key=key)
    assert accepted.status == 202, accepted.body
    give_up = time.monotonic() + 60
    while True:
        job = call(serve, "GET", f"/v1/jobs/{accepted.body['job_id']}", key=key).body
        if job["status"] in ("succeeded", "failed"):
            return dict(job)
        assert time.monotonic() < give_up, job
        time.sleep(0.05)


def test_a_failing_llm_makes_the_job_say_rules_and_why(serve: Server, scripted_llm: ScriptedLLM) -> None:
    key = new_key(serve, new_tenant(serve))
    scripted_llm.fail_next(500, times=20)
    job = _smart_job(serve, key, "I am Sam and I prefer dark mode in every editor I use")
    assert job["status"] == "succeeded" and job["results"], job  # the rules still retained it
    assert job["extraction"] == "rules"
    assert job["fallback"].startswith("llm: "), job["fallback"]


def test_an_answering_llm_makes_the_job_say_llm(serve: Server, scripted_llm: ScriptedLLM) -> None:
    key = new_key(serve, new_tenant(serve))
    job = _smart_job(
        serve, key, f"Smoke check 0: {SMOKE_PHRASE} every Monday morning before the team meeting"
    )
    assert (job["status"], job["extraction"], job["fallback"]) == ("succeeded", "llm", None), job


def _smoke(serve: Server) -> subprocess.CompletedProcess[str]:
    token = (serve.data_dir / "operator-token").read_text().strip()
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "engram_cli",
            "smoke",
            "--json",
            "--url",
            serve.url,
            "--operator-token",
            token,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=180,
    )


def test_the_smoke_check_fails_when_the_llm_path_falls_back(serve: Server, scripted_llm: ScriptedLLM) -> None:
    scripted_llm.fail_next(500, times=50)
    done = _smoke(serve)
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["ok"] is False
    [smart] = [s for s in report["steps"] if s["name"] == "smart retain"]
    assert smart["ok"] is False and "fell back to the rules: llm: " in smart["note"]


def test_the_smoke_check_passes_when_the_llm_extracts(serve: Server, scripted_llm: ScriptedLLM) -> None:
    done = _smoke(serve)
    report = json.loads(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    [smart] = [s for s in report["steps"] if s["name"] == "smart retain"]
    assert smart["note"] == "extracted by the LLM"
