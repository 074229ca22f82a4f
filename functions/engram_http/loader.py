"""Loads ``functions/<name>/handler.py`` modules by path, once per process (gateway and docs).

They are looked for in the Lambda task root first (``LAMBDA_TASK_ROOT``: the docs function's
asset carries ``<name>/handler.py`` of every API function, since ``engram_http`` itself lives in
the layer, far from any handler), then beside ``engram_http`` in a checkout (the local gateway),
then in ``engram_http/handlers/`` where an installed wheel carries them (``setup.py``).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
from pathlib import Path
from types import ModuleType

FUNCTIONS_DIR = Path(__file__).resolve().parent.parent
WHEEL_DIR = Path(__file__).resolve().parent / "handlers"
_lock = threading.Lock()
_loaded: dict[str, ModuleType] = {}  # only modules whose code has run to the end


def handler_path(function: str) -> Path:
    """Where ``functions/<function>/handler.py`` is in this process's layout."""
    task_root = os.environ.get("LAMBDA_TASK_ROOT")
    roots = [*([Path(task_root)] if task_root else []), FUNCTIONS_DIR, WHEEL_DIR]
    for root in roots:
        path = root / function / "handler.py"
        if path.is_file():
            return path
    raise ImportError(f"no handler for '{function}' under {', '.join(str(r) for r in roots)}")


def load_handler(function: str) -> ModuleType:
    """The handler module of ``functions/<function>/``, imported as ``engram_fn_<function>``."""
    name = f"engram_fn_{function}"
    module = _loaded.get(name)
    if module is not None:
        return module
    with _lock:
        if name in _loaded:
            return _loaded[name]
        path = handler_path(function)
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
