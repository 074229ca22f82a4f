"""The SQLite driver: ``sqlean`` bundles a current SQLite (FTS5 secure-delete, contentless-delete);
the standard library's module is the fallback where the local extra is not installed."""

from __future__ import annotations

try:
    import sqlean as sqlite3
except ImportError:  # pragma: no cover - exercised only without the local extra
    import sqlite3

__all__ = ["sqlite3"]
