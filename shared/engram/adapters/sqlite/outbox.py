"""The embedded default's event outbox and webhook tables, in the store's own SQLite file.

Changes are captured by triggers, so they commit in the same transaction as the write that made
them, whatever path wrote (retain, PATCH, feedback, the lifecycle job, forget, import, a CLI in
another process): an acknowledged write always has its outbox row, and a rolled-back one never.
Triggers fire only for tenants with at least one webhook endpoint, so a tenant without webhooks
pays nothing.

- ``memories`` insert / update with a new version → ``event_outbox`` (old and new record JSON);
- ``history`` insert → the outbox row of the same memory and version learns its cause (a merge
  and a content edit change the same fields; the history entry written with them tells which);
- ``deletion_log`` insert → the content-free receipt (ids, time, reason);
- ``jobs`` written as succeeded or failed → the job;
- a memory's delete blanks its content in the outbox and in deliveries not yet sent, so nothing
  of a forgotten memory stays on disk once the forget commits;
- a tenant's erasure takes its endpoints, outbox and deliveries with it.

The dispatcher (``engram.webhooks.dispatch``) drains the outbox into per-endpoint deliveries and
sends them; :class:`SqliteWebhooks` is the store both it and the admin routes use.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from engram.events.changes import Event
from engram.models import DeletionLogEntry, Job, MemoryRecord
from engram.ports import MemoryChange

if TYPE_CHECKING:
    from engram.webhooks.dispatch import Attempt
    from engram.webhooks.sealing import Sealer

_SCRUB = (
    "json_set({doc}, '$.content', '', '$.abstract', '', '$.overview', '', '$.key_facts', json('[]'),"
    " '$.entities', json('[]'), '$.tags', json('[]'), '$.metadata', json('{{}}'))"
)
_HAS_ENDPOINT = "EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.tenant_id = {row}.tenant_id)"

OUTBOX_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, url TEXT NOT NULL, events TEXT NOT NULL,
  secret TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS event_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, tenant_id TEXT NOT NULL, kind TEXT NOT NULL,
  subject TEXT NOT NULL, version INTEGER, old_doc TEXT, new_doc TEXT, cause TEXT
);
CREATE INDEX IF NOT EXISTS event_outbox_subject ON event_outbox (tenant_id, subject, version);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, tenant_id TEXT NOT NULL, endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL, event_type TEXT NOT NULL, subject TEXT NOT NULL, body TEXT,
  status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at REAL NOT NULL,
  created_at TEXT NOT NULL, finished_at TEXT, last_status INTEGER, last_error TEXT,
  UNIQUE (tenant_id, endpoint_id, event_id)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_chain
  ON webhook_deliveries (tenant_id, endpoint_id, subject, status, seq);
CREATE TABLE IF NOT EXISTS webhook_attempts (
  delivery_seq INTEGER NOT NULL, attempt INTEGER NOT NULL, at TEXT NOT NULL,
  status_code INTEGER, error TEXT, duration_ms REAL NOT NULL, PRIMARY KEY (delivery_seq, attempt)
);

CREATE TRIGGER IF NOT EXISTS outbox_memory_created AFTER INSERT ON memories
WHEN {_HAS_ENDPOINT.format(row="NEW")}
BEGIN
  INSERT INTO event_outbox(tenant_id, kind, subject, version, old_doc, new_doc)
  VALUES (NEW.tenant_id, 'memory', NEW.id, NEW.version, NULL, NEW.doc);
END;
CREATE TRIGGER IF NOT EXISTS outbox_memory_changed AFTER UPDATE OF doc ON memories
WHEN NEW.version IS NOT OLD.version AND {_HAS_ENDPOINT.format(row="NEW")}
BEGIN
  INSERT INTO event_outbox(tenant_id, kind, subject, version, old_doc, new_doc)
  VALUES (NEW.tenant_id, 'memory', NEW.id, NEW.version, OLD.doc, NEW.doc);
END;
CREATE TRIGGER IF NOT EXISTS outbox_memory_cause AFTER INSERT ON history
WHEN {_HAS_ENDPOINT.format(row="NEW")}
BEGIN
  UPDATE event_outbox SET cause = NEW.event
  WHERE tenant_id = NEW.tenant_id AND subject = NEW.memory_id AND version = NEW.version
    AND kind = 'memory' AND cause IS NULL;
END;
CREATE TRIGGER IF NOT EXISTS outbox_memory_forgotten AFTER DELETE ON memories
WHEN {_HAS_ENDPOINT.format(row="OLD")}
BEGIN
  UPDATE event_outbox SET old_doc = {_SCRUB.format(doc="old_doc")}, new_doc = {_SCRUB.format(doc="new_doc")}
  WHERE tenant_id = OLD.tenant_id AND subject = OLD.id AND kind = 'memory';
  UPDATE webhook_deliveries SET body = json_set(body, '$.data.memory.content', '',
      '$.data.memory.abstract', '', '$.data.memory.overview', '', '$.data.memory.key_facts', json('[]'),
      '$.data.memory.entities', json('[]'), '$.data.memory.tags', json('[]'),
      '$.data.memory.metadata', json('{{}}'))
  WHERE tenant_id = OLD.tenant_id AND subject = OLD.id AND body IS NOT NULL
    AND json_extract(body, '$.data.memory') IS NOT NULL;
END;
CREATE TRIGGER IF NOT EXISTS outbox_deletion_logged AFTER INSERT ON deletion_log
WHEN {_HAS_ENDPOINT.format(row="NEW")}
BEGIN
  INSERT INTO event_outbox(tenant_id, kind, subject, new_doc)
  VALUES (NEW.tenant_id, 'deletion', NEW.receipt_id, json_object('receipt_id', NEW.receipt_id,
    'tenant_id', NEW.tenant_id, 'at', NEW.at, 'ids', json(NEW.ids), 'reason', NEW.reason));
END;
CREATE TRIGGER IF NOT EXISTS outbox_job_finished AFTER INSERT ON jobs
WHEN NEW.status IN ('succeeded', 'failed') AND {_HAS_ENDPOINT.format(row="NEW")}
BEGIN
  INSERT INTO event_outbox(tenant_id, kind, subject, new_doc)
  VALUES (NEW.tenant_id, 'job', NEW.job_id, NEW.doc);
END;
CREATE TRIGGER IF NOT EXISTS outbox_tenant_erased AFTER DELETE ON tenants
BEGIN
  DELETE FROM webhook_attempts WHERE delivery_seq IN
    (SELECT seq FROM webhook_deliveries WHERE tenant_id = OLD.tenant_id);
  DELETE FROM webhook_deliveries WHERE tenant_id = OLD.tenant_id;
  DELETE FROM event_outbox WHERE tenant_id = OLD.tenant_id;
  DELETE FROM webhook_endpoints WHERE tenant_id = OLD.tenant_id;
END;
"""


