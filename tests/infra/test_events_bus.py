"""The stack's events out: the EventBridge bus, the stream consumer's grant on it, the stage's
``events_publish`` default, and the example rule."""

from __future__ import annotations

from typing import Any

from infra_support import Synth
from infra_support import refs as _refs
from test_stack import CONFIG, _actions, _as_list, _function_names, _role_statements


def _only(resources: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    [(lid, resource)] = resources.items()
    return lid, resource["Properties"]


def _stream_environment(synth: Synth) -> dict[str, str]:
    return next(
        f["Properties"]["Environment"]["Variables"]
        for f in synth.resources("AWS::Lambda::Function").values()
        if f["Properties"].get("FunctionName") == f"{CONFIG.prefix}-stream"
    )


def test_the_stream_consumer_alone_may_put_events_on_the_bus_and_reads_the_table_by_key_only(
    synth: Synth,
) -> None:
    bus_id, bus = _only(synth.resources("AWS::Events::EventBus"))
    assert bus["Name"] == f"{CONFIG.prefix}-events"
    statements = _role_statements(synth, "stream")
    puts = [s for s in statements if "events:PutEvents" in _as_list(s["Action"])]
    assert [_refs(s["Resource"]) for s in puts] == [{bus_id}]
    # its table calls: the vector items and the tenants' settings (BatchGetItem), nothing written
    assert not {
        a
        for a in _actions(statements)
        if a.startswith(("dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query", "dynamodb:GetItem"))
    }
    assert "dynamodb:BatchGetItem" in _actions(statements)
    # And no other function may put events on it, and no events function is left
    names = set(_function_names(synth).values())
    assert "events" not in names and "indexer" not in names
    for function in names - {"stream"}:
        assert "events:PutEvents" not in _actions(_role_statements(synth, function)), function
    assert _stream_environment(synth)["ENGRAM_EVENT_BUS"] == bus["Name"]


def test_a_default_stage_publishes_only_the_tenants_that_turn_events_on(synth: Synth) -> None:
    from engram.settings import Settings

    # Given the default stage (test_variants synthesises one with events_publish on)
    env = _stream_environment(synth)
    # Then events.publish is off for every tenant that does not turn it on itself
    assert env["ENGRAM_EVENTS__PUBLISH"] == "false"
    assert (
        Settings.from_env({"ENGRAM_EVENTS__PUBLISH": env["ENGRAM_EVENTS__PUBLISH"]}).events.publish is False
    )


def test_the_example_rule_sends_every_engram_event_to_a_queue_with_retries_and_a_dlq(synth: Synth) -> None:
    bus_id, _ = _only(synth.resources("AWS::Events::EventBus"))
    rules = [
        r["Properties"]
        for r in synth.resources("AWS::Events::Rule").values()
        if bus_id in _refs(r["Properties"].get("EventBusName", ""))
    ]
    [rule] = rules
    assert rule["EventPattern"] == {"source": ["engram"]}
    [target] = rule["Targets"]
    queues = {q["Properties"]["QueueName"]: lid for lid, q in synth.resources("AWS::SQS::Queue").items()}
    assert _refs(target["Arn"]) == {queues[f"{CONFIG.prefix}-events"]}
    assert _refs(target["DeadLetterConfig"]["Arn"]) == {queues[f"{CONFIG.prefix}-events-dlq"]}
    assert target["RetryPolicy"]["MaximumRetryAttempts"] == 8
