"""The operations, one function each: what a handler or the CLI calls with ``deps`` and the
caller's ``TenantContext`` (``engram.tenancy``).

Each function narrows the scopes the request names within the caller's, checks the tenant's
budgets, meters what the work consumes (``engram.metering``) and hands the work to its pipeline
(``engram.retain``, ``engram.recall``, ``engram.forget``, ``engram.memories``, ...), passing the
ports it needs from ``deps``. Nothing here picks an adapter or starts a thread.

- ``retain``: ``retain``; ``jobs``: ``submit_retain``, ``get_job``, ``run_job``;
- ``recall``: ``recall``; ``forget``: ``forget``, ``delete``;
- ``memories``: ``get``, ``list_memories``, ``patch``, ``restore``, ``release``, ``feedback``, ``stats``;
- ``transfer``: ``export_lines``, ``export_link``, ``import_lines``, ``import_peer``;
- ``maintenance``: ``run_lifecycle``, ``run_lifecycle_all``, ``reindex``;
- ``backlog``: ``embed_pending`` (the memories stored without a vector), ``recall_waits``.

Tenant and key administration is ``engram.tenants``.
"""
