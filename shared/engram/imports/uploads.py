"""Large imports in the cloud: a presigned URL to ``PUT`` the file to, then the job that reads it
(``engram.imports.service``)."""

from __future__ import annotations

from datetime import timedelta

from engram.embedding.backlog import ImportPorts
from engram.errors import NotFoundError, PayloadTooLargeError
from engram.identity import job_id as new_job_id
from engram.imports.formats import PeerFile
from engram.imports.jobs import MAX_UPLOAD_BYTES, NO_UPLOADS, submit, upload_key, visible
from engram.models import ImportUpload, JobAccepted
from engram.ports import BlobStore, Clock
from engram.settings import Settings
from engram.tenants.tenancy import TenantContext


def new_upload(
    context: TenantContext, *, blobs: BlobStore | None, clock: Clock, settings: Settings
) -> ImportUpload:
    """A presigned URL to ``PUT`` a file of any size up to ``MAX_UPLOAD_BYTES``; nothing is stored yet."""
    if blobs is None:
        raise NotFoundError(NO_UPLOADS)
    job_id = new_job_id()
    expiry = settings.aws.export_url_expiry_s
    return ImportUpload(
        job_id=job_id,
        upload_url=blobs.presigned_put(upload_key(context.tenant_id, job_id), expiry),
        expires_at=clock.now() + timedelta(seconds=expiry),
        max_bytes=MAX_UPLOAD_BYTES,
    )


def start_upload(
    context: TenantContext, job_id: str, *, import_ports: ImportPorts, peer: PeerFile | None = None
) -> JobAccepted:
    """The job of an uploaded file (the same one again if it was started already); ``peer`` says
    how to read another service's export."""
    jobs, blobs = import_ports.jobs, import_ports.blobs
    if blobs is None:
        raise NotFoundError(NO_UPLOADS)
    existing = jobs.get_job(context.tenant_id, job_id)
    if existing is not None:
        if not visible(existing, context.scopes):
            raise NotFoundError(f"upload '{job_id}' not found")
        return JobAccepted(job_id=existing.job_id, status="queued")
    key = upload_key(context.tenant_id, job_id)
    size = blobs.size(key)
    if size is None:
        raise NotFoundError(f"upload '{job_id}' not found (PUT the file to its upload_url first)")
    if size > MAX_UPLOAD_BYTES:
        blobs.delete(key)
        raise PayloadTooLargeError(
            f"the uploaded file is {size:,} bytes; an import takes at most {MAX_UPLOAD_BYTES:,}"
        )
    return submit(context, job_id=job_id, peer=peer, import_ports=import_ports)
