"""``JobStore`` on SQLite: asynchronous retains with their bodies; finished ones kept for
``FINISHED_JOB_TTL``."""

from __future__ import annotations

import json

from engram.adapters.matching import iso
from engram.adapters.sqlite.database import SqliteTables
from engram.adapters.store_policy import FINISHED_JOB_TTL, job_live
from engram.models import Job


class SqliteJobs(SqliteTables):
    def put_job(self, tenant_id: str, job: Job) -> None:
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO jobs(tenant_id, job_id, status, doc, created_at) VALUES(?,?,?,?,?)",
                # ``request`` is excluded from API dumps but must persist while the job waits.
                (
                    tenant_id,
                    job.job_id,
                    job.status,
                    json.dumps({**job.model_dump(mode="json"), "request": job.request}),
                    iso(job.created_at),
                ),
            )
            if job.status not in ("queued", "running"):  # finished jobs past their time go meanwhile
                conn.execute(
                    "DELETE FROM jobs WHERE tenant_id=? AND status NOT IN ('queued', 'running')"
                    " AND created_at < ?",
                    (tenant_id, iso(self.clock.now() - FINISHED_JOB_TTL)),
                )

    def get_job(self, tenant_id: str, job_id: str) -> Job | None:
        row = self.db.one("SELECT doc FROM jobs WHERE tenant_id=? AND job_id=?", (tenant_id, job_id))
        job = Job.model_validate_json(row[0]) if row else None
        return job if job is not None and job_live(job, self.clock.now()) else None

    def pending_jobs(self) -> list[tuple[str, Job]]:
        """Jobs of every tenant that were queued or running when a process stopped."""
        rows = self.db.rows(
            "SELECT tenant_id, doc FROM jobs WHERE status IN ('queued', 'running') ORDER BY created_at"
        )
        return [(r[0], Job.model_validate_json(r[1])) for r in rows]
