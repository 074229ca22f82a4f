"""What an agent reads when an ``engram mcp`` tool fails, through the official ``mcp`` client
over stdio in front of a real ``engram serve``: the same field-naming message the HTTP API
gives, with ``isError``; a connection failure and a missing key said as such; no traceback."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_support import ROOT, Server, new_key, new_tenant, running_mcp_http, running_server

import engram

pytest.importorskip("mcp", reason="the mcp extra is part of make test's install")
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

BAD_CALLS: list[tuple[str, dict[str, Any], str, str]] = [
    # tool, arguments, the field the message names, a word of what is wrong
    ("memory_store", {"text": "I like tea", "scope": "alice"}, "scope", "user:"),
    ("memory_store", {"text": "", "scope": "user:alice"}, "text", "empty"),
    ("memory_recall", {"query": "   "}, "query", "whitespace"),
    ("memory_recall", {"query": "tea", "limit": 0}, "limit", "at least 1"),
    ("memory_recall", {"query": "tea", "limit": 1000}, "limit", "at most"),
    ("memory_recall", {"query": "tea", "limit": "5"}, "limit", "whole number"),
    ("memory_forget", {}, "ids", "query"),
    ("memory_list", {"limit": 0}, "limit", "at least 1"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("mcp-errors"), "--quiet") as running:
        yield running


def _closed_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _session(url: str, key: str, stderr: Path, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Start ``engram mcp`` over stdio, make the calls, return the server's info and the results."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "engram_cli", "mcp"],
        env={**os.environ, "ENGRAM_URL": url, "ENGRAM_API_KEY": key},
        cwd=str(ROOT),
    )

    async def run() -> dict[str, Any]:
        with stderr.open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                results = [await client.call_tool(name, arguments) for name, arguments in calls]
                return {"info": client.server_info, "results": results}

    return asyncio.run(run())


def _error(result: Any) -> dict[str, Any]:
    """The envelope a failed tool answers, as its text."""
    assert result.is_error, result.content
    text = result.content[0].text
    return dict(json.loads(text[text.index("{") :]))["error"]


def test_a_bad_argument_answers_the_apis_field_naming_message_and_no_traceback(
    server: Server, tmp_path: Path
) -> None:
    # Given engram mcp in front of a running Engram with a tenant's key
    key = new_key(server, new_tenant(server))
    # When each bad call is made
    session = _session(server.url, key, tmp_path / "stderr", [(tool, args) for tool, args, *_ in BAD_CALLS])
    # Then each is an error naming the field in words, as the HTTP API would
    for (tool, args, field, word), result in zip(BAD_CALLS, session["results"], strict=True):
        error = _error(result)
        assert error["code"] in ("validation_error", "unprocessable"), (tool, args, error)
        assert field in error["message"] and word in error["message"], (tool, args, error)
        assert "pattern" not in error["message"] and "pydantic" not in error["message"], error
    # And the server printed no traceback
    assert "Traceback" not in (tmp_path / "stderr").read_text()


def test_the_server_says_its_version(server: Server, tmp_path: Path) -> None:
    # Given engram mcp, When a client connects, Then serverInfo carries Engram's version
    session = _session(server.url, new_key(server, new_tenant(server)), tmp_path / "stderr", [])
    assert session["info"].name == "engram" and session["info"].version == engram.__version__


def test_an_api_that_cannot_be_reached_is_said_to_be_unreachable(tmp_path: Path) -> None:
    # Given engram mcp pointed at a port nothing listens on
    url = f"http://127.0.0.1:{_closed_port()}"
    # When a tool is called
    [result] = _session(url, "egk_any", tmp_path / "stderr", [("memory_recall", {"query": "tea"})])["results"]
    # Then the tool fails saying it could not reach Engram at that address
    error = _error(result)
    assert error["code"] == "connection_failed" and url in error["message"], error
    assert "Traceback" not in (tmp_path / "stderr").read_text()


def test_an_empty_api_key_is_named_to_the_client_instead_of_a_closed_connection(
    server: Server, tmp_path: Path
) -> None:
    # Given engram mcp over stdio with ENGRAM_API_KEY set but empty
    # When a client connects and calls a tool
    [result] = _session(server.url, "", tmp_path / "stderr", [("memory_recall", {"query": "tea"})])["results"]
    # Then the connection holds and the tool's error names the setting to fix
    error = _error(result)
    assert error["code"] == "unauthorized" and "ENGRAM_API_KEY" in error["message"], error


@pytest.fixture(scope="module")
def mcp_http(server: Server) -> Iterator[str]:
    """``engram mcp --transport http`` on a free port; its /mcp URL."""
    with running_mcp_http(server.url) as url:
        yield url


def test_over_streamable_http_a_bad_argument_is_answered_the_same_way(server: Server, mcp_http: str) -> None:
    # Given engram mcp over HTTP with a tenant's key per request
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    key = new_key(server, new_tenant(server))

    async def run() -> list[Any]:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=30)
        async with http, Client(streamable_http_client(mcp_http, http_client=http)) as client:
            return [
                await client.call_tool("memory_store", {"text": "I like tea", "scope": "alice"}),
                await client.call_tool("memory_recall", {"query": "tea", "limit": "5"}),
            ]

    # When a bad scope and a limit given as a string are sent
    scope, limit = asyncio.run(run())
    # Then both are the envelope naming the field in words
    assert _error(scope)["details"][0]["field"] == "scope" and "user:" in _error(scope)["message"]
    assert "limit: must be a whole number" in _error(limit)["message"]
