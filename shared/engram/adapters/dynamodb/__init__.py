"""The AWS store: one DynamoDB table (single-table design, low-level boto3 client), one module
per port.

``items`` holds the key scheme and the item codec; ``table`` the table's definition and the
client; ``requests`` the paged, batched and transactional requests every part shares;
``tenants``, ``memories`` and ``listing`` (reads) and ``memory_writes`` with ``actions``,
``history``, ``deletion_log``, ``idempotency``, ``jobs``, ``lifecycle``, ``embeddings`` one port
each; ``keys`` and ``usage`` the API keys and the metering ledger; ``store`` composes them.
Import from the modules (``engram.adapters.dynamodb.store``), each loads only what it needs.
"""
