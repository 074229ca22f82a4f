"""Memories one by one and the tenant's counts.

``service``: ``get``, ``list_memories``, ``patch``, ``restore``, ``release``, ``feedback``,
``stats`` as a handler calls them; ``operations``: the work on single memories and the export;
``usefulness``: the feedback EMA; ``history``: the history entry of a change.
"""
