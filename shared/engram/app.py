"""Composition root: ``Settings`` -> an ``Engine`` with its adapters, built once per process.

The engine is the one entry point the CLI, the Lambda handlers and the local gateway call. It
checks the tenant exists, applies the tenant's setting overrides, resolves which scopes a call
may touch, and hands each operation to its service module.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from engram import embedding_keys, metering
from engram import feedback as feedback_service
from engram import forget as forget_service
from engram import lifecycle as lifecycle_service
from engram import memories as memory_service
from engram import recall as recall_service
from engram import retain as retain_service
from engram.errors import (
    ConfigurationError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    ProviderError,
    QuotaExceededError,
    ValidationFailedError,
)
from engram.identity import job_id
from engram.metering import MeteredEmbedder
from engram.models import (
    USAGE_COUNTERS,
    ExportLink,
    FeedbackRequest,
    FeedbackResponse,
    ForgetRequest,
    ForgetResponse,
    Job,
    JobAccepted,
    LifecycleReport,
    ListRequest,
    ListResponse,
    MemoryView,
    NewTenant,
    PatchRequest,
    RecallRequest,
    RecallResponse,
    RestoreRequest,
    RetainRequest,
    RetainResponse,
    StatsResponse,
    Tenant,
    UsageReport,
    check_expiry,
    parse,
)

if TYPE_CHECKING:
    from engram.auth import KeyService
from engram.ports import (
    ALL_SCOPES,
    LLM,
    BlobStore,
    Clock,
    Embedder,
    Extractor,
    JobQueue,
    MemoryStore,
    Reranker,
    SearchIndex,
    StepQueue,
    UsageLedger,
    UsagePlanRegistry,
)
from engram.settings import LlmSettings, RerankSettings, Settings, TenantOverrides

logger = logging.getLogger(__name__)
STATS_USAGE_DAYS = 31
"""``GET /v1/stats`` shows the usage of this many days up to today."""


def build_search_index(settings: Settings, *, client: Any = None) -> SearchIndex:
    """The OpenSearch index ``settings.aws`` names (the stream indexer and ``Engine.aws`` use it)."""
    from engram.adapters.opensearch_index import OpenSearchIndex, opensearch_client
    from engram.adapters.providers import embedding_spec

    aws = settings.aws
    if client is None:
        if not aws.opensearch_endpoint:
            raise ConfigurationError("ENGRAM_OPENSEARCH_ENDPOINT is required for the aws backend")
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


def check_configuration(settings: Settings) -> None:
    """Refuse settings a deployed function cannot work with (``ConfigurationError`` names the
    variable). A Lambda function runs this at init, so a misconfigured one fails to start instead
    of answering its callers as if their request were wrong."""
    if settings.backend != "aws":
        return
    aws = settings.aws
    if aws.index == "opensearch":
        if not aws.opensearch_endpoint:
            raise ConfigurationError("ENGRAM_OPENSEARCH_ENDPOINT is required for the aws backend")
        from engram.adapters.opensearch_index import endpoint_url

        endpoint_url(aws.opensearch_endpoint)
    if settings.llm.provider != "none" and not settings.llm.model:
        raise ConfigurationError("ENGRAM_LLM_MODEL is required when an LLM provider is configured")
    build_reranker(settings.rerank)


def build_reranker(settings: RerankSettings) -> Reranker | None:
    """The configured cross-encoder, or None (``provider: none``): recall never reranks."""
    if settings.provider == "none":
        return None
    if settings.provider == "bedrock":
        if not settings.model:
            raise ConfigurationError("ENGRAM_RERANK_MODEL is required for the bedrock rerank provider")
        from engram.adapters.rerank import BedrockReranker

        return BedrockReranker(settings.model, region=settings.region, timeout_s=settings.timeout_s)
    if not settings.url:
        raise ConfigurationError("ENGRAM_RERANK_URL is required for the tei rerank provider")
    from engram.adapters.rerank import TeiReranker
    from engram.adapters.secrets import LazySecret

    key = settings.api_key.get_secret_value() if settings.api_key else None
    return TeiReranker(
        settings.url,
        model=settings.model,
        api_key=LazySecret(key, name="the rerank API key"),
        timeout_s=settings.timeout_s,
    )


def build_llm(settings: LlmSettings) -> LLM | None:
    """The configured extraction model, or None (``provider: none``): the rules alone."""
    if settings.provider == "none":
        return None
    if not settings.model:
        raise ConfigurationError("ENGRAM_LLM_MODEL is required when an LLM provider is configured")
    if settings.provider == "bedrock":
        from engram.adapters.bedrock_llm import BedrockLLM

        return BedrockLLM(
            settings.model,
            region=settings.region,
            timeout_s=settings.timeout_s,
            deadline_s=settings.deadline_s,
            max_attempts=settings.max_attempts,
            max_output_tokens=settings.max_output_tokens,
        )
    from engram.adapters.openai_compat import OpenAICompatLLM
    from engram.adapters.secrets import LazySecret

    if not settings.base_url:
        raise ConfigurationError("ENGRAM_LLM_BASE_URL is required for the openai provider")
    key = settings.api_key.get_secret_value() if settings.api_key else None
    return OpenAICompatLLM(
        settings.base_url,
        settings.model,
        api_key=LazySecret(key),
        timeout_s=settings.timeout_s,
        deadline_s=settings.deadline_s,
        max_attempts=settings.max_attempts,
        backoff_s=settings.backoff_s,
        max_output_tokens=settings.max_output_tokens,
    )


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


@dataclass
class Engine:
    settings: Settings
    store: MemoryStore
    index: SearchIndex
    embedder: Embedder
    extractor: Extractor
    clock: Clock
    reranker: Reranker | None = None
    llm: LLM | None = None
    ledger: UsageLedger | None = None
    """Where each tenant's daily usage counters go; None meters nothing."""
    queue: JobQueue | None = None
    usage_plans: UsagePlanRegistry | None = None
    """Where accepted jobs go (SQS in the cloud); None runs them on this process's job thread."""
    keys: KeyService | None = None
    blobs: BlobStore | None = None
    """Object storage for exports (and, in the store, large job bodies); None answers inline."""
    steps: StepQueue | None = None
    """Where tenant-wide work goes in resumable steps (SQS in the cloud); None does it inline."""
    operator_token: str | Callable[[], str | None] | None = field(default=None, repr=False)
    """The admin routes' credential, or a function reading it (from Secrets Manager) on first use."""
    _jobs: ThreadPoolExecutor | None = field(default=None, repr=False)
    _embedding: dict[str, threading.Lock] = field(default_factory=dict, repr=False)
    """One lock per tenant: one caller embeds a tenant's backlog at a time, and a recall of one
    tenant never waits for another tenant's backlog."""
    _embedding_guard: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _embedder_thread: threading.Thread | None = field(default=None, repr=False)
    _wake: threading.Event = field(default_factory=threading.Event, repr=False)
    _stopping: threading.Event = field(default_factory=threading.Event, repr=False)
    _lifecycle_thread: threading.Thread | None = field(default=None, repr=False)
    _lifecycle_stop: threading.Event = field(default_factory=threading.Event, repr=False)

    @classmethod
    def local(cls, settings: Settings) -> Engine:
        """The embedded default: SQLite file under ``settings.data_dir``, local model, rules."""
        from engram.adapters.clock import SystemClock
        from engram.adapters.local_embedder import shared_embedder
        from engram.adapters.sqlite.database import SqliteDatabase
        from engram.adapters.sqlite.keys import SqliteKeyStore
        from engram.adapters.sqlite.store import SqliteStore
        from engram.adapters.sqlite.usage import SqliteUsage
        from engram.adapters.sqlite_index import SqliteIndex
        from engram.auth import KeyService, load_or_create_secret
        from engram.extraction import RuleExtractor

        if settings.blas_threads is not None:
            from threadpoolctl import threadpool_limits

            threadpool_limits(settings.blas_threads, user_api="blas")
        db = SqliteDatabase(settings.data_dir / "engram.db", mmap_mb=settings.sqlite_mmap_mb)
        clock = SystemClock()
        embedder = shared_embedder()
        pepper = load_or_create_secret(settings.data_dir / "pepper")
        token = (
            settings.operator_token.get_secret_value()
            if settings.operator_token
            else (load_or_create_secret(settings.data_dir / "operator-token").decode())
        )
        return cls(
            keys=KeyService(SqliteKeyStore(db), pepper=pepper, clock=clock),
            operator_token=token,
            settings=settings,
            store=SqliteStore(db, clock=clock),
            ledger=SqliteUsage(db),
            index=SqliteIndex(db, dimension=embedder.dimension, scan=settings.scan),
            embedder=embedder,
            extractor=RuleExtractor(),
            clock=clock,
            llm=build_llm(settings.llm),
            reranker=build_reranker(settings.rerank),
            queue=_job_queue(settings),
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> Engine:
        """The engine ``settings.backend`` names: ``local`` (embedded default) or ``aws``."""
        return cls.aws(settings) if settings.backend == "aws" else cls.local(settings)

    @classmethod
    def aws(
        cls,
        settings: Settings,
        *,
        dynamodb: Any = None,
        index: SearchIndex | None = None,
        opensearch: Any = None,
        embedder: Embedder | None = None,
    ) -> Engine:
        """DynamoDB system of record, OpenSearch (or the in-process index), configured embedder.

        Clients may be injected (tests, the Lambda handlers' shared clients); otherwise they are
        built from ``settings.aws`` with botocore's standard retry mode.
        """
        from engram.adapters.clock import SystemClock
        from engram.adapters.dynamodb.keys import DynamoKeyStore
        from engram.adapters.dynamodb.store import DynamoStore
        from engram.adapters.dynamodb.table import dynamodb_client
        from engram.adapters.dynamodb.usage import DynamoUsage
        from engram.adapters.providers import build_embedder
        from engram.auth import KeyService
        from engram.extraction import RuleExtractor

        aws = settings.aws
        client = dynamodb or dynamodb_client(
            region=aws.region, endpoint_url=aws.dynamodb_endpoint, max_attempts=aws.max_attempts
        )
        blobs = None
        if aws.bucket:
            from engram.adapters.s3_blobs import S3Blobs

            blobs = S3Blobs(aws.bucket, region=aws.region)
        clock = SystemClock()
        store = DynamoStore(client, aws.table, blobs=blobs, clock=clock)
        embedder = embedder or build_embedder(settings)
        if index is None:
            if aws.index == "memory":
                from engram.adapters.memory_index import InMemoryIndex

                index = InMemoryIndex(store, dimension=embedder.dimension)
            else:
                from engram.adapters.opensearch_index import OpenSearchIndex, StreamBackedIndex

                built = build_search_index(settings, client=opensearch)
                assert isinstance(built, OpenSearchIndex)
                index = StreamBackedIndex(built)
        from engram.adapters.secrets import LazySecret

        # Either the value itself or, in the stack, a Secrets Manager ARN read once per container.
        keys = None
        # Nothing is read at build time: only the functions that use a secret may read it.
        if aws.key_pepper is not None:
            pepper = LazySecret(aws.key_pepper.get_secret_value(), name="the API key pepper")
            keys = KeyService(
                DynamoKeyStore(client, aws.table), pepper=lambda: str(pepper()).encode(), clock=clock
            )
        token = settings.operator_token.get_secret_value() if settings.operator_token else None
        usage_plans = None
        if aws.usage_plan_prefix:
            from engram.adapters.usage_plans import UsagePlans

            tiers = [t.strip() for t in aws.usage_plan_tiers.split(",") if t.strip()]
            usage_plans = UsagePlans(region=aws.region, prefix=aws.usage_plan_prefix, tiers=tiers)
        return cls(
            keys=keys,
            operator_token=LazySecret(token, name="the operator token") if token else None,
            settings=settings,
            store=store,
            ledger=DynamoUsage(client, aws.table),
            index=index,
            embedder=embedder,
            extractor=RuleExtractor(),
            clock=clock,
            llm=build_llm(settings.llm),
            reranker=build_reranker(settings.rerank),
            queue=_job_queue(settings),
            usage_plans=usage_plans,
            blobs=blobs,
            steps=_step_queue(settings),
        )

    def reindex(
        self, tenant_ids: Sequence[str], *, clean: bool = False, progress: Callable[[int], None] | None = None
    ) -> dict[str, int]:
        """Rebuild the search index of these tenants from the system of record (``engram reindex``)."""
        from engram.indexer import reindex

        for tenant_id in tenant_ids:
            self._settings(tenant_id)
            self.embed_pending(tenant_id)
        target = self.index.rebuild_target()  # set up, and failures show rather than deferred
        return reindex(
            tenant_ids,
            records=self.store.iter_records,
            index=target,
            clean=clean,
            progress=progress,
        )

    # -- tenants ---------------------------------------------------------------------------------

    def create_tenant(self, tenant_id: str, name: str | None = None) -> Tenant:
        """A new tenant; its id must be canonical (``^[a-z0-9][a-z0-9-]{2,62}$``)."""
        request = parse(NewTenant, {"tenant_id": tenant_id, "name": name or tenant_id})
        tenant = Tenant(tenant_id=request.tenant_id, name=request.name, created_at=self.clock.now())
        self.store.create_tenant(tenant)
        if self.usage_plans is not None:
            try:
                self.usage_plans.enroll(tenant.tenant_id)
            except Exception:
                self.store.erase_tenant(tenant.tenant_id)  # no tenant that API Gateway would refuse
                raise
        return tenant

    def configure_tenant(self, tenant_id: str, overrides: dict[str, Any]) -> Settings:
        """Set a tenant's overrides of ``recall``, ``lifecycle`` and ``retain`` settings (validated first)."""
        parse(TenantOverrides, overrides)  # a misspelt or invalid setting: the error's details name it
        try:
            effective = self.settings.for_tenant(overrides)
        except (ValueError, TypeError) as exc:
            raise ValidationFailedError(f"invalid settings: {exc}") from None
        if not self.store.set_tenant_settings(tenant_id, overrides):
            raise NotFoundError(f"tenant '{tenant_id}' not found")
        return effective

    def operator_credential(self) -> str | None:
        """The operator token, read (once, by its reader) when first needed."""
        return self.operator_token() if callable(self.operator_token) else self.operator_token

    def settings_for(self, tenant_id: str) -> Settings:
        """The settings in effect for a tenant: the service's, with the tenant's overrides."""
        return self._settings(tenant_id)

    def _settings(self, tenant_id: str) -> Settings:
        tenant = self.store.get_tenant(tenant_id)
        if tenant is None or tenant.erasing:
            raise NotFoundError(f"tenant '{tenant_id}' not found")
        return self.settings.for_tenant(tenant.settings_overrides)

    def _scopes(
        self, tenant_id: str, requested: Sequence[str] | None, allowed: Sequence[str] | None
    ) -> list[str]:
        """The scopes a call touches: what it asked for, within what its credential allows."""
        if requested:
            if allowed is not None:
                denied = [s for s in requested if s not in allowed]
                if denied:
                    raise ForbiddenError(f"scope not allowed for this key: {', '.join(denied)}")
            return list(dict.fromkeys(requested))
        return list(allowed) if allowed is not None else list(ALL_SCOPES)

    # -- operations ------------------------------------------------------------------------------

    def retain(
        self, tenant_id: str, request: RetainRequest, *, allowed_scopes: Sequence[str] | None = None
    ) -> RetainResponse:
        settings = self._settings(tenant_id)
        self._scopes(tenant_id, [request.scope], allowed_scopes)
        self._check_embedding_budget(tenant_id, settings)
        llm, fallback = self.llm, None
        if llm is not None and request.mode != "raw":
            fallback = self._llm_budget_spent(tenant_id, settings)
            llm = None if fallback else llm
        with self.metered(tenant_id, "retain_calls") as usage:
            if fallback:
                usage["llm_budget_fallbacks"] += 1
            response = retain_service.retain(
                tenant_id,
                request,
                store=self.store,
                index=self.index,
                embedder=MeteredEmbedder(self.embedder, usage),
                extractor=self.extractor,
                clock=self.clock,
                settings=settings,
                llm=llm,
                usage=usage,
            )
        if fallback:
            response.fallback = fallback
        if settings.retain.defer_embedding and response.results:
            self._wake_embedder()
        return response

    # -- background embedding ----------------------------------------------------------------------

    def _embedding_lock(self, tenant_id: str) -> threading.Lock:
        with self._embedding_guard:
            return self._embedding.setdefault(tenant_id, threading.Lock())

    def embed_pending(self, tenant_id: str, *, batch: int = 64, at_most: int | None = None) -> int:
        """Embed every memory of the tenant still stored without a vector; how many were embedded.

        The background worker calls it to keep the backlog short; reads that need every vector
        (forget by query, export) call it first, and so does recall when nothing else would embed
        the backlog or the index cannot search memories without one (``recall_waits``). With
        ``at_most``, a backlog larger than that is left alone (to the background worker).
        """
        done = 0
        lock = self._embedding_lock(tenant_id)
        waiting = self.store.pending_embedding(tenant_id, 1 if at_most is None else at_most + 1)
        if not waiting:  # the common case: nothing to wait for
            if lock.locked() and self.index.follows_upserts_only:
                # An index that learns of writes only through upsert (not from the store) must
                # not be read between a batch's set_embeddings and its upsert: wait for the batch.
                with lock:
                    pass
            return done
        if at_most is not None and len(waiting) > at_most:
            return done
        retain = self._settings(tenant_id).retain
        with lock:
            while True:
                pending = self.store.pending_embedding(tenant_id, batch)
                if not pending:
                    return done
                texts = embedding_keys.texts_to_embed(tenant_id, pending, store=self.store, settings=retain)
                with self.metered(tenant_id) as usage:
                    vectors = MeteredEmbedder(self.embedder, usage).embed(texts)
                items = [
                    (memory_id, digest, v) for (memory_id, _, digest), v in zip(pending, vectors, strict=True)
                ]
                stored = set(self.store.set_embeddings(tenant_id, items, self.embedder.model_id))
                records = self.store.get_many(tenant_id, [i for i, _, _ in items if i in stored])
                pairs = [(records[i], v) for i, _, v in items if i in records]
                self.index.upsert(tenant_id, [r for r, _ in pairs], [v for _, v in pairs])
                done += len(pending)

    def recall_waits(self) -> bool:
        """Whether recall embeds the backlog before it ranks. Not when a background thread embeds
        it and the index finds unembedded memories by BM25: the first recall after a bulk retain
        then answers at once, and vectors join as they are made."""
        return not (self.settings.background_embedding and self.index.indexes_unembedded)

    def _wake_embedder(self) -> None:
        """Start (once) or nudge the thread that embeds deferred memories."""
        if not self.settings.background_embedding:
            return
        if self._embedder_thread is None or not self._embedder_thread.is_alive():
            self._stopping.clear()
            self._embedder_thread = threading.Thread(
                target=self._embed_loop, name="engram-embedder", daemon=True
            )
            self._embedder_thread.start()
        self._wake.set()

    def _embed_loop(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(timeout=5.0)
            self._wake.clear()
            for tenant_id in self.store.tenants_with_pending():
                if self._stopping.is_set():
                    return
                try:
                    self.embed_pending(tenant_id)
                except Exception:  # keep the worker alive; reads embed what it could not
                    logger.exception("background embedding failed")

    def submit_retain(
        self, tenant_id: str, request: RetainRequest, *, allowed_scopes: Sequence[str] | None = None
    ) -> JobAccepted:
        """Accept a retain to run in the background; the job (with its body) is durable before this returns."""
        self._settings(tenant_id)
        self._scopes(tenant_id, [request.scope], allowed_scopes)
        now = self.clock.now()
        check_expiry(request.expires_at, now)  # refused now, not when the job runs
        if request.idempotency_key is not None:
            earlier = self._keyed_job(tenant_id, request)
            if earlier is not None:
                return earlier
        job = Job(
            job_id=job_id(tenant_id, request.idempotency_key),
            status="queued",
            scope=request.scope,
            created_at=now,
            updated_at=now,
            request=request.model_dump(mode="json", by_alias=True, exclude_none=True),
        )
        self.store.put_job(tenant_id, job)
        if self.queue is None:
            self._worker().submit(self._run_job, tenant_id, job)
            return JobAccepted(job_id=job.job_id)
        try:
            self.queue.enqueue(tenant_id, job.job_id)
        except Exception as exc:
            failed = job.model_copy(
                update={"status": "failed", "error": "could not enqueue", "request": None}
            )
            self.store.put_job(tenant_id, failed)
            raise ProviderError("the job queue did not accept the retain; retry") from exc
        return JobAccepted(job_id=job.job_id)

    def _keyed_job(self, tenant_id: str, request: RetainRequest) -> JobAccepted | None:
        """The job an earlier submit with this ``Idempotency-Key`` made (same body), or None to make
        one; the key used for another body is a 409 now, not a failed job later."""
        assert request.idempotency_key is not None
        # The job runs the retain with async false: that is the body the key stands for.
        wanted = retain_service.fingerprint(request.model_copy(update={"async_": False}))
        previous = self.store.idempotent_result(tenant_id, request.idempotency_key)
        if previous is not None and previous[0] != wanted:
            raise ConflictError("this Idempotency-Key was used for a different request")
        job = self.store.get_job(tenant_id, job_id(tenant_id, request.idempotency_key))
        if job is None or (job.status == "failed" and job.request is None):
            return None  # a new job (its retain replays what the key already stored, if anything)
        if job.request is not None and retain_service.fingerprint(_job_request(job)) != wanted:
            raise ConflictError("this Idempotency-Key was used for a different request")
        return JobAccepted(job_id=job.job_id)

    def run_job(self, tenant_id: str, job_id_: str) -> Job | None:
        """Run one queued job (the extract worker's entry). A succeeded or unknown job is left
        alone, so a redelivered message is a no-op; a failed one runs again (its retain carries
        the job's idempotency key, so what a first attempt committed is replayed, not rewritten).
        Returns the job as it ends, None if it does not exist."""
        job = self.store.get_job(tenant_id, job_id_)
        if job is None or job.status == "succeeded":
            return job
        if job.request is None:  # a failed job whose body was dropped cannot run again
            return job
        self._run_job(tenant_id, job)
        return self.store.get_job(tenant_id, job_id_)

    def resume_jobs(self) -> int:
        """Requeue jobs a stopped process left queued or running; returns how many."""
        if self.store.tenants_with_pending():
            self._wake_embedder()
        pending = self.store.pending_jobs()
        for tenant_id, job in pending:
            self._worker().submit(self._run_job, tenant_id, job)
        return len(pending)

    def get_job(self, tenant_id: str, job_id_: str, *, allowed_scopes: Sequence[str] | None = None) -> Job:
        self._settings(tenant_id)
        job = self.store.get_job(tenant_id, job_id_)
        if job is None or (allowed_scopes is not None and job.scope not in allowed_scopes):
            raise NotFoundError(f"job '{job_id_}' not found")
        return job

    def _worker(self) -> ThreadPoolExecutor:
        if self._jobs is None:
            self._jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-jobs")
        return self._jobs

    def _run_job(self, tenant_id: str, job: Job) -> None:
        running = job.model_copy(update={"status": "running", "updated_at": self.clock.now()})
        self.store.put_job(tenant_id, running)
        try:
            # The job's own key makes a retried job replay its first outcome instead of writing twice.
            response = self.retain(tenant_id, _job_request(job))
            results = [
                r.model_copy(update={"memory": None}) for r in response.results
            ]  # ids only: no content
            done = running.model_copy(
                update={
                    "status": "succeeded",
                    "results": results,
                    "fallback": response.fallback,
                    "request": None,
                    "updated_at": self.clock.now(),
                }
            )
        except Exception as exc:  # the job reports any failure; the process goes on
            logger.exception("retain job failed")
            done = running.model_copy(
                update={
                    "status": "failed",
                    "error": str(exc),
                    # Queued jobs keep their body so a redelivery can run them again.
                    "request": job.request if self.queue is not None else None,
                    "updated_at": self.clock.now(),
                }
            )
        self.store.put_job(tenant_id, done)

    # -- lifecycle ---------------------------------------------------------------------------------

    def run_lifecycle(
        self,
        tenant_id: str,
        *,
        now: datetime | None = None,
        dry_run: bool = False,
        rules: lifecycle_service.RuleSet = "all",
        should_stop: Callable[[], bool] | None = None,
    ) -> LifecycleReport:
        """Run (or resume) the lifecycle job on one tenant, with the tenant's lifecycle settings."""
        settings = self._settings(tenant_id)
        return lifecycle_service.run(
            tenant_id,
            store=self.store,
            index=self.index,
            clock=self.clock,
            settings=settings,
            now=now,
            dry_run=dry_run,
            rules=rules,
            should_stop=should_stop,
        )

    def run_lifecycle_all(
        self,
        *,
        now: datetime | None = None,
        dry_run: bool = False,
        rules: lifecycle_service.RuleSet = "all",
        should_stop: Callable[[], bool] | None = None,
    ) -> list[LifecycleReport]:
        """The job on every tenant in turn (one tenant's failure is logged and the others still run)."""
        reports: list[LifecycleReport] = []
        for tenant in self.store.list_tenants():
            if reports and should_stop is not None and should_stop():  # each call does at least a page
                break
            try:
                reports.append(
                    self.run_lifecycle(
                        tenant.tenant_id, now=now, dry_run=dry_run, rules=rules, should_stop=should_stop
                    )
                )
            except Exception:  # keep going: every tenant gets its run
                logger.exception("lifecycle run failed for a tenant")
        return reports

    def start_lifecycle(self, interval_s: float) -> None:
        """Run the job over every tenant now and then every ``interval_s`` seconds, on a background thread."""
        if self._lifecycle_thread is not None:
            return
        self._lifecycle_stop.clear()

        def loop() -> None:
            while not self._lifecycle_stop.is_set():
                self.run_lifecycle_all(should_stop=self._lifecycle_stop.is_set)
                self._lifecycle_stop.wait(interval_s)

        self._lifecycle_thread = threading.Thread(target=loop, name="engram-lifecycle", daemon=True)
        self._lifecycle_thread.start()

    def close(self) -> None:
        """Finish queued jobs, stop the workers and embed whatever is still pending."""
        if self._lifecycle_thread is not None:
            self._lifecycle_stop.set()  # a run stops after its current page and resumes next time
            self._lifecycle_thread.join()
            self._lifecycle_thread = None
        if self._jobs is not None:
            self._jobs.shutdown(wait=True)
            self._jobs = None
        if self._embedder_thread is not None:
            self._stopping.set()
            self._wake.set()
            self._embedder_thread.join()
            self._embedder_thread = None
        for tenant_id in self.store.tenants_with_pending():
            self.embed_pending(tenant_id)

    def recall(
        self,
        tenant_id: str,
        request: RecallRequest,
        *,
        allowed_scopes: Sequence[str] | None = None,
        with_timings: bool = False,
    ) -> RecallResponse:
        settings = self._settings(tenant_id)
        scopes = self._scopes(tenant_id, request.scopes, allowed_scopes)
        self._check_embedding_budget(tenant_id, settings)
        # A backlog of a few memories (one short retain) is embedded here, so a paraphrase finds
        # them at once; a larger one is the background's, and BM25 finds it meanwhile.
        self.embed_pending(
            tenant_id, at_most=None if self.recall_waits() else settings.recall.embed_inline_max
        )
        with self.metered(tenant_id, "recall_calls") as usage:
            return recall_service.recall(
                tenant_id,
                request,
                scopes=scopes,
                store=self.store,
                index=self.index,
                embedder=MeteredEmbedder(self.embedder, usage),
                clock=self.clock,
                settings=settings,
                reranker=self.reranker,
                with_timings=with_timings,
                usage=usage,
            )

    def forget(
        self, tenant_id: str, request: ForgetRequest, *, allowed_scopes: Sequence[str] | None = None
    ) -> ForgetResponse:
        settings = self._settings(tenant_id)
        named = (
            [request.filter.scope] if request.filter is not None and request.filter.scope else request.scopes
        )
        scopes = self._scopes(tenant_id, named, allowed_scopes)
        if request.query is not None:
            self.embed_pending(tenant_id)
        with self.metered(tenant_id, "forget_calls") as usage:
            return forget_service.forget(
                tenant_id,
                request,
                scopes=scopes,
                store=self.store,
                index=self.index,
                embedder=MeteredEmbedder(self.embedder, usage),
                clock=self.clock,
                settings=settings,
            )

    def feedback(
        self,
        tenant_id: str,
        memory_id: str,
        request: FeedbackRequest,
        *,
        allowed_scopes: Sequence[str] | None = None,
    ) -> FeedbackResponse:
        settings = self._settings(tenant_id)
        self.meter(tenant_id, {"feedback_calls": 1})
        return feedback_service.feedback(
            tenant_id,
            memory_id,
            request,
            store=self.store,
            clock=self.clock,
            settings=settings,
            scopes=allowed_scopes,
            index=self.index,
        )

    def get(
        self,
        tenant_id: str,
        memory_id: str,
        *,
        allowed_scopes: Sequence[str] | None = None,
        with_history: bool = False,
    ) -> MemoryView:
        settings = self._settings(tenant_id)
        return memory_service.get(
            tenant_id,
            memory_id,
            store=self.store,
            scopes=allowed_scopes,
            with_history=with_history,
            clock=self.clock,
            settings=settings,
        )

    def list_memories(
        self, tenant_id: str, request: ListRequest, *, allowed_scopes: Sequence[str] | None = None
    ) -> ListResponse:
        self._settings(tenant_id)
        scopes = self._scopes(tenant_id, [request.scope] if request.scope else None, allowed_scopes)
        return memory_service.list_memories(tenant_id, request, scopes=scopes, store=self.store)

    def patch(
        self,
        tenant_id: str,
        memory_id: str,
        request: PatchRequest,
        *,
        allowed_scopes: Sequence[str] | None = None,
    ) -> MemoryView:
        self._settings(tenant_id)
        with self.metered(tenant_id) as usage:
            return memory_service.patch(
                tenant_id,
                memory_id,
                request,
                store=self.store,
                index=self.index,
                embedder=MeteredEmbedder(self.embedder, usage),
                clock=self.clock,
                scopes=allowed_scopes,
            )

    def restore(
        self,
        tenant_id: str,
        memory_id: str,
        request: RestoreRequest | None = None,
        *,
        allowed_scopes: Sequence[str] | None = None,
    ) -> MemoryView:
        self._settings(tenant_id)
        with self.metered(tenant_id) as usage:
            return memory_service.restore(
                tenant_id,
                memory_id,
                request or RestoreRequest(),
                store=self.store,
                index=self.index,
                embedder=MeteredEmbedder(self.embedder, usage),
                clock=self.clock,
                scopes=allowed_scopes,
            )

    def release(
        self,
        tenant_id: str,
        memory_id: str,
        *,
        allowed_scopes: Sequence[str] | None = None,
        released_by: str = "",
    ) -> MemoryView:
        self._settings(tenant_id)
        return memory_service.release(
            tenant_id,
            memory_id,
            store=self.store,
            index=self.index,
            clock=self.clock,
            scopes=allowed_scopes,
            released_by=released_by,
        )

    def delete(
        self, tenant_id: str, memory_id: str, *, allowed_scopes: Sequence[str] | None = None
    ) -> ForgetResponse:
        return self.forget(tenant_id, ForgetRequest(ids=[memory_id]), allowed_scopes=allowed_scopes)

    def stats(self, tenant_id: str, *, allowed_scopes: Sequence[str] | None = None) -> StatsResponse:
        """Counts of what the caller may see; tenant-wide usage and the lifecycle report (which
        names memories of every scope) only for a key of the whole tenant."""
        self._settings(tenant_id)
        stats = self.store.stats(tenant_id, scopes=allowed_scopes)
        if allowed_scopes is None:
            last = self.store.lifecycle_reports(tenant_id, 1)
            stats.last_lifecycle_run = last[0] if last else None
            totals = self.ledger.totals(tenant_id) if self.ledger is not None else {}
            stats.usage = dict.fromkeys(USAGE_COUNTERS, 0) | totals
            if self.ledger is not None:
                today = metering.day_of(self.clock.now())
                since = metering.days_back(today, STATS_USAGE_DAYS - 1)
                stats.usage_by_day = self.ledger.days(tenant_id, since=since, until=today)
        return stats

    def usage(self, tenant_id: str, *, since: str | None = None, until: str | None = None) -> UsageReport:
        """The tenant's counters per day from ``since`` to ``until`` (default: this month so far;
        none when ``since`` is later), their totals, and what it stores now (the operator's view
        and ``engram usage``)."""
        tenant = self.store.get_tenant(tenant_id)
        if tenant is None:
            raise NotFoundError(f"tenant '{tenant_id}' not found")
        today = metering.day_of(self.clock.now())
        until = until or today
        since = since or metering.month_start(until)
        days = self.ledger.days(tenant_id, since=since, until=until) if self.ledger is not None else {}
        stored = self.store.stats(tenant_id)
        return UsageReport(
            tenant_id=tenant_id,
            since=since,
            until=until,
            days=days,
            totals=metering.totals(days),
            stored_memories=stored.total,
            stored_bytes=stored.storage_bytes,
        )

    def _month_so_far(self, tenant_id: str) -> dict[str, int]:
        """The tenant's counters summed over this UTC month so far."""
        if self.ledger is None:
            return {}
        today = metering.day_of(self.clock.now())
        return metering.totals(self.ledger.days(tenant_id, since=metering.month_start(today), until=today))

    def _llm_budget_spent(self, tenant_id: str, settings: Settings) -> str | None:
        """Why this retain extracts by the rules (the LLM budget is spent), or None."""
        budget = settings.limits.llm_tokens_per_month
        if budget is None:
            return None
        month = self._month_so_far(tenant_id)
        spent = month.get("llm_input_tokens", 0) + month.get("llm_output_tokens", 0)
        if spent < budget:
            return None
        return f"llm budget spent: {spent} of {budget} tokens this month; extracted by the rules"

    def _check_embedding_budget(self, tenant_id: str, settings: Settings) -> None:
        """``QuotaExceededError`` (429 until the month ends) once the embedding budget is spent."""
        budget = settings.limits.embedding_tokens_per_month
        if budget is None:
            return
        spent = self._month_so_far(tenant_id).get("embedding_tokens", 0)
        if spent >= budget:
            now = self.clock.now()
            first = (now.replace(day=1) + timedelta(days=32)).replace(
                day=1, hour=0, minute=0, second=0, microsecond=0
            )
            raise QuotaExceededError(
                f"embedding budget spent: {spent} of {budget} tokens this month",
                retry_after=max(1, int((first - now).total_seconds())),
            )

    @contextlib.contextmanager
    def metered(self, tenant_id: str, *counted: str) -> Iterator[Counter[str]]:
        """A counter for what one operation of the tenant consumes, added to its day at the end
        (also when the operation fails: what it spent was spent). ``counted`` names start at 1."""
        usage: Counter[str] = Counter(dict.fromkeys(counted, 1))
        try:
            yield usage
        finally:
            self.meter(tenant_id, usage)

    def meter(self, tenant_id: str, counters: Mapping[str, int]) -> None:
        """Add counters to the tenant's usage today; a failure is logged, never raised (the
        operation it counts has already happened)."""
        if self.ledger is None or not any(counters.values()):
            return
        try:
            self.ledger.add(tenant_id, metering.day_of(self.clock.now()), counters)
        except Exception:
            logger.exception("usage counters could not be written")

    def export_lines(self, tenant_id: str, *, allowed_scopes: Sequence[str] | None = None) -> Iterator[str]:
        self._settings(tenant_id)
        self.embed_pending(tenant_id)  # an export carries every vector
        return memory_service.export_lines(tenant_id, store=self.store, scopes=allowed_scopes)

    def import_lines(
        self,
        tenant_id: str,
        lines: Iterable[str],
        progress: Callable[[int, int], None] | None = None,
        *,
        allowed_scopes: Sequence[str] | None = None,
    ) -> dict[str, int]:
        self._settings(tenant_id)
        with self.metered(tenant_id) as usage:
            return memory_service.import_lines(
                tenant_id,
                lines,
                store=self.store,
                index=self.index,
                embedder=MeteredEmbedder(self.embedder, usage),
                progress=progress,
                scopes=allowed_scopes,
                clock=self.clock,
            )

    def import_peer(
        self,
        tenant_id: str,
        fmt: str,
        text: str,
        *,
        default_scope: str = "global",
        dry_run: bool = False,
        skip_invalid: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> dict[str, Any]:
        """Import another service's export (``engram.peer_import``): the report of what was (or,
        with ``dry_run``, would be) imported and skipped."""
        from engram import peer_import

        self._settings(tenant_id)
        now = self.clock.now()
        plan = peer_import.parse(fmt, text, tenant_id=tenant_id, now=now, default_scope=default_scope)
        return peer_import.run(
            tenant_id,
            plan,
            store=self.store,
            index=self.index,
            embedder=self.embedder,
            now=now,
            dry_run=dry_run,
            skip_invalid=skip_invalid,
            progress=progress,
        )

    def export_link(
        self, tenant_id: str, *, allowed_scopes: Sequence[str] | None = None
    ) -> ExportLink | None:
        """With object storage (the cloud), the export is written there and this is where to
        fetch it (a response could not carry a large tenant: Lambda answers at most 6 MB);
        None without it: the caller streams ``export_lines`` itself."""
        if self.blobs is None:
            return None
        self._settings(tenant_id)
        import tempfile

        count = size = 0
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8") as out:
            for line in self.export_lines(tenant_id, allowed_scopes=allowed_scopes):
                out.write(line + "\n")
                count += 1
                size += len(line.encode()) + 1
            out.flush()
            key = f"tenants/{tenant_id}/exports/{job_id()}.jsonl"
            self.blobs.upload_file(key, out.name)
        expiry = self.settings.aws.export_url_expiry_s
        return ExportLink(
            url=self.blobs.presigned_get(key, expiry),
            expires_at=self.clock.now() + timedelta(seconds=expiry),
            memories=max(0, count - 1),  # the first line is the header
            bytes=size,
        )

    def erase_tenant(self, tenant_id: str) -> int | None:
        """Erase a tenant: its keys stop working at once. Inline (locally) everything goes now and
        the count of memories is returned; with a step queue (the cloud) the tenant is marked
        erasing, its erasure goes on in steps (``finish_erase``) and None is returned. Calling
        again while it is erasing queues the erasure again (harmless: each step is idempotent)."""
        tenant = self.store.get_tenant(tenant_id)
        if tenant is None:
            raise NotFoundError(f"tenant '{tenant_id}' not found")
        if self.keys is not None:
            self.keys.store.delete_tenant_keys(tenant_id)
        if self.usage_plans is not None:
            self.usage_plans.withdraw(tenant_id)
        if self.steps is None:
            removed = self.store.erase_tenant(tenant_id)
            self._forget_tenant_elsewhere(tenant_id)
            return removed
        from engram.steps import Step

        self.store.erase_tenant(tenant_id, should_stop=lambda: True)  # marks it: nothing is served now
        self.steps.send(Step(kind="erase", tenant_id=tenant_id).message())
        return None

    def finish_erase(self, tenant_id: str, *, should_stop: Callable[[], bool]) -> bool:
        """One step of an erasure; True once the tenant is gone from the store, the index and
        object storage, False if time ran out first (call again)."""
        self.store.erase_tenant(tenant_id, should_stop=should_stop)
        if self.store.get_tenant(tenant_id) is not None:
            return False
        self._forget_tenant_elsewhere(tenant_id)
        return True

    def _forget_tenant_elsewhere(self, tenant_id: str) -> None:
        if self.ledger is not None:
            self.ledger.forget_tenant(tenant_id)
        self.index.forget_tenant(tenant_id)
        if self.blobs is not None:
            self.blobs.delete_prefix(f"tenants/{tenant_id}/")


def _job_request(job: Job) -> RetainRequest:
    """The retain a job runs: its stored body, synchronously, under the request's key or the job's
    own (so a retried job replays what a first attempt committed instead of writing twice).
    Unset fields are dropped: null is not "not given" for text, messages or items."""
    body = {k: v for k, v in (job.request or {}).items() if v is not None} | {"async": False}
    body["idempotency_key"] = body.get("idempotency_key") or f"job:{job.job_id}"
    return RetainRequest.model_validate(body)
