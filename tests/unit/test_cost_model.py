"""The Lambda line of ``engram cost``: billed duration from measured CPU time and assumed waits,
at each function's memory as the stack configures it (#28's right-sizing lever); and its X-Ray
line, at the stage's tracing sample rate."""

from __future__ import annotations

import pytest

from engram_dev.cost import FULL_CPU_MB, PUBLISH_WAIT_S, Units, billed_s, memory_mb, per_million


def test_cpu_time_stretches_below_a_full_vcpu_and_waits_do_not() -> None:
    cpu = {"recall": 0.02}
    assert billed_s("recall", FULL_CPU_MB, cpu) == pytest.approx(0.15 + 0.02)
    assert billed_s("recall", 512, cpu) == pytest.approx(0.15 + 0.02 * FULL_CPU_MB / 512)
    assert billed_s("stream", 256, cpu) == pytest.approx(0.1)  # no CPU measured: its waits
    # the stream consumer waits on the bus only for the writes whose tenant publishes events
    assert billed_s("stream", 256, cpu, publishing=1.0) == pytest.approx(0.1 + PUBLISH_WAIT_S)


def test_the_functions_that_wait_are_right_sized() -> None:
    memory = memory_mb()
    # retain, recall and the extract worker spend 14-28 ms of CPU a call: 512 MB
    assert (memory["retain"], memory["recall"], memory["extract_worker"]) == (512, 512, 512)
    # the stream's one consumer waits on OpenSearch and EventBridge
    assert memory["stream"] == 256 and "indexer" not in memory and "events" not in memory
    # at 512 MB a recall of 20 ms CPU costs less a million than at 1,024 MB, though it runs longer
    cpu = {"recall": 0.02}
    assert billed_s("recall", 512, cpu) * 512 < billed_s("recall", 1024, cpu) * 1024


def test_events_cost_only_for_the_writes_whose_tenant_publishes_them_and_their_setting_is_read() -> None:
    # Given a raw retain's measured units and the stack's memory
    units = Units(rru=2.0, wru=7.0, calls={}, texts_chars=100.0)
    memory = memory_mb()
    # When it is priced on a default stage (no tenant publishes) and on one that publishes all
    quiet = per_million("retain_raw", units, memory)
    every = per_million("retain_raw", units, memory, publishing=1.0)
    # Then only the publishing one pays the bus, and both pay the cached read of the setting
    assert (quiet["eventbridge"], every["eventbridge"]) == (0.0, 1.0)
    assert quiet["dynamodb_reads"] == every["dynamodb_reads"] == round((2.0 + 0.5) * 0.125, 2)
    # And one consumer is one invocation a write (the two before were two)
    from engram_dev.cost import TWO_CONSUMERS

    two = per_million("retain_raw", units, memory, publishing=1.0, invoked=TWO_CONSUMERS, reads_setting=False)
    assert two["lambda"] - every["lambda"] == pytest.approx(0.20, abs=0.01)


def test_a_recall_pays_for_the_stream_invocation_its_access_counts_cause() -> None:
    # Given a recall's units (its access counts are writes of the memory items, which the table's
    # stream hands to its consumer) and the same recall as if nothing consumed the stream
    memory, units = memory_mb(), Units(rru=19.75, wru=1.6, calls={}, texts_chars=40.0, cpu_s=0.018)
    levels = {"recall": "WARN", "stream": "WARN"}  # the stack's: neither logs a line on success
    counted = per_million("recall", units, memory, levels=levels)
    unconsumed = per_million("recall", units, memory, levels=levels, invoked={"recall": [("recall", 1)]})
    # Then the stream consumer's invocation is in its Lambda line: its request and its duration,
    # and nothing else (a recall reads no tenant setting in the consumer and puts no event)
    consumer = 0.20 + billed_s("stream", memory["stream"], {}) * memory["stream"] / 1024 * 0.0000133334 * 1e6
    assert counted["lambda"] - unconsumed["lambda"] == pytest.approx(consumer, abs=0.02)
    assert {k: v for k, v in counted.items() if k != "lambda"} == {
        k: v for k, v in unconsumed.items() if k != "lambda"
    }


def test_xray_costs_the_stages_sample_rate_of_the_api_requests_and_queued_jobs_only() -> None:
    # Given an operation's units, the stack's memory and the stage's default sample rate (0.01)
    from engram_dev.cost import tracing_sample_rate

    units, memory = Units(rru=2.0, wru=7.0, calls={}, texts_chars=100.0), memory_mb()
    rate = tracing_sample_rate()
    assert rate == 0.01
    # When each operation is priced at that rate, at 0 and at 1
    lines = {
        name: {r: per_million(name, units, memory, sample_rate=r) for r in (0.0, rate, 1.0)}
        for name in ("retain_raw", "recall", "retain_smart")
    }
    # Then a raw retain and a recall pay for one traced request at $5 a million traces (their
    # stream invocation carries no trace header: never traced) and a smart retain for its two
    # requests and its extract job
    for name, traced in (("retain_raw", 1), ("recall", 1), ("retain_smart", 3)):
        assert lines[name][rate]["xray"] == round(traced * rate * 5.0, 2)
        assert (lines[name][0.0]["xray"], lines[name][1.0]["xray"]) == (0.0, traced * 5.0)
        # And nothing else changes with the rate
        others = [{k: v for k, v in line.items() if k != "xray"} for line in lines[name].values()]
        assert others[0] == others[1] == others[2]
