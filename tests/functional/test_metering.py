"""Per-tenant daily usage on both backends (SQLite, and DynamoDB Local with atomic ADD): what
retain and recall count, the tenant's and the operator's views, the CLI, and concurrent adds."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scripted_llm import ScriptedLLM

from engram.adapters.dynamodb.usage import DynamoUsage
from engram.engine import Engine
from engram.errors import QuotaExceededError
from engram.models import RecallRequest, RetainRequest
from engram.settings import LlmSettings, Settings


def _today() -> str:
    """Today in UTC, read after the calls it checks (a module-level date goes stale at midnight)."""
    return datetime.now(UTC).date().isoformat()


ITEMS = ["I prefer dark mode in every editor", "My sister Ana lives in Porto", "I am allergic to peanuts"]


def _retain_and_recall(engine: Engine) -> None:
    engine.retain("acme", RetainRequest(scope="user:alice", items=[{"text": t} for t in ITEMS], mode="raw"))
    engine.recall("acme", RecallRequest(query="which editor theme do I like"))


def test_retain_and_recall_are_metered_per_tenant_and_day(engine: Engine) -> None:
    # Given a retain of three items and a recall by acme
    _retain_and_recall(engine)
    # When acme's stats and the operator's usage view are read
    stats = engine.stats("acme")
    report = engine.usage("acme")
    # Then calls, items, embedded texts and their tokens are counted for today
    usage = {name: count for name, count in stats.usage.items() if count}  # stats shows 0 for unused calls
    assert (usage["retain_calls"], usage["recall_calls"], usage["retained_items"]) == (1, 1, 3)
    assert usage["embedded_texts"] == 4  # three items and the query
    assert usage["embedding_tokens"] >= sum(len(t) // 4 for t in ITEMS)
    today = _today()
    assert stats.usage_by_day == {today: usage}
    assert report.days == {today: usage} and report.totals == usage
    assert (report.since, report.until) == (today[:8] + "01", today)
    assert (report.stored_memories, report.stored_bytes) == (3, stats.storage_bytes)
    # and globex, which did nothing, has no usage
    assert set(engine.stats("globex").usage.values()) == {0} and engine.usage("globex").days == {}


def test_a_scoped_key_sees_no_tenant_wide_usage(engine: Engine) -> None:
    _retain_and_recall(engine)
    stats = engine.stats("acme", allowed_scopes=["user:alice"])
    assert stats.usage == {} and stats.usage_by_day == {}


def test_smart_retains_count_llm_calls_and_tokens_by_model(data_dir: Path, scripted_llm: ScriptedLLM) -> None:
    # Given an engine whose extraction model is the scripted OpenAI-compatible server
    llm = LlmSettings(provider="openai", base_url=scripted_llm.url, model="scripted-model", api_key="sk")
    engine = Engine.local(Settings(data_dir=data_dir, llm=llm))
    engine.create_tenant("acme")
    # When a smart retain runs
    engine.retain(
        "acme",
        RetainRequest.model_validate(
            {
                "scope": "user:alice",
                "mode": "smart",
                "messages": [{"role": "user", "content": "We adopted a cat named Miso last week"}],
            }
        ),
    )
    # Then the model's calls and tokens are counted in total and under its label
    usage = engine.stats("acme").usage
    label = "openai/scripted-model"
    assert usage["llm_calls"] == usage[f"llm_calls:{label}"] >= 1
    assert usage["llm_input_tokens"] == usage[f"llm_input_tokens:{label}"] > 0
    assert usage[f"llm_output_tokens:{label}"] > 0
    engine.close()


def test_engram_usage_prints_a_tenants_days(cli: Callable[..., tuple[int, Any, str]], data_dir: Path) -> None:
    # Given a tenant that retained and recalled
    engine = Engine.local(Settings(data_dir=data_dir))
    engine.create_tenant("acme")
    _retain_and_recall(engine)
    engine.close()
    # When the CLI reads its usage, and a range that ends before it
    code, report, _ = cli("usage", "--tenant", "acme")
    _, empty, _ = cli("usage", "--tenant", "acme", "--since", "2020-01-01", "--until", "2020-01-31")
    # Then today is there with its counters, and the old range is empty
    assert code == 0 and report["days"][_today()]["retain_calls"] == 1
    assert empty["days"] == {} and empty["totals"] == {}


def test_concurrent_adds_on_dynamodb_all_count(dynamodb_local: Any) -> None:
    # Given eight writers adding to one tenant's day at once
    client = dynamodb_local.client()
    ledger = DynamoUsage(client, dynamodb_local.new_table(client))
    day = "2026-12-03"

    def add() -> None:
        for _ in range(25):
            ledger.add("acme", day, {"requests": 1, "requests:POST /v1/recall": 2})

    threads = [threading.Thread(target=add) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Then not one add is lost
    assert ledger.days("acme", since=day, until=day) == {
        day: {"requests": 200, "requests:POST /v1/recall": 400}
    }
    assert ledger.totals("globex") == {}


def _smart(text: str, **extra: object) -> RetainRequest:
    body = {"scope": "user:alice", "mode": "smart", "messages": [{"role": "user", "content": text}], **extra}
    return RetainRequest.model_validate(body)


def test_a_tenant_past_its_llm_budget_retains_by_the_rules_and_says_so(
    data_dir: Path, scripted_llm: ScriptedLLM
) -> None:
    # Given a tenant whose monthly LLM budget is one token
    llm = LlmSettings(provider="openai", base_url=scripted_llm.url, model="scripted-model", api_key="sk")
    engine = Engine.local(Settings(data_dir=data_dir, llm=llm))
    engine.create_tenant("acme")
    engine.configure_tenant("acme", {"limits": {"llm_tokens_per_month": 1}})
    # When it retains smartly three times, the last as a job
    first = engine.retain("acme", _smart("We adopted a cat named Miso last week"))
    calls = len(scripted_llm.requests)
    second = engine.retain("acme", _smart("I prefer dark mode in my editor"))
    accepted = engine.submit_retain("acme", _smart("My name is Sam", **{"async": True}))
    engine.close()
    job = engine.get_job("acme", accepted.job_id)
    # Then the first used the model, the others the rules, with the reason in the answer and the job
    assert first.fallback is None and calls >= 1
    assert second.fallback is not None and second.fallback.startswith("llm budget spent")
    assert second.results and len(scripted_llm.requests) == calls
    assert job.status == "succeeded" and job.fallback == second.fallback
    assert engine.stats("acme").usage["llm_budget_fallbacks"] == 2


def test_a_tenant_past_its_embedding_budget_is_refused_until_the_month_ends(data_dir: Path) -> None:
    # Given a tenant allowed 25 embedding tokens a month, which one retain (~22) and recall use up
    engine = Engine.local(Settings(data_dir=data_dir, background_embedding=False))
    engine.create_tenant("acme")
    engine.configure_tenant("acme", {"limits": {"embedding_tokens_per_month": 25}})
    _retain_and_recall(engine)
    # When it recalls again
    try:
        engine.recall("acme", RecallRequest(query="dark mode"))
        refused = None
    except QuotaExceededError as exc:
        refused = exc
    # Then it is a 429 telling when the month ends
    assert refused is not None and "embedding budget spent" in str(refused)
    assert 1 <= refused.retry_after <= 31 * 86_400
    engine.close()
