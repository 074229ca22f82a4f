"""Memories one by one and the tenant's views: get, list, patch, restore, release, delete, stats, jobs,
export, import (inline, as a job, or from an upload)."""

# No `from __future__ import annotations`: Powertools reads these annotations at run time.

import json
from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

import engram.forget.service
import engram.memories.service
from engram import imports
from engram.errors import ValidationFailedError
from engram.imports import transfer
from engram.imports.peers import PeerFormat
from engram.models import (
    JOB_ID,
    Category,
    ExportLink,
    ForgetResponse,
    ImportReport,
    ImportResponse,
    ImportUpload,
    Job,
    JobAccepted,
    ListRequest,
    ListResponse,
    MemoryView,
    PatchRequest,
    RestoreRequest,
    Scope,
    StatsResponse,
    Status,
    Tag,
    Tier,
    dump,
    parse,
)
from engram.retain import jobs
from engram.tenants.tenancy import resolve
from engram.validation_words import SCOPE
from engram_http.runtime import (
    JSON,
    JobIdPath,
    MemoryIdPath,
    caller,
    deps,
    documented,
    entry_point,
    error_responses,
    json_response,
    resolver,
    tenant,
)

app = resolver(text_bodies=("/v1/import",))
NDJSON = "application/x-ndjson"


