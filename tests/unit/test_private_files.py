"""The embedded default's files: 0600 files in a 0700 directory, whatever the umask."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from engram.engine import Engine
from engram.models import RetainRequest
from engram.settings import Settings


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_data_dir_and_every_file_in_it_are_the_owners_alone(tmp_path: Path) -> None:
    # Given a permissive umask and a data dir that does not exist yet
    data_dir = tmp_path / "engram-data"
    old = os.umask(0o022)
    try:
        # When the embedded engine starts, writes, and its secrets are made
        engine = Engine.local(Settings(data_dir=data_dir))
        engine.create_tenant("acme")
        engine.retain("acme", RetainRequest(scope="user:a", text="a durable note", mode="raw"))
        engine.operator_credential()
        engine.close()
    finally:
        os.umask(old)
    # Then the directory is 0700 and every file in it 0600 (database, WAL, shared memory, secrets)
    assert _mode(data_dir) == 0o700
    files = [p for p in data_dir.iterdir() if p.is_file()]
    assert {p.name for p in files} >= {"engram.db", "pepper", "operator-token"}
    assert {p.name: _mode(p) for p in files} == {p.name: 0o600 for p in files}


def test_an_existing_database_left_readable_by_others_is_tightened(tmp_path: Path) -> None:
    # Given a database file another version left 0644
    data_dir = tmp_path / "data"
    Engine.local(Settings(data_dir=data_dir)).close()
    os.chmod(data_dir / "engram.db", 0o644)
    # When the engine opens it again
    Engine.local(Settings(data_dir=data_dir)).close()
    # Then it is 0600 again
    assert _mode(data_dir / "engram.db") == 0o600


def test_an_existing_shared_directory_is_left_alone_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a directory others may enter, chosen as the data dir
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    # When the engine uses it
    Engine.local(Settings(data_dir=shared)).close()
    # Then its mode is not changed (it may be /tmp), but the operator is told
    assert _mode(shared) == 0o755
    assert "open to other users" in caplog.text
    assert _mode(shared / "engram.db") == 0o600
