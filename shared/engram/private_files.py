"""The embedded default's files are the owner's alone: data files 0600 in a 0700 directory.

The SQLite database holds every tenant's memories and the key hashes, the pepper and the
operator token sit beside it. A directory Engram creates is 0700; a directory that already
existed is left as it is (it may be shared, e.g. ``/tmp``) with a warning if others can enter
it. Files are created 0600 and tightened to 0600 when found looser; SQLite gives its ``-wal``
and ``-shm`` files the database file's mode.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

logger = logging.getLogger(__name__)


def private_dir(path: Path) -> Path:
    """``path`` as a directory: made 0700 (parents as the umask says) if it does not exist."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            path.mkdir(mode=0o700)
        os.chmod(path, 0o700)  # mkdir's mode is masked by the umask
    elif path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        logger.warning("data directory %s is open to other users; chmod 700 it to keep it private", path)
    return path


def private_file(path: Path) -> Path:
    """``path`` as a file only its owner can read or write: created empty if missing."""
    private_dir(path.parent)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError):
            if each.stat().st_mode & 0o077:
                os.chmod(each, 0o600)
    return path
