"""The library root holds the shared vocabulary only; each job has its room (STYLE §19)."""

from __future__ import annotations

from pathlib import Path

LIBRARY = Path(__file__).resolve().parents[2] / "shared" / "engram"
MAX_ROOT_MODULES = 15


def test_the_library_root_holds_at_most_fifteen_modules() -> None:
    modules = sorted(p.name for p in LIBRARY.glob("*.py"))
    assert len(modules) <= MAX_ROOT_MODULES, modules


def test_the_key_service_and_the_secret_files_live_in_their_rooms() -> None:
    assert not (LIBRARY / "auth.py").exists() and (LIBRARY / "auth" / "keys.py").is_file()
    assert (
        not (LIBRARY / "private_files.py").exists() and (LIBRARY / "adapters" / "private_files.py").is_file()
    )
