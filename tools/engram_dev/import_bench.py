"""``python -m engram_dev.import_bench``: how long ``POST /v1/import`` takes to answer, and its job to end.

Starts ``engram serve`` on a throwaway data dir, then imports exports of several sizes (with the
bundled model's vectors, or without: embedded on import) into a fresh tenant each, and prints a
table: the answer (200 inline, 202 a job), the time to it, the time until the job ended, and
what another tenant's recalls, sent one after another meanwhile, took (p50 and max).
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

CASES = ((500, True), (2000, True), (500, False), (2000, False), (5551, False))


@contextmanager
def serve(data_dir: Path) -> Iterator[tuple[str, str]]:
    code = "import sys\nfrom engram_cli.main import main\nsys.exit(main(sys.argv[1:]))"
    args = ["--data-dir", str(data_dir), "serve", "--port", "0", "--no-lifecycle", "--quiet"]
    process = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    first = process.stdout.readline()
    if not first.startswith("Engram listening on "):
        raise RuntimeError(f"engram serve did not start: {first}")
    try:
        yield first.split()[3], (data_dir / "operator-token").read_text().strip()
    finally:
        process.terminate()
        process.wait(timeout=30)


def call(url: str, method: str, path: str, key: str, body: bytes | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url + path, data=body, method=method)
    request.add_header("Authorization", f"Bearer {key}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def export_file(count: int, *, vectors: bool) -> bytes:
    from engram.adapters.local_embedder import shared_embedder

    embedder = shared_embedder()
    rng = np.random.default_rng(7)
    lines = [json.dumps({"format": "engram.export.v1", "tenant_id": "bench"})]
    for i in range(count):
        text = f"Imported note {i}: the team meets on floor {i % 7} about project {i}"
        memory = {"id": f"mem_{i:032x}", "scope": "global", "content": text, "content_hash": ""}
        memory |= {"created_at": "2026-01-05T10:00:00Z", "updated_at": "2026-01-05T10:00:00Z"}
        vector = None
        if vectors:
            memory["embedding_model"] = embedder.model_id
            v = rng.standard_normal(embedder.dimension).astype(np.float32)
            vector = base64.b64encode((v / np.linalg.norm(v)).tobytes()).decode()
        lines.append(json.dumps({"memory": memory, "history": [], "embedding": vector}))
    return ("\n".join(lines) + "\n").encode()


def new_key(url: str, operator: str, name: str) -> str:
    call(url, "POST", "/v1/admin/tenants", operator, json.dumps({"tenant_id": name}).encode())
    return str(call(url, "POST", f"/v1/admin/tenants/{name}/keys", operator, b"{}")[1]["api_key"])


def quiet_recalls(url: str, key: str, stop: threading.Event, took: list[float]) -> None:
    query = json.dumps({"query": "which editor theme?", "min_score": 0}).encode()
    while not stop.is_set():
        started = time.monotonic()
        call(url, "POST", "/v1/recall", key, query)
        took.append((time.monotonic() - started) * 1000)


def run_case(url: str, operator: str, count: int, vectors: bool) -> str:
    stamp = time.monotonic_ns()
    key, quiet = new_key(url, operator, f"bench-{stamp}"), new_key(url, operator, f"quiet-{stamp}")
    text = json.dumps({"scope": "global", "text": "I prefer dark mode in every editor", "mode": "raw"})
    call(url, "POST", "/v1/memories", quiet, text.encode())
    body = export_file(count, vectors=vectors)
    stop, took = threading.Event(), list[float]()
    recalls = threading.Thread(target=quiet_recalls, args=(url, quiet, stop, took), daemon=True)
    recalls.start()
    started = time.monotonic()
    status, answer = call(url, "POST", "/v1/import", key, body)
    answered = time.monotonic() - started
    ended = ""
    if status == 202:
        while (job := call(url, "GET", f"/v1/jobs/{answer['job_id']}", key)[1])["status"] not in (
            "succeeded",
            "failed",
        ):
            time.sleep(0.05)
        ended = (
            f"{time.monotonic() - started:.2f} s ({job['status']}, {job['progress']['imported']} imported)"
        )
    stop.set()
    recalls.join(30)
    size = f"{len(body) / 1e6:.1f} MB"
    quiet_ms = f"{statistics.median(took):.0f} / {max(took):.0f} ms ({len(took)})" if took else ""
    vector = "given" if vectors else "embedded"
    return f"| {count:,} | {vector} | {size} | {status} | {answered:.2f} s | {ended} | {quiet_ms} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engram_dev.import_bench", description=__doc__)
    parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as data, serve(Path(data)) as (url, operator):
        print(
            "| memories | vectors | body | answer | answered in | job ended after "
            "| another tenant's recall p50 / max (n) |"
        )
        print("|---:|---|---:|---:|---:|---:|---:|")
        for count, vectors in CASES:
            print(run_case(url, operator, count, vectors), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
