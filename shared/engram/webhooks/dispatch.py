"""The webhook dispatcher: a background thread of ``engram serve`` that sends what the outbox holds.

Each round: the outbox's new rows become deliveries (one per subscribed endpoint, events derived
by ``engram.events.changes``); the deliveries that are due and first of their memory at their endpoint are
leased and join their endpoint's queue. Each endpoint's queue is sent in order by one sender at a
time, up to ``senders`` endpoints at once, and a round never waits for any of them: a slow
receiver holds up only its own deliveries, never another endpoint's or tenant's. Each attempt is
one bounded POST (``engram.webhooks.sender``: the address checked again at send time, a total
deadline of ``timeout_s``, at most ``max_response_bytes`` of the answer read, no redirect
followed), signed (``engram.webhooks.endpoints.sign``). A 2xx answer
delivers; anything else (an error status, a redirect, a refused connection, a timeout) is tried again after
``backoff_s · 2^(attempt-1)`` (±25 %, at most ``max_backoff_s``) until ``max_attempts``, then the
delivery is ``failed``. Requests never wait for any of it: they only wrote their outbox rows.
The figures are ``Settings.webhook`` (``engram.settings.WebhookSettings``, env ``ENGRAM_WEBHOOK_*``).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol

from engram.ports import Clock
from engram.settings import Settings, WebhookSettings
from engram.webhooks import sender
from engram.webhooks.endpoints import SIGNATURE_HEADER, WebhookStore, sign

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
        post: Callable[..., sender.Answer] = sender.post,
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = settings or WebhookSettings()
        self.post = post
        self._queues: dict[str, deque[dict[str, Any]]] = {}
        self._queued: set[int] = set()  # deliveries in a queue or being sent (a lease may lapse meanwhile)
        self._lock = threading.Lock()
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
        """One round: fan the outbox out, queue what is due at its endpoint (without waiting for
        any send); returns outbox rows plus deliveries newly queued."""
        now = time.time()
        stamp = self.clock.now().isoformat()
        taken = self.store.fan_out(now=now, created_at=stamp)
        due = self.store.claim_due(now=now, lease_s=self.settings.timeout_s + 30.0)
        queued = 0
        with self._lock:
            for delivery in due:
                if int(delivery["seq"]) in self._queued:
                    continue
                self._queued.add(int(delivery["seq"]))
                endpoint = str(delivery["endpoint_id"])
                if endpoint not in self._queues:
                    self._queues[endpoint] = deque()
                    self._pool.submit(self._drain, endpoint)
                self._queues[endpoint].append(delivery)
                queued += 1
        if now - self._pruned > 3600:
            self._pruned = now
            self.store.prune(before=(self.clock.now() - timedelta(days=self.settings.keep_days)).isoformat())
        return taken + queued

    def _drain(self, endpoint: str) -> None:
        """Send one endpoint's queue in order, until it is empty."""
        while True:
            with self._lock:
                queue = self._queues[endpoint]
                if not queue:
                    del self._queues[endpoint]
                    return
                delivery = queue.popleft()
            try:
                self._send(delivery)
            except Exception:  # the store failed: the lease lapses and a later round tries again
                logger.exception("webhook send failed")
            finally:
                with self._lock:
                    self._queued.discard(int(delivery["seq"]))

    def _send(self, delivery: dict[str, Any]) -> None:
        body = (delivery["body"] or "").encode()
        attempt = int(delivery["attempts"]) + 1
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "engram-webhooks/1",
            SIGNATURE_HEADER: sign(delivery["secret"], body),
            "Engram-Event-Id": delivery["event_id"],
            "Engram-Event-Type": delivery["event_type"],
            "Engram-Delivery-Attempt": str(attempt),
        }
        started = time.perf_counter()
        status: int | None = None
        error: str | None = None
        s = self.settings
        try:
            status = self.post(
                delivery["url"],
                body,
                headers,
                deadline_s=s.timeout_s,
                max_response_bytes=s.max_response_bytes,
                allow_private=s.allow_private,
            ).status
            if not 200 <= status < 300:
                error = f"HTTP {status}"
        except Exception as exc:  # refused address, timed out, reset: all retried the same way
            error = f"{type(exc).__name__}: {exc}"[:300]
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
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


def start_dispatcher(
    *, webhooks: DispatchStore | None, clock: Clock, settings: Settings
) -> Dispatcher | None:
    """The dispatcher of the webhook store, started with ``settings.webhook`` (``engram serve``
    calls this); None when there is none (on the cloud backend events go to EventBridge)."""
    if webhooks is None:
        return None
    dispatcher = Dispatcher(webhooks, clock=clock, settings=settings.webhook)
    dispatcher.start()
    return dispatcher
