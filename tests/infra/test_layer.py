"""The shared layer: built without Docker, for Linux arm64, under Lambda's 250 MB unzipped limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from engram_infra.config import Config
from engram_infra.layer import LAMBDA_UNZIPPED_LIMIT, LayerBuild, folder_size, runtime_requirements

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
    assert not list(site.rglob("__pycache__"))
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
