"""Importing an export's JSONL: what a line may claim (``lines``), another service's export
(``formats``, read by ``peers`` and ``lancedb_pro``), and the import itself, inline while it fits
the call's deadline, else a job that resumes where it stopped (``service``; large files in the
cloud arrive by ``uploads``)."""

from __future__ import annotations

from engram.imports.formats import PeerFile
from engram.imports.jobs import MAX_UPLOAD_BYTES, execute, run_job, submit, visible
from engram.imports.lines import MAX_STORED_BYTES, as_retained, read
from engram.imports.service import (
    INLINE_MAX,
    import_lines,
    import_peer_file,
    import_text,
)
from engram.imports.uploads import new_upload, start_upload
from engram.memories.operations import EXPORT_FORMAT

__all__ = [
    "EXPORT_FORMAT",
    "INLINE_MAX",
    "MAX_STORED_BYTES",
    "MAX_UPLOAD_BYTES",
    "PeerFile",
    "as_retained",
    "execute",
    "import_lines",
    "import_peer_file",
    "import_text",
    "new_upload",
    "read",
    "run_job",
    "start_upload",
    "submit",
    "visible",
]
