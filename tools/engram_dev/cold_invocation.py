"""``engram coldstart --first-call``: what a cold start of the retain function costs in CPU time,
its first raw retain included, and so how long it takes at each Lambda memory size.

``engram coldstart`` times the handlers' imports alone; a cold container also builds its AWS
clients, its tracer (the X-Ray SDK) and whatever its first request loads. Here each of ``repeat``
fresh interpreters runs as the retain function does in Lambda: the stack's environment
(``ENGRAM_*`` shaped as ``engram_infra.stack`` sets it, the function's deadlines from
``engram_infra.functions``, ``AWS_LAMBDA_FUNCTION_NAME`` so the init check and the tracer run),
the handler loaded by path, then two raw retains (``events/retain.post.json``) against DynamoDB
Local and a stand-in for Titan and the search domain's ``_bulk``. Its CPU time (``time.process_time``: the interpreter's start-up, the
init, the first call, the second call) is what a vCPU share stretches: at ``memory`` MB Lambda
gives ``memory / 1,769`` of a vCPU, so a cold start's CPU time takes ``1,769 / memory`` times as
long below 1,769 MB (``engram cost``'s model). The cold start's share is everything up to the
end of the first call less a warm call (the second): it must fit ``COLD_START_S``.

The interpreters read cached bytecode (one unmeasured run first), as a layer shipping its
``__pycache__`` would; the stand-ins answer at once, so waits are not in the CPU time. They speak
plain HTTP: the TLS of the three connections a cold container opens in the cloud is not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FUNCTION = "retain"
EVENT = ROOT / "events" / "retain.post.json"
TENANT = "acme"  # the sample event's authorizer context names it
REGION = "eu-west-1"
ACCESS_KEY = "cold"
MEMORY_SIZES = (128, 256, 384, 512, 768, 1024)

# Run as ``python -c CHILD HANDLER_PATH EVENT_PATH``: prints one JSON line of CPU seconds.
CHILD = """\
import time
started = time.process_time()
import importlib.util, json, os, sys, uuid

handler_path, event_path = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("handler", handler_path)
module = importlib.util.module_from_spec(spec)
sys.modules["handler"] = module
spec.loader.exec_module(module)
init = time.process_time()


class Context:
    function_name = os.environ["AWS_LAMBDA_FUNCTION_NAME"]
    function_version = "$LATEST"
    invoked_function_arn = "arn:aws:lambda:eu-west-1:123456789012:function:" + function_name
    memory_limit_in_mb = 512
    log_group_name = "/aws/lambda/" + function_name
    log_stream_name = "cold"

    def __init__(self):
        self.aws_request_id = str(uuid.uuid4())
        self._deadline = time.monotonic() + 20

    def get_remaining_time_in_millis(self):
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def call(n):
    event = json.loads(open(event_path).read())
    body = json.loads(event["body"])
    body["text"] = f"{body['text']} ({uuid.uuid4().hex} {n})"  # a new memory each call
    event["body"] = json.dumps(body)
    os.environ["_X_AMZN_TRACE_ID"] = f"Root=1-{int(time.time()):08x}-{uuid.uuid4().hex[:24]};Sampled=0"
    answer = module.lambda_handler(event, Context())
    return answer["statusCode"], answer["body"][:300]


first_status = call(1)
first = time.process_time()
warm_status = call(2)
warm = time.process_time()
peak_kb = 0
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        peak_kb = int(line.split()[1])
print(json.dumps({
    "startup_s": started, "init_s": init - started, "first_s": first - init, "warm_s": warm - first,
    "status": [first_status, warm_status], "peak_mb": peak_kb / 1024, "modules": len(sys.modules),
}))
"""


@dataclass(frozen=True)
class Run:
    """One fresh interpreter's CPU seconds: start-up, the init (handler import), first and warm call."""

    startup_s: float
    init_s: float
    first_s: float
    warm_s: float
    peak_mb: float
    modules: int

    @property
    def cold_s(self) -> float:
        """What the cold start adds: everything to the end of the first call, less a warm call."""
        return self.startup_s + self.init_s + self.first_s - self.warm_s


def stretch(cpu_s: float, memory_mb: int, full_cpu_mb: int = 1769) -> float:
    """CPU seconds as Lambda runs them at ``memory_mb`` (a ``memory / 1,769`` share of a vCPU).

    >>> stretch(0.5, 1769), round(stretch(0.5, 256), 2)
    (0.5, 3.46)
    """
    return cpu_s * max(1.0, full_cpu_mb / memory_mb)


