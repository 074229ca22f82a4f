"""``UsageLedger``: counters per tenant and UTC day, added atomically, summed, per tenant."""

from __future__ import annotations

import threading

from store_support import Backend


def test_counters_add_up_per_day_and_in_total_for_each_tenant_alone(backend: Backend) -> None:
    usage = backend.usage
    usage.add("acme", "2026-11-30", {"retain_calls": 1, "recall_calls": 0})
    usage.add("acme", "2026-12-01", {"retain_calls": 2, "recall_calls": 5})
    usage.add("acme", "2026-12-01", {"retain_calls": 1})
    usage.add("globex", "2026-12-01", {"retain_calls": 7})
    assert usage.days("acme", since="2026-12-01", until="2026-12-31") == {
        "2026-12-01": {"recall_calls": 5, "retain_calls": 3}
    }
    assert usage.days("acme", since="2026-11-01", until="2026-11-30") == {"2026-11-30": {"retain_calls": 1}}
    assert usage.totals("acme") == {"recall_calls": 5, "retain_calls": 4}
    assert usage.totals("globex") == {"retain_calls": 7} and usage.totals("initech") == {}


def test_concurrent_adds_all_count(backend: Backend) -> None:
    usage = backend.usage
    threads = [
        threading.Thread(target=usage.add, args=("acme", "2026-12-01", {"retain_calls": 1})) for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert usage.totals("acme") == {"retain_calls": 8}
