"""``DynamoStore``: the AWS system of record, every port of the store on one DynamoDB table."""

from __future__ import annotations

from engram.adapters.dynamodb.deletion_log import DynamoDeletionLog
from engram.adapters.dynamodb.embeddings import DynamoEmbeddingBacklog
from engram.adapters.dynamodb.history import DynamoHistory
from engram.adapters.dynamodb.idempotency import DynamoIdempotency
from engram.adapters.dynamodb.jobs import DynamoJobs
from engram.adapters.dynamodb.lifecycle import DynamoLifecycleReports
from engram.adapters.dynamodb.memory_writes import DynamoMemoryStore
from engram.adapters.dynamodb.tenants import DynamoTenants


class DynamoStore(
    DynamoTenants,
    DynamoMemoryStore,
    DynamoHistory,
    DynamoDeletionLog,
    DynamoIdempotency,
    DynamoJobs,
    DynamoLifecycleReports,
    DynamoEmbeddingBacklog,
):
    """``MemoryStore`` on one table: ``DynamoStore(client, table, blobs=…, clock=…)``; each part
    also works alone on the same table (``DynamoJobs(client, table, clock=clock)``)."""
