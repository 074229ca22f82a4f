"""Another service's export, read for an import by the API (``POST /v1/import?from=``) or the CLI
(``engram import --from``): which reader, what the caller's key may write, and the report.

``peers`` reads mem0 and JSONL files and ``lancedb_pro`` memory-lancedb-pro's export, each into a
plan of memories; this module checks the plan against the key (a record in a scope the key may
not write is a 403 naming it, an invalid record a 400 unless skipped), turns it into the items
``engram.imports.service`` writes (inline within the call's deadline, else as a job, as for an
Engram export) and says what happened to every record of the file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from engram.errors import ForbiddenError, ValidationFailedError
from engram.imports import lancedb_pro, lines, peers
from engram.models import ImportReport
from engram.ports import MemoryRecords
from engram.scopes import ScopeSet

_EXISTING_CHUNK = 200


@dataclass(frozen=True)
class PeerFile:
    """How to read a file of another service: its format, the scope of JSONL lines that name
    none, and whether invalid records are skipped (else the file is refused whole)."""

    format: peers.PeerFormat
    default_scope: str = "global"
    skip_invalid: bool = False

    def as_request(self) -> dict[str, str]:
        """The reading options as an import job keeps them (beside the file)."""
        return {
            "from": self.format,
            "default_scope": self.default_scope,
            "skip_invalid": str(self.skip_invalid),
        }

    @classmethod
    def of_request(cls, request: dict[str, str]) -> PeerFile | None:
        """The options a job was stored with; None for an Engram export."""
        if "from" not in request:
            return None
        fmt = request["from"]
        if fmt not in peers.PEER_FORMATS:
            raise ValueError(f"an import job of unknown format {fmt!r}")
        return cls(fmt, request.get("default_scope", "global"), request.get("skip_invalid") == "True")  # type: ignore[arg-type]


def read(peer: PeerFile, text: str, *, tenant_id: str, scopes: ScopeSet, now: datetime) -> peers.Plan:
    """The file as a plan, checked against the key; nothing is written. A 400 names the invalid
    records (unless ``skip_invalid``), a 403 the first record in a scope the key may not write."""
    if peer.format == lancedb_pro.FORMAT:
        plan = lancedb_pro.parse(text, tenant_id=tenant_id, now=now)
    else:
        plan = peers.parse(peer.format, text, tenant_id=tenant_id, now=now, default_scope=peer.default_scope)
    if plan.invalid and not peer.skip_invalid:
        raise ValidationFailedError(
            f"{len(plan.invalid)} of {plan.read} {plan.unit}s of the {plan.format} file are not valid;"
            " nothing was imported",
            details=plan.invalid[: peers.MAX_REPORTED],
        )
    for number, record, _ in plan.memories:
        if not scopes.allows(record.scope):
            raise ForbiddenError(f"{plan.unit} {number}: scope not allowed for this key: {record.scope}")
    return plan


def items(plan: peers.Plan, scopes: ScopeSet) -> lines.Plan:
    """The plan's memories as the import service writes them (no vector: each is embedded with
    the tenant's model); a key limited to some scopes gets what a retain would (``as_retained``)."""
    own = scopes.is_every
    return lines.Plan(
        items=[(r if own else lines.as_retained(r), [h], None) for _, r, h in plan.memories],
        repeated=len(plan.invalid) + len(plan.repeated),
    )


def existing(tenant_id: str, plan: peers.Plan, records: MemoryRecords) -> set[str]:
    """The ids of the plan's memories the tenant holds already."""
    ids = [r.id for _, r, _ in plan.memories]
    found: set[str] = set()
    for start in range(0, len(ids), _EXISTING_CHUNK):
        found.update(records.get_many(tenant_id, ids[start : start + _EXISTING_CHUNK]))
    return found


def report(
    plan: peers.Plan, present: Collection[str], *, dry_run: bool, imported: int | None = None
) -> ImportReport:
    """What happened (or, with ``dry_run``, would happen) to each record: written unless
    ``present`` in the tenant, else skipped with why. ``imported`` is the count the writes
    made, when they ran (an id written meanwhile by another call is skipped too)."""
    new = [r for _, r, _ in plan.memories if r.id not in present]
    skipped = sorted(
        [
            *({plan.unit: i[plan.unit], "reason": i["message"]} for i in plan.invalid),
            *plan.repeated,
            *(
                {plan.unit: n, "reason": f"already in the tenant as {r.id}"}
                for n, r, _ in plan.memories
                if r.id in present
            ),
        ],
        key=lambda s: int(s[plan.unit]),
    )
    count = len(new) if imported is None else imported
    return ImportReport(
        format=plan.format,
        dry_run=dry_run,
        read=plan.read,
        imported=count,
        skipped=plan.read - count,
        skipped_reasons=skipped[: peers.MAX_REPORTED],
        by_scope=dict(sorted(Counter(r.scope for r in new).items())),
        mapping=plan.mapping or None,
    )
