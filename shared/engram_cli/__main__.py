"""``python -m engram_cli``: the same as the ``engram`` command."""

import sys

from engram_cli.main import main

sys.exit(main(sys.argv[1:]))
