"""Scheduled lifecycle functions (EventBridge): ``decay_handler`` deletes expired memories and
archives faded ones, ``tiering_handler`` promotes and demotes; both call
``engram.lifecycle.service``.

The event's ``time`` is the run's ``now``, so a retried invocation resumes the same run (and a run
finished already changes nothing). ``detail.tenant_id`` limits a run to one tenant (an operator's
manual trigger). Otherwise, in the stack, every tenant gets a step of its own on the step queue
(``engram.tenants.steps``: the step worker runs it and queues it again until its report is complete, so
no tenant starves behind a large one); without a step queue every tenant runs in turn here. A run
stops after the page during which the remaining time fell under the margin.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

import engram.lifecycle.service
from engram.errors import ValidationFailedError
from engram.models import NewTenant, dump, parse
from engram.tenants import steps
from engram_http.runtime import count, deps, logger, metrics, tracer

Rules = Literal["decay", "tiering"]
STOP_MARGIN_MS = 60_000  # leave a page's worth of time before the Lambda timeout


def _now(event: dict[str, Any]) -> datetime | None:
    stamp = event.get("time")
    if not stamp:
        return None
    try:
        return datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValidationFailedError(f"time: not an ISO-8601 timestamp ({stamp!r})") from exc


def _run(rules: Rules, event: dict[str, Any], context: Any) -> dict[str, Any]:
    now = _now(event)
    tenant_id = (event.get("detail") or {}).get("tenant_id")

    def should_stop() -> bool:
        remaining = getattr(context, "get_remaining_time_in_millis", None)
        return remaining is not None and remaining() < STOP_MARGIN_MS

    if tenant_id is not None:
        tenant = parse(NewTenant, {"tenant_id": tenant_id, "name": tenant_id}).tenant_id
        reports = [
            deps().call(
                engram.lifecycle.service.run_lifecycle, tenant, now=now, rules=rules, should_stop=should_stop
            )
        ]
    elif (left := deps().call(steps.queue_lifecycle_all, rules, now, should_stop=should_stop)) is not None:
        # every tenant gets a step of its own, resumed until done
        logger.info("lifecycle steps queued", rules=rules, unfinished=len(left))
        return {"rules": rules, "queued": True, "reports": []}
    else:
        reports = deps().call(
            engram.lifecycle.service.run_lifecycle_all, now=now, rules=rules, should_stop=should_stop
        )
    for report in reports:
        logger.info(
            "lifecycle run",
            tenant_id=report.tenant_id,
            run_id=report.run_id,
            status=report.status,
            promoted=report.promoted,
            demoted=report.demoted,
            archived=report.archived,
            expired=report.expired,
        )
        for name in ("promoted", "demoted", "archived", "expired"):
            count(f"Lifecycle{name.capitalize()}", getattr(report, name))
    return {"rules": rules, "reports": [dump(r) for r in reports]}


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def decay_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Expiry and archival: ``expires_at`` due -> deleted (deletion log), faded peripheral -> archived."""
    return _run("decay", event, context)


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def tiering_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Promotions and demotions between peripheral, working and core."""
    return _run("tiering", event, context)


lambda_handler = tiering_handler