class _StandIn(BaseHTTPRequestHandler):
    """What a raw retain calls besides DynamoDB, answered at once: Titan Text Embeddings V2's
    ``InvokeModel`` (one fixed unit vector) and the domain's ``_bulk`` (the request path's
    best-effort index write, ``StreamBackedIndex.upsert``: every item accepted)."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.startswith("/_bulk"):
            answer: dict[str, Any] = {"took": 1, "errors": False, "items": []}
        else:
            body = json.loads(raw or b"{}")
            dimension = int(body["dimensions"])  # Titan V2's request always names it
            tokens = len(body.get("inputText", "")) // 5
            answer = {"embedding": [dimension**-0.5] * dimension, "inputTextTokenCount": tokens}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        return


@contextmanager
def standin() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _StandIn)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def function_environment(table: str) -> dict[str, str]:
    """The retain function's variables as the stack sets them (``engram_infra.stack._environment``
    and the function's deadlines), with names and ARNs of a dev stage."""
    os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
    from engram_infra.config import Config
    from engram_infra.functions import API_FUNCTIONS

    [spec] = [s for s in API_FUNCTIONS if s.name == FUNCTION]
    dimension = Config.from_values({}).embedding_dimensions
    arn = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:engram-dev"
    queue = "https://sqs.eu-west-1.amazonaws.com/123456789012/engram-dev"
    return {
        "ENGRAM_BACKEND": "aws",
        "ENGRAM_STAGE": "dev",
        "ENGRAM_TABLE": table,
        "ENGRAM_OPENSEARCH_ENDPOINT": "https://search-engram-dev.eu-west-1.es.amazonaws.com",
        "ENGRAM_OPENSEARCH_SERVICE": "es",
        "ENGRAM_OPENSEARCH_SHARDS": "1",
        "ENGRAM_OPENSEARCH_REPLICAS": "0",
        "ENGRAM_EMBEDDER": "bedrock",
        "ENGRAM_BEDROCK_MODEL": "amazon.titan-embed-text-v2:0",
        "ENGRAM_EMBEDDING_DIMENSIONS": str(dimension),
        "ENGRAM_DEFER_EMBEDDING": "false",
        "ENGRAM_LLM_PROVIDER": "bedrock",
        "ENGRAM_LLM_MODEL": "amazon.nova-micro-v1:0",
        "ENGRAM_RERANK_PROVIDER": "bedrock",
        "ENGRAM_RERANK_MODEL": "amazon.rerank-v1:0",
        "ENGRAM_EXTRACT_QUEUE_URL": f"{queue}-extract",
        "ENGRAM_STEP_QUEUE_URL": f"{queue}-steps",
        "ENGRAM_BUCKET": "engram-dev-bucket",
        "ENGRAM_OPERATOR_TOKEN": f"{arn}-operator",
        "ENGRAM_KEY_PEPPER": f"{arn}-pepper",
        "ENGRAM_USAGE_PLAN_PREFIX": "engram-dev-",
        "ENGRAM_TIERS": "free,pro",
        "POWERTOOLS_METRICS_NAMESPACE": "Engram",
        **spec.deadlines.environment(),
        "POWERTOOLS_SERVICE_NAME": "engram",
        "POWERTOOLS_LOG_LEVEL": "WARN",
        "ENGRAM_FUNCTION": FUNCTION,
        "AWS_LAMBDA_FUNCTION_NAME": f"engram-dev-{FUNCTION}",
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(spec.memory_mb),
        "AWS_REGION": REGION,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_ACCESS_KEY_ID": ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY": ACCESS_KEY,
        "TZ": ":UTC",
        "LANG": "C.UTF-8",
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }


def run_once(env: Mapping[str, str]) -> Run:
    handler = ROOT / "functions" / FUNCTION / "handler.py"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(handler), str(EVENT)],
        env=dict(env),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith('{"startup_s"')]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"the cold {FUNCTION} failed: {(done.stderr or done.stdout).strip()[-2000:]}")
    result = json.loads(lines[-1])
    if [status for status, _ in result["status"]] != [200, 200]:
        raise RuntimeError(
            f"the cold {FUNCTION} did not answer 200: {result['status']} {done.stdout[-3000:]}"
        )
    return Run(
        startup_s=result["startup_s"],
        init_s=result["init_s"],
        first_s=result["first_s"],
        warm_s=result["warm_s"],
        peak_mb=result["peak_mb"],
        modules=result["modules"],
    )


