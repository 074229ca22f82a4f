"""LangGraph's store semantics, run on LangGraph's own ``InMemoryStore`` and on ``EngramStore``
(over a real ``engram serve``) side by side: the behaviours LangGraph's store tests check (put,
get, overwrite, delete, search by prefix with filters, limit and offset, list_namespaces with
prefix, suffix, wildcards and max_depth, batch order, semantic search, the async methods), so
any difference between the two shows as a failure. Then what only Engram has to say: how items
look as memories, keys that collide as text, quarantine, and the import boundary."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from serve_support import Server, new_key, new_tenant, running_server

pytest.importorskip("langgraph.store.base", reason="the langgraph extra is part of make test's install")
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore

from engram.adapters.local_embedder import LocalEmbedder
from engram.integrations.langgraph import EngramStore

STORES = ["in-memory", "engram"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("langgraph"), "--quiet") as running:
        yield running


@pytest.fixture(scope="module")
def embed() -> Callable[[list[str]], list[list[float]]]:
    """Engram's own local model, so InMemoryStore's semantic search ranks with the same vectors."""
    embedder = LocalEmbedder()
    return lambda texts: [list(map(float, v)) for v in embedder.embed(texts)]


@pytest.fixture
def tenant_key(server: Server) -> str:
    return new_key(server, new_tenant(server))


@pytest.fixture(params=STORES)
def store(
    request: pytest.FixtureRequest,
    server: Server,
    tenant_key: str,
    embed: Callable[[list[str]], list[list[float]]],
) -> Iterator[BaseStore]:
    """A fresh, empty store of each kind (a new tenant for Engram)."""
    if request.param == "in-memory":
        yield InMemoryStore(index={"dims": 384, "embed": embed})
        return
    engram = EngramStore.connect(server.url, tenant_key)
    yield engram
    engram.close()


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


# -- put, get, overwrite, delete ----------------------------------------------------------------


def test_put_get_overwrite_and_delete_behave_as_langgraphs_stores(store: BaseStore) -> None:
    # Given an empty store
    namespace = ("acme", "test", "documents")
    assert store.search(("acme",)) == []
    # When an item is put and read back
    store.put(namespace, "doc1", {"title": "Test Document", "content": "Hello, World!"})
    item = store.get(namespace, "doc1")
    # Then it comes back whole, with its place and times
    assert item is not None and type(item) is Item
    assert (item.namespace, item.key, item.value) == (
        namespace,
        "doc1",
        {"title": "Test Document", "content": "Hello, World!"},
    )
    assert item.created_at <= item.updated_at
    # And an overwrite replaces the value and moves updated_at forward
    store.put(namespace, "doc1", {"title": "Updated Test Document", "content": "Hello, LangGraph!"})
    updated = store.get(namespace, "doc1")
    assert updated is not None and updated.value == {
        "title": "Updated Test Document",
        "content": "Hello, LangGraph!",
    }
    assert updated.updated_at >= item.updated_at
    # And the key is unknown in another namespace
    assert store.get(("acme", "test", "other_documents"), "doc1") is None
    # And a search by prefix finds both items, a listing finds their namespace
    store.put(namespace, "doc2", {"title": "Another Document", "content": "Greetings!"})
    assert {i.key for i in store.search(("acme", "test"), limit=10)} == {"doc1", "doc2"}
    assert namespace in store.list_namespaces(prefix=("acme", "test"))
    # And after both deletes nothing is left
    store.delete(namespace, "doc1")
    store.delete(namespace, "doc2")
    assert store.get(namespace, "doc1") is None and store.get(namespace, "doc2") is None
    assert store.search(("acme", "test"), limit=10) == []


def test_values_come_back_exactly(store: BaseStore) -> None:
    # Given values of every JSON shape
    value = {
        "text": "Ünïcødé — 東京 ✓",
        "n": 3,
        "x": 2.5,
        "ok": True,
        "none": None,
        "list": [1, "two", {"three": [3.0]}],
        "nested": {"a": {"b": {"c": "deep"}}},
        "": "an empty key",
    }
    # When they are put and read back
    store.put(("values",), "all", value)
    store.put(("values",), "empty", {})
    # Then they are equal to what was put
    got, empty = store.get(("values",), "all"), store.get(("values",), "empty")
    assert got is not None and got.value == value
    assert empty is not None and empty.value == {}


def test_bad_namespaces_are_refused(store: BaseStore) -> None:
    # Given values put under namespaces LangGraph forbids
    for namespace in [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")]:
        # Then each put is refused before anything is stored
        with pytest.raises(InvalidNamespaceError):
            store.put(namespace, "foo", {"foo": "bar"})
    # And "langgraph" below the root is fine
    store.put(("foo", "langgraph", "foo"), "bar", {"foo": "bar"})
    got = store.get(("foo", "langgraph", "foo"), "bar")
    assert got is not None and got.value == {"foo": "bar"}


def test_ttl_is_refused_where_it_is_not_supported(store: BaseStore) -> None:
    # Given a store without TTL support, then a put with a TTL is an error
    assert store.supports_ttl is False
    with pytest.raises(NotImplementedError):
        store.put(("ttl",), "k", {"v": 1}, ttl=5)


# -- batches ------------------------------------------------------------------------------------


def test_batch_answers_in_the_order_of_its_ops(store: BaseStore) -> None:
    # Given two items
    store.put(("test", "foo"), "key1", {"data": "value1"})
    store.put(("test", "bar"), "key2", {"data": "value2"})
    # When a batch mixes every kind of op
    results = store.batch(
        [
            GetOp(namespace=("test", "foo"), key="key1"),
            PutOp(namespace=("test", "bar"), key="key2", value={"data": "value2"}),
            SearchOp(namespace_prefix=("test",), filter={"data": "value1"}, limit=10, offset=0),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
            GetOp(namespace=("test",), key="key3"),
        ]
    )
    # Then each result sits at its op's position
    assert len(results) == 5
    assert isinstance(results[0], Item) and results[0].value == {"data": "value1"}
    assert results[1] is None
    assert isinstance(results[2], list) and [i.key for i in results[2]] == ["key1"]
    assert isinstance(results[3], list) and {("test", "foo"), ("test", "bar")} <= set(results[3])
    assert results[4] is None
    # And the same holds reordered, the put taking effect
    again = store.batch(
        [
            SearchOp(namespace_prefix=("test",), filter=None, limit=5, offset=0),
            GetOp(namespace=("test", "bar"), key="key2"),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=5, offset=0),
            PutOp(namespace=("test",), key="key3", value={"data": "value3"}),
            GetOp(namespace=("test", "foo"), key="key1"),
        ]
    )
    assert isinstance(again[0], list) and len(again[0]) >= 2
    assert isinstance(again[1], Item) and again[1].value == {"data": "value2"}
    assert isinstance(again[2], list) and again[2]
    assert again[3] is None
    assert isinstance(again[4], Item) and again[4].key == "key1"
    got = store.get(("test",), "key3")
    assert got is not None and got.value == {"data": "value3"}


def test_batch_reads_see_the_store_before_its_writes_and_the_last_put_wins(store: BaseStore) -> None:
    # Given a batch that puts a key twice around a read of it
    results = store.batch(
        [
            PutOp(("batch",), "k", {"v": 1}),
            GetOp(("batch",), "k"),
            PutOp(("batch",), "k", {"v": 2}),
            SearchOp(("batch",)),
        ]
    )
    # Then its reads saw the store as it was, and the last put is what remains
    assert results == [None, None, None, []]
    got = store.get(("batch",), "k")
    assert got is not None and got.value == {"v": 2}
    assert [i.value for i in store.search(("batch",))] == [{"v": 2}]


def test_batch_puts_and_deletes(store: BaseStore) -> None:
    # Given a key to delete
    store.put(("test",), "key3", {"data": "old"})
    # When one batch puts two keys and deletes the third (value None)
    results = store.batch(
        [
            PutOp(("test",), "key1", {"data": "value1"}),
            PutOp(("test",), "key2", {"data": "value2"}),
            PutOp(("test",), "key3", None),
            PutOp(("test",), "never-there", None),
        ]
    )
    # Then every result is None and the store holds what the batch said
    assert results == [None, None, None, None]
    got = store.batch([GetOp(("test",), "key1"), GetOp(("test",), "key2"), GetOp(("test",), "key3")])
    assert [i.value if isinstance(i, Item) else i for i in got] == [
        {"data": "value1"},
        {"data": "value2"},
        None,
    ]


def test_batch_searches_and_listings(store: BaseStore) -> None:
    # Given items in three namespaces, tagged a, a, b
    for namespace, key, value in [
        (("test", "foo"), "key1", {"data": "value1", "tag": "a"}),
        (("test", "bar"), "key2", {"data": "value2", "tag": "a"}),
        (("test", "baz"), "key3", {"data": "value3", "tag": "b"}),
        (("prod", "documents", "public"), "doc3", {"content": "prod doc"}),
    ]:
        store.put(namespace, key, value)
    # When searches and listings run in one batch
    results = store.batch(
        [
            SearchOp(namespace_prefix=("test",), filter={"tag": "a"}, limit=10, offset=0),
            SearchOp(namespace_prefix=("test",), filter=None, limit=2, offset=0),
            SearchOp(namespace_prefix=("test", "foo"), filter=None, limit=10, offset=0),
            ListNamespacesOp(match_conditions=None, max_depth=1, limit=10, offset=0),
            ListNamespacesOp(match_conditions=(MatchCondition("suffix", ("public",)),), limit=10),
        ]
    )
    # Then each answers on its own terms
    assert sorted(i.key for i in results[0]) == ["key1", "key2"]  # type: ignore[union-attr]
    assert len(results[1]) == 2  # type: ignore[arg-type]
    assert [i.namespace for i in results[2]] == [("test", "foo")]  # type: ignore[union-attr]
    assert results[3] == [("prod",), ("test",)]
    assert results[4] == [("prod", "documents", "public")]


def test_async_methods_and_abatch(store: BaseStore) -> None:
    async def scenario() -> None:
        # Given items put concurrently with the async methods
        await asyncio.gather(*(store.aput(("async", f"n{i % 2}"), f"k{i}", {"i": i}) for i in range(6)))
        # When they are read, searched, listed, batched and deleted the async way
        got = await store.aget(("async", "n0"), "k2")
        found = await store.asearch(("async",), filter={"i": {"$gte": 3}}, limit=10)
        listed = await store.alist_namespaces(prefix=("async",))
        batch = await store.abatch(
            [GetOp(("async", "n1"), "k1"), PutOp(("async", "n1"), "k1", None), GetOp(("async", "n1"), "k1")]
        )
        await store.adelete(("async", "n0"), "k0")
        # Then they agree with the blocking ones
        assert got is not None and got.value == {"i": 2}
        assert sorted(i.value["i"] for i in found) == [3, 4, 5]
        assert listed == [("async", "n0"), ("async", "n1")]
        assert isinstance(batch[0], Item) and batch[0].value == {"i": 1} and batch[2] is not None
        assert await store.aget(("async", "n1"), "k1") is None
        assert await store.aget(("async", "n0"), "k0") is None
        if isinstance(store, EngramStore):
            await store.aclose()

    run(scenario())


# -- search without a query: prefix, filter, limit, offset -------------------------------------


def test_search_by_prefix_with_filters_and_pages(store: BaseStore) -> None:
    # Given four items in two branches
    base = "search_items"
    items = [
        ((base, "documents", "user1"), {"title": "Doc 1", "author": "John Doe", "tags": ["important"]}),
        ((base, "documents", "user2"), {"title": "Doc 2", "author": "Jane Smith", "tags": ["draft"]}),
        ((base, "reports", "department1"), {"title": "Report A", "author": "John Doe", "tags": ["final"]}),
        (
            (base, "reports", "department2"),
            {"title": "Report B", "author": "Alice Johnson", "tags": ["draft"]},
        ),
    ]
    for namespace, value in items:
        store.put(namespace, f"item_{namespace[-1]}", value)
    # Then a prefix selects a branch
    assert {i.namespace[1] for i in store.search((base, "documents"))} == {"documents"}
    assert len(store.search((base, "reports"))) == 2
    # And pages do not overlap and together are everything
    first, second = store.search((base,), limit=2, offset=0), store.search((base,), limit=2, offset=2)
    assert len(first) == len(second) == 2
    assert {i.key for i in first}.isdisjoint({i.key for i in second})
    assert len(store.search((base,))) == 4
    # And filters compare values, lists element by element
    assert {i.value["title"] for i in store.search((base,), filter={"author": "John Doe"})} == {
        "Doc 1",
        "Report A",
    }
    assert len(store.search((base,), filter={"tags": ["draft"]})) == 2
    assert store.search((base,), filter={"tags": "draft"}) == []
    assert [
        i.value["title"]
        for i in store.search((base,), filter={"author": {"$ne": "John Doe"}, "title": {"$eq": "Doc 2"}})
    ] == ["Doc 2"]


def test_search_filters_with_comparison_operators(store: BaseStore) -> None:
    # Given items with numbers and a nested field
    for i, score in enumerate([3.0, 3.5, 4.0, 4.5]):
        store.put(("ops",), f"d{i}", {"score": score, "meta": {"lang": "en" if i % 2 else "fr"}})

    # Then each operator selects as LangGraph defines it
    def keys(conditions: dict[str, Any]) -> list[str]:
        return sorted(i.key for i in store.search(("ops",), filter=conditions))

    assert keys({"score": {"$gt": 3.5}}) == ["d2", "d3"]
    assert keys({"score": {"$gte": 3.5, "$lt": 4.5}}) == ["d1", "d2"]
    assert keys({"score": {"$lte": 3.0}}) == ["d0"]
    assert keys({"meta": {"lang": "en"}}) == ["d1", "d3"]
    assert keys({"score": 4.0, "meta": {"lang": "fr"}}) == ["d2"]


def test_search_prefix_stops_at_label_boundaries_and_is_literal(store: BaseStore) -> None:
    # Given namespaces that share leading characters, metacharacters and case
    for namespace in [
        ("foo",),
        ("foo", "child"),
        ("foo", "child", "deep"),
        ("foobar",),
        ("foobar", "baz"),
        ("foo2",),
        ("user_1",),
        ("userX1",),
        ("a%b",),
        ("star*",),
        ("Foo",),
        ("d", "e", "f"),
    ]:
        store.put(namespace, "k", {"v": 1})

    def namespaces(prefix: tuple[str, ...]) -> set[tuple[str, ...]]:
        return {item.namespace for item in store.search(prefix, limit=100)}

    # Then a prefix matches whole labels, literally and case-sensitively
    assert namespaces(("foo",)) == {("foo",), ("foo", "child"), ("foo", "child", "deep")}
    assert namespaces(("foobar",)) == {("foobar",), ("foobar", "baz")}
    assert namespaces(("fo",)) == set()
    assert namespaces(("user_1",)) == {("user_1",)}
    assert namespaces(("a%b",)) == {("a%b",)}
    assert namespaces(("star*",)) == {("star*",)}
    assert namespaces(("Foo",)) == {("Foo",)}
    # And an empty prefix constrains nothing
    assert len(namespaces(())) == 12


# -- list_namespaces ----------------------------------------------------------------------------


NAMESPACES = [
    ("a", "b", "c"),
    ("a", "b", "d", "e"),
    ("a", "b", "d", "i"),
    ("a", "b", "f"),
    ("a", "c", "f"),
    ("b", "a", "f"),
    ("users", "123"),
    ("users", "456", "settings"),
    ("admin", "users", "789"),
]


def test_list_namespaces_with_prefix_suffix_depth_and_pages(store: BaseStore) -> None:
    # Given items in nine namespaces
    for i, namespace in enumerate(NAMESPACES):
        store.put(namespace, f"id_{i}", {"data": f"value_{i:02d}"})
    # Then prefix, suffix, both, wildcards, depth and pages select as LangGraph's stores do
    assert store.list_namespaces(prefix=("a", "b")) == [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("a",), suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == [("a", "b", "c"), ("a", "b", "d", "e")]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == [("a", "b", "d", "i"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(suffix=("*", "f")) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings")) == []
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]
    assert store.list_namespaces(max_depth=2) == sorted({ns[:2] for ns in NAMESPACES})
    assert store.list_namespaces() == sorted(NAMESPACES)


def test_list_namespaces_pages_through_many(store: BaseStore) -> None:
    # Given twenty namespaces
    for i in range(20):
        store.put(("namespace", f"sub_{i:02d}"), f"id_{i:02d}", {"data": f"value_{i:02d}"})
    # Then pages of five follow the sorted order
    for offset in (0, 5, 15):
        page = store.list_namespaces(prefix=("namespace",), limit=5, offset=offset)
        assert page == [("namespace", f"sub_{i:02d}") for i in range(offset, offset + 5)]


def test_list_namespaces_keeps_odd_labels_apart(store: BaseStore) -> None:
    # Given labels with a trailing newline, spaces, slashes, pluses and non-ASCII letters
    odd = [
        ("users", "alice"),
        ("users", "alice\n"),
        ("users", "ann smith"),
        ("a/b", "c+d"),
        ("東京", "ü", "%2F"),
    ]
    for namespace in odd:
        store.put(namespace, "k", {"v": 1})
    # Then each is its own namespace, matched only by itself
    assert store.list_namespaces(suffix=("alice",)) == [("users", "alice")]
    assert store.list_namespaces(prefix=("users", "alice")) == [("users", "alice")]
    assert store.list_namespaces() == sorted(odd)
    assert [i.namespace for i in store.search(("東京",))] == [("東京", "ü", "%2F")]


def test_an_empty_store_lists_nothing(store: BaseStore) -> None:
    assert store.list_namespaces() == []
    assert store.search(()) == []


# -- semantic search ----------------------------------------------------------------------------


FRUIT = [
    ("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
    ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
    ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
    ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
]


def test_semantic_search_ranks_within_filters(store: BaseStore) -> None:
    # Given four documents
    for key, value in FRUIT:
        store.put(("test",), key, value)
    # Then a query ranks the items the filter keeps, each with a score
    apples = store.search(("test",), query="apple", filter={"color": "red"})
    assert [i.key for i in apples][:1] == ["doc1"] and len(apples) == 2
    assert all(i.score is not None for i in apples)
    cars = store.search(("test",), query="car", filter={"color": "red"})
    assert [i.key for i in cars][:1] == ["doc2"] and len(cars) == 2
    blue = store.search(("test",), query="a blue vehicle", filter={"score": {"$gt": 3.2}})
    assert len(blue) == 3 and blue[0].key == "doc4"
    green = store.search(("test",), query="apple", filter={"score": {"$gte": 4.0}, "color": "green"})
    assert [i.key for i in green] == ["doc3"]


def test_semantic_search_pages_and_ranks_every_item(store: BaseStore) -> None:
    # Given five documents
    for i in range(5):
        store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})
    # Then pages of a query do not overlap, and a large limit ranks them all
    first = store.search(("test",), query="test", limit=2)
    second = store.search(("test",), query="test", limit=2, offset=2)
    assert len(first) == len(second) == 2
    assert {i.key for i in first}.isdisjoint({i.key for i in second})
    assert len(store.search(("test",), query="test", limit=10)) == 5


def test_semantic_search_follows_an_overwrite_and_skips_unindexed_items(store: BaseStore) -> None:
    # Given three documents, one about a zebra
    store.put(("test",), "doc1", {"text": "zany zebra Xerxes"})
    store.put(("test",), "doc2", {"text": "something about dogs"})
    store.put(("test",), "doc3", {"text": "text about birds"})
    before = store.search(("test",), query="Zany Xerxes")
    assert before[0].key == "doc1" and before[0].score is not None
    # When the zebra document is overwritten with text about dogs
    store.put(("test",), "doc1", {"text": "new text about dogs"})
    # Then the old query scores it lower, and the new one finds it
    after = next(i.score for i in store.search(("test",), query="Zany Xerxes") if i.key == "doc1")
    assert after is not None and after < before[0].score
    assert "doc1" in [i.key for i in store.search(("test",), query="new text about dogs", limit=2)]
    # And an item put with index=False is left out of ranked results, filling up only unscored
    store.put(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    assert "doc4" not in [i.key for i in store.search(("test",), query="new text about dogs", limit=3)]
    everything = store.search(("test",), query="new text about dogs", limit=10)
    assert [(i.key, i.score) for i in everything][-1] == ("doc4", None)
    assert store.get(("test",), "doc4") is not None


def test_semantic_search_in_other_scripts(store: BaseStore) -> None:
    # Given texts in five scripts
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for i, text in enumerate(texts, start=1):
        store.put(("user_123", "memories"), str(i), {"text": text})
    # Then each text finds its own item first
    for i, text in enumerate(texts, start=1):
        assert store.search(("user_123", "memories"), query=text)[0].key == str(i)
