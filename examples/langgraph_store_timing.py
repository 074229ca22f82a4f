"""How long each ``EngramStore`` call takes against a running Engram, by namespace size.

    ENGRAM_URL=http://127.0.0.1:8080 ENGRAM_API_KEY=egk_… python examples/langgraph_store_timing.py

Prints a table of medians in milliseconds. It writes its items under a root scope of its own
(``project:lg-timing-…``) and forgets them at the end.
"""

from __future__ import annotations

import statistics
import time
import uuid
from collections.abc import Callable

from langgraph.store.base import PutOp

from engram.client import Engram
from engram.integrations.langgraph import EngramStore

SIZES = (100, 1000)


def median_ms(call: Callable[[int], object], times: int) -> float:
    spent = []
    for i in range(times):
        start = time.perf_counter()
        call(i)
        spent.append((time.perf_counter() - start) * 1000)
    return statistics.median(spent)


def row(client: Engram, size: int) -> list[float]:
    """The medians for one namespace of ``size`` items, written under a root of their own."""
    root = f"project:lg-timing-{uuid.uuid4().hex[:8]}"
    store, ns = EngramStore(client, root=root), ("users", "ann", "memories")
    store.batch(
        [PutOp(ns, f"k{i}", {"text": f"memory number {i} about topic {i % 37}"}) for i in range(size)]
    )
    try:
        return [
            median_ms(lambda i: store.put(ns, f"new{i}", {"text": f"a new memory {i}"}), 30),
            median_ms(lambda i: store.put(ns, f"k{i}", {"text": f"changed memory {i}"}), 30),
            median_ms(lambda i: store.get(ns, f"k{i * 7}"), 30),
            median_ms(lambda i: store.search(("users",), limit=10), 10),
            median_ms(lambda i: store.search(("users",), query=f"topic {i}", limit=10), 10),
            median_ms(lambda i: store.list_namespaces(prefix=("users",)), 30),
        ]
    finally:
        client.forget(filter={"scope": f"{root}.users.ann.memories"})


def main() -> None:
    print(
        "| items in the namespace | put (new key) | put (overwrite) | get | search, no query | search, query | list_namespaces |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    with Engram.from_env() as client:
        for size in SIZES:
            medians = row(client, size)
            print(f"| {size} | " + " | ".join(f"{ms:.1f}" for ms in medians) + " |", flush=True)


if __name__ == "__main__":
    main()
