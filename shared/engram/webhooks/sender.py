"""One bounded POST to a tenant's URL: checked address, total deadline, capped answer, no redirects.

``post`` checks the URL (``engram.webhooks.urls``), resolves its host and checks every address
again (DNS rebinding), connects to that checked address (TLS still verifies the host name), sends
the body and reads at most ``max_response_bytes`` of the answer. The whole attempt (the host's
lookup, connect, send, the answer's status line and headers, its body) has one deadline: the lookup
is waited for until then, and a watchdog shuts the socket at ``deadline_s``, so a receiver that
trickles a byte a second is cut off there, however short each read. A redirect is an answer like
any other (3xx: not delivered), never followed.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass

from engram.webhooks.urls import Lookup, Target, check_url, resolve


class AttemptFailed(Exception):
    """The attempt got no answer (refused address, connection error, deadline)."""


@dataclass(frozen=True)
class Answer:
    status: int
    read_bytes: int
    """How much of the body was read (at most the cap; the rest was never read)."""


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    *,
    deadline_s: float,
    max_response_bytes: int,
    allow_private: bool = False,
    tls: ssl.SSLContext | None = None,
    lookup: Lookup = socket.getaddrinfo,
) -> Answer:
    """POST ``body`` to ``url`` within ``deadline_s``; ``AttemptFailed`` when no answer came in
    time, ``RefusedURL`` when the URL or an address its host resolves to may not be called."""
    ends = time.monotonic() + deadline_s
    target = check_url(url, allow_private=allow_private)
    address = _resolve_by(ends, target, allow_private, lookup)
    try:
        sock = socket.create_connection((address, target.port), timeout=_left(ends))
    except OSError as exc:
        raise AttemptFailed(f"could not connect to {target.host}:{target.port} ({exc})") from exc
    expired = threading.Event()

    def cut() -> None:
        expired.set()
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    watchdog = threading.Timer(_left(ends), cut)
    watchdog.daemon = True
    watchdog.start()
    try:
        if target.scheme == "https":
            sock = (tls or ssl.create_default_context()).wrap_socket(sock, server_hostname=target.host)
        conn = http.client.HTTPConnection(target.host, target.port, timeout=_left(ends))
        conn.sock = sock  # already connected to the checked address
        conn.request("POST", target.path, body=body, headers={**headers, "Connection": "close"})
        response = conn.getresponse()
        read = _drain(response, max_response_bytes)
        return Answer(response.status, read)
    except (OSError, http.client.HTTPException, ValueError) as exc:
        if expired.is_set():
            raise AttemptFailed(f"no complete answer within {deadline_s:g} s") from None
        raise AttemptFailed(f"{type(exc).__name__}: {exc}") from exc
    finally:
        watchdog.cancel()
        with contextlib.suppress(OSError):
            sock.close()


def _resolve_by(ends: float, target: Target, allow_private: bool, lookup: Lookup) -> str:
    """``resolve`` within the attempt's deadline. ``getaddrinfo`` takes no timeout (a resolver that
    does not answer holds it through the system's retries), so it runs on a thread of its own and
    the attempt stops waiting at the deadline; the thread ends when the system gives up."""
    outcome: list[str | BaseException] = []

    def run() -> None:
        try:
            outcome.append(resolve(target, allow_private=allow_private, lookup=lookup))
        except BaseException as exc:  # handed to the attempt, which raises it
            outcome.append(exc)

    thread = threading.Thread(target=run, name="engram-webhook-lookup", daemon=True)
    thread.start()
    thread.join(_left(ends))
    if not outcome:
        raise AttemptFailed(f"{target.host} did not resolve before the deadline")
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _left(ends: float) -> float:
    left = ends - time.monotonic()
    if left <= 0:
        raise AttemptFailed("the deadline passed before the request was sent")
    return left


def _drain(response: http.client.HTTPResponse, cap: int) -> int:
    """Read the answer's body up to ``cap`` bytes (what is beyond is never read)."""
    read = 0
    while read < cap:
        chunk = response.read(min(65536, cap - read))
        if not chunk:
            break
        read += len(chunk)
    return read
