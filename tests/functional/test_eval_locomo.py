"""``engram eval locomo`` end to end on a slice of the dev set, through a real local server."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

from engram_dev.evaluation.locomo import CATEGORIES, load

ROOT = Path(__file__).resolve().parents[2]
DEVSET = ROOT / "tests" / "eval" / "devset.json"
LONG = ROOT / "tests" / "eval" / "devset-long.json"
CALIBRATED = ROOT / "tests" / "eval" / "devset-calibrated.json"


@pytest.mark.parametrize(
    ("path", "conversations", "sessions", "turns", "questions"),
    [(DEVSET, 3, 5, 150, 150), (LONG, 6, 20, 400, 600), (CALIBRATED, 6, 24, 450, 600)],
    ids=["paraphrasing", "long", "calibrated"],
)
def test_each_dev_set_is_well_formed(
    path: Path, conversations: int, sessions: int, turns: int, questions: int
) -> None:
    # Given a dev set
    samples = load(path)

    # Then it has enough conversations, sessions, turns and questions of categories 1-4,
    # each with evidence that names turns that exist
    assert len(samples) >= conversations
    assert all(len(s.sessions()) >= sessions and len(s.turns) >= turns for s in samples)
    asked = [(s, q) for s in samples for q in s.questions if q.category in CATEGORIES]
    assert len(asked) >= questions
    assert {q.category for _, q in asked} == set(CATEGORIES)
    for sample, question in asked:
        dia_ids = {t.dia_id for t in sample.turns}
        assert question.evidence and set(question.evidence) <= dia_ids, question.question


def test_the_long_dev_set_is_what_its_generator_writes(tmp_path: Path) -> None:
    # Given the committed long dev set
    # When its generator runs again with the default seed
    out = tmp_path / "long.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "eval" / "make_devset.py"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )

    # Then it writes the same file, and few of its turns repeat another word for word
    assert run.returncode == 0, run.stderr
    assert out.read_text() == LONG.read_text()
    for sample in load(LONG):
        texts = [t.text for t in sample.turns]
        assert len(set(texts)) >= 0.7 * len(texts)


def test_the_calibrated_dev_set_is_what_its_generator_writes(tmp_path: Path) -> None:
    # Given the committed calibrated dev set
    # When its generator runs again with the default seed
    out = tmp_path / "calibrated.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "eval" / "make_calibrated.py"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )

    # Then it writes the same file
    assert run.returncode == 0, run.stderr
    assert out.read_text() == CALIBRATED.read_text()


def test_the_calibrated_dev_set_has_the_properties_of_real_long_conversations() -> None:
    # Given the calibrated dev set and the aggregate figures of real long conversations
    from engram_dev.evaluation.calibration import REAL, properties

    # When its properties are measured
    found = properties(load(CALIBRATED))

    # Then each is within 15 % of the real figure
    for name, real in REAL.items():
        assert abs(found[name] - real) <= 0.15 * real, (name, found[name], real)


def test_the_evaluator_runs_variants_side_by_side_through_the_api(tmp_path: Path) -> None:
    # Given the first conversation of the dev set, its first 12 questions
    out = tmp_path / "out"

    # When the evaluator runs two variants against a local server it starts itself
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "engram_cli",
            "eval",
            "locomo",
            "--data",
            str(DEVSET),
            "--samples",
            "1",
            "--questions",
            "12",
            "--variants",
            "bm25,default",
            "--k",
            "1,5,10",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )

    # Then it prints the side-by-side table and writes JSON, Markdown and a chart
    assert run.returncode == 0, run.stderr
    assert "| bm25 |" in run.stdout and "| default |" in run.stdout
    report = json.loads((out / "locomo.json").read_text())
    assert (out / "locomo.png").stat().st_size > 10_000
    sample = load(DEVSET)[0]
    asked = [q for q in sample.questions[:12] if q.category in CATEGORIES]
    for variant in ("bm25", "default"):
        overall = report["results"][variant]["overall"]
        # every question of categories 1-4 was asked, and the metrics are consistent
        assert overall["n"] == len(asked)
        assert 0 <= overall["recall@1"] <= overall["recall@5"] <= overall["recall@10"] <= 100
        assert overall["all@10"] <= overall["recall@10"] <= overall["any@10"] <= overall["session_any@10"]
        assert overall["latency_p50_ms"] > 0 and overall["context_tokens@10"] > 0
        assert 0 <= overall["session_recall@5"] <= overall["session_recall@10"] <= 100
    # and the default pipeline finds evidence for at least some of them
    assert report["results"]["default"]["overall"]["any@10"] > 0
    # and the ingestion's timing is reported: the first recall, and when every turn had its vector
    timing = report["timing"]
    assert timing["turns"] == len(sample.turns) and timing["first_recall_ms"] > 0
    assert timing["vector_items_per_s"] > 0 and timing["searchable_after_s"] > 0
    assert "first recall right after (ms)" in run.stdout
    assert "| variant | frac@5 | frac@10 | session R@5 | session R@10 |" in run.stdout
    assert report["variants"]["default"]["track_access"] is True
    assert report["variants"]["bm25"]["track_access"] is False


def test_the_evaluator_retains_without_session_ids_and_asks_tracked_and_untracked(tmp_path: Path) -> None:
    # Given the first conversation of the dev set, its first 8 questions
    out = tmp_path / "out"

    # When the evaluator retains it in batches of 100 without session ids, each turn embedded with
    # the one before, asking as an agent does and untracked, in a shuffled order
    run = subprocess.run(
        [
            *(sys.executable, "-m", "engram_cli", "eval", "locomo", "--data", str(DEVSET)),
            *("--samples", "1", "--questions", "8", "--variants", "default,untracked"),
            *("--sessions", "off", "--seed", "3", "--k", "5,10", "--out", str(out)),
            *("--ingest-settings", '{"retain": {"embed_previous": true}}'),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )

    # Then both variants answered every question, and the run says how it retained and shuffled
    assert run.returncode == 0, run.stderr
    report = json.loads((out / "locomo.json").read_text())
    assert (report["sessions"], report["seed"]) == ("off", 3)
    assert json.loads(report["ingest_settings"]) == {"retain": {"embed_previous": True}}
    asked = [q for q in load(DEVSET)[0].questions[:8] if q.category in CATEGORIES]
    for variant in ("default", "untracked"):
        assert report["results"][variant]["overall"]["n"] == len(asked)


def test_the_local_server_keeps_answering_after_its_log_outgrows_a_pipe() -> None:
    # Given the server the evaluator starts itself (its access log: one line of ~40 bytes a request)
    from engram_dev.evaluation.runner import Client, local_server

    with local_server() as (url, _token):
        client = Client(url, key="-", timeout=20.0)
        try:
            # When it answers 4,000 requests, about 160 KB of access log, well over a pipe's 64 KB
            for _ in range(4_000):
                reply = client.call("GET", "/v1/health")
            # Then the last one is still answered as promptly as the first
            assert reply is not None
        finally:
            client.close()


def test_killing_the_evaluator_stops_the_server_it_started() -> None:
    # Given an evaluator process inside the local server it started
    script = (
        "import time\n"
        "from engram_dev.evaluation.runner import local_server\n"
        "with local_server() as (url, _token):\n"
        "    print(url, flush=True)\n"
        "    time.sleep(120)\n"
    )
    evaluator = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert evaluator.stdout is not None
        url = evaluator.stdout.readline().strip()
        host, port = urllib.parse.urlsplit(url).hostname, urllib.parse.urlsplit(url).port
        assert port is not None
        socket.create_connection((host, port), timeout=5).close()  # the server answers

        # When it is killed the way `kill` does (SIGTERM)
        evaluator.terminate()
        assert evaluator.wait(timeout=60) != 0

        # Then its server is gone too: nothing listens on its port any more
        with pytest.raises(OSError):
            socket.create_connection((host, port), timeout=5).close()
    finally:
        evaluator.kill()
