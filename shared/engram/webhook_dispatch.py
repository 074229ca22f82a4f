"""The webhook dispatcher: a background thread of ``engram serve`` that sends what the outbox holds.

Each round: the outbox's new rows become deliveries (one per subscribed endpoint, events derived
by ``engram.events``); the deliveries that are due and first of their memory at their endpoint are
leased and POSTed, signed (``engram.webhooks.sign``), a few endpoints at a time. A 2xx answer
delivers; anything else (an error status, a refused connection, a timeout) is tried again after
``backoff_s · 2^(attempt-1)`` (±25 %, at most ``max_backoff_s``) until ``max_attempts``, then the
delivery is ``failed``. Requests never wait for any of it: they only wrote their outbox rows.
The figures are ``Settings.webhook`` (``engram.settings.WebhookSettings``, env ``ENGRAM_WEBHOOK_*``).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from engram.ports import Clock
from engram.settings import WebhookSettings
from engram.webhooks import SIGNATURE_HEADER, WebhookStore, sign

if TYPE_CHECKING:
    from engram.deps import Deps

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Attempt:
    """One try at sending a delivery, as the store logs it."""

    at: str
    status_code: int | None
    """The receiver's HTTP status; None when no answer came."""
    error: str | None
    duration_ms: float
    outcome: str
    """``delivered``, ``failed`` (no more tries) or ``pending`` (tried again at ``next_attempt_at``)."""
    next_attempt_at: float


class DispatchStore(WebhookStore, Protocol):
    """The webhook store as the dispatcher uses it: the outbox fanned out into deliveries, leased, logged."""

    def fan_out(self, *, now: float, created_at: str, limit: int = 200) -> int: ...

    def claim_due(self, *, now: float, lease_s: float, limit: int = 100) -> list[dict[str, Any]]: ...

    def record_attempt(self, seq: int, attempt: Attempt) -> None: ...

    def prune(self, *, before: str) -> int: ...


class Dispatcher:
    """Drains the outbox and sends deliveries; :meth:`start` runs it on a daemon thread."""

    def __init__(
        self,
        store: DispatchStore,
        *,
        clock: Clock,
        settings: WebhookSettings | None = None,
        client: Any = None,
    ) -> None:
        import httpx

        self.store = store
        self.clock = clock
        self.settings = settings or WebhookSettings()
        self.client = client or httpx.Client(
            timeout=self.settings.timeout_s,
            follow_redirects=False,
            headers={"User-Agent": "engram-webhooks/1"},
        )
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool = ThreadPoolExecutor(
            max_workers=self.settings.senders, thread_name_prefix="engram-webhook"
        )
        self._pruned = 0.0

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="engram-webhooks", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop after the current round (deliveries still pending go out on the next start)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._pool.shutdown(wait=True)
        self.client.close()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                busy = self.run_once()
            except Exception:  # keep the thread alive: the next round tries again
                logger.exception("webhook dispatch round failed")
                busy = 0
            if not busy:
                self._stop.wait(self.settings.poll_s)

    def run_once(self) -> int:
        """One round: fan the outbox out, send what is due; returns outbox rows plus deliveries handled."""
        now = time.time()
        stamp = self.clock.now().isoformat()
        taken = self.store.fan_out(now=now, created_at=stamp)
        due = self.store.claim_due(now=now, lease_s=self.settings.timeout_s + 30.0)
        by_endpoint: dict[str, list[dict[str, Any]]] = {}
        for delivery in due:
            by_endpoint.setdefault(delivery["endpoint_id"], []).append(delivery)
        for done in [self._pool.submit(self._send_all, batch) for batch in by_endpoint.values()]:
            done.result()
        if now - self._pruned > 3600:
            self._pruned = now
            self.store.prune(before=(self.clock.now() - timedelta(days=self.settings.keep_days)).isoformat())
        return taken + len(due)

    def _send_all(self, batch: list[dict[str, Any]]) -> None:
        for delivery in batch:
            self._send(delivery)

    def _send(self, delivery: dict[str, Any]) -> None:
        body = (delivery["body"] or "").encode()
        attempt = int(delivery["attempts"]) + 1
        headers = {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: sign(delivery["secret"], body),
            "Engram-Event-Id": delivery["event_id"],
            "Engram-Event-Type": delivery["event_type"],
            "Engram-Delivery-Attempt": str(attempt),
        }
        started = time.perf_counter()
        status: int | None = None
        error: str | None = None
        try:
            status = self.client.post(delivery["url"], content=body, headers=headers).status_code
            if not 200 <= status < 300:
                error = f"HTTP {status}"
        except Exception as exc:  # refused, timed out, reset: all retried the same way
            error = f"{type(exc).__name__}: {exc}"[:300]
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        s = self.settings
        if error is None:
            outcome, wait = "delivered", 0.0
        elif attempt >= s.max_attempts:
            outcome, wait = "failed", 0.0
        else:
            outcome = "pending"
            wait = min(s.max_backoff_s, s.backoff_s * 2 ** (attempt - 1)) * random.uniform(0.75, 1.25)
        self.store.record_attempt(
            int(delivery["seq"]),
            Attempt(
                at=self.clock.now().isoformat(),
                status_code=status,
                error=error,
                duration_ms=duration_ms,
                outcome=outcome,
                next_attempt_at=time.time() + wait,
            ),
        )
        if outcome == "failed":
            logger.warning(
                "webhook delivery failed", extra={"event_id": delivery["event_id"], "attempts": attempt}
            )


def start_dispatcher(deps: Deps) -> Dispatcher | None:
    """The dispatcher of ``deps``' webhook store, started with ``deps.settings.webhook`` (``engram
    serve`` calls this); None when there is none (on the cloud backend events go to EventBridge)."""
    if deps.webhooks is None:
        return None
    dispatcher = Dispatcher(deps.webhooks, clock=deps.clock, settings=deps.settings.webhook)
    dispatcher.start()
    return dispatcher
