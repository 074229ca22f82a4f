"""The memory inspector's static files (``engram_http/inspector/``), served under ``/ui/``.

The page is plain HTML, CSS and JavaScript modules shipped in the package: no build step, no CDN.
Only files of this folder with a known type are served, and every answer carries a strict
Content-Security-Policy (scripts and connections from the page's own origin only), so memory text
that slipped into markup could still not run.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "inspector"
INDEX = "index.html"
_NAME = re.compile(r"^[a-z][a-z0-9_-]*\.(html|js|css|svg)$")
TYPES = {
    "html": "text/html; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8",
    "svg": "image/svg+xml",
}
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
}


@lru_cache(maxsize=64)
def asset(name: str) -> tuple[str, str] | None:
    """(content type, text) of one inspector file, or None when there is no such file.

    >>> asset("../handler.py") is None, asset("index.html")[0]
    (True, 'text/html; charset=utf-8')
    """
    found = _NAME.match(name)
    path = FOLDER / name
    if found is None or not path.is_file():
        return None
    return TYPES[found.group(1)], path.read_text(encoding="utf-8")


_INLINE = re.compile(r"<(script|style)>(.*?)</\1>", re.DOTALL)


def inline_page_headers(html: str) -> dict[str, str]:
    """The inspector's headers for a page whose scripts and styles are inline (Swagger UI at
    ``/v1/docs``): the same policy, with each inline block allowed by its SHA-256 and nothing
    else inline (no ``'unsafe-inline'``), framing refused.

    >>> inline_page_headers("<script>go()</script>")["Content-Security-Policy"].split("; ")[1]
    "script-src 'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"
    """
    hashes: dict[str, list[str]] = {"script": [], "style": []}
    for kind, body in _INLINE.findall(html):
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        hashes[kind].append(f"'sha256-{digest}'")
    scripts, styles = (" ".join(hashes[kind]) or "'none'" for kind in ("script", "style"))
    policy = (
        f"default-src 'none'; script-src {scripts}; style-src {styles}; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    return {**HEADERS, "Content-Security-Policy": policy}
