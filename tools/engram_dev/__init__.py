"""Developer tools: benchmarks, the recall evaluator, the lifecycle simulation and the cold-start probe.

They run from a checkout (``make install``) through the ``engram`` CLI. They are not part of the
domain library: neither the Lambda layer nor the wheel carries them, and nothing in ``engram``
imports them.
"""
