"""What the screens cost, in process: per text, per retain (with and without them), in a recall
(nothing), and the n-gram head's first use. ``python -m engram_dev.poisoning.cost [turns]`` from
the repo root.

A retain is timed with both screens on and off, alternately, on the same engine (an embedded store,
``retain.defer_embedding`` off so the head reads every vector), one dev-set turn at a time in
``raw`` mode, so the difference of the medians is what screening adds to a retain. Switching them
off wraps the two functions retain calls (the patterns' ``instruction_like``, the head's
``second_screen``, which runs the n-gram head too); recall is counted for calls to ``screen``,
``second_look`` and the n-gram head.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import engram.extraction.guard as guard
import engram.retain.candidates as candidates
import engram.retain.plan as plan
import engram.screening.head as head
import engram.screening.ngrams as ngrams
from engram.adapters.local_embedder import MODEL_ID, LocalEmbedder
from engram.engine import Engine
from engram.models import RecallRequest, RetainRequest, parse
from engram.screening import screen
from engram.screening.measure import conversation_turns
from engram.settings import Settings

TURNS = Path("tests/eval/devset-long.json")


def _line(name: str, millis: Sequence[float]) -> str:
    ordered = sorted(millis)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"| {name} | {len(ordered)} | {statistics.median(ordered):.3f} | {p95:.3f} |"


def _per_text(turns: list[str]) -> list[str]:
    vectors = LocalEmbedder().embed(turns)
    ngrams.ngram_head.cache_clear()
    start = time.perf_counter()
    loaded = ngrams.ngram_head()
    load = (time.perf_counter() - start) * 1e3
    assert loaded is not None
    patterns, heads, grams = [], [], []
    for i, text in enumerate(turns):
        start = time.perf_counter()
        screen(text)
        middle = time.perf_counter()
        head.second_look([text], vectors[i : i + 1], MODEL_ID)
        end = time.perf_counter()
        loaded.scores([text])
        patterns.append((middle - start) * 1e3)
        heads.append((end - middle) * 1e3)
        grams.append((time.perf_counter() - end) * 1e3)
    both = [p + h for p, h in zip(patterns, heads, strict=True)]
    return [
        _line("patterns, per text", patterns),
        _line("heads (the model's and the n-gram head), per text", heads),
        _line("the n-gram head alone, per text", grams),
        _line("all three", both),
        f"| the n-gram head's first use (reading heads/ngrams.json) | 1 | {load:.3f} | |",
    ]


def _switchable(module: ModuleType | type, name: str, on: list[bool], calls: list[int]) -> None:
    """``module.name`` replaced by a wrapper that counts its calls and returns None while off."""
    real: Callable[..., Any] = getattr(module, name)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs) if on[0] else None

    setattr(module, name, wrapped)


def _retains(turns: list[str]) -> list[str]:
    on, calls = [True], [0]
    _switchable(candidates, "instruction_like", on, [0])
    _switchable(plan, "second_screen", on, [0])
    _switchable(guard, "screen", [True], calls)
    _switchable(head, "second_look", [True], calls)
    _switchable(ngrams.NgramHead, "scores", [True], calls)  # on the class: every caller's
    timed: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as directory:
        engine = Engine.local(Settings(data_dir=Path(directory), background_embedding=False))
        engine.create_tenant("bench")
        engine.configure_tenant("bench", {"retain": {"defer_embedding": False}})
        for i, text in enumerate(turns):
            on[0] = i % 2 == 0
            request = parse(RetainRequest, {"scope": "user:bench", "text": f"{text} ({i})", "mode": "raw"})
            start = time.perf_counter()
            engine.retain("bench", request)
            timed[on[0]].append((time.perf_counter() - start) * 1e3)
        on[0], calls[0] = True, 0
        for query in turns[:50]:
            engine.recall("bench", parse(RecallRequest, {"scope": "user:bench", "query": query}))
        engine.close()
    added = statistics.median(timed[True]) - statistics.median(timed[False])
    return [
        _line("retain with the screens", timed[True]),
        _line("retain without them", timed[False]),
        f"| difference of the medians | | {added:.3f} | |",
        f"| screen / second_look / n-gram head calls in 50 recalls | {calls[0]} | | |",
    ]


def main(argv: Sequence[str]) -> int:
    turns = conversation_turns(TURNS)[: int(argv[0]) if argv else 1000]
    print("| what | n | p50 ms | p95 ms |\n|---|---:|---:|---:|")
    print("\n".join([*_per_text(turns), *_retains(turns)]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
