"""The stack's events out: the EventBridge bus, the events function on the table's stream, its
least-privilege role and the example rule."""

from __future__ import annotations

from typing import Any

from infra_support import Synth
from infra_support import refs as _refs
from test_stack import CONFIG, _actions, _as_list, _function_names, _role_statements


def _only(resources: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    [(lid, resource)] = resources.items()
    return lid, resource["Properties"]


def test_the_events_function_reads_the_stream_with_partial_failures_and_a_dlq(synth: Synth) -> None:
    names = _function_names(synth)
    mappings = {
        names[_refs(m["Properties"]["FunctionName"]).pop()]: m["Properties"]
        for m in synth.resources("AWS::Lambda::EventSourceMapping").values()
    }
    events = mappings["events"]
    [table_id] = synth.resources("AWS::DynamoDB::Table")
    assert _refs(events["EventSourceArn"]) == {table_id}  # the table's stream, beside the indexer's
    assert events["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert events["BisectBatchOnFunctionError"] is True
    assert events["StartingPosition"] == "TRIM_HORIZON"
    queues = {q["Properties"]["QueueName"]: lid for lid, q in synth.resources("AWS::SQS::Queue").items()}
    assert _refs(events["DestinationConfig"]["OnFailure"]["Destination"]) == {
        queues[f"{CONFIG.prefix}-events-dlq"]
    }


def test_the_events_function_may_put_events_on_its_bus_only(synth: Synth) -> None:
    bus_id, bus = _only(synth.resources("AWS::Events::EventBus"))
    assert bus["Name"] == f"{CONFIG.prefix}-events"
    statements = _role_statements(synth, "events")
    puts = [s for s in statements if "events:PutEvents" in _as_list(s["Action"])]
    assert [_refs(s["Resource"]) for s in puts] == [{bus_id}]
    assert not {
        a for a in _actions(statements) if a.startswith(("dynamodb:PutItem", "dynamodb:Query", "es:"))
    }
    # And no other function may put events on it
    for function in set(_function_names(synth).values()) - {"events"}:
        assert "events:PutEvents" not in _actions(_role_statements(synth, function)), function
    env = next(
        f["Properties"]["Environment"]["Variables"]
        for f in synth.resources("AWS::Lambda::Function").values()
        if f["Properties"].get("FunctionName") == f"{CONFIG.prefix}-events"
    )
    assert env["ENGRAM_EVENT_BUS"] == bus["Name"]


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