@app.get("/v1/memories", responses=documented(ListResponse, "a page of memories, oldest first"))
def list_memories(
    scope: Annotated[Scope | None, Query()] = None,
    category: Annotated[Category | None, Query()] = None,
    tier: Annotated[Tier | None, Query()] = None,
    tag: Annotated[Tag | None, Query()] = None,
    status: Annotated[Status | None, Query()] = None,
    cursor: Annotated[str | None, Query(max_length=512)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> Response[str]:
    who = caller(app)
    given = {
        "scope": scope,
        "category": category,
        "tier": tier,
        "tag": tag,
        "status": status,
        "cursor": cursor,
        "limit": limit,
    }
    request = parse(ListRequest, {k: v for k, v in given.items() if v is not None})
    return json_response(
        deps().call(engram.memories.service.list_memories, deps().call(resolve, who), request)
    )


@app.get("/v1/memories/<id>", responses=documented(MemoryView, "the memory (with history on request)"))
def get_memory(id: MemoryIdPath, history: Annotated[bool, Query()] = False) -> Response[str]:
    return json_response(deps().call(engram.memories.service.get, tenant(app), id, with_history=history))


@app.patch(
    "/v1/memories/<id>",
    responses=documented(MemoryView, "the changed memory", errors=(400, 401, 403, 404, 409, 413, 422, 429)),
)
def patch_memory(id: MemoryIdPath, request: Annotated[PatchRequest, Body()]) -> Response[str]:
    return json_response(deps().call(engram.memories.service.patch, tenant(app, write=True), id, request))


@app.post(
    "/v1/memories/<id>/restore",
    responses=documented(
        MemoryView, "the memory, back from the archive", errors=(400, 401, 403, 404, 409, 422, 429)
    ),
)
def restore_memory(
    id: MemoryIdPath, request: Annotated[RestoreRequest | None, Body()] = None
) -> Response[str]:
    return json_response(deps().call(engram.memories.service.restore, tenant(app, write=True), id, request))


@app.post(
    "/v1/memories/<id>/release",
    responses=documented(
        MemoryView, "the memory, out of quarantine after review", errors=(400, 401, 403, 404, 409, 422, 429)
    ),
)
def release_memory(id: MemoryIdPath) -> Response[str]:
    return json_response(deps().call(engram.memories.service.release, tenant(app, write=True), id))


@app.delete("/v1/memories/<id>", responses=documented(ForgetResponse, "the deletion receipt"))
def delete_memory(id: MemoryIdPath) -> Response[str]:
    return json_response(deps().call(engram.forget.service.delete, tenant(app, write=True), id))


@app.get("/v1/stats", responses=documented(StatsResponse, "counts by scope, category, tier; storage; usage"))
def stats() -> Response[str]:
    return json_response(deps().call(engram.memories.service.stats, tenant(app)))


@app.get(
    "/v1/jobs/<id>", responses=documented(Job, "an asynchronous retain's or import's status and results")
)
def get_job(id: JobIdPath) -> Response[str]:
    return json_response(deps().call(jobs.get_job, tenant(app), id))


@app.post(
    "/v1/export",
    responses={
        200: {
            "description": "JSONL: a header line, then one memory per line",
            "content": {NDJSON: {"schema": {"type": "string"}}},
        },
        303: {
            "description": "(cloud) the JSONL is at Location, a presigned URL; the body says when it expires",
            "content": {JSON: {"model": ExportLink}},
        },
        **error_responses((401, 403, 429)),
    },
)
def export() -> Response[str]:
    context = tenant(app)
    link = deps().call(transfer.export_link, context)
    if link is not None:  # written to object storage: no response limit on the tenant's size
        return Response(303, JSON, json.dumps(dump(link)), headers={"Location": link.url})
    body = "".join(line + "\n" for line in deps().call(transfer.export_lines, context))
    return Response(200, NDJSON, body)


@app.post(
    "/v1/import",
    responses={
        **documented(
            ImportResponse | ImportReport,  # type: ignore[arg-type]
            "counts of imported and skipped memories; with ?from=, the report of every record",
            errors=(400, 401, 403, 404, 413, 422, 429),
        ),
        202: {
            "description": "too large for one call: a job carries on (poll GET /v1/jobs/{id}); "
            "also the answer to ?upload=",
            "content": {JSON: {"model": JobAccepted}},
        },
    },
)
def import_(
    upload: Annotated[str | None, Query(pattern=JOB_ID)] = None,
    source: Annotated[
        PeerFormat | None,
        Query(alias="from", description="another service's export: mem0, jsonl, memory-lancedb-pro"),
    ] = None,
    scope: Annotated[  # no example: it goes with from= alone
        str | None, Query(pattern=SCOPE, description="with from=jsonl: the scope of lines that name none")
    ] = None,
    dry_run: Annotated[
        bool, Query(description="with from=: say what would be imported, write nothing")
    ] = False,
    skip_invalid: Annotated[bool, Query(description="with from=: import the valid records")] = False,
) -> Response[str]:
    context = tenant(app, write=True)
    peer = _peer_file(source, scope, dry_run, skip_invalid, upload)
    if upload is not None:  # the file was PUT to the upload URL: it becomes a job
        return json_response(deps().call(imports.start_upload, context, upload, peer=peer), status=202)
    body = app.current_event.body or ""
    answer = deps().call(imports.import_text, context, body, peer, dry_run=dry_run)
    return json_response(answer, status=202 if isinstance(answer, JobAccepted) else 200)


def _peer_file(
    source: PeerFormat | None, scope: str | None, dry_run: bool, skip_invalid: bool, upload: str | None
) -> imports.PeerFile | None:
    """How to read the posted file: None for an Engram export; a 400 for options that go with ``from``."""
    if source is None:
        given = [
            name
            for name, on in (("scope", scope), ("dry_run", dry_run), ("skip_invalid", skip_invalid))
            if on
        ]
        if given:
            raise _query_error(given[0], "goes with from= (an export of mem0, jsonl or memory-lancedb-pro)")
        return None
    if dry_run and upload is not None:
        raise _query_error("dry_run", "is for a posted file; an upload is imported as a job")
    return imports.PeerFile(source, scope or "global", skip_invalid)


def _query_error(name: str, problem: str) -> ValidationFailedError:
    detail = {"field": name, "problem": problem, "type": "value_error"}
    return ValidationFailedError(f"invalid request: {name}: {problem}", details=[detail])


@app.post(
    "/v1/import/upload",
    responses=documented(
        ImportUpload,
        "(cloud) where to PUT a large file; then POST /v1/import?upload=<job_id>",
        errors=(401, 403, 404, 429),
    ),
)
def import_upload() -> Response[str]:
    return json_response(deps().call(imports.new_upload, tenant(app, write=True)))


OPENAPI_EXTRA = {
    ("POST", "/v1/import"): {
        "requestBody": {
            "description": "JSONL as export writes it: a header line, then one memory per line;"
            " with ?from=, that service's export (mem0's get_all as JSON or JSONL, one text a line,"
            " what `openclaw memory-pro export` writes)",
            "content": {NDJSON: {"schema": {"type": "string"}}},
        }
    }
}
"""What the OpenAPI document says beyond the resolver's own schema (the docs handler adds it)."""

lambda_handler = entry_point(app)
