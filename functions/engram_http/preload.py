"""What the worker fork server imports once (``engram_http.workers``): the handler modules and
the libraries they and the embedder use. Imports only: no connection, session or thread may
exist before a fork."""

from __future__ import annotations

import contextlib

from engram_http.loader import load_handler
from engram_http.routes import FUNCTIONS

for _function in ("authorizer", *FUNCTIONS):
    load_handler(_function)
with contextlib.suppress(ImportError):  # the local model's libraries (the local extra)
    import numpy  # noqa: F401
    import onnxruntime  # noqa: F401
    import tokenizers  # noqa: F401
