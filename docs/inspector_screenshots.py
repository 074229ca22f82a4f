"""Take the README's screenshots of the memory inspector: ``.venv/bin/python docs/inspector_screenshots.py``.

Starts ``engram serve`` on a throwaway data dir, keeps a few memories through the public API, and
drives Debian's chromium (``/usr/bin/chromium``, through playwright) to the list, a recall with its
trace and a memory's history, saving ``docs/img/inspector-{list,trace,history}.png``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img"
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
MEMORIES = [
    ("user:ann", "Ann prefers dark mode in every editor and terminal", ["ui"]),
    ("user:ann", "Ann works from the Lisbon office on Tuesdays", ["work"]),
    ("user:ann", "Ann is allergic to peanuts", ["health"]),
    ("user:ann", "Ann's manager is Rui Costa", ["work"]),
    ("user:ann", "Ann runs the Thursday architecture review", ["work"]),
    ("user:ann", "Ann drinks her coffee black", []),
    ("user:bob", "Bob is learning Portuguese before the move", ["work"]),
    ("user:bob", "Bob prefers light themes with large fonts", ["ui"]),
]


def call(url: str, method: str, path: str, key: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def seed(url: str, operator: str) -> tuple[str, str]:
    call(url, "POST", "/v1/admin/tenants", operator, {"tenant_id": "acme", "name": "Acme"})
    key = call(url, "POST", "/v1/admin/tenants/acme/keys", operator, {})["api_key"]
    ids = [
        call(url, "POST", "/v1/memories", key, {"scope": s, "text": t, "tags": tags, "mode": "raw"})[
            "results"
        ][0]["id"]
        for s, t, tags in MEMORIES
    ]
    lisbon = ids[1]
    call(
        url,
        "PATCH",
        f"/v1/memories/{lisbon}",
        key,
        {"content": "Ann works from the Lisbon office on Tuesdays and Thursdays"},
    )
    call(url, "PATCH", f"/v1/memories/{lisbon}", key, {"tags": ["work", "office"]})
    call(url, "PATCH", f"/v1/memories/{ids[2]}", key, {"pinned": True})
    call(url, "POST", "/v1/recall", key, {"query": "where does Ann work?"})  # an access
    return key, lisbon


def shoot(page: Page, url: str, key: str) -> None:
    page.goto(f"{url}/ui/")
    page.get_by_label("Key", exact=True).fill(key)
    page.get_by_role("button", name="Log in").click()
    page.locator("#memory-list li").first.wait_for()
    page.wait_for_timeout(300)
    page.screenshot(path=OUT / "inspector-list.png")

    page.get_by_role("button", name="Recall", exact=True).click()
    page.get_by_label("Query").fill("what theme does Ann like in her editor?")
    page.locator("#recall-form").get_by_role("button", name="Recall").click()
    page.locator("#recall-list svg.chart.trace").first.wait_for()
    page.wait_for_timeout(300)
    page.screenshot(path=OUT / "inspector-trace.png")

    page.get_by_role("button", name="Memories").click()
    page.locator("#memory-list li", has_text="Lisbon").get_by_role("button").click()
    page.locator("#history li").first.wait_for()
    page.set_viewport_size({"width": 1280, "height": 1480})  # the whole memory view
    page.wait_for_timeout(300)
    page.screenshot(path=OUT / "inspector-history.png")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "engram.cli",
                "--data-dir",
                data,
                "serve",
                "--port",
                "0",
                "--no-lifecycle",
            ],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split()[3]
            key, _ = seed(url, (Path(data) / "operator-token").read_text().strip())
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS, headless=True)
                page = browser.new_page(viewport={"width": 1280, "height": 860}, device_scale_factor=1)
                shoot(page, url, key)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"wrote {', '.join(sorted(p.name for p in OUT.glob('inspector-*.png')))} to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
