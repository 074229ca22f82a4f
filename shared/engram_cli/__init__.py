"""The ``engram`` command: the local server, operator commands, ``doctor`` and ``smoke``.

It sits beside the domain library (``engram``) and the HTTP glue (``engram_http``) and uses both;
neither imports it, and the Lambda layer does not carry it.
"""
