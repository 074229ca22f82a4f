"""The memory inspector's static files (``engram_http/inspector/``), served under ``/ui/``.

The page is plain HTML, CSS and JavaScript modules shipped in the package: no build step, no CDN.
Only files of this folder with a known type are served, and every answer carries a strict
Content-Security-Policy (scripts and connections from the page's own origin only), so memory text
that slipped into markup could still not run.
"""

from __future__ import annotations

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
