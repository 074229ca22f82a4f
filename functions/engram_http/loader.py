"""Loads ``functions/<name>/handler.py`` modules by path, once per process (gateway and docs)."""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType

FUNCTIONS_DIR = Path(__file__).resolve().parent.parent
_lock = threading.Lock()
_loaded: dict[str, ModuleType] = {}  # only modules whose code has run to the end


def load_handler(function: str) -> ModuleType:
    """The handler module of ``functions/<function>/``, imported as ``engram_fn_<function>``."""
    name = f"engram_fn_{function}"
    module = _loaded.get(name)
    if module is not None:
        return module
    with _lock:
        if name in _loaded:
            return _loaded[name]
        path = FUNCTIONS_DIR / function / "handler.py"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"no handler at {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        _loaded[name] = module
        return module
