"""What the SDK raises is what the README names: every refused call is an ``ApiError`` (also when
the SDK refuses it before sending, as the server would), a lost server is ``ConnectionFailed``,
and ``from_env`` without a key fails at once, naming the setting."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from serve_support import Server, new_key, new_tenant, running_server

from engram.client import (
    ApiError,
    AsyncEngram,
    BadRequest,
    ConnectionFailed,
    Engram,
    Unauthorized,
    Unprocessable,
)
from engram.errors import EngramError


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("client-errors"), "--quiet") as running:
        yield running


def test_a_bad_scope_refused_before_sending_is_an_api_error_naming_the_scope_in_words(server: Server) -> None:
    # Given a client with a tenant's key
    memory = Engram(server.url, new_key(server, new_tenant(server)))
    # When a retain names a scope without its kind
    with memory, pytest.raises(ApiError) as refused:
        memory.retain("alice", "x")
    # Then it is the 400 the server would answer, in words (no regular expression)
    assert isinstance(refused.value, BadRequest) and refused.value.status == 400
    assert refused.value.code == "validation_error" and refused.value.details[0]["field"] == "scope"
    assert "user:" in refused.value.message and "^(" not in refused.value.message


def test_a_misspelt_option_is_an_unprocessable_api_error(server: Server) -> None:
    # Given a client
    memory = Engram(server.url, new_key(server, new_tenant(server)))
    # When recall gets an option it does not have
    with memory, pytest.raises(ApiError) as refused:
        memory.recall("x", limt=5)  # type: ignore[call-arg]
    # Then it is a 422 naming the unknown field
    assert isinstance(refused.value, Unprocessable) and refused.value.status == 422
    assert "limt" in refused.value.message


def test_from_env_without_a_key_fails_at_once_naming_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given no ENGRAM_API_KEY (and then an empty one)
    for value in (None, ""):
        if value is None:
            monkeypatch.delenv("ENGRAM_API_KEY", raising=False)
        else:
            monkeypatch.setenv("ENGRAM_API_KEY", value)
        # When a client is made from the environment, Then it is refused before any call
        with pytest.raises(Unauthorized, match="ENGRAM_API_KEY"):
            Engram.from_env()
        with pytest.raises(Unauthorized, match="ENGRAM_API_KEY"):
            AsyncEngram.from_env()


def test_a_server_that_cannot_be_reached_is_a_connection_failure_naming_the_address() -> None:
    # Given an address nothing listens on
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
    # When a call is made (no retries, to be quick)
    with Engram(url, "egk_any", max_retries=0) as memory, pytest.raises(ConnectionFailed) as lost:
        memory.stats()
    # Then it says which address could not be reached, and is an Engram error
    assert url in str(lost.value) and isinstance(lost.value, EngramError)
    assert lost.value.code == "connection_failed"
