"""Fixtures of the infra tests: the layer, built once per session, and one offline synth of the app.

The synth runs with ``require_handlers=false`` because some workers' handler code (stream consumer,
extract worker, lifecycle) is not in this tree yet; an empty folder stands in for it. cdk-nag runs
inside that synth: a finding that is not acknowledged makes ``app.synth()`` raise, which the
fixture records for the nag test instead of failing every other test with it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
INFRA_DIR = Path(__file__).resolve().parents[2] / "infra"
sys.path.insert(0, str(INFRA_DIR))

from engram_infra.config import Config  # noqa: E402
from engram_infra.layer import DEFAULT_OUT, LayerBuild, build_layer  # noqa: E402
from infra_support import Synth, synthesise  # noqa: E402


@pytest.fixture(scope="session")
def layer() -> LayerBuild:
    """The real layer (pip downloads only when the requirements changed since the last build)."""
    return build_layer(DEFAULT_OUT, python_version=str(Config.defaults()["python_version"]))


@pytest.fixture(scope="session")
def synth(layer: LayerBuild, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synth]:
    outdir = tmp_path_factory.mktemp("cdk.out")
    yield synthesise({"require_handlers": False, "layer_dir": str(layer.path)}, outdir)
