"""Build hook: the wheel also carries ``functions/<name>/handler.py``, which ``engram serve`` loads.

The local gateway invokes the very Lambda handlers the stack deploys. In a checkout it finds them
beside ``engram_http``; a wheel has no ``functions/`` folder, so they are copied into
``engram_http/handlers/<name>/handler.py`` (``engram_http.loader`` looks there too). Everything
else is in ``pyproject.toml``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

FUNCTIONS = Path(__file__).resolve().parent / "functions"


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "engram_http" / "handlers"
        for handler in sorted(FUNCTIONS.glob("*/handler.py")):
            destination = target / handler.parent.name / "handler.py"
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(handler, destination)


setup(cmdclass={"build_py": BuildPy})