def install_outbox(conn: Any) -> None:
    """Create the outbox and webhook tables and their triggers (idempotent)."""
    conn.executescript(OUTBOX_SCHEMA)


def outbox_events(
    tenant_id: str, kind: str, old_doc: str | None, new_doc: str | None, cause: str | None
) -> list[Event]:
    """The events one outbox row implies (through the one derivation both backends share)."""
    from engram.events.changes import deletion_events, job_events, memory_events

    if kind == "deletion":
        entry = DeletionLogEntry.model_validate_json(new_doc or "{}")
        return deletion_events(entry) if entry.tenant_id == tenant_id else []
    if kind == "job":
        return job_events(tenant_id, None, Job.model_validate_json(new_doc) if new_doc else None)
    old = MemoryRecord.model_validate_json(old_doc) if old_doc else None
    new = MemoryRecord.model_validate_json(new_doc) if new_doc else None
    if new is None or new.tenant_id != tenant_id or (old is not None and old.tenant_id != tenant_id):
        return []
    change = MemoryChange(
        sequence="",
        event="INSERT" if old is None else "MODIFY",
        tenant_id=tenant_id,
        memory_id=new.id,
        new=new,
        vector=None,
        old=old,
        index_changed=True,
    )
    return memory_events(change, cause=cause)


