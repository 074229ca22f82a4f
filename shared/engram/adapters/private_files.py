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
import secrets
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


def load_or_create_secret(path: Path, *, nbytes: int = 32) -> bytes:
    """The secret in ``path`` (whitespace stripped); if missing, create it (mode 0600) atomically.

    A new secret is ``nbytes`` random bytes, URL-safe base64 text. If two processes race to
    create it, both end up with the same one.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     first = load_or_create_secret(Path(d) / "pepper")
    ...     first == load_or_create_secret(Path(d) / "pepper")
    True
    """
    if nbytes < 16:
        raise ValueError("a secret needs at least 16 bytes")
    try:
        existing = path.read_bytes().strip()
    except FileNotFoundError:
        pass
    else:
        if not existing:
            raise ValueError(f"secret file {path} is empty")
        return existing
    private_dir(path.parent)
    value = secrets.token_urlsafe(nbytes).encode("ascii")
    while value.startswith(b"-"):  # a secret is passed as a command-line value (--operator-token)
        value = secrets.token_urlsafe(nbytes).encode("ascii")
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(value + b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)  # never overwrites: a racing process that got there first wins
        except FileExistsError:
            return path.read_bytes().strip()
        except OSError:  # pragma: no cover - filesystems without hard links
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return value
