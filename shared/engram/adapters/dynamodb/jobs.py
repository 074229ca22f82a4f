"""``JobStore`` on DynamoDB: one item per asynchronous retain (``TENANT#<t>#JOB#<id>``); open jobs
are listed for the scheduler in g2 (``JOBS#OPEN``), finished ones expire through the TTL after
``FINISHED_JOB_TTL``. A body too large for an item waits in the blob store."""

from __future__ import annotations

import json
from typing import Any

from engram.adapters.dynamodb.items import Item, created_key, expired, key, key_of, n, s
from engram.adapters.dynamodb.requests import DynamoTable
from engram.adapters.matching import iso
from engram.adapters.store_policy import FINISHED_JOB_TTL
from engram.errors import PayloadTooLargeError
from engram.models import Job
from engram.ports import BlobStore, Clock

INLINE_JOB_BYTES = 100_000
"""Job bodies up to this size stay in the item (DynamoDB's item limit is 400 KB)."""


def job_body_key(tenant_id: str, job_id: str) -> str:
    """Where a large job body waits in the blob store (everything of a tenant under one prefix)."""
    return f"tenants/{tenant_id}/jobs/{job_id}.json"


def _key(tenant_id: str, job_id: str) -> Item:
    return key(f"TENANT#{tenant_id}#JOB#{job_id}", "JOB")


class DynamoJobs(DynamoTable):
    """The jobs, with where a body too large for an item goes (``blobs``: S3 in the stack)."""

    def __init__(
        self, client: Any, table_name: str, *, blobs: BlobStore | None = None, clock: Clock | None = None
    ) -> None:
        super().__init__(client, table_name, clock=clock)
        self.blobs = blobs

    def _body(self, tenant_id: str, job: Job) -> tuple[str, str | None]:
        """(the item's document, the blob key its body went to if it is too large to inline)."""
        body = job.request
        doc = json.dumps({**job.model_dump(mode="json"), "request": body})
        if body is None or len(doc.encode()) <= INLINE_JOB_BYTES:
            return doc, None
        if self.blobs is None:
            raise PayloadTooLargeError(
                f"an asynchronous retain body is limited to {INLINE_JOB_BYTES // 1000} KB here "
                "(no object storage is configured for larger ones)"
            )
        pointer = job_body_key(tenant_id, job.job_id)
        self.blobs.put(pointer, json.dumps(body).encode())
        return json.dumps({**job.model_dump(mode="json"), "request": None}), pointer

    def put_job(self, tenant_id: str, job: Job) -> None:
        """The job; a body over ``INLINE_JOB_BYTES`` waits in the blob store and the item keeps a
        pointer (an item holds at most 400 KB). A finished job's body is deleted."""
        doc, pointer = self._body(tenant_id, job)
        item: Item = {
            **_key(tenant_id, job.job_id),
            "tenant_id": s(tenant_id),
            "g1pk": s(f"TENANT#{tenant_id}#JOBS"),
            "g1sk": s(created_key(job.created_at, job.job_id)),
            "status": s(job.status),
            # ``request`` is excluded from API dumps but must persist while the job waits.
            "doc": s(doc),
        }
        if pointer is not None:
            item["request_ref"] = s(pointer)
        if job.status in ("queued", "running"):
            item["g2pk"] = s("JOBS#OPEN")
            item["g2sk"] = s(f"{iso(job.created_at)}#{tenant_id}#{job.job_id}")
        else:
            item["ttl"] = n(self.now_s() + int(FINISHED_JOB_TTL.total_seconds()))
        self.client.put_item(TableName=self.table, Item=item)
        if job.request is None and self.blobs is not None:  # its body, if it had one there, goes now
            self.blobs.delete(job_body_key(tenant_id, job.job_id))

    def _job(self, item: Item) -> Job:
        job = Job.model_validate_json(item["doc"]["S"])
        pointer = item.get("request_ref", {}).get("S")
        if pointer and self.blobs is not None:
            data = self.blobs.get(pointer)
            if data is not None:
                job = job.model_copy(update={"request": json.loads(data)})
        return job

    def get_job(self, tenant_id: str, job_id: str) -> Job | None:
        item = self.client.get_item(
            TableName=self.table, Key=_key(tenant_id, job_id), ConsistentRead=True
        ).get("Item")
        # TTL deletion lags expiry by up to days: a finished job past its time is treated as gone.
        if item is None or expired(item, self.now_s()):
            return None
        return self._job(item)

    def pending_jobs(self) -> list[tuple[str, Job]]:
        """Jobs of every tenant that were queued or running when a process stopped (index g2)."""
        keys = [key_of(i) for i in self.query(index="g2", key="g2pk", value="JOBS#OPEN")]  # no bodies
        found = {(i["pk"]["S"], i["sk"]["S"]): i for i in self.batch_get(keys) if "doc" in i}
        ordered = [found[k["pk"]["S"], k["sk"]["S"]] for k in keys if (k["pk"]["S"], k["sk"]["S"]) in found]
        return [(i["tenant_id"]["S"], self._job(i)) for i in ordered]
