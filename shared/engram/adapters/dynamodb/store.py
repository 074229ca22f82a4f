"""``DynamoStore``: the AWS system of record, its parts on one DynamoDB table."""

from __future__ import annotations

from typing import Any, Literal

from engram.adapters.clock import SystemClock
from engram.adapters.dynamodb.deletion_log import DynamoDeletionLog
from engram.adapters.dynamodb.embeddings import DynamoEmbeddingBacklog
from engram.adapters.dynamodb.errors import translating
from engram.adapters.dynamodb.history import DynamoHistory
from engram.adapters.dynamodb.idempotency import DynamoIdempotency
from engram.adapters.dynamodb.jobs import DynamoJobs
from engram.adapters.dynamodb.lifecycle import DynamoLifecycleReports
from engram.adapters.dynamodb.memory_writes import DynamoMemories
from engram.adapters.dynamodb.tenants import DynamoTenants
from engram.ports import BlobStore, Clock


class DynamoStore:
    """``Store`` on one table: ``DynamoStore(client, table, blobs=…, clock=…)``, each part its own
    object over the same client, table and clock (``store.records``, ``store.jobs`` …; one also
    works alone: ``DynamoJobs(client, table, clock=clock)``). The jobs put large bodies in
    ``blobs``; the records read by id as ``memory_reads`` says. No part calls another: a change of
    the records writes its history, idempotency, deletion-log and report items through those
    modules' item writers (``history_put`` …)."""

    def __init__(
        self,
        client: Any,
        table_name: str,
        *,
        blobs: BlobStore | None = None,
        clock: Clock | None = None,
        memory_reads: Literal["consistent", "eventual"] = "consistent",
    ) -> None:
        client, clock = translating(client), clock or SystemClock()
        self.tenants = DynamoTenants(client, table_name, clock=clock)
        self.records = DynamoMemories(client, table_name, clock=clock, memory_reads=memory_reads)
        self.history = DynamoHistory(client, table_name, clock=clock)
        self.deletion_log = DynamoDeletionLog(client, table_name, clock=clock)
        self.idempotency = DynamoIdempotency(client, table_name, clock=clock)
        self.jobs = DynamoJobs(client, table_name, blobs=blobs, clock=clock)
        self.reports = DynamoLifecycleReports(client, table_name, clock=clock)
        self.pending = DynamoEmbeddingBacklog(client, table_name, clock=clock)
