"""Composition root: ``Settings`` -> ``Deps``, the adapters behind every port, built once per process.

``build_local`` is the embedded default (SQLite, the bundled embedding model, rule-based
extraction); ``build_aws`` the cloud (DynamoDB, OpenSearch or the in-process index, the
configured providers); ``build`` picks one by ``settings.backend``. Nothing else chooses an
adapter: services receive the ports in ``Deps``. Dependencies may be passed in (tests, the
Lambda handlers' shared clients, a fixed clock); the one clock given (or the system's) is the
clock of every store and service.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engram.deps import Deps
from engram.errors import ConfigurationError
from engram.ports import (
    LLM,
    Clock,
    Embedder,
    JobQueue,
    MemoryChange,
    MemoryRecords,
    Reranker,
    SearchIndex,
    StepQueue,
    Vector,
)
from engram.settings import LlmSettings, RerankSettings, Settings

if TYPE_CHECKING:
    from engram.adapters.sqlite.database import SqliteDatabase
    from engram.background.jobs import LocalJobRunner
    from engram.events.changes import Event


@contextlib.contextmanager
def invocation() -> Iterator[None]:
    """One request's invocation: what the adapters hold back meanwhile (the DynamoDB store's
    batched usage and access counts) is written at its end when due."""
    from engram.adapters.dynamodb import write_behind

    with write_behind.invocation():
        yield


def build(settings: Settings, *, clock: Clock | None = None) -> Deps:
    """The dependencies ``settings.backend`` names: ``local`` (embedded default) or ``aws``."""
    return (
        build_aws(settings, clock=clock) if settings.backend == "aws" else build_local(settings, clock=clock)
    )


def build_local(settings: Settings, *, clock: Clock | None = None, embedder: Embedder | None = None) -> Deps:
    """The embedded default: SQLite file under ``settings.data_dir``, the configured embedder (the
    local model unless ``settings.embedder`` names a provider), rules; jobs run on this process's
    job runner (started by ``engram.background``)."""
    from engram.adapters.clock import SystemClock
    from engram.adapters.private_files import load_or_create_secret
    from engram.adapters.providers import build_embedder
    from engram.adapters.sqlite.database import SqliteDatabase
    from engram.adapters.sqlite.keys import SqliteKeyStore
    from engram.adapters.sqlite.outbox import SqliteWebhooks
    from engram.adapters.sqlite.store import SqliteStore
    from engram.adapters.sqlite.usage import SqliteUsage
    from engram.adapters.sqlite_index import SqliteIndex
    from engram.auth.keys import KeyService
    from engram.webhooks.sealing import Sealer

    if settings.blas_threads is not None:
        from threadpoolctl import threadpool_limits

        threadpool_limits(settings.blas_threads, user_api="blas")
    db = SqliteDatabase(settings.data_dir / "engram.db", mmap_mb=settings.sqlite_mmap_mb)
    clock = clock or SystemClock()
    embedder = embedder or build_embedder(settings)
    _one_model(db, embedder.model_id)
    pepper = load_or_create_secret(settings.data_dir / "pepper")
    token = (
        settings.operator_token.get_secret_value()
        if settings.operator_token
        else (load_or_create_secret(settings.data_dir / "operator-token").decode())
    )
    return _compose(
        settings,
        clock,
        keys=KeyService(SqliteKeyStore(db), pepper=pepper, clock=clock),
        operator_token=token,
        store=SqliteStore(db, clock=clock),
        ledger=SqliteUsage(db),
        index=SqliteIndex(db, dimension=embedder.dimension, scan=settings.scan),
        embedder=embedder,
        webhooks=SqliteWebhooks(
            db, sealer=Sealer.from_key_text(load_or_create_secret(settings.data_dir / "webhook-key"))
        ),
    )


def _one_model(db: SqliteDatabase, model_id: str) -> None:
    """A data dir's vectors are all of one model: one of another model's would sit beside them in
    every search, its cosines meaningless (or, of another size, fail the search), so a process
    whose embedder makes other vectors (``ENGRAM_EMBEDDER`` changed) refuses to start on it."""
    stored = db.one("SELECT embedding_model FROM memories WHERE embedding_model != '' LIMIT 1")
    if stored is not None and stored[0] != model_id:
        raise ConfigurationError(
            f"the memories in {db.path.parent} are embedded with '{stored[0]}' and this process "
            f"embeds with '{model_id}' (ENGRAM_EMBEDDER): start it with the embedder they were made "
            "with; to change models, export the tenants with that one and import them into a new data "
            "dir with the new one (the import embeds them again)"
        )


def build_aws(
    settings: Settings,
    *,
    dynamodb: Any = None,
    index: SearchIndex | None = None,
    opensearch: Any = None,
    embedder: Embedder | None = None,
    bedrock: Any = None,
    clock: Clock | None = None,
) -> Deps:
    """DynamoDB system of record, OpenSearch (or the in-process index), configured embedder.

    Clients may be injected (tests, the Lambda handlers' shared clients; ``bedrock``: the
    ``bedrock-runtime`` client of a Bedrock LLM and reranker); otherwise they are built from
    ``settings.aws`` with botocore's standard retry mode. Nothing secret is read
    here: only the functions that use a secret read it, on first use.
    """
    from engram.adapters.clock import SystemClock
    from engram.adapters.dynamodb.keys import DynamoKeyStore
    from engram.adapters.dynamodb.store import DynamoStore
    from engram.adapters.dynamodb.table import dynamodb_client
    from engram.adapters.dynamodb.usage import DynamoUsage
    from engram.adapters.providers import build_embedder
    from engram.adapters.secrets import LazySecret
    from engram.auth.keys import KeyService

    aws = settings.aws
    client = dynamodb or dynamodb_client(
        region=aws.region, endpoint_url=aws.dynamodb_endpoint, max_attempts=aws.max_attempts
    )
    blobs = None
    if aws.bucket:
        from engram.adapters.s3_blobs import S3Blobs

        blobs = S3Blobs(aws.bucket, region=aws.region)
    clock = clock or SystemClock()
    store = DynamoStore(client, aws.table, blobs=blobs, clock=clock, memory_reads=aws.memory_reads)
    embedder = embedder or build_embedder(settings)
    if index is None:
        index = _aws_index(settings, store.records, embedder, opensearch)
    keys = None
    if aws.key_pepper is not None:  # the value itself or, in the stack, a Secrets Manager ARN
        pepper = LazySecret(aws.key_pepper.get_secret_value(), name="the API key pepper")
        keys = KeyService(
            DynamoKeyStore(client, aws.table), pepper=lambda: str(pepper()).encode(), clock=clock
        )
    token = settings.operator_token.get_secret_value() if settings.operator_token else None
    return _compose(
        settings,
        clock,
        bedrock=bedrock,
        keys=keys,
        operator_token=LazySecret(token, name="the operator token") if token else None,
        store=store,
        ledger=DynamoUsage(client, aws.table),
        index=index,
        embedder=embedder,
        usage_plans=_usage_plans(settings),
        blobs=blobs,
        steps=_step_queue(settings),
    )


def _compose(settings: Settings, clock: Clock, *, bedrock: Any = None, **ports: Any) -> Deps:
    """``Deps`` of both backends: the backend's ports, and what both build alike from the settings
    (the LLM and reranker they name, the extractor over that LLM (rules without one), the job queue or this process's runner)."""
    from engram.extraction.llm_extractor import extractor_for

    queue = _job_queue(settings)
    runner: LocalJobRunner | None = None
    if queue is None:  # the cloud's functions queue their jobs: no runner (nor its imports) there
        from engram.background.jobs import LocalJobRunner

        runner = LocalJobRunner()
    llm = build_llm(settings.llm, bedrock=bedrock)
    deps = Deps(
        settings=settings,
        clock=clock,
        extractor=extractor_for(llm),
        llm=llm,
        reranker=build_reranker(settings.rerank, bedrock=bedrock),
        queue=queue,
        runner=runner,
        **ports,
    )
    if runner is not None:
        runner.bind(deps)
    return deps


def _aws_index(
    settings: Settings, records: MemoryRecords, embedder: Embedder, opensearch: Any
) -> SearchIndex:
    """The in-process index over the store (``index: memory``) or OpenSearch kept by the stream."""
    if settings.aws.index == "memory":
        from engram.adapters.memory_index import InMemoryIndex

        return InMemoryIndex(records, dimension=embedder.dimension)
    from engram.adapters.opensearch_index import OpenSearchIndex
    from engram.adapters.stream_backed_index import StreamBackedIndex

    built = build_search_index(settings, client=opensearch)
    assert isinstance(built, OpenSearchIndex)
    return StreamBackedIndex(built)


def _usage_plans(settings: Settings) -> Any:
    """API Gateway usage plans when the stack names their prefix; None otherwise."""
    aws = settings.aws
    if not aws.usage_plan_prefix:
        return None
    from engram.adapters.usage_plans import UsagePlans

    tiers = [t.strip() for t in aws.usage_plan_tiers.split(",") if t.strip()]
    return UsagePlans(region=aws.region, prefix=aws.usage_plan_prefix, tiers=tiers)


def build_search_index(settings: Settings, *, client: Any = None) -> SearchIndex:
    """The OpenSearch index ``settings.aws`` names (the stream consumer and ``build_aws`` use it)."""
    from engram.adapters.opensearch_client import opensearch_client
    from engram.adapters.opensearch_index import OpenSearchIndex
    from engram.adapters.providers import embedding_spec

    aws = settings.aws
    if client is None:
        assert aws.opensearch_endpoint  # Settings requires it for the opensearch index
        client = opensearch_client(
            aws.opensearch_endpoint, aws.region, aws.opensearch_service, timeout=aws.opensearch_timeout_s
        )
    model_id, dimension = embedding_spec(settings)
    return OpenSearchIndex(
        client,
        aws.opensearch_index,
        dimension=dimension,
        model_id=model_id,
        serverless=aws.opensearch_service == "aoss",
        hybrid_pipeline=aws.hybrid_pipeline,
        shards=aws.opensearch_shards,
        replicas=aws.opensearch_replicas,
        timeout_s=aws.opensearch_timeout_s,
    )


def stream_changes(
    records: Sequence[Mapping[str, Any]],
    *,
    vectors: Callable[[str, Sequence[str]], Mapping[str, Vector]] | None = None,
) -> list[MemoryChange | None]:
    """The memory changes in a batch of DynamoDB stream records (the stream consumer's input): the
    items are the DynamoDB store's, so reading them is its adapter's work. ``vectors`` reads the
    vector items a batch does not hold (``build_vector_reader``)."""
    from engram.adapters.dynamodb_stream import memory_changes

    return memory_changes(records, vectors=vectors)


def build_vector_reader(settings: Settings) -> Callable[[str, Sequence[str]], Mapping[str, Vector]]:
    """The stored vectors of a tenant's memories, from the table ``settings.aws`` names (a memory's
    vector is an item of its own; the stream consumer reads those its batch does not hold)."""
    from engram.adapters.dynamodb.memories import DynamoMemoryReads
    from engram.adapters.dynamodb.table import dynamodb_client

    aws = settings.aws
    client = dynamodb_client(
        region=aws.region, endpoint_url=aws.dynamodb_endpoint, max_attempts=aws.max_attempts
    )
    return DynamoMemoryReads(client, aws.table).get_vectors


def stream_events(records: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Event]]]:
    """Each stream record's sequence number and the events it implies (the stream consumer's
    input); reading the DynamoDB store's items is its adapter's work."""
    from engram.adapters.dynamodb_events import stream_events as read

    return read(records)


