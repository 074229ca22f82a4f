"""The Lambda line of ``engram cost``: billed duration from measured CPU time and assumed waits,
at each function's memory as the stack configures it (#28's right-sizing lever)."""

from __future__ import annotations

import pytest

from engram_dev.cost import FULL_CPU_MB, billed_s, memory_mb


def test_cpu_time_stretches_below_a_full_vcpu_and_waits_do_not() -> None:
    cpu = {"recall": 0.02}
    assert billed_s("recall", FULL_CPU_MB, cpu) == pytest.approx(0.15 + 0.02)
    assert billed_s("recall", 512, cpu) == pytest.approx(0.15 + 0.02 * FULL_CPU_MB / 512)
    assert billed_s("indexer", 256, cpu) == pytest.approx(0.1)  # no CPU measured: its waits


def test_the_functions_that_wait_are_right_sized() -> None:
    memory = memory_mb()
    # retain, recall and the extract worker spend 14-28 ms of CPU a call: 512 MB
    assert (memory["retain"], memory["recall"], memory["extract_worker"]) == (512, 512, 512)
    # the stream consumers wait on OpenSearch and EventBridge
    assert (memory["indexer"], memory["events"]) == (256, 256)
    # at 512 MB a recall of 20 ms CPU costs less a million than at 1,024 MB, though it runs longer
    cpu = {"recall": 0.02}
    assert billed_s("recall", 512, cpu) * 512 < billed_s("recall", 1024, cpu) * 1024
