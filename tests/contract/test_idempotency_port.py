"""``IdempotencyRecords``: a retain's stored answer per key for ``IDEMPOTENCY_TTL`` (one policy,
``engram.adapters.store_policy``), then forgotten, per tenant."""

from __future__ import annotations

from datetime import timedelta

from store_support import T0, Backend, record

from engram.adapters.store_policy import IDEMPOTENCY_TTL
from engram.ports import WriteBatch


def test_an_idempotency_record_answers_for_its_ttl_then_is_gone(backend: Backend) -> None:
    store, clock = backend.store, backend.clock
    results = [{"id": "mem_00000001", "status": "created"}]
    store.records.write(
        "acme", WriteBatch(records=[record("acme", "one")], idempotency=("key-1", "fp", results))
    )
    # Just before the TTL runs out the same answer comes back
    clock.set(T0 + IDEMPOTENCY_TTL - timedelta(minutes=1))
    assert store.idempotency.idempotent_result("acme", "key-1") == ("fp", results)
    # Past it, the key is free again (on DynamoDB before TTL deletion has caught up too)
    clock.set(T0 + IDEMPOTENCY_TTL + timedelta(minutes=1))
    assert store.idempotency.idempotent_result("acme", "key-1") is None


def test_a_key_is_the_tenants_own(backend: Backend) -> None:
    store = backend.store
    store.records.write("acme", WriteBatch(idempotency=("shared-key", "fp-acme", [{"id": "a"}])))
    assert store.idempotency.idempotent_result("globex", "shared-key") is None
    store.records.write("globex", WriteBatch(idempotency=("shared-key", "fp-globex", [])))
    assert store.idempotency.idempotent_result("acme", "shared-key") == ("fp-acme", [{"id": "a"}])
    assert store.idempotency.idempotent_result("globex", "shared-key") == ("fp-globex", [])
    assert store.idempotency.idempotent_result("acme", "never-used") is None
