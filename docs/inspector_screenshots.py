"""Take the README's screenshots of the memory inspector: ``.venv/bin/python docs/inspector_screenshots.py``.

Starts ``engram serve`` on a throwaway data dir, keeps a few memories through the public API, and
drives Debian's chromium (``/usr/bin/chromium``, through playwright) to the list, a recall with its
trace and a memory's history, saving ``docs/img/inspector-{list,trace,history}.png``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the tests' real server and browser

from browser_support import launch  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from serve_support import Server, call, new_key, new_tenant, running_server  # noqa: E402

OUT = ROOT / "docs" / "img"
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


def seed(server: Server) -> str:
    key = new_key(server, new_tenant(server, "acme"))
    ids = []
    for scope, text, tags in MEMORIES:
        kept = call(
            server,
            "POST",
            "/v1/memories",
            {"scope": scope, "text": text, "tags": tags, "mode": "raw"},
            key=key,
        )
        ids.append(kept.body["results"][0]["id"])
    lisbon = f"/v1/memories/{ids[1]}"
    call(
        server,
        "PATCH",
        lisbon,
        {"content": "Ann works from the Lisbon office on Tuesdays and Thursdays"},
        key=key,
    )
    call(server, "PATCH", lisbon, {"tags": ["work", "office"]}, key=key)
    call(server, "PATCH", f"/v1/memories/{ids[2]}", {"pinned": True}, key=key)
    call(server, "POST", "/v1/recall", {"query": "where does Ann work?"}, key=key)  # an access
    return key


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
    with tempfile.TemporaryDirectory() as data, running_server(Path(data), "--no-lifecycle") as server:
        key = seed(server)
        with sync_playwright() as p:
            browser = launch(p)
            shoot(browser.new_page(viewport={"width": 1280, "height": 860}), server.url, key)
            browser.close()
    print(f"wrote {', '.join(sorted(p.name for p in OUT.glob('inspector-*.png')))} to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
