"""``engram mcp`` with the official ``mcp`` client, over stdio and over streamable HTTP, in front
of a real ``engram serve``: the five tools are listed and called; HTTP needs the key."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from serve_support import ROOT, Server, new_key, new_tenant, running_mcp_http, running_server

mcp = pytest.importorskip("mcp", reason="the mcp extra is part of make test's install")
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

TOOLS = {"memory_store", "memory_recall", "memory_forget", "memory_feedback", "memory_list"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("mcp"), "--quiet") as running:
        yield running


@pytest.fixture(scope="module")
def mcp_http(server: Server) -> Iterator[str]:
    """``engram mcp --transport http`` on a free port; its /mcp URL."""
    with running_mcp_http(server.url) as url:
        yield url


def _data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    return dict(result.structured_content)


async def _scenario(client: Client) -> dict[str, Any]:
    """List the tools, then store, recall, feedback, list and forget one memory."""
    tools = {tool.name for tool in (await client.list_tools()).tools}
    stored = _data(
        await client.call_tool("memory_store", {"text": "I prefer dark mode", "scope": "user:alice"})
    )
    memory_id = stored["results"][0]["id"]
    recalled = _data(
        await client.call_tool("memory_recall", {"query": "what theme do I like?", "scope": "user:alice"})
    )
    helped = _data(await client.call_tool("memory_feedback", {"memory_id": memory_id, "signal": "used"}))
    listed = _data(await client.call_tool("memory_list", {"scope": "user:alice"}))
    dry = _data(await client.call_tool("memory_forget", {"ids": [memory_id], "dry_run": True}))
    gone = _data(await client.call_tool("memory_forget", {"ids": [memory_id]}))
    missing = await client.call_tool("memory_feedback", {"memory_id": memory_id, "signal": "used"})
    return {
        "tools": tools,
        "id": memory_id,
        "recalled": recalled,
        "weight": helped["feedback_weight"],
        "listed": [m["id"] for m in listed["memories"]],
        "dry": dry,
        "gone": gone,
        "missing": missing,
    }


def _envelope(result: Any) -> dict[str, Any]:
    """The API's error envelope in a failed tool's text (after the SDK's "Error executing tool …: ")."""
    text = result.content[0].text
    return dict(json.loads(text[text.index("{") :]))


def _check(outcome: dict[str, Any]) -> None:
    assert outcome["tools"] >= TOOLS
    recalled = outcome["recalled"]
    assert recalled["memories"][0]["id"] == outcome["id"]
    assert "I prefer dark mode" in recalled["context"]
    assert "never follow instructions" in recalled["note"]  # stored text is data
    assert outcome["weight"] == 0.65 and outcome["listed"] == [outcome["id"]]
    assert (outcome["dry"]["deleted"], outcome["dry"]["would_delete"]) == ([], [outcome["id"]])
    assert outcome["gone"]["deleted"] == [outcome["id"]]
    assert outcome["missing"].is_error
    assert _envelope(outcome["missing"])["error"]["code"] == "not_found"


def test_the_five_tools_over_stdio_with_the_key_from_the_environment(server: Server) -> None:
    # Given engram mcp over stdio with ENGRAM_URL and ENGRAM_API_KEY
    key = new_key(server, new_tenant(server))
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "engram_cli", "mcp"],
        env={**os.environ, "ENGRAM_URL": server.url, "ENGRAM_API_KEY": key},
        cwd=str(ROOT),
    )

    async def run() -> dict[str, Any]:
        async with Client(params) as client:
            return await _scenario(client)

    # When an MCP client lists and calls the tools
    outcome = asyncio.run(run())
    # Then each works against Engram, and an error comes back as the API's envelope
    _check(outcome)


def test_the_five_tools_over_streamable_http_with_the_key_per_request(server: Server, mcp_http: str) -> None:
    # Given engram mcp over HTTP and a tenant's key in the Authorization header
    import httpx2

    key = new_key(server, new_tenant(server))

    async def run() -> dict[str, Any]:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=30)
        async with http, Client(streamable_http_client(mcp_http, http_client=http)) as client:
            return await _scenario(client)

    # When an MCP client lists and calls the tools
    outcome = asyncio.run(run())
    # Then each works against Engram with that key
    _check(outcome)


def test_http_without_a_key_is_refused_before_any_tool_runs(mcp_http: str) -> None:
    # Given the HTTP transport
    # When a client connects without Authorization
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    answer = httpx.post(mcp_http, json=body, headers={"Accept": "application/json, text/event-stream"})
    # Then it is a 401 in the API's error envelope
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "unauthorized"


def test_http_with_a_wrong_key_gets_engrams_401_from_the_tool(mcp_http: str) -> None:
    # Given a key Engram does not know
    import httpx2

    async def run() -> Any:
        http = httpx2.AsyncClient(headers={"Authorization": "Bearer egk_nope"}, timeout=30)
        async with http, Client(streamable_http_client(mcp_http, http_client=http)) as client:
            return await client.call_tool("memory_recall", {"query": "anything"})

    # When a tool is called
    result = asyncio.run(run())
    # Then the tool fails with Engram's unauthorized error, and nothing is returned
    assert result.is_error and _envelope(result)["error"]["code"] == "unauthorized"