def build_event_publisher(settings: Settings) -> Callable[[Sequence[Event]], list[int]]:
    """What puts events on the stack's EventBridge bus (``settings.aws.event_bus``): a function of
    a batch of events that answers the positions of those that could not be put."""
    from engram.adapters.eventbridge import EventBridgePublisher

    if not settings.aws.event_bus:
        raise ConfigurationError("ENGRAM_EVENT_BUS is required for the stream consumer")
    return EventBridgePublisher(settings.aws.event_bus).publish


def build_publishing_tenants(settings: Settings) -> Callable[[Collection[str]], set[str]]:
    """Which of a batch's tenants publish their events (``events.publish`` in effect), read from
    the table ``settings.aws`` names and cached a minute per tenant (the stream consumer's)."""
    from engram.adapters.dynamodb.table import dynamodb_client
    from engram.adapters.dynamodb.tenants import DynamoTenants
    from engram.events.subscribers import PublishingTenants

    aws = settings.aws
    client = dynamodb_client(
        region=aws.region, endpoint_url=aws.dynamodb_endpoint, max_attempts=aws.max_attempts
    )
    return PublishingTenants(settings, DynamoTenants(client, aws.table).overrides_of)


def build_reranker(settings: RerankSettings, *, bedrock: Any = None) -> Reranker | None:
    """The configured cross-encoder, or None (``provider: none``): recall never reranks."""
    if settings.provider == "none":
        return None
    if settings.provider == "bedrock":
        from engram.adapters.rerank import BedrockReranker

        assert settings.model  # RerankSettings requires it

        return BedrockReranker(
            settings.model, region=settings.region, timeout_s=settings.timeout_s, client=bedrock
        )
    from engram.adapters.rerank import TeiReranker
    from engram.adapters.secrets import LazySecret

    assert settings.url  # RerankSettings requires it

    key = settings.api_key.get_secret_value() if settings.api_key else None
    return TeiReranker(
        settings.url,
        model=settings.model,
        api_key=LazySecret(key, name="the rerank API key"),
        timeout_s=settings.timeout_s,
    )


def build_llm(settings: LlmSettings, *, bedrock: Any = None) -> LLM | None:
    """The configured extraction model, or None (``provider: none``): the rules alone."""
    if settings.provider == "none":
        return None
    if settings.provider == "bedrock":
        from engram.adapters.bedrock_llm import BedrockLLM

        return BedrockLLM(settings, client=bedrock)
    from engram.adapters.openai_compat import OpenAICompatLLM
    from engram.adapters.secrets import LazySecret

    key = settings.api_key.get_secret_value() if settings.api_key else None
    return OpenAICompatLLM(settings, api_key=LazySecret(key))


def _step_queue(settings: Settings) -> StepQueue | None:
    """SQS when the stack gives a step queue; None does tenant-wide work inline (locally)."""
    if not settings.aws.step_queue_url:
        return None
    from engram.adapters.sqs_queue import SqsStepQueue

    return SqsStepQueue(settings.aws.step_queue_url)


def _job_queue(settings: Settings) -> JobQueue | None:
    """SQS when a queue URL is configured (the cloud); None runs jobs on a local thread."""
    if not settings.extract_queue_url:
        return None
    from engram.adapters.sqs_queue import SqsJobQueue

    return SqsJobQueue(settings.extract_queue_url)