def measure(repeat: int, endpoint: str | None = None) -> list[Run]:
    """``repeat`` cold retains (after one unmeasured run that writes the bytecode caches)."""
    from engram_dev.cost.replay import dynamodb_local

    with dynamodb_local(endpoint) as url, standin() as other:
        table = "engram-cold-" + uuid.uuid4().hex[:8]
        _tenant(url, table)
        path = os.pathsep.join(str(ROOT / p) for p in ("shared", "functions"))
        env = function_environment(table) | {
            "PYTHONPATH": path,
            "AWS_ENDPOINT_URL_DYNAMODB": url,
            "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": other,
            "ENGRAM_OPENSEARCH_ENDPOINT": other,
        }
        run_once(env)
        return [run_once(env) for _ in range(repeat)]


def _tenant(url: str, table: str) -> None:
    """The table, and the sample event's tenant in it."""
    from engram.adapters.dynamodb.table import create_table, dynamodb_client
    from engram.app import build_aws
    from engram.engine import Engine
    from engram.settings import AwsSettings, Settings

    # DynamoDB Local keeps a database per access key and region: the function's
    client = dynamodb_client(
        region=REGION, endpoint_url=url, aws_access_key_id=ACCESS_KEY, aws_secret_access_key=ACCESS_KEY
    )
    create_table(client, table)
    settings = Settings(
        backend="aws",
        data_dir=Path(f"/tmp/engram-cold-{uuid.uuid4().hex[:8]}"),
        aws=AwsSettings(table=table, index="memory"),
    )
    engine = Engine(build_aws(settings, dynamodb=client))
    engine.create_tenant(TENANT)
    engine.close()


def summary(runs: list[Run], budget_s: float, configured_mb: int) -> dict[str, Any]:
    def median(values: list[float]) -> float:
        return round(statistics.median(values) * 1000, 1)

    cold_s = statistics.median(r.cold_s for r in runs)
    return {
        "function": FUNCTION,
        "repeat": len(runs),
        "cpu_ms": {
            "startup": median([r.startup_s for r in runs]),
            "init": median([r.init_s for r in runs]),
            "first_call": median([r.first_s for r in runs]),
            "warm_call": median([r.warm_s for r in runs]),
            "cold_start": median([r.cold_s for r in runs]),
            "cold_start_samples": [round(r.cold_s * 1000, 1) for r in runs],
        },
        "peak_mb": round(max(r.peak_mb for r in runs), 1),
        "modules": max(r.modules for r in runs),
        "configured_memory_mb": configured_mb,
        "cold_start_budget_s": budget_s,
        "cold_start_s_at_memory": {str(mb): round(stretch(cold_s, mb), 2) for mb in MEMORY_SIZES},
        "least_memory_mb_within_budget": next(
            (mb for mb in range(128, 1770) if stretch(cold_s, mb) <= budget_s), None
        ),
    }


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
    from engram_infra.functions import API_FUNCTIONS, COLD_START_S

    [spec] = [s for s in API_FUNCTIONS if s.name == FUNCTION]
    runs = measure(max(1, int(getattr(args, "repeat", None) or 5)), getattr(args, "dynamodb_endpoint", None))
    result = summary(runs, COLD_START_S, spec.memory_mb)
    if getattr(args, "json", False):
        print(json.dumps(result))
        return 0
    cpu = result["cpu_ms"]
    print(
        f"cold {FUNCTION}, median of {len(runs)} fresh interpreters (CPU ms): start-up {cpu['startup']}, "
        f"init {cpu['init']}, first raw retain {cpu['first_call']}, warm raw retain {cpu['warm_call']}; "
        f"cold start {cpu['cold_start']} ms of CPU, peak {result['peak_mb']} MB"
    )
    print("| memory MB | cold start s |\n|---:|---:|")
    for mb, seconds in result["cold_start_s_at_memory"].items():
        print(f"| {mb} | {seconds:.2f} |")
    print(
        f"\nleast memory within the {COLD_START_S:g} s budget: {result['least_memory_mb_within_budget']} MB "
        f"(configured: {spec.memory_mb} MB)"
    )
    return 0
