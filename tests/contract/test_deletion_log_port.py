"""``DeletionLog``: one content-free receipt per hard delete that removed anything, naming the
ids that went (not those asked for), readable by its tenant only."""

from __future__ import annotations

from store_support import Backend, log, put, record


def test_a_delete_writes_one_receipt_of_the_ids_that_went_and_no_text(backend: Backend) -> None:
    store = backend.store
    a, b = record("acme", "my bank password hint"), record("acme", "second text", minute=1)
    put(store, a, b)
    receipt = log("acme", reason="user request")
    assert store.records.delete("acme", [a.id, "mem_" + "0" * 32], receipt) == [a.id]
    [entry] = store.deletion_log.deletion_log("acme")
    assert (entry.receipt_id, entry.ids, entry.reason) == (receipt.receipt_id, [a.id], "user request")
    assert "password" not in entry.model_dump_json()
    # a delete that removes nothing leaves no receipt
    assert store.records.delete("acme", [a.id], log("acme")) == []
    assert len(store.deletion_log.deletion_log("acme")) == 1


def test_a_tenant_reads_only_its_own_receipts(backend: Backend) -> None:
    store = backend.store
    a = record("acme", "first text")
    put(store, a)
    store.records.delete("acme", [a.id], log("acme"))
    assert store.deletion_log.deletion_log("globex") == []
