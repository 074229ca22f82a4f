"""What each function's code may touch: the table, the search index, the bucket, the step queue,
the models. The stack grants these (``engram_infra.stack``) and cdk-nag's acknowledgements name the
same functions (``engram_infra.nag``); both read them here, so neither imports the other's module.
"""

from __future__ import annotations

import re

# Cross-region inference profile ids start with a geography; their calls land in several regions.
INFERENCE_PROFILE = re.compile(r"^(us|eu|apac|global|ca|jp|au|us-gov)\.(.+)$")

# What each function's code does with the one table: reads (R) or also writes (W).
TABLE_ACCESS: dict[str, str] = {
    "authorizer": "W",  # a key's last use is recorded
    "retain": "W",
    "recall": "W",  # access tracking
    "forget": "W",
    "feedback": "W",
    "memories": "W",
    "admin": "W",
    "docs": "",
    # the stream (its event source mapping reads it), the vectors a batch does not hold and the
    # tenants' settings (events.publish); the events are derived from the stream's images
    "stream": "S",
    "extract_worker": "W",
    "decay": "W",
    "tiering": "W",
    "tenant_work": "W",
    "search_setup": "",
}
# Who searches (R) or also indexes and deletes (W) in the search index. Retain and the extract
# worker read it for dedup and write a head start of what the stream consumer will apply.
SEARCH_ACCESS: dict[str, str] = {
    "retain": "W",
    "recall": "R",
    "extract_worker": "W",
    "forget": "W",
    "memories": "W",
    "stream": "W",
    "decay": "W",
    "tiering": "W",
    "tenant_work": "W",  # an erasure's last step deletes the tenant's documents
    "search_setup": "W",
}
# The only HTTP method the data-plane functions send to the domain: searches (_search, _msearch),
# bulk writes (_bulk) and deletions (_delete_by_query) are all POSTs (the Lambda-layout run logs
# every request; tests/infra/test_lambda_layout.py compares). The setup function, the domain's
# master user, keeps every method: it reads, creates and updates the template, index and roles.
SEARCH_METHODS: dict[str, tuple[str, ...]] = {name: ("es:ESHttpPost",) for name in SEARCH_ACCESS}
del SEARCH_METHODS["search_setup"]
# The table actions of the functions whose grant is narrower than CDK's read/read-write sets:
# the authorizer reads a key and records its last use; feedback reads a memory and writes its
# new version with a history entry (a transaction of a Put and an Update); the stream consumer
# reads the vector items a stream batch does not hold (a memory's vector is an item of its own)
# and the overrides of the batch's tenants (whether they publish events), both with BatchGetItem.
TABLE_ACTIONS: dict[str, tuple[str, ...]] = {
    "stream": ("dynamodb:BatchGetItem",),
    "authorizer": ("dynamodb:GetItem", "dynamodb:UpdateItem"),
    "feedback": ("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"),
}
# Who keeps objects in the bucket: large job bodies (retain, the worker), exports and import
# uploads (memories; tenant_work reads and removes the uploads), and the erasure of a tenant's
# objects (tenant_work).
OBJECTS = ("retain", "extract_worker", "memories", "tenant_work")
# Who queues steps of tenant-wide work: an erasure (admin), the lifecycle of every tenant
# (decay, tiering), an import job (memories) and the steps that carry on (tenant_work).
STEPS = ("admin", "decay", "tiering", "memories", "tenant_work")
# Who calls the embedding model (queries, deferred embeddings, imports) and the extraction LLM.
EMBEDS = ("retain", "recall", "forget", "memories", "stream", "extract_worker", "tenant_work")
EXTRACTS = ("retain", "extract_worker")  # retain: mode auto uses the LLM inline when configured
RERANKS = ("recall",)  # the rerank provider, when one is configured
