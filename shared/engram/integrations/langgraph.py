"""``EngramStore``: a LangGraph ``BaseStore`` whose items are Engram memories.

``pip install 'engram-recall[langgraph]'`` (the SDK and ``langgraph-checkpoint``, which holds
``BaseStore``). Every request goes through the Python SDK (``engram.client``), so the store works
against any Engram API (``engram serve`` or the cloud) with a tenant key.

>>> from engram.integrations.langgraph import EngramStore
>>> store = EngramStore.connect("http://127.0.0.1:8080", "egk_…")  # doctest: +SKIP
>>> store.put(("users", "ann", "memories"), "theme", {"text": "Ann prefers dark mode"})  # doctest: +SKIP
>>> store.search(("users", "ann"), query="which theme?")[0].value  # doctest: +SKIP
{'text': 'Ann prefers dark mode'}

How LangGraph's model maps onto Engram's:

- A namespace is a scope under ``root`` (default ``project:langgraph``): ``("users", "ann")`` is
  ``project:langgraph.users.ann`` (see ``engram.integrations._namespaces`` for the escaping of
  characters a scope does not allow).
- An item is one raw memory: its content is the value as JSON (what Engram embeds and searches,
  as LangGraph embeds the whole value by default), its metadata ``lg_key`` the key, and its tags
  ``langgraph`` and ``lg-key:<hash of the key>`` (how a key is found). ``put`` of a key that
  exists changes that memory in place (``PATCH``: same id, ``created_at`` kept, ``updated_at``
  new), ``put`` of ``None`` or ``delete`` forgets it (a hard delete).
- ``search`` with a ``query`` is Engram's recall over the namespaces under the prefix (every item
  ranked: ``min_score`` 0), without one a listing, newest ``updated_at`` first; ``filter`` is
  applied to the values here, with LangGraph's operators.
- ``batch`` runs its reads first, then its writes (the last put of a key wins), as LangGraph's
  own stores do.

Where it differs from ``InMemoryStore`` (the README lists the same): scores are Engram's final
recall scores in [0, 1], not cosines, and the ranking is Engram's (hybrid BM25 + vectors, the
lifecycle prior, MMR); one semantic search sees the best 100 memories of each group of 50
namespaces before ``filter`` and ``offset`` apply; ``index`` fields are not honoured (the whole
value is indexed; ``index=False`` keeps the item out of semantic results, filling them up to
``limit`` without a score as ``InMemoryStore`` does); an overwrite keeps ``created_at``; a
value the poisoning screen quarantines stays readable by ``get`` but is left out of ``search``;
an item the lifecycle job archives (long unused) stays readable by ``get`` and in listings but
drops out of semantic search until restored; TTLs are not supported (``supports_ttl`` is false).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import uuid
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from engram.client import ApiError, AsyncEngram, Engram, NotFound
from engram.integrations._namespaces import (
    check_root,
    namespace_matches,
    to_namespace,
    to_scope,
    value_matches,
)
from engram.models import MAX_TEXT_CHARS, MemoryView, RecalledMemory

T = TypeVar("T")
Ask = Callable[[Any], Any]
"""One SDK call on a client: its answer (``Engram``) or an awaitable of it (``AsyncEngram``)."""
Plan = Generator[Ask, Any, T]
"""An operation as the SDK calls it needs, one after the other; driven by ``batch`` (blocking)
or ``abatch`` (asyncio), so both run the same code."""

DEFAULT_ROOT = "project:langgraph"
LG_KEY = "lg_key"
STORE_TAG = "langgraph"
UNINDEXED_TAG = "lg-unindexed"
MAX_KEY_CHARS = 1024  # a metadata string's limit
RECALL_LIMIT = 100  # recall's largest limit
RECALL_SCOPES = 50  # recall's most scopes per request
PAGE = 500  # the listing's largest page
LISTED_PER_GET = 100  # memories a listing reads in the time of one GET
SEARCHED = frozenset({"active", "archived"})  # quarantined and superseded memories are never returned


def key_tag(key: str) -> str:
    """The tag a key's memory is found by (a tag is at most 64 characters, a key is not).

    >>> key_tag("theme")
    'lg-key:3cb8201e7ff1e7777446032ef1bf4338'
    """
    return "lg-key:" + hashlib.sha256(key.encode()).hexdigest()[:32]


def _content(value: Mapping[str, Any]) -> str:
    if not isinstance(value, Mapping):
        raise TypeError(f"a LangGraph value is a dict, not {type(value).__name__}")
    content = json.dumps(dict(value), ensure_ascii=False)
    if len(content) > MAX_TEXT_CHARS:
        raise ValueError(f"value is {len(content)} characters as JSON; Engram keeps at most {MAX_TEXT_CHARS}")
    return content


def _check_key(key: str) -> str:
    if len(key) > MAX_KEY_CHARS:
        raise ValueError(f"key is {len(key)} characters; at most {MAX_KEY_CHARS}")
    return key


def _value(content: str) -> dict[str, Any] | None:
    try:
        value = json.loads(content)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class EngramStore(BaseStore):
    """A LangGraph ``BaseStore`` on Engram (see the module's docstring for the mapping).

    ``client`` serves ``batch`` (and the blocking methods), ``async_client`` serves ``abatch``
    (and the ``a…`` methods); with only ``client``, ``abatch`` runs ``batch`` in a thread.
    ``connect`` and ``from_env`` make both; ``close``/``aclose`` close what the store made.
    """

    __slots__ = ("_async", "_owned", "_sync", "root")

    def __init__(
        self,
        client: Engram | None = None,
        *,
        async_client: AsyncEngram | None = None,
        root: str = DEFAULT_ROOT,
    ) -> None:
        if client is None and async_client is None:
            raise ValueError("give an Engram client, an AsyncEngram client, or both")
        self._sync, self._async, self._owned = client, async_client, False
        self.root = check_root(root)

    @classmethod
    def connect(
        cls, url: str, api_key: str | None = None, *, root: str = DEFAULT_ROOT, **options: Any
    ) -> EngramStore:
        """A store with its own blocking and async clients for ``url`` (``options``: the clients')."""
        store = cls(
            Engram(url, api_key, **options), async_client=AsyncEngram(url, api_key, **options), root=root
        )
        store._owned = True
        return store

    @classmethod
    def from_env(cls, *, root: str = DEFAULT_ROOT, **options: Any) -> EngramStore:
        """``connect`` to ``ENGRAM_URL`` with ``ENGRAM_API_KEY``."""
        client = Engram.from_env(**options)
        store = cls(client, async_client=AsyncEngram.from_env(**options), root=root)
        store._owned = True
        return store

    def close(self) -> None:
        if self._owned and self._sync is not None:
            self._sync.close()

    async def aclose(self) -> None:
        if self._owned and self._async is not None:
            await self._async.close()

    def __enter__(self) -> EngramStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    async def __aenter__(self) -> EngramStore:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    # -- batches ----------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        if self._sync is None:
            raise RuntimeError("this EngramStore has only an AsyncEngram client: use abatch (or aget, aput…)")
        results, reads, writes = self._plan(ops)
        for position, plan in reads:
            results[position] = _drive(self._sync, plan)
        for plan in writes:
            _drive(self._sync, plan)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        if self._async is None:
            return await asyncio.to_thread(self.batch, list(ops))
        results, reads, writes = self._plan(ops)
        answers = await asyncio.gather(*(_adrive(self._async, plan) for _, plan in reads))
        for (position, _), answer in zip(reads, answers, strict=True):
            results[position] = answer
        for plan in writes:
            await _adrive(self._async, plan)
        return results

    def _plan(
        self, ops: Iterable[Op]
    ) -> tuple[list[Result], list[tuple[int, Plan[Result]]], list[Plan[None]]]:
        """Each op's plan, checked before anything is sent (namespaces, keys, values): reads in
        order, then one put per key."""
        ops = list(ops)
        reads: list[tuple[int, Plan[Result]]] = []
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        for position, op in enumerate(ops):
            if isinstance(op, GetOp):
                reads.append((position, self._get(to_scope(self.root, op.namespace), op)))
            elif isinstance(op, SearchOp):
                reads.append((position, self._search(op)))
            elif isinstance(op, ListNamespacesOp):
                reads.append((position, self._list_namespaces(op)))
            elif isinstance(op, PutOp):
                puts[(tuple(op.namespace), op.key)] = op
            else:
                raise ValueError(f"Unknown operation type: {type(op)}")
        writes = [
            self._put(
                to_scope(self.root, op.namespace),
                _check_key(op.key),
                None if op.value is None else _content(op.value),
                unindexed=op.index is False,
            )
            for op in puts.values()
        ]
        return [None] * len(ops), reads, writes

    # -- operations, as plans ---------------------------------------------------------------

    def _get(self, scope: str, op: GetOp) -> Plan[Result]:
        found = yield from _find(scope, op.key)
        item = self._item(max(found, key=lambda m: m.updated_at)) if found else None
        if item is None:
            return None
        return Item(
            value=item.value,
            key=item.key,
            namespace=item.namespace,
            created_at=item.created_at,
            updated_at=item.updated_at,
        )

    def _put(self, scope: str, key: str, content: str | None, *, unindexed: bool) -> Plan[None]:
        """Store ``content`` (the value's JSON) under ``key``, or forget the key (None)."""
        found = yield from _find(scope, key)
        if content is None:
            if found:
                yield _ask("forget", ids=[m.id for m in found])
            return
        tags = [STORE_TAG, key_tag(key), *([UNINDEXED_TAG] if unindexed else [])]
        metadata = {LG_KEY: key}
        if found:
            newest, *twins = sorted(found, key=lambda m: m.updated_at, reverse=True)
            # A put brings an item the lifecycle job archived back into the search index.
            back = {"tier": "peripheral"} if newest.tier == "archived" else {}
            yield _ask("update", newest.id, content=content, metadata=metadata, tags=tags, **back)
            if twins:  # left by two first puts of one key at once
                yield _ask("forget", ids=[m.id for m in twins])
            return
        kept = yield _ask("retain", scope, content, mode="raw", metadata=metadata, tags=tags)
        result = kept.results[0]
        if result.action == "created":
            return
        # A memory's id follows its normalised text, so this text is stored already in the scope:
        # by a put of this key at the same time (then it is this item), or as another key's value.
        twin: MemoryView = result.memory or (yield _ask("get", result.id))
        if twin.metadata.get(LG_KEY) == key:
            yield _ask("update", twin.id, content=content, metadata=metadata, tags=tags)
            return
        placeholder = f"{key_tag(key)} {uuid.uuid4().hex}"
        made = yield _ask("retain", scope, placeholder, mode="raw", metadata=metadata, tags=tags)
        memory_id = made.results[0].id
        try:
            yield _ask("update", memory_id, content=content)
        except ApiError:
            yield _ask("delete", memory_id)
            raise

    def _search(self, op: SearchOp) -> Plan[Result]:
        stats = yield _ask("stats")
        prefix = tuple(op.namespace_prefix)
        counts = {
            scope: count
            for scope, count in sorted(stats.by_scope.items())
            if (namespace := to_namespace(self.root, scope)) is not None
            and namespace[: len(prefix)] == prefix
        }
        if not counts or op.limit <= 0:
            return []
        if not op.query:
            listed = yield from self._listing(list(counts), STORE_TAG, op.filter)
            return listed[op.offset : op.offset + op.limit]
        return (yield from self._semantic(op, op.query, counts))

    def _listing(
        self, scopes: Sequence[str], tag: str, conditions: dict[str, Any] | None
    ) -> Plan[list[SearchItem]]:
        """Every item of ``scopes`` with ``tag`` that passes the filter, newest first."""
        views: list[MemoryView] = []
        for scope in scopes:
            views += yield from _pages(scope, tag)
        newest: dict[tuple[tuple[str, ...], str], SearchItem] = {}
        for view in sorted(views, key=lambda m: m.updated_at):
            item = self._item(view) if view.status in SEARCHED else None
            if item is not None and value_matches(item.value, conditions):
                newest[(item.namespace, item.key)] = item
        return sorted(newest.values(), key=lambda i: i.updated_at, reverse=True)

    def _semantic(self, op: SearchOp, query: str, counts: dict[str, int]) -> Plan[list[SearchItem]]:
        # Always the most recall gives: pages of one query then rank alike, and memories left out
        # here (kept out of the index, not the store's) do not crowd items out of the page.
        scopes = list(counts)
        hits: list[RecalledMemory] = []
        for start in range(0, len(scopes), RECALL_SCOPES):
            group = scopes[start : start + RECALL_SCOPES]
            found = yield _ask("recall", query, scopes=group, limit=RECALL_LIMIT, min_score=0.0)
            hits.extend(found.memories)
        if len(scopes) > RECALL_SCOPES:
            hits.sort(key=lambda m: -m.score)
        ranked: list[RecalledMemory] = []
        seen: set[tuple[str, str]] = set()
        for hit in hits:
            value, key = _value(hit.content), hit.metadata.get(LG_KEY)
            if STORE_TAG not in hit.tags or UNINDEXED_TAG in hit.tags or value is None or key is None:
                continue
            if (hit.scope, key) not in seen and value_matches(value, op.filter):
                seen.add((hit.scope, key))
                ranked.append(hit)
        chosen = ranked[op.offset : op.offset + op.limit]
        views = yield from _views(chosen, counts)
        page = [
            item
            for hit in chosen
            if hit.id in views and (item := self._item(views[hit.id], hit.score)) is not None
        ]
        if len(page) < op.limit:  # as InMemoryStore: items kept out of the index fill up, unscored
            unindexed = yield from self._listing(scopes, UNINDEXED_TAG, op.filter)
            page.extend(unindexed[: op.limit - len(page)])
        return page

    def _list_namespaces(self, op: ListNamespacesOp) -> Plan[Result]:
        stats = yield _ask("stats")
        namespaces = [ns for scope in stats.by_scope if (ns := to_namespace(self.root, scope)) is not None]
        namespaces = [
            ns for ns in namespaces if all(namespace_matches(c, ns) for c in op.match_conditions or ())
        ]
        if op.max_depth is not None:
            namespaces = [ns[: op.max_depth] for ns in namespaces]
        return sorted(set(namespaces))[op.offset : op.offset + op.limit]

    def _item(self, view: MemoryView, score: float | None = None) -> SearchItem | None:
        """The item a memory stands for (None for a memory the store did not write)."""
        namespace = to_namespace(self.root, view.scope)
        key, value = view.metadata.get(LG_KEY), _value(view.content)
        if namespace is None or not isinstance(key, str) or value is None or STORE_TAG not in view.tags:
            return None
        return SearchItem(namespace, key, value, view.created_at, view.updated_at, score)


def _ask(method: str, *args: Any, **kwargs: Any) -> Ask:
    """A call of the SDK method ``method`` (the same name on ``Engram`` and ``AsyncEngram``)."""
    return lambda client: getattr(client, method)(*args, **kwargs)


def _find(scope: str, key: str) -> Plan[list[MemoryView]]:
    """The memories of ``key`` in ``scope``: one, or more after two first puts at once."""
    page = yield _ask("list_memories", scope=scope, tag=key_tag(key), limit=PAGE)
    return [m for m in page.memories if m.metadata.get(LG_KEY) == key and m.status != "superseded"]


def _pages(scope: str, tag: str) -> Plan[list[MemoryView]]:
    """Every memory of ``scope`` with ``tag``, page after page."""
    views: list[MemoryView] = []
    cursor: str | None = None
    while True:
        page = yield _ask("list_memories", scope=scope, tag=tag, cursor=cursor, limit=PAGE)
        views.extend(page.memories)
        if not page.next_cursor:
            return views
        cursor = page.next_cursor


def _views(hits: Sequence[RecalledMemory], counts: dict[str, int]) -> Plan[dict[str, MemoryView]]:
    """The memories of recalled ``hits`` by id, for their ``updated_at`` (a recall answers none):
    a listing of their scopes when that costs less than a ``GET`` each (measured on ``engram
    serve``: a GET costs about what listing 100 memories does); a hit deleted since is left out."""
    scopes = sorted({hit.scope for hit in hits})
    wanted = {hit.id for hit in hits}
    if 1 + sum(counts.get(scope, 0) for scope in scopes) / LISTED_PER_GET < len(hits):
        views: dict[str, MemoryView] = {}
        for scope in scopes:
            listed = yield from _pages(scope, STORE_TAG)
            views.update((view.id, view) for view in listed if view.id in wanted)
        return views
    got: dict[str, MemoryView] = {}
    for hit in hits:
        try:
            got[hit.id] = yield _ask("get", hit.id)
        except NotFound:
            continue
    return got


def _drive(client: Engram, plan: Plan[T]) -> T:
    """Run a plan with the blocking client: each call's answer (or its error) goes back into it."""
    outcome: Any = None
    while not isinstance(step := _resume(plan, outcome), _Done):
        try:
            outcome = step(client)
        except ApiError as exc:
            outcome = exc
    return step.value


async def _adrive(client: AsyncEngram, plan: Plan[T]) -> T:
    """``_drive`` with the async client."""
    outcome: Any = None
    while not isinstance(step := _resume(plan, outcome), _Done):
        try:
            outcome = await step(client)
        except ApiError as exc:
            outcome = exc
    return step.value


@dataclass(frozen=True)
class _Done(Generic[T]):
    """What a plan returned."""

    value: T


def _resume(plan: Plan[T], outcome: Any) -> Ask | _Done[T]:
    """The plan's next call once the last one answered ``outcome`` (an ``ApiError`` is raised in
    the plan), or what the plan returned."""
    try:
        return plan.throw(outcome) if isinstance(outcome, ApiError) else plan.send(outcome)
    except StopIteration as done:
        return _Done(done.value)