class SqliteWebhooks:
    """Webhook endpoints, the outbox's fan-out into deliveries, and the delivery log. Signing
    secrets are stored sealed by ``sealer`` (``engram.webhooks.sealing``) when one is given."""

    def __init__(self, db: Any, *, sealer: Sealer | None = None) -> None:
        self.db = db  # engram.adapters.sqlite.database.SqliteDatabase
        self.sealer = sealer

    def _seal(self, secret: str, tenant_id: str, endpoint_id: str) -> str:
        return secret if self.sealer is None else self.sealer.seal(secret, tenant_id, endpoint_id)

    def _open(self, stored: str, tenant_id: str, endpoint_id: str) -> str:
        return stored if self.sealer is None else self.sealer.open(stored, tenant_id, endpoint_id)

    # -- endpoints ----------------------------------------------------------------------------------

    def create_endpoint(self, tenant_id: str, endpoint: dict[str, Any]) -> None:
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO webhook_endpoints(tenant_id, id, url, events, secret, created_at) VALUES(?,?,?,?,?,?)",
                (
                    tenant_id,
                    endpoint["id"],
                    endpoint["url"],
                    json.dumps(endpoint["events"]),
                    self._seal(endpoint["secret"], tenant_id, endpoint["id"]),
                    endpoint["created_at"],
                ),
            )

    def endpoints(self, tenant_id: str) -> list[dict[str, Any]]:
        """The tenant's endpoints, oldest first, with their secrets (callers decide what to show)."""
        rows = (
            self.db.connection()
            .execute(
                "SELECT id, url, events, secret, created_at FROM webhook_endpoints WHERE tenant_id=?"
                " ORDER BY created_at, id",
                (tenant_id,),
            )
            .fetchall()
        )
        return [
            {
                "id": r[0],
                "url": r[1],
                "events": json.loads(r[2]),
                "secret": self._open(r[3], tenant_id, r[0]),
                "created_at": r[4],
            }
            for r in rows
        ]

    def delete_endpoint(self, tenant_id: str, endpoint_id: str) -> bool:
        """The endpoint and its delivery log go; False if the tenant has no such endpoint."""
        with self.db.transaction() as conn:
            gone = conn.execute(
                "DELETE FROM webhook_endpoints WHERE tenant_id=? AND id=?", (tenant_id, endpoint_id)
            ).rowcount
            conn.execute(
                "DELETE FROM webhook_attempts WHERE delivery_seq IN"
                " (SELECT seq FROM webhook_deliveries WHERE tenant_id=? AND endpoint_id=?)",
                (tenant_id, endpoint_id),
            )
            conn.execute(
                "DELETE FROM webhook_deliveries WHERE tenant_id=? AND endpoint_id=?", (tenant_id, endpoint_id)
            )
        return bool(gone)

    # -- outbox → deliveries ------------------------------------------------------------------------

    def fan_out(self, *, now: float, created_at: str, limit: int = 200) -> int:
        """Turn up to ``limit`` outbox rows into deliveries for each subscribed endpoint of their
        tenant (one transaction: a row is either fanned out or still there). Returns rows taken."""
        with self.db.transaction() as conn:
            rows = conn.execute(
                "SELECT seq, tenant_id, kind, old_doc, new_doc, cause FROM event_outbox ORDER BY seq LIMIT ?",
                (limit,),
            ).fetchall()
            subscribed: dict[str, list[tuple[str, list[str]]]] = {}
            for seq, tenant_id, kind, old_doc, new_doc, cause in rows:
                if tenant_id not in subscribed:
                    subscribed[tenant_id] = [
                        (r[0], json.loads(r[1]))
                        for r in conn.execute(
                            "SELECT id, events FROM webhook_endpoints WHERE tenant_id=? ORDER BY created_at, id",
                            (tenant_id,),
                        )
                    ]
                for event in outbox_events(tenant_id, kind, old_doc, new_doc, cause):
                    body = event.model_dump_json()
                    for endpoint_id, types in subscribed[tenant_id]:
                        if event.type in types:
                            conn.execute(
                                "INSERT OR IGNORE INTO webhook_deliveries(tenant_id, endpoint_id, event_id,"
                                " event_type, subject, body, status, next_attempt_at, created_at)"
                                " VALUES(?,?,?,?,?,?,'pending',?,?)",
                                (
                                    tenant_id,
                                    endpoint_id,
                                    event.id,
                                    event.type,
                                    event.subject,
                                    body,
                                    now,
                                    created_at,
                                ),
                            )
                conn.execute("DELETE FROM event_outbox WHERE seq=?", (seq,))
        return len(rows)

    # -- sending ------------------------------------------------------------------------------------

    def claim_due(self, *, now: float, lease_s: float, limit: int = 100) -> list[dict[str, Any]]:
        """Pending deliveries that are due and first of their subject at their endpoint (so one
        memory's events go out in order), leased for ``lease_s`` so no other dispatcher takes them."""
        with self.db.transaction() as conn:
            rows = conn.execute(
                "SELECT d.seq, d.tenant_id, d.endpoint_id, d.event_id, d.event_type, d.body, d.attempts,"
                " w.url, w.secret FROM webhook_deliveries d"
                " JOIN webhook_endpoints w ON w.tenant_id = d.tenant_id AND w.id = d.endpoint_id"
                " WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND NOT EXISTS ("
                "   SELECT 1 FROM webhook_deliveries e WHERE e.tenant_id = d.tenant_id"
                "   AND e.endpoint_id = d.endpoint_id AND e.subject = d.subject AND e.status = 'pending'"
                "   AND e.seq < d.seq)"
                " ORDER BY d.seq LIMIT ?",
                (now, limit),
            ).fetchall()
            for row in rows:
                conn.execute(
                    "UPDATE webhook_deliveries SET next_attempt_at=? WHERE seq=?", (now + lease_s, row[0])
                )
        names = (
            "seq",
            "tenant_id",
            "endpoint_id",
            "event_id",
            "event_type",
            "body",
            "attempts",
            "url",
            "secret",
        )
        due = [dict(zip(names, row, strict=True)) for row in rows]
        for delivery in due:
            delivery["secret"] = self._open(
                delivery["secret"], delivery["tenant_id"], delivery["endpoint_id"]
            )
        return due

    def record_attempt(self, seq: int, attempt: Attempt) -> None:
        """One attempt in the log; the delivery takes its outcome. A finished delivery keeps no body."""
        with self.db.transaction() as conn:
            tried = conn.execute("SELECT attempts FROM webhook_deliveries WHERE seq=?", (seq,)).fetchone()
            if tried is None:  # the endpoint went meanwhile
                return
            number = int(tried[0]) + 1
            conn.execute(
                "INSERT OR REPLACE INTO webhook_attempts(delivery_seq, attempt, at, status_code, error, duration_ms)"
                " VALUES(?,?,?,?,?,?)",
                (seq, number, attempt.at, attempt.status_code, attempt.error, attempt.duration_ms),
            )
            done = attempt.outcome != "pending"
            conn.execute(
                "UPDATE webhook_deliveries SET attempts=?, status=?, next_attempt_at=?, last_status=?,"
                " last_error=?, finished_at=?, body=CASE WHEN ? THEN NULL ELSE body END WHERE seq=?",
                (
                    number,
                    attempt.outcome,
                    attempt.next_attempt_at,
                    attempt.status_code,
                    attempt.error,
                    attempt.at if done else None,
                    done,
                    seq,
                ),
            )

    def deliveries(self, tenant_id: str, endpoint_id: str, *, limit: int = 100) -> list[dict[str, Any]]:
        """The endpoint's delivery log, newest first, each with its attempts."""
        conn = self.db.connection()
        rows = conn.execute(
            "SELECT seq, event_id, event_type, subject, status, attempts, created_at, finished_at,"
            " last_status, last_error FROM webhook_deliveries WHERE tenant_id=? AND endpoint_id=?"
            " ORDER BY seq DESC LIMIT ?",
            (tenant_id, endpoint_id, limit),
        ).fetchall()
        attempts: dict[int, list[dict[str, Any]]] = {}
        if rows:
            marks = ",".join("?" * len(rows))
            for r in conn.execute(
                "SELECT delivery_seq, attempt, at, status_code, error, duration_ms FROM webhook_attempts"
                f" WHERE delivery_seq IN ({marks}) ORDER BY delivery_seq, attempt",
                [row[0] for row in rows],
            ):
                attempts.setdefault(r[0], []).append(
                    {"attempt": r[1], "at": r[2], "status_code": r[3], "error": r[4], "duration_ms": r[5]}
                )
        return [
            {
                "id": f"dlv_{r[0]}",
                "event_id": r[1],
                "event_type": r[2],
                "subject": r[3],
                "status": r[4],
                "attempts": r[5],
                "created_at": r[6],
                "finished_at": r[7],
                "last_status_code": r[8],
                "last_error": r[9],
                "log": attempts.get(r[0], []),
            }
            for r in rows
        ]

    def prune(self, *, before: str) -> int:
        """Finished deliveries created before ``before`` leave the log (with their attempts)."""
        with self.db.transaction() as conn:
            conn.execute(
                "DELETE FROM webhook_attempts WHERE delivery_seq IN (SELECT seq FROM webhook_deliveries"
                " WHERE status != 'pending' AND created_at < ?)",
                (before,),
            )
            return int(
                conn.execute(
                    "DELETE FROM webhook_deliveries WHERE status != 'pending' AND created_at < ?", (before,)
                ).rowcount
            )
