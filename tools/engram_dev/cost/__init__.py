"""``engram cost [--json] [--n N] [--dynamodb-endpoint URL]``: what a million calls and an idle
month of the cloud stack cost, from measured DynamoDB units and one price table.

The DynamoDB units are measured (``replay``: the cloud's store against DynamoDB Local, each
call's ``ReturnConsumedCapacity``); everything else is the price table (``prices``) times what a
call uses: API Gateway requests, Lambda invocations at each function's memory (from the stack's
function table) and an assumed duration, Titan tokens of the texts, SQS requests, EventBridge
events (only for the tenants that publish them: ``events.publish``, off by default) and the
stream consumer's cached read of that setting, log bytes (the access log line of each API
request, and what each invocation logs at its function's log level, from the stack), and X-Ray
traces (the stage's ``tracing_sample_rate`` of its API requests and of the jobs they queue, from
the stack). Each assumption is printed under ``units``. LLM tokens of a smart retain
are not included (they depend on the model and the text).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engram_dev.cost import prices as p
from engram_dev.cost.replay import REPO_ROOT, Units, measure

DURATION_S = {
    "retain": 0.15,
    "recall": 0.15,
    "memories": 0.05,
    "extract_worker": 3.0,
    "stream": 0.1,
}
"""Assumed time per invocation spent waiting on other services (Titan, DynamoDB, OpenSearch, the
LLM), which a function's memory does not change: not measurable here. The stream consumer's is
its ``_bulk`` (the indexer's, before the two consumers were one); ``PUBLISH_WAIT_S`` more when the
batch's events go on the bus."""
PUBLISH_WAIT_S = 0.05
"""The stream consumer's PutEvents call, when the tenant publishes (the events function's wait)."""
SETTINGS_READ_RRU = 0.5
"""The stream consumer's read of a tenant's ``events.publish``: one eventually consistent
``BatchGetItem`` of the tenant item (0.5 RRU) at most once a minute per tenant and container,
counted here for every raw or smart retain (the bound for a tenant that writes once a minute or
less; a busier tenant's writes share the read)."""
PUBLISHING = 0.0
"""The share of writes whose tenant publishes events on a default stage (``events.publish`` is off
until an operator turns it on for a tenant); ``events_publish`` on a stage makes it 1."""
TWO_CONSUMER_FUNCTIONS = {"indexer": (256, 0.1), "events": (256, PUBLISH_WAIT_S)}
"""The two stream consumers before they were one: (memory, waits) of each."""
FULL_CPU_MB = 1769
"""Lambda's memory at which a function has one full vCPU; below it, CPU time stretches by
``FULL_CPU_MB / memory``."""
CPU_OF = {"retain": "retain_raw", "recall": "recall", "extract_worker": "retain_smart"}
"""Whose measured CPU time (``units.<op>.cpu_ms``, from the replay) each function spends; the
smart retain's is the extract worker's, less the raw retain's that the retain function spends."""


def billed_s(function: str, memory_mb: int, cpu: dict[str, float], publishing: float = PUBLISHING) -> float:
    """One invocation's billed duration: its waits plus its CPU time at its memory's share of a vCPU
    (the stream consumer waits on the bus too for the share of writes that publish)."""
    waits = DURATION_S.get(function, 0.0) + (publishing * PUBLISH_WAIT_S if function == "stream" else 0.0)
    if function in TWO_CONSUMER_FUNCTIONS:
        waits = TWO_CONSUMER_FUNCTIONS[function][1]
    return waits + cpu.get(function, 0.0) * max(1.0, FULL_CPU_MB / memory_mb)


def cpu_by_function(measured: dict[str, Units]) -> dict[str, float]:
    out = {f: measured[op].cpu_s for f, op in CPU_OF.items() if op in measured}
    if "extract_worker" in out and "retain" in out:
        out["extract_worker"] = max(0.0, out["extract_worker"] - out["retain"])
    return out


def alarms(level: str) -> int:
    """The metrics the stack's alarms of ``level`` watch (``engram_infra.observability``), with a
    search domain (the default backend)."""
    sys.path.insert(0, str(REPO_ROOT / "infra"))
    from engram_infra.config import Config
    from engram_infra.functions import API_FUNCTIONS, worker_functions
    from engram_infra.observability import alarm_metrics
    from engram_infra.stack import WORKERS

    config = Config.from_values({})
    specs = (*API_FUNCTIONS, *worker_functions(extract_timeout_s=config.extract_worker_timeout_seconds))
    return alarm_metrics(level, functions=[s.name for s in specs], workers=WORKERS, domain=True)


def memory_mb() -> dict[str, int]:
    """Each function's memory as the stack configures it (``engram_infra.functions``)."""
    import os

    os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
    sys.path.insert(0, str(REPO_ROOT / "infra"))
    from engram_infra.config import Config
    from engram_infra.functions import API_FUNCTIONS, worker_functions

    config = Config.from_values({})
    specs = (*API_FUNCTIONS, *worker_functions(extract_timeout_s=config.extract_worker_timeout_seconds))
    return {s.name: s.memory_mb for s in specs}


# What one operation invokes: (function, invocations); the stream's one consumer sees each write
# once. A recall writes too: its access counts change the memory items (the consumer is invoked and
# skips them, as it does the usage counters' changes), counted here at a write's full duration.
INVOCATIONS: dict[str, list[tuple[str, float]]] = {
    "retain_raw": [("retain", 1), ("stream", 1)],
    "recall": [("recall", 1), ("stream", 1)],
    "retain_smart": [("retain", 1), ("extract_worker", 1), ("memories", 1), ("stream", 1)],
}
API_REQUESTS = {"retain_raw": 1, "recall": 1, "retain_smart": 2}  # smart: the POST and one job poll
SQS_REQUESTS = {"retain_raw": 0, "recall": 0, "retain_smart": 3}  # send, receive, delete
EVENTS = {"retain_raw": 1, "recall": 0, "retain_smart": 1}  # memory.created, for a tenant that publishes
SETTINGS_READS = {"retain_raw": 1, "recall": 0, "retain_smart": 1}  # the stream consumer's, each write
QUEUED_JOBS = {"retain_raw": 0, "recall": 0, "retain_smart": 1}  # the extract job
"""Traced as their sender was: a job queued by a sampled request is a trace of its own, linked to
the request's (X-Ray links an SQS consumer's trace to its producer's). The stream consumer is never
traced: a stream record carries no trace header (``engram_infra.functions.tracing_mode``)."""
TWO_CONSUMERS: dict[str, list[tuple[str, float]]] = {
    "retain_raw": [("retain", 1), ("indexer", 1), ("events", 1)],
    "recall": [("recall", 1), ("indexer", 1), ("events", 1)],
    "retain_smart": [("retain", 1), ("extract_worker", 1), ("memories", 1), ("indexer", 1), ("events", 1)],
}
"""What the operations invoked before the stream had one consumer: the indexer (0.1 s) and the
events function (0.05 s), both at 256 MB and ``WARN`` (the one-consumer lever's "before")."""


def log_bytes(
    name: str, levels: dict[str, str], invocations: dict[str, list[tuple[str, float]]] | None = None
) -> float:
    """What one operation logs: its API requests' access log lines, and each invocation's lines at
    its function's log level (``levels``, from the stack; ``INFO`` when not given)."""
    invoked = sum(
        n * p.LOG_BYTES_PER_INVOCATION[levels.get(f, "INFO")] for f, n in (invocations or INVOCATIONS)[name]
    )
    return API_REQUESTS[name] * p.ACCESS_LOG_BYTES + invoked


def log_levels() -> dict[str, str]:
    """Each function's application log level as the stack configures it (``engram_infra.functions``)."""
    sys.path.insert(0, str(REPO_ROOT / "infra"))
    from engram_infra.config import Config
    from engram_infra.functions import API_FUNCTIONS, log_level, worker_functions

    config = Config.from_values({})
    specs = (*API_FUNCTIONS, *worker_functions(extract_timeout_s=config.extract_worker_timeout_seconds))
    return {s.name: log_level(s) for s in specs}


def tracing_sample_rate() -> float:
    """The share of API requests the stage traces, as the stack configures it (``engram_infra.config``)."""
    sys.path.insert(0, str(REPO_ROOT / "infra"))
    from engram_infra.config import Config

    return float(Config.from_values({}).tracing_sample_rate)


def traces(name: str, sample_rate: float) -> float:
    """The X-Ray traces one operation records: its API requests and queued jobs, at the stage's rate."""
    return (API_REQUESTS[name] + QUEUED_JOBS[name]) * sample_rate


def per_million(
    name: str,
    units: Units,
    memory: dict[str, int],
    cpu: dict[str, float] | None = None,
    levels: dict[str, str] | None = None,
    *,
    publishing: float = PUBLISHING,
    invoked: dict[str, list[tuple[str, float]]] | None = None,
    reads_setting: bool = True,
    sample_rate: float = 0.0,
) -> dict[str, float]:
    """Dollars per million of one operation, by service (``cpu``: seconds per function's invocation;
    ``levels``: each function's log level; ``publishing``: the share of writes whose events go on
    the bus; ``invoked``: what each operation invokes, ``INVOCATIONS`` unless given;
    ``reads_setting``: the stream consumer reads the tenants' ``events.publish``; ``sample_rate``:
    the stage's ``tracing_sample_rate``)."""
    calls = (invoked or INVOCATIONS)[name]
    memory = {**memory, **{f: mb for f, (mb, _) in TWO_CONSUMER_FUNCTIONS.items()}}
    gb_s = sum(n * billed_s(f, memory[f], cpu or {}, publishing) * memory[f] / 1024 for f, n in calls)
    invocations = sum(n for _, n in calls)
    # the stream consumer reads the tenant's events.publish (cached); the two consumers did not
    consumer = any(f == "stream" for f, _ in calls)
    settings_rru = SETTINGS_READS[name] * SETTINGS_READ_RRU if consumer and reads_setting else 0.0
    lines = {
        "api_gateway": API_REQUESTS[name] * p.PRICES["apigw_rest_per_million"],
        "lambda": invocations * p.PRICES["lambda_per_million_requests"]
        + gb_s * p.PRICES["lambda_arm64_per_gb_s"] * 1e6,
        "dynamodb_writes": units.wru * p.PRICES["dynamodb_per_million_wru"],
        "dynamodb_reads": (units.rru + settings_rru) * p.PRICES["dynamodb_per_million_rru"],
        "titan": units.texts_chars
        / p.TITAN_CHARS_PER_TOKEN
        / 1000
        * p.PRICES["titan_v2_per_1k_tokens"]
        * 1e6,
        "sqs": SQS_REQUESTS[name] * p.PRICES["sqs_per_million_requests"],
        "eventbridge": EVENTS[name]
        * (publishing if consumer else 1.0)
        * p.PRICES["eventbridge_per_million_events"],
        "logs": log_bytes(name, levels or {}, invoked) / 1e9 * p.PRICES["cloudwatch_logs_per_gb"] * 1e6,
        "xray": traces(name, sample_rate) * p.PRICES["xray_traces_per_million"],
    }
    return {k: round(v, 2) for k, v in lines.items()}


def idle_per_month(instance: str, volume_gb: int, alarm_metrics: int) -> dict[str, float]:
    """A stage doing nothing: the one-node search domain, its volume, the key, the secrets, and its
    alarms ($0.10 a month per metric an alarm watches)."""
    hourly = p.PRICES[
        "opensearch_t3_small_per_hour" if instance.startswith("t3.small") else "opensearch_t3_medium_per_hour"
    ]
    lines = {
        "opensearch": hourly * p.HOURS_PER_MONTH,
        "opensearch_volume": volume_gb * p.PRICES["opensearch_gp3_per_gb_month"],
        "kms": p.PRICES["kms_key_per_month"],
        "secrets": 2 * p.PRICES["secret_per_month"],
        "alarms": alarm_metrics * p.PRICES["cloudwatch_alarm_per_month"],
    }
    return {k: round(v, 2) for k, v in lines.items()}


PREVIOUS_MEMORY_MB = {"retain": 1024, "recall": 1024, "extract_worker": 1024, "stream": 512}
"""The memory these functions had before they were right-sized (the Lambda lever's "before")."""


def levers(
    measured: dict[str, Units], memory: dict[str, int], cpu: dict[str, float], *, sample_rate: float = 0.0
) -> dict[str, Any]:
    """The Lambda lever's before (the same replay at the previous memory), and the levers not
    applied, projected from the price table (X-Ray at the stage's ``sample_rate`` throughout)."""
    levels = log_levels()
    total = {
        name: sum(per_million(name, u, memory, cpu, levels, sample_rate=sample_rate).values())
        for name, u in measured.items()
    }
    before = {**memory, **PREVIOUS_MEMORY_MB}
    out: dict[str, Any] = {}
    out["lambda_right_sized"] = {
        "how": "each function's memory from its measured CPU time and assumed waits (billed_s); before: "
        + ", ".join(f"{f} {mb} MB" for f, mb in PREVIOUS_MEMORY_MB.items()),
        "measured": True,
        "before_usd_per_million": {
            k: round(sum(per_million(k, u, before, cpu, levels, sample_rate=sample_rate).values()), 2)
            for k, u in measured.items()
        },
        "after_usd_per_million": {k: round(v, 2) for k, v in total.items()},
    }
    out.update(stream_levers(measured, memory, cpu, levels, sample_rate=sample_rate))
    out["http_api"] = {
        "how": "HTTP API ($1.00/M) instead of REST API ($3.50/M): not applied, the tiers are REST usage plans "
        "with API keys, which an HTTP API does not have",
        "measured": False,
        "saves_usd_per_million": {
            k: round(
                API_REQUESTS[k] * (p.PRICES["apigw_rest_per_million"] - p.PRICES["apigw_http_per_million"]), 2
            )
            for k in measured
        },
    }
    return out


def stream_levers(
    measured: dict[str, Units],
    memory: dict[str, int],
    cpu: dict[str, float],
    levels: dict[str, str],
    *,
    sample_rate: float = 0.0,
) -> dict[str, Any]:
    """The stream's two levers, each on the same replay: one consumer instead of the indexer and
    the events function (both publishing every event, as before), then events only for the
    tenants that publish them (a default stage: none until an operator turns a tenant on)."""
    two = {**levels, "indexer": "WARN", "events": "WARN"}

    def total(**options: Any) -> dict[str, float]:
        return {
            k: round(sum(per_million(k, u, memory, cpu, two, sample_rate=sample_rate, **options).values()), 2)
            for k, u in measured.items()
        }

    every = total(publishing=1.0, reads_setting=False)
    return {
        "one_stream_consumer": {
            "how": "one function reads the table's stream, indexes each batch and puts its events "
            "(functions/stream): one invocation instead of two, and the bus's wait in it",
            "measured": True,
            "before_usd_per_million": total(publishing=1.0, invoked=TWO_CONSUMERS, reads_setting=False),
            "after_usd_per_million": every,
        },
        "events_opt_in": {
            "how": "events only for the tenants whose events.publish is on (off by default; the stage's "
            "events_publish context turns it on for every tenant), read by the stream consumer "
            f"once a minute per tenant ({SETTINGS_READ_RRU} RRU, counted on every write)",
            "measured": True,
            "before_usd_per_million": every,
            "after_usd_per_million": total(publishing=PUBLISHING),
        },
    }


def report(n: int, endpoint: str | None) -> dict[str, Any]:
    memory = memory_mb()  # first: it silences jsii's warning before the stack's modules load
    from engram_infra.config import Config

    config = Config.from_values({})
    measured = measure(endpoint, n=n, dimension=config.embedding_dimensions)
    cpu = cpu_by_function(measured)
    levels = log_levels()
    rate = tracing_sample_rate()
    lines = {
        name: per_million(name, units, memory, cpu, levels, sample_rate=rate)
        for name, units in measured.items()
    }
    idle = idle_per_month(config.opensearch_instance_type, config.opensearch_volume_gb, alarms(config.alarms))
    return {
        "usd_per_million": {name: round(sum(v.values()), 2) for name, v in lines.items()},
        "idle_usd_per_month": round(sum(idle.values()), 2),
        "lines": lines,
        "idle": idle,
        "idle_t3_small_usd_per_month": round(
            sum(
                idle_per_month("t3.small.search", config.opensearch_volume_gb, alarms(config.alarms)).values()
            ),
            2,
        ),
        "idle_other_stage_usd_per_month": round(
            sum(idle_per_month("t3.medium.search", config.opensearch_volume_gb, alarms("all")).values()), 2
        ),
        "levers": levers(measured, memory, cpu, sample_rate=rate),
        "units": {
            **{name: u.to_dict() for name, u in measured.items()},
            "lambda_memory_mb": memory,
            "lambda_waits_s": DURATION_S,
            "lambda_cpu_s": {f: round(v, 4) for f, v in cpu.items()},
            "lambda_billed_s": {f: round(billed_s(f, memory[f], cpu), 4) for f in DURATION_S},
            "invocations": INVOCATIONS,
            "events_published_share": PUBLISHING,
            "settings_read_rru": {k: n * SETTINGS_READ_RRU for k, n in SETTINGS_READS.items()},
            "api_requests": API_REQUESTS,
            "log_levels": levels,
            "log_bytes_per_invocation": p.LOG_BYTES_PER_INVOCATION,
            "access_log_bytes": p.ACCESS_LOG_BYTES,
            "log_bytes": {name: log_bytes(name, levels) for name in INVOCATIONS},
            "tracing_sample_rate": rate,
            "queued_jobs": QUEUED_JOBS,
            "traces": {name: traces(name, rate) for name in INVOCATIONS},
            "titan_chars_per_token": p.TITAN_CHARS_PER_TOKEN,
            "embedding_dimensions": config.embedding_dimensions,
            "replayed": n,
        },
        "prices": {"as_of": p.PRICES_AS_OF, "region": p.REGION, **p.PRICES},
    }


def table(result: dict[str, Any]) -> str:
    names = ("retain_raw", "recall", "retain_smart")
    services = list(result["lines"]["retain_raw"])
    rows = ["| per million | raw retain | recall | smart retain (LLM tokens aside) |", "|---|---:|---:|---:|"]
    for service in services:
        rows.append(
            f"| {service} | " + " | ".join(f"{result['lines'][n][service]:.2f}" for n in names) + " |"
        )
    rows.append(
        "| **total** | " + " | ".join(f"**${result['usd_per_million'][n]:.2f}**" for n in names) + " |"
    )
    return "\n".join(rows)


def run(args: argparse.Namespace) -> int:
    result = report(int(getattr(args, "n", 20) or 20), getattr(args, "dynamodb_endpoint", None))
    if getattr(args, "json", False):
        print(json.dumps(result))
    else:
        print(table(result))
        print(f"\nidle dev stage: ${result['idle_usd_per_month']:.2f} a month ({result['idle']})")
    return 0
