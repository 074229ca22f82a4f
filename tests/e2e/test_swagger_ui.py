"""Swagger UI at ``/v1/docs`` in a real browser, under the same strict policy as the inspector:
its inline script and style run by their hashes, nothing else inline would, and no page may
frame it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import launch
from playwright.sync_api import expect, sync_playwright
from serve_support import Server, call, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("swagger"), "--no-lifecycle", "--workers", "1") as running:
        yield running


def test_swagger_ui_carries_the_inspectors_policy_and_refuses_framing(server: Server) -> None:
    # When the page is fetched
    reply = call(server, "GET", "/v1/docs")
    # Then it has a CSP without unsafe-inline, framing refused both ways, and nosniff
    policy = reply.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy and "'sha256-" in policy
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["X-Content-Type-Options"] == "nosniff"


def test_swagger_ui_renders_under_its_policy_in_a_browser(server: Server, tmp_path: Path) -> None:
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        violations: list[str] = []
        page.on(
            "console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None
        )
        # When the page opens
        page.goto(server.url + "/v1/docs")
        # Then Swagger UI rendered the API (its script and style ran) with no policy violation
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("Engram", timeout=15_000)
        assert page.locator(".swagger-ui .opblock").count() > 10
        assert violations == [], violations
        # And a page that frames it gets nothing: the frame stays empty
        frame_page = tmp_path / "frame.html"
        frame_page.write_text(f"<iframe id='f' src='{server.url}/v1/docs'></iframe>")
        page.goto(frame_page.as_uri())
        page.wait_for_timeout(1000)
        frame = page.frame_locator("#f")
        assert frame.locator(".swagger-ui").count() == 0
        assert any("frame-ancestors" in v for v in violations), violations
        browser.close()
