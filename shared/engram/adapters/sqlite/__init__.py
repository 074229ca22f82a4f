"""The embedded default's store: one SQLite file (WAL, FTS5), one module per port.

``schema`` holds every table; ``database`` the connection, transactions and the per-tenant text
index tables; ``tenants``, ``memories`` (reads) and ``memory_writes``, ``history``,
``deletion_log``, ``idempotency``, ``jobs``, ``lifecycle``, ``embeddings`` one port each;
``keys`` and ``usage`` the API keys and the metering ledger; ``store`` composes them.
Import from the modules (``engram.adapters.sqlite.store``), each loads only what it needs.
"""
