"""``EmbeddingBacklog``: memories stored without a vector wait oldest first; a vector is stored
only for the text it was computed from; the backlog is per tenant."""

from __future__ import annotations

from store_support import Backend, put, record, vector


def test_pending_embeddings_are_listed_oldest_first_and_guarded_by_hash(backend: Backend) -> None:
    store = backend.store
    a, b = record("acme", "first text"), record("acme", "second text", minute=1)
    put(store, a, b, embed=False)
    assert store.pending.tenants_with_pending() == ["acme"]
    assert store.pending.pending_embedding("acme", 10) == [
        (a.id, a.content, a.content_hash),
        (b.id, b.content, b.content_hash),
    ]
    assert store.pending.pending_embedding("acme", 1) == [(a.id, a.content, a.content_hash)]
    done = store.pending.set_embeddings(
        "acme", [(a.id, a.content_hash, vector(1)), (b.id, "stale-hash", vector(2))], "m"
    )
    assert done == [a.id]
    assert store.pending.pending_embedding("acme", 10) == [(b.id, b.content, b.content_hash)]
    assert (
        store.pending.set_embeddings("acme", [(a.id, a.content_hash, vector(3))], "m") == []
    )  # embedded already
    store.pending.set_embeddings("acme", [(b.id, b.content_hash, vector(2))], "m")
    assert store.pending.tenants_with_pending() == [] and store.records.stats("acme").pending_embedding == 0
    # the record now names the model of its vector, and a later update does not forget it
    stored = store.records.get("acme", a.id)
    assert stored is not None and stored.embedding_model == "m"
    assert store.records.update(
        "acme", stored.model_copy(update={"version": 2, "tags": ["x"]}), expected_version=1
    )
    again = store.records.get("acme", a.id)
    assert again is not None and again.embedding_model == "m" and again.tags == ["x"]


def test_the_backlog_is_per_tenant(backend: Backend) -> None:
    store = backend.store
    mine = record("acme", "acme text")
    put(store, mine, embed=False)
    assert store.pending.pending_embedding("globex", 10) == []
    assert store.pending.set_embeddings("globex", [(mine.id, mine.content_hash, vector(1))], "m") == []
    assert store.pending.pending_embedding("acme", 10) == [(mine.id, mine.content, mine.content_hash)]
    assert store.records.get_vectors("acme", [mine.id]) == {}
