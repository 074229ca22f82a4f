"""What storing vectors at lower precision does to vector recall: ``python -m
engram_dev.cost.quantized FILE...`` (LoCoMo-format files, e.g. ``tests/eval/devset.json``).

The DynamoDB copy of a vector is what the indexer hands the search index and what dedup reads, so
its precision is the precision search ranks with. For each question of each conversation, the
conversation's turns are ranked by cosine to the question (the bundled local embedding model),
with the stored vectors as float32, as float16 (what the store keeps since #28, compressed
losslessly: 2 write units at 1,024 dimensions) and as int8 with one float32 scale per vector (1 KB
and its keys: 2 write units as well); it prints
R@5 and R@10 (a turn of the question's evidence among the first k) and how many of the float32
top 10 each keeps.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

_DIA_ID = re.compile(r"D\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)
JUDGED = frozenset({1, 2, 3, 4})
"""LoCoMo's categories with an answer in the conversation (5, adversarial, has none)."""


def as_float16(vectors: np.ndarray) -> np.ndarray:
    return vectors.astype(np.float16).astype(np.float32)


def as_int8(vectors: np.ndarray) -> np.ndarray:
    """Each vector as int8 times one scale (its largest component / 127), read back as float32."""
    scale = np.abs(vectors).max(axis=1, keepdims=True) / 127
    out: np.ndarray = np.round(vectors / scale).astype(np.int8).astype(np.float32) * scale
    return out


PRECISIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "float32": lambda v: v,
    "float16": as_float16,
    "int8": as_int8,
}


def _ids(text: Any) -> set[str]:
    return {f"D{m.group(1)}:{m.group(2)}" for m in _DIA_ID.finditer(str(text))}


def _unit(vectors: Any) -> np.ndarray:
    array = np.asarray(vectors, dtype=np.float32)
    out: np.ndarray = array / np.linalg.norm(array, axis=1, keepdims=True)
    return out


def compare(
    samples: Sequence[dict[str, Any]], embed: Callable[[list[str]], Any]
) -> dict[str, dict[str, float]]:
    """R@5, R@10 and the share of float32's top 10 kept, per precision, over every judged question."""
    hits = {name: {"r5": 0.0, "r10": 0.0, "top10_kept": 0.0} for name in PRECISIONS}
    questions = 0
    for sample in samples:
        turns = [
            (t["dia_id"].replace(" ", ""), t["text"])
            for key, value in sample["conversation"].items()
            if key.startswith("session_") and isinstance(value, list)
            for t in value
        ]
        qa = [q for q in sample["qa"] if q.get("category") in JUDGED]
        if not turns or not qa:
            continue
        docs, queries = _unit(embed([t for _, t in turns])), _unit(embed([q["question"] for q in qa]))
        tops = {
            name: np.argsort(-(queries @ as_stored(docs).T), axis=1, kind="stable")[:, :10]
            for name, as_stored in PRECISIONS.items()
        }
        for i, q in enumerate(qa):
            evidence = _ids(q.get("evidence"))
            questions += 1
            for name, top in tops.items():
                found = [turns[j][0] for j in top[i]]
                hits[name]["r5"] += bool(evidence & set(found[:5]))
                hits[name]["r10"] += bool(evidence & set(found))
                hits[name]["top10_kept"] += len(set(top[i]) & set(tops["float32"][i])) / len(top[i])
    return {name: {k: round(v / max(questions, 1), 4) for k, v in h.items()} for name, h in hits.items()} | {
        "questions": {"n": float(questions)}
    }


def main(argv: Sequence[str]) -> int:
    from engram.adapters.providers import build_embedder
    from engram.settings import Settings

    embedder = build_embedder(Settings())
    for path in argv:
        print(path, json.dumps(compare(json.loads(Path(path).read_text()), embedder.embed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
