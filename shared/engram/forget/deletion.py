"""Forget (DESIGN §8): hard deletes by ids, by query, by filter or a whole scope, with a receipt.

Record, vector, text-index row and history go in one transaction; a content-free deletion-log
entry (receipt, time, ids) stays. Idempotency records hold only ids and actions, so replaying
the original retain with the same key returns its stored outcome and never re-creates the
memory, while a fresh retain of the same text (no key, or a new key) stores it again.
"""

from __future__ import annotations

from engram.errors import NotFoundError
from engram.identity import receipt_id
from engram.models import DeletionLogEntry, ForgetRequest, ForgetResponse, MemoryRecord, RecallRequest
from engram.ports import Ports, removed_state
from engram.ports.query import forget_conditions
from engram.recall import recall
from engram.scopes import ScopeSet
from engram.settings import Settings


def forget(
    tenant_id: str,
    request: ForgetRequest,
    ports: Ports,
    *,
    scopes: ScopeSet,
    settings: Settings,
) -> ForgetResponse:
    """Delete what the request selects among ``scopes`` (``dry_run`` only reports it).

    Ids that do not exist for this tenant are never reported; if none exist, NotFoundError.
    """
    candidates = None
    found: dict[str, MemoryRecord] = {}
    if request.ids is not None:
        found = ports.records.get_many(tenant_id, request.ids)
        ids = [i for i in dict.fromkeys(request.ids) if i in found and scopes.allows(found[i].scope)]
        if not ids:
            raise NotFoundError("no memory with these ids")
        reason = "ids"
    elif request.query is not None:
        hits = recall(
            tenant_id,
            RecallRequest(
                query=request.query,
                limit=request.limit,
                min_score=request.threshold,
                track_access=False,
            ),
            ports,
            scopes=scopes,
            settings=settings,
        )
        ids = [m.id for m in hits.memories]
        candidates = [
            {"id": m.id, "score": m.score, "content": m.content, "scope": m.scope} for m in hits.memories
        ]
        reason = "query"
    else:
        assert request.filter is not None
        conditions = forget_conditions(scopes, request.filter)
        ids = ports.records.select_ids(tenant_id, conditions, older_than=request.filter.older_than)
        reason = "filter"
    if request.dry_run:
        return ForgetResponse(
            deleted=[], would_delete=ids, dry_run=True, receipt_id=None, candidates=candidates
        )
    if not ids:
        return ForgetResponse(deleted=[], dry_run=False, receipt_id=None, candidates=candidates)
    log = DeletionLogEntry(
        receipt_id=receipt_id(), tenant_id=tenant_id, at=ports.clock.now(), ids=ids, reason=reason
    )
    deleted = ports.records.delete(tenant_id, ids, log)
    ports.index.remove(tenant_id, deleted, states=[removed_state(found[i]) for i in deleted if i in found])
    return ForgetResponse(deleted=deleted, dry_run=False, receipt_id=log.receipt_id, candidates=candidates)
