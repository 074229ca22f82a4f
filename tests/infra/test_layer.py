"""The shared layer: built without Docker, for Linux arm64, under Lambda's 250 MB unzipped limit,
with bytecode when this machine has the functions' Python."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from engram_infra.config import Config
from engram_infra.layer import (
    LAMBDA_UNZIPPED_LIMIT,
    LayerBuild,
    bytecode_note,
    compile_bytecode,
    folder_size,
    interpreter_for,
    runtime_requirements,
)

EM_AARCH64 = 183  # ELF e_machine of 64-bit ARM
PYTHON = str(Config.defaults()["python_version"])


def _elf_machine(path: Path) -> int:
    header = path.read_bytes()[:20]
    assert header[:4] == b"\x7fELF", path
    return int.from_bytes(header[18:20], "little")


def test_layer_holds_engram_engram_http_and_the_runtime_dependencies(layer: LayerBuild) -> None:
    site = layer.path / "python"
    assert (site / "engram" / "__init__.py").is_file()
    assert (site / "engram" / "recall" / "__init__.py").is_file()
    assert (site / "engram_http" / "routes.py").is_file()
    assert (site / "engram_http" / "inspector" / "index.html").is_file()  # served by the docs function
    # the screening rules are data files beside their loader
    shipped = Path(__file__).resolve().parents[2] / "shared" / "engram" / "screening" / "rules"
    rules = sorted(p.name for p in (site / "engram" / "screening" / "rules").glob("*.toml"))
    assert rules == sorted(p.name for p in shipped.glob("*.toml")) and "en.toml" in rules
    # and so are the screening heads: the local embedding model's, and the words head other
    # models' vectors (Titan's, in the cloud) are read by
    assert (site / "engram" / "screening" / "heads" / "all-MiniLM-L6-v2-onnx-int8.json").is_file()
    assert (site / "engram" / "screening" / "heads" / "words.json").is_file()
    # and the n-gram head every model's vectors get beside their own
    assert (site / "engram" / "screening" / "heads" / "ngrams.json").is_file()
    assert (site / "pydantic" / "__init__.py").is_file()
    assert (site / "aws_lambda_powertools" / "__init__.py").is_file()
    assert (site / "opensearchpy" / "__init__.py").is_file()
    # bytecode only from the functions' own Python, which may not be on this machine
    assert bool(list(site.rglob("__pycache__"))) == (interpreter_for(PYTHON) is not None)
    assert layer.bytecode == interpreter_for(PYTHON)
    assert layer.requirements == runtime_requirements()


def test_layer_compiled_extensions_are_for_lambda_arm64_and_its_python(layer: LayerBuild) -> None:
    tag = f"cpython-{PYTHON.replace('.', '')}-aarch64-linux-gnu"
    extensions = list((layer.path / "python").rglob("*.so"))
    assert extensions
    assert list((layer.path / "python" / "pydantic_core").glob(f"_pydantic_core.{tag}.so"))
    for extension in extensions:
        assert _elf_machine(extension) == EM_AARCH64, extension
        assert "x86_64" not in extension.name


def test_layer_is_under_lambdas_unzipped_limit(layer: LayerBuild, capsys: pytest.CaptureFixture[str]) -> None:
    size = folder_size(layer.path)
    with capsys.disabled():
        print(f"\n[infra] layer {layer.path}: {size / 1024 / 1024:.1f} MB unzipped (limit 250 MB)")
    assert size == layer.size_bytes
    assert size < LAMBDA_UNZIPPED_LIMIT


def _pyc_flags(pyc: Path) -> int:
    """The flags word of a .pyc's header (PEP 552): 0b01 is a hash-based pyc never checked."""
    return int.from_bytes(pyc.read_bytes()[4:8], "little")


def test_bytecode_is_compiled_unchecked_so_the_layers_zip_cannot_invalidate_it(tmp_path: Path) -> None:
    # Given a package of a layer, compiled by this machine's Python
    package = tmp_path / "python" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("ANSWER = 'compiled'\n")
    interpreter = interpreter_for(f"{sys.version_info.major}.{sys.version_info.minor}")
    assert interpreter == sys.executable
    compile_bytecode(tmp_path / "python", interpreter)
    # Then its bytecode sits beside it, for this Python, hash-based and never checked
    [pyc] = (package / "__pycache__").glob("__init__.*.pyc")
    assert pyc.read_bytes()[:4] == importlib.util.MAGIC_NUMBER and _pyc_flags(pyc) == 0b01
    # And it is what an import runs, whatever the source's timestamp (and even its text) says
    (package / "__init__.py").write_text("ANSWER = 'source'\n")
    run = [sys.executable, "-B", "-c", "import pkg; print(pkg.ANSWER)"]
    done = subprocess.run(run, cwd=tmp_path / "python", capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "compiled"


def test_a_python_on_the_path_counts_only_if_it_runs_as_that_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a python3.98 that is a version manager's shim for a version it does not select, and a
    # python3.97 that is really this Python under another name
    shim, other = tmp_path / "python3.98", tmp_path / "python3.97"
    shim.write_text("#!/bin/sh\necho 'pyenv: python3.98: command not found' >&2\nexit 127\n")
    other.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    for script in (shim, other):
        script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    # Then neither compiles the layer: one does not run, the other is not the version it names
    assert interpreter_for("3.98") is None and interpreter_for("3.97") is None


def test_a_layer_without_bytecode_says_what_a_cold_start_pays_and_how_to_avoid_it(layer: LayerBuild) -> None:
    assert interpreter_for("3.99") is None
    missing = LayerBuild(path=layer.path, size_bytes=0, requirements=(), reused_dependencies=True)
    note = bytecode_note(missing, "3.99")
    assert "no Python 3.99" in note and "cold start compiles" in note and "-c python_version=" in note
    assert bytecode_note(LayerBuild(layer.path, 0, (), True, bytecode="/usr/bin/python3.99"), "3.99") == (
        "bytecode compiled by /usr/bin/python3.99"
    )
