"""Importing an export's JSONL: what a line may claim (``lines``), and the import itself, inline
while it fits the call's deadline, else a job that resumes where it stopped (``service``)."""

from __future__ import annotations

from engram.imports.lines import MAX_STORED_BYTES, as_retained, read
from engram.imports.service import (
    INLINE_MAX,
    MAX_UPLOAD_BYTES,
    execute,
    import_lines,
    import_text,
    new_upload,
    run_job,
    start_upload,
    submit,
    visible,
)
from engram.memories.operations import EXPORT_FORMAT

__all__ = [
    "EXPORT_FORMAT",
    "INLINE_MAX",
    "MAX_STORED_BYTES",
    "MAX_UPLOAD_BYTES",
    "as_retained",
    "execute",
    "import_lines",
    "import_text",
    "new_upload",
    "read",
    "run_job",
    "start_upload",
    "submit",
    "visible",
]
