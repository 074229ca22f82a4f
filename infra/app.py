"""CDK entry point (``cdk synth`` / ``cdk deploy`` from ``infra/``): builds the layer, then the app.

The layer folder is rebuilt only when the runtime dependencies change (see engram_infra.layer).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Node 20 still synthesises correctly; the jsii banner about its end of life is noise here.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from aws_cdk import App
from engram_infra.config import Config
from engram_infra.layer import build_layer, bytecode_note
from engram_infra.stack import build_app


def main() -> None:
    config = Config.from_scope(App())  # reads the same context the CLI passes (cdk.json, -c)
    built = build_layer(config.layer_path, python_version=config.python_version)
    print(
        f"layer: {built.size_mb:.1f} MB unzipped; {bytecode_note(built, config.python_version)}",
        file=sys.stderr,
    )
    app, _ = build_app()
    app.synth()


if __name__ == "__main__":
    main()
