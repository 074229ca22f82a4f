"""One tenant's rows in the embedded index: vectors, BM25 terms and filter fields over the same rows.

A float32 matrix of the vectors, the filter fields as small integer arrays (strings interned by
``Codes``), each transcript turn's thread neighbours, and the tenant's BM25 inverted index; a
replaced memory gets a new row and its old row dies (``packed`` drops the dead rows).
``TenantVectors.mask`` answers the conditions the arrays can answer; ``needs_sql`` names those
that go through SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from engram.adapters.binary_scan import BinaryCodes
from engram.adapters.text_index import Bm25Index
from engram.ports import Conditions
from engram.scopes import ScopeSet


def epoch(value: str | None) -> float:
    return datetime.fromisoformat(value).timestamp() if value else float("nan")


class Codes:
    """Interns strings as small ints so filters become numpy comparisons."""

    def __init__(self) -> None:
        self.code: dict[str, int] = {}

    def of(self, value: str) -> int:
        return self.code.setdefault(value, len(self.code))

    def mask(self, column: npt.NDArray[np.int32], values: Sequence[str]) -> npt.NDArray[np.bool_]:
        wanted = [self.code[v] for v in values if v in self.code]
        if len(wanted) == 1:  # the usual case (one scope, one status): a comparison beats isin
            equal: npt.NDArray[np.bool_] = column == wanted[0]
            return equal
        return np.isin(column, wanted)


_COLUMNS = ("alive", "embedded", "scope", "status", "tier", "category", "created", "occurred")
"""The per-row arrays besides the matrix and the thread links (which are -1 where empty)."""


@dataclass
class TenantVectors:
    generation: int
    local: int
    dimension: int
    n: int = 0
    ids: list[str] = field(default_factory=list)
    row_of: dict[str, int] = field(default_factory=dict)
    matrix: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    alive: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    embedded: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    scope: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    status: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    tier: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    category: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    created: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    occurred: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    codes: dict[str, Codes] = field(
        default_factory=lambda: {k: Codes() for k in ("scope", "status", "tier", "category", "thread")}
    )
    # Each transcript turn's thread (session or retain batch) and the rows before and after it
    # there, in retained order (-1: none), for BM25's context field and the thread prior.
    thread: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    before: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    after: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    tails: dict[tuple[int, int], int] = field(default_factory=dict)
    text: Bm25Index = field(default_factory=Bm25Index)
    # The first names of the speaker labels opening the rows' texts, in all and by scope code
    # (never dropped: a superset).
    speakers: frozenset[str] = frozenset()
    scope_speakers: dict[int, frozenset[str]] = field(default_factory=dict)
    quantized: BinaryCodes | None = None  # made beside the first scan too large to do exactly
    fitting: Future[BinaryCodes] | None = None  # codes being made beside the scans
    version: int = 0  # bumped by every put and remove: cached row masks go stale

    def _grow(self, need: int) -> None:
        capacity = self.matrix.shape[0]
        if need <= capacity:
            return
        new = max(need, capacity * 2, 256)
        matrix = np.zeros((new, self.dimension), dtype=np.float32)
        if capacity:
            matrix[:capacity] = self.matrix
        self.matrix = matrix
        if self.quantized is not None:
            self.quantized.grow(new)
        self.text.grow(new)
        for name in _COLUMNS:
            old = getattr(self, name)
            grown = np.zeros(new, dtype=old.dtype)
            grown[: old.shape[0]] = old
            setattr(self, name, grown)
        for name in ("thread", "before", "after"):
            old = getattr(self, name)
            grown = np.full(new, -1, dtype=np.int32)
            grown[: old.shape[0]] = old
            setattr(self, name, grown)

    def put(
        self,
        memory_id: str,
        vector: npt.NDArray[np.float32] | None,
        scope: str,
        status: str,
        tier: str,
        category: str,
        created: float,
        occurred: float,
        terms: Sequence[str] | None = None,
        thread: str | None = None,
        speaker: str | None = None,
    ) -> None:
        """Append a row for the memory (``vector`` None: not embedded yet, found by BM25 alone);
        a memory already here moves to the new row, and keeps its place in its thread."""
        old = self.row_of.get(memory_id)
        scope_code = self.codes["scope"].of(scope)
        thread_code = -1 if thread is None else self.codes["thread"].of(thread)
        stays = old is not None and self.thread[old] == thread_code and self.scope[old] == scope_code
        self.remove(memory_id, unlink=not stays)
        self.version += 1
        self._grow(self.n + 1)
        row = self.n
        self.n += 1
        self.thread[row] = thread_code
        if stays and old is not None:
            self._replace_in_thread(old, row)
        elif thread_code >= 0:
            self._append_to_thread(row, scope_code, thread_code)
        self.ids.append(memory_id)
        self.row_of[memory_id] = row
        if speaker is not None:  # each set replaced whole: readers keep theirs
            if speaker not in self.speakers:
                self.speakers = self.speakers | {speaker}
            known = self.scope_speakers.get(scope_code, frozenset())
            if speaker not in known:
                self.scope_speakers[scope_code] = known | {speaker}
        if terms is not None:
            self.text.add(row, terms)
        self.embedded[row] = vector is not None
        self.matrix[row] = 0.0 if vector is None else vector
        if self.quantized is not None:
            self.quantized.put(row, vector)
        self.alive[row] = True
        self.scope[row] = scope_code
        self.status[row] = self.codes["status"].of(status)
        self.tier[row] = self.codes["tier"].of(tier)
        self.category[row] = self.codes["category"].of(category)
        self.created[row] = created
        self.occurred[row] = occurred

    def _append_to_thread(self, row: int, scope_code: int, thread_code: int) -> None:
        tail = self.tails.get((scope_code, thread_code), -1)
        self._link(tail, row)
        self.after[row] = -1
        self.tails[(scope_code, thread_code)] = row

    def _replace_in_thread(self, old: int, row: int) -> None:
        before, after = int(self.before[old]), int(self.after[old])
        self._link(before, row)
        self._link(row, after)
        self._leave_thread(old, last=row)

    def _unlink(self, row: int) -> None:
        before, after = int(self.before[row]), int(self.after[row])
        self._link(before, after)
        self._leave_thread(row, last=before)

    def _link(self, first: int, second: int) -> None:
        """``second`` follows ``first`` in their thread (either may be -1: no row)."""
        if first >= 0:
            self.after[first] = second
        if second >= 0:
            self.before[second] = first

    def _leave_thread(self, row: int, *, last: int) -> None:
        """``row`` is out of its thread's chain; if it was the thread's last row, ``last`` is now
        (-1: the thread has no row left)."""
        key = (int(self.scope[row]), int(self.thread[row]))
        if self.tails.get(key) == row:
            if last >= 0:
                self.tails[key] = last
            else:
                del self.tails[key]
        self.before[row] = self.after[row] = -1

    def remove(self, memory_id: str, *, unlink: bool = True) -> None:
        row = self.row_of.pop(memory_id, None)
        if row is not None:
            if unlink and self.thread[row] >= 0:
                self._unlink(row)
            self.version += 1
            self.alive[row] = False
            self.embedded[row] = False
            self.matrix[row] = 0.0
            if self.quantized is not None:
                self.quantized.put(row, None)
            self.text.remove(row)

    def speakers_in(self, scopes: ScopeSet) -> frozenset[str]:
        """The speakers of ``scopes`` (of every scope: all of the tenant's)."""
        if scopes.is_every:
            return self.speakers
        codes, by_scope = self.codes["scope"].code, self.scope_speakers
        return frozenset().union(*(by_scope.get(codes[name], ()) for name in scopes if name in codes))

    @property
    def dead(self) -> int:
        """Rows a replaced or removed memory left behind: scanned (and held) until ``packed``."""
        return self.n - len(self.row_of)

    def packed(self) -> TenantVectors:
        """The same memories on their live rows alone, in the same order (so each thread's turns
        and every tie keep theirs); the sign bits travel with their rows, a fit still being made
        for the old rows is left to finish unused (the next large scan starts another)."""
        kept = np.flatnonzero(self.alive[: self.n])
        moved = np.full(self.n, -1, dtype=np.int32)
        moved[kept] = np.arange(kept.shape[0], dtype=np.int32)
        packed = TenantVectors(
            generation=self.generation,
            local=self.local,
            dimension=self.dimension,
            codes=self.codes,
            speakers=self.speakers,
            scope_speakers=self.scope_speakers,
        )
        packed._grow(kept.shape[0])
        packed.n = live = kept.shape[0]
        packed.ids = [self.ids[row] for row in kept.tolist()]
        packed.row_of = dict(zip(packed.ids, range(live), strict=True))
        for name in ("matrix", *_COLUMNS, "thread"):
            getattr(packed, name)[:live] = getattr(self, name)[kept]
        for name in ("before", "after"):  # links between live rows, renumbered (-1 stays -1)
            links = getattr(self, name)[kept]
            getattr(packed, name)[:live] = np.where(links >= 0, moved[links], -1)
        packed.tails = {key: int(moved[row]) for key, row in self.tails.items()}
        capacity = packed.matrix.shape[0]
        packed.text = self.text.packed(kept, moved, capacity)
        if self.quantized is not None:
            packed.quantized = self.quantized.packed(kept, capacity)
        return packed

    def mask(self, conditions: Conditions) -> npt.NDArray[np.bool_]:
        n = self.n
        keep = self.alive[:n].copy()
        if not conditions.scopes.is_every:
            keep &= self.codes["scope"].mask(self.scope[:n], conditions.scopes.names)
        if conditions.statuses:
            keep &= self.codes["status"].mask(self.status[:n], conditions.statuses)
        if conditions.categories:
            keep &= self.codes["category"].mask(self.category[:n], conditions.categories)
        if conditions.tiers:
            keep &= self.codes["tier"].mask(self.tier[:n], conditions.tiers)
        if conditions.exclude_tiers:
            keep &= ~self.codes["tier"].mask(self.tier[:n], conditions.exclude_tiers)
        for column, (low, high) in (("occurred", conditions.occurred_at), ("created", conditions.created_at)):
            values = getattr(self, column)[:n]
            if low is not None:
                keep &= values >= low.timestamp()
            if high is not None:
                keep &= values <= high.timestamp()
        return keep


def needs_sql(conditions: Conditions) -> bool:
    """Conditions the numpy columns cannot answer (tags, metadata, session) go through SQL."""
    return bool(
        conditions.tags_any
        or conditions.tags_all
        or conditions.metadata
        or conditions.session_id
        or conditions.valid_at is not None
    )
