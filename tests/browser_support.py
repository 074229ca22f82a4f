"""Debian's headless chromium through playwright, as the inspector's tests and screenshots use it.

No browser is downloaded (never ``playwright install``): ``make install`` installs Debian's
``chromium`` with apt when ``/usr/bin/chromium`` is missing, and playwright drives that binary.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Playwright

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright: Playwright) -> Browser:
    assert CHROMIUM.exists(), "make install installs Debian's chromium"
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
