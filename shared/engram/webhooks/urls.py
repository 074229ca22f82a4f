"""Which URLs a webhook may name, and which addresses a delivery may connect to.

By default only ``https`` to a public address: no loopback, link-local (169.254.x, the cloud
metadata address), private, shared, multicast or reserved range, no IP written in a numeric form
other than a plain dotted quad or bracketed IPv6 (``2130706433``, ``0x7f.1``, ``0177.0.0.1`` and
``127.1`` all reach 127.0.0.1), no ``user:pass@`` and no port outside 1-65535. A host name is
checked again where it leads: every address it resolves to when a delivery is sent must be
public, and the delivery connects to that checked address (a name that resolves elsewhere the
second time, DNS rebinding, cannot slip through). ``allow_private`` (a local development
setting, ``ENGRAM_WEBHOOK_ALLOW_PRIVATE``) also allows ``http`` and loopback/private addresses
(never link-local, multicast or unspecified ones).

>>> check_url("https://hooks.example.com/engram", allow_private=False).host
'hooks.example.com'
>>> check_url("http://127.0.0.1:9000/", allow_private=True).port
9000
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from engram.errors import UnprocessableError

_NUMERIC_HOST = re.compile(r"^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]*))*$", re.IGNORECASE)
_DOTTED_QUAD = re.compile(
    r"^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}$"
)
_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


class RefusedURL(UnprocessableError):
    """A webhook URL (or the address it resolves to) that Engram will not call; a 422 naming ``url``."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"url: {problem}", details=[{"field": "url", "problem": problem, "type": "url"}])


@dataclass(frozen=True)
class Target:
    """A checked URL: scheme, host (lower case, no trailing dot), port and the path with its query."""

    scheme: str
    host: str
    port: int
    path: str


def check_url(url: str, *, allow_private: bool) -> Target:
    """The URL's parts, or ``RefusedURL`` saying what is wrong with it."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise RefusedURL("the port must be a number from 1 to 65535") from None
    allowed = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in allowed:
        raise RefusedURL("must be an https URL" if not allow_private else "must be an http or https URL")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise RefusedURL("must not carry a user name or password")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise RefusedURL("must name a host")
    if port is not None and not 1 <= port <= 65535:
        raise RefusedURL("the port must be a number from 1 to 65535")
    literal = _literal(host)
    if literal is not None:
        check_address(literal, allow_private=allow_private)
    elif not allow_private and (host in _LOCAL_NAMES or host.endswith((".localhost", ".local", ".internal"))):
        raise RefusedURL(f"{host} is a local name, not a public host")
    path = parts.path or "/"
    return Target(
        parts.scheme,
        host,
        port or (443 if parts.scheme == "https" else 80),
        path + (f"?{parts.query}" if parts.query else ""),
    )


def _literal(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP a host is written as, if it is one; a numeric form other than a dotted quad is refused."""
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            raise RefusedURL("not a valid IPv6 address") from None
    if _NUMERIC_HOST.match(host):
        if not _DOTTED_QUAD.match(host):
            raise RefusedURL("an IP address must be written as four decimal numbers (a.b.c.d)")
        return ipaddress.IPv4Address(host)
    return None


def check_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address, *, allow_private: bool) -> None:
    """``RefusedURL`` unless ``address`` is public (or ``allow_private``)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if allow_private and not (address.is_multicast or address.is_unspecified or address.is_link_local):
        return  # link-local stays refused: 169.254.169.254 is the cloud metadata address
    if not address.is_global or address.is_multicast:
        raise RefusedURL(f"{address} is not a public address")


Lookup = Callable[..., list[Any]]
"""``socket.getaddrinfo``, or a stand-in with its signature (tests: a name that rebinds)."""


def resolve(target: Target, *, allow_private: bool, lookup: Lookup = socket.getaddrinfo) -> str:
    """The address to connect to: every address the host resolves to must pass ``check_address``
    (one that does not refuses the whole name); the first is used."""
    try:
        found = lookup(target.host, target.port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise RefusedURL(f"{target.host} does not resolve ({exc.strerror or exc})") from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]
    for address in addresses:
        check_address(address, allow_private=allow_private)
    if not addresses:
        raise RefusedURL(f"{target.host} does not resolve")
    return str(addresses[0])
