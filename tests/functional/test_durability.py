"""Acknowledged writes survive a killed process; concurrent feedback loses nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from engram.engine import Engine
from engram.models import FeedbackRequest, RetainRequest
from engram.scoring.lifecycle import feedback_ema
from engram.settings import Settings

WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from engram.engine import Engine
    from engram.models import RetainItem, RetainRequest
    from engram.settings import Settings

    engine = Engine.local(Settings(data_dir=Path(sys.argv[1])))
    engine.create_tenant("acme")
    for batch in range(1000):
        items = [RetainItem(text=f"Batch {batch} item {i} notes about the rollout plan") for i in range(100)]
        response = engine.retain("acme", RetainRequest(scope="project:x", items=items, mode="raw"))
        print("ACK", " ".join(r.id for r in response.results), flush=True)
    """
)


def test_killing_the_process_mid_batch_loses_no_acknowledged_item(tmp_path: Path) -> None:
    # Given a process retaining batches of 100 and acknowledging each
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    acked: list[str] = []
    # When it is killed with SIGKILL after its fourth acknowledgement (while writing the fifth)
    for _ in range(4):
        line = proc.stdout.readline()
        assert line.startswith("ACK"), line
        acked.extend(line.split()[1:])
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    # Then every acknowledged item is there, and no batch is half-written
    engine = Engine.local(Settings(data_dir=tmp_path))
    stored = engine.store.records.get_many("acme", acked)
    assert len(stored) == len(acked) == 400
    total = engine.stats("acme").total
    assert total % 100 == 0 and total >= 400


def test_twenty_concurrent_feedback_updates_equal_the_sequential_result(engine: Engine) -> None:
    # Given one memory
    response = engine.retain("acme", RetainRequest(scope="user:alice", text="I prefer dark mode", mode="raw"))
    memory_id = response.results[0].id
    # When twenty threads each send "used" at once
    barrier = threading.Barrier(20)
    errors: list[BaseException] = []

    def send() -> None:
        try:
            barrier.wait()
            engine.feedback("acme", memory_id, FeedbackRequest(signal="used"))
        except BaseException as exc:  # collected so the test can fail with it
            errors.append(exc)

    threads = [threading.Thread(target=send) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Then no update was lost: the weight equals twenty sequential EMA steps
    assert errors == []
    expected = 0.5
    for _ in range(20):
        expected = round(feedback_ema(expected, "used"), 6)  # stored as answered: six places
    record = engine.store.records.get("acme", memory_id)
    assert record is not None
    assert abs(record.feedback_weight - expected) < 1e-9
    assert len([h for h in engine.store.history.history("acme", memory_id) if h.event == "feedback"]) == 20
