"""Which webhook URLs Engram refuses to call, at registration and again at each send."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import pytest

from engram.webhooks import sender
from engram.webhooks.urls import RefusedURL, check_url

HOSTILE = [
    "http://example.com/hook",  # plain http
    "https://127.0.0.1/",
    "https://localhost/",
    "https://localhost./",
    "https://foo.localhost/",
    "https://169.254.169.254/latest/meta-data/",  # the cloud metadata address
    "https://10.0.0.1/",
    "https://172.16.0.1/",
    "https://192.168.1.1/",
    "https://100.64.0.1/",  # shared address space
    "https://0.0.0.0/",
    "https://224.0.0.1/",
    "https://255.255.255.255/",
    "https://198.18.0.1/",
    "https://2130706433/",  # 127.0.0.1 as one decimal number
    "https://0x7f000001/",
    "https://0x7f.0.0.1/",
    "https://0177.0.0.1/",  # octal
    "https://127.1/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[fe80::1]/",
    "https://[fd00::1]/",
    "https://user:pass@example.com/",
    "https://user@example.com/",
    "https://example.com:99999/",
    "https://example.com:0/",
    "ftp://example.com/",
    "file:///etc/passwd",
    "https:///no-host",
]


@pytest.mark.parametrize("url", HOSTILE)
def test_a_hostile_webhook_url_is_refused_by_default_naming_the_field(url: str) -> None:
    with pytest.raises(RefusedURL) as refused:
        check_url(url, allow_private=False)
    assert refused.value.to_dict()["error"]["details"][0]["field"] == "url"


@pytest.mark.parametrize(
    "url", ["https://example.com/hook", "https://8.8.8.8/x", "https://hooks.example.com:8443/a?b=c"]
)
def test_an_https_url_of_a_public_host_is_accepted(url: str) -> None:
    assert check_url(url, allow_private=False).scheme == "https"


def test_the_local_development_setting_allows_http_to_loopback_and_private_addresses() -> None:
    assert check_url("http://127.0.0.1:9000/hook", allow_private=True).port == 9000
    assert check_url("http://192.168.1.5/", allow_private=True).host == "192.168.1.5"
    for still_refused in ("http://user:pw@127.0.0.1/", "http://169.254.169.254/", "http://2130706433/"):
        with pytest.raises(RefusedURL):
            check_url(still_refused, allow_private=True)


def test_a_name_that_resolves_to_a_private_address_at_send_time_is_never_called() -> None:
    # Given a public-looking name (accepted at registration) whose DNS now answers loopback
    url = "https://hooks.example.com/engram"
    check_url(url, allow_private=False)
    asked: list[str] = []

    def rebinding(host: str, port: int, **_: Any) -> list[Any]:
        asked.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    # When a delivery is sent, Then the resolved address is checked and nothing is connected
    with pytest.raises(RefusedURL, match=r"127\.0\.0\.1 is not a public address"):
        sender.post(url, b"{}", {}, deadline_s=2, max_response_bytes=1024, lookup=rebinding)
    assert asked == ["hooks.example.com"]


def test_a_name_whose_lookup_hangs_fails_the_attempt_at_its_deadline() -> None:
    # Given a resolver that does not answer (getaddrinfo itself takes no timeout)
    release = threading.Event()

    def hanging(host: str, port: int, **_: Any) -> list[Any]:
        release.wait(30)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port))]

    # When a delivery is sent with a 0.3 s deadline
    started = time.monotonic()
    with pytest.raises(sender.AttemptFailed, match="did not resolve before the deadline"):
        sender.post(
            "https://hooks.example.com/e", b"{}", {}, deadline_s=0.3, max_response_bytes=1024, lookup=hanging
        )
    # Then the attempt ends at its deadline, not when the resolver gives up
    assert time.monotonic() - started < 2.0
    release.set()


def test_a_lookup_error_within_the_deadline_still_refuses_the_name() -> None:
    def failing(host: str, port: int, **_: Any) -> list[Any]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(RefusedURL, match="does not resolve"):
        sender.post(
            "https://nowhere.example/e", b"{}", {}, deadline_s=2, max_response_bytes=1024, lookup=failing
        )
