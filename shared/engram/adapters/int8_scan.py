"""A quick first pass over int8 codes of a tenant's vectors, for scans too large to do exactly.

Each dimension is scaled by its largest magnitude among the tenant's vectors and rounded to an
int8 (stored as uint8 with a zero point of 128): a quarter of float32's bytes, and the scan is
bound by memory reads. Numpy has no fast integer matrix product, so the pass runs in
onnxruntime (already the embedder's runtime): ``MatMulInteger`` (u8 × s8 → int32), a penalty
that sinks the rows failing the conditions, and ``TopK``. The graph is a 352-byte ONNX file
shipped beside this module; ``python -m engram.adapters.int8_scan`` rewrites it (that needs the
``onnx`` package of the dev extra). The caller scores the rows this pass picks on their float32
vectors, so every cosine it returns is exact; only the choice of candidates is approximate.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

MODEL = Path(__file__).with_name("int8_scan.onnx")
ZERO = 128  # uint8 code of 0.0
EXCLUDED = -(1 << 30)  # below any dot product of two code vectors (|dot| ≤ 255 · 63 · dims)
# Queries use 7 bits: without AVX-VNNI, onnxruntime's u8 × s8 kernel (vpmaddubsw) adds pairs of
# products into int16 with saturation, and 255 · 127 · 2 overflows it (half the true neighbours
# were lost on an AVX2-only CPU); 255 · 63 · 2 = 32,130 fits.
QUERY_PEAK = 63.0


@dataclass
class Int8Codes:
    """Per-dimension scales and the uint8 codes of every row (same row numbers as the matrix)."""

    scale: npt.NDArray[np.float32]
    codes: npt.NDArray[np.uint8]
    fitted_rows: int  # rows (live or dead) when fitted: the codes are remade once they double

    @classmethod
    def fit(cls, matrix: npt.NDArray[np.float32], live: npt.NDArray[np.bool_]) -> Int8Codes:
        """Scales from the live rows among the first ``len(live)``, then the codes of those rows
        (dead rows get the code of zero; the array has the matrix's capacity)."""
        n = live.shape[0]
        peak = np.abs(matrix[:n][live]).max(axis=0) if live.any() else np.ones(matrix.shape[1])
        scale = (np.maximum(peak, 1e-12) / 127.0).astype(np.float32)
        codes = cls(scale=scale, codes=np.full(matrix.shape, ZERO, dtype=np.uint8), fitted_rows=n)
        for start in range(0, n, 8_192):
            stop = min(n, start + 8_192)
            codes.codes[start:stop] = codes.encode(matrix[start:stop])
        codes.codes[:n][~live] = ZERO
        return codes

    def encode(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
        """uint8 codes of rows (or one vector); values beyond the fitted range are clipped."""
        codes: npt.NDArray[np.uint8] = (np.clip(np.rint(vectors / self.scale), -127, 127) + ZERO).astype(
            np.uint8
        )
        return codes

    def grow(self, capacity: int) -> None:
        grown = np.full((capacity, self.codes.shape[1]), ZERO, dtype=np.uint8)
        grown[: self.codes.shape[0]] = self.codes
        self.codes = grown

    def queries(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.int8]:
        """int8 (dimension, queries) for a query vector (dimension,) or columns (dimension, q):
        each column is multiplied by the scales (so code · query ranks like vector · query)
        and stretched to ±63."""
        columns = (vectors.reshape(vectors.shape[0], -1) * self.scale[:, None]).astype(np.float32)
        peak = np.maximum(np.abs(columns).max(axis=0), 1e-12)
        stretched: npt.NDArray[np.int8] = np.rint(columns * (QUERY_PEAK / peak)).astype(np.int8)
        return stretched


class Int8Scan:
    """The onnxruntime session running the first pass; thread-safe; loads on first use."""

    def __init__(self, threads: int = 2) -> None:
        self._threads = threads
        self._lock = threading.Lock()
        self._session: Any = None
        self._missing = False

    def available(self) -> bool:
        """Whether onnxruntime is installed (it comes with the ``local`` extra)."""
        if self._session is None and not self._missing:
            self._load()
        return self._session is not None

    def _load(self) -> None:
        with self._lock:
            if self._session is not None or self._missing:
                return
            try:
                import onnxruntime as ort
            except ImportError:
                self._missing = True
                return
            options = ort.SessionOptions()
            options.intra_op_num_threads = self._threads
            options.inter_op_num_threads = 1
            # Spinning threads would fight the embedding model and numpy for two cores.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.add_session_config_entry("session.inter_op.allow_spinning", "0")
            self._session = ort.InferenceSession(
                MODEL.read_bytes(), options, providers=["CPUExecutionProvider"]
            )

    def top(
        self,
        codes: npt.NDArray[np.uint8],
        queries: npt.NDArray[np.int8],
        allowed: npt.NDArray[np.bool_],
        k: int,
    ) -> npt.NDArray[np.int64]:
        """(k, queries) row numbers with the largest code products among ``allowed`` (unordered)."""
        if not self.available():
            raise RuntimeError("the int8 scan needs onnxruntime (the local extra)")
        penalty = np.where(allowed, 0, EXCLUDED).astype(np.int32)[:, None]
        feeds = {
            "rows": codes,
            "queries": queries,
            "zero": np.array(ZERO, dtype=np.uint8),
            "penalty": penalty,
            "k": np.array([k], dtype=np.int64),
        }
        best: npt.NDArray[np.int64] = self._session.run(["best"], feeds)[0]
        return best


def build_model() -> bytes:
    """The graph as ONNX bytes (needs the ``onnx`` package; only to rewrite ``int8_scan.onnx``)."""
    import onnx
    from onnx import TensorProto, helper

    inputs = [
        helper.make_tensor_value_info("rows", TensorProto.UINT8, ["n", "d"]),
        helper.make_tensor_value_info("queries", TensorProto.INT8, ["d", "q"]),
        helper.make_tensor_value_info("zero", TensorProto.UINT8, []),
        helper.make_tensor_value_info("penalty", TensorProto.INT32, ["n", 1]),
        helper.make_tensor_value_info("k", TensorProto.INT64, [1]),
    ]
    outputs = [
        helper.make_tensor_value_info("top", TensorProto.INT32, ["k", "q"]),
        helper.make_tensor_value_info("best", TensorProto.INT64, ["k", "q"]),
    ]
    nodes = [
        helper.make_node("MatMulInteger", ["rows", "queries", "zero"], ["dots"]),
        helper.make_node("Add", ["dots", "penalty"], ["scores"]),
        helper.make_node("TopK", ["scores", "k"], ["top", "best"], axis=0, largest=1, sorted=0),
    ]
    graph = helper.make_graph(nodes, "engram_int8_scan", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="engram")
    model.ir_version = 8  # readable by onnxruntime 1.18, the oldest the local extra allows
    onnx.checker.check_model(model)
    data: bytes = model.SerializeToString()
    return data


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else MODEL
    target.write_bytes(build_model())
    print(f"wrote {target}")
