"""The OpenSearch adapter's requests and its handling of real-shaped answers.

The real opensearch-py client talks HTTP to a scripted endpoint (``opensearch_fake``); every
request must equal, field for field, the fixture in ``tests/contract/opensearch`` written out from
the OpenSearch documentation (each fixture names its pages), and each answer there is shaped as
the documentation shows, including partial ``_bulk`` failures, 429 rejections and version
conflicts. No OpenSearch server runs on these machines.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engram.adapters import opensearch_client, opensearch_index
from engram.adapters.opensearch_index import OpenSearchIndex, external_version
from engram.adapters.stream_backed_index import StreamBackedIndex
from engram.errors import ConfigurationError, ProviderError, ValidationFailedError
from engram.models import MemoryRecord
from engram.ports import Conditions, removed_state
from engram.scopes import ScopeSet

FIXTURES = Path(__file__).resolve().parents[1] / "contract" / "opensearch"
V = np.array([0.5, 0.5, 0.5], dtype=np.float32)
T0 = datetime(2026, 3, 1, tzinfo=UTC)
ALICE = Conditions(scopes=ScopeSet.of(["user:alice"]))


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data


def answer(response: dict[str, Any]) -> tuple[int, Any]:
    return int(response["status"]), response["body"]


@pytest.fixture
def fake() -> Iterator[Any]:
    from opensearch_fake import start

    server = start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opensearch_index.time, "sleep", lambda _s: None)


def make_index(fake: Any, **options: Any) -> OpenSearchIndex:
    return OpenSearchIndex(fake.client(), "engram-memories", dimension=3, model_id="test-model", **options)


def record(memory_id: str, content: str, version: int, **fields: Any) -> MemoryRecord:
    return MemoryRecord(
        tenant_id="acme",
        id=memory_id,
        scope="user:alice",
        category="preference",
        content=content,
        content_hash="h-" + memory_id,
        created_at=T0,
        updated_at=T0,
        version=version,
        embedding_model="test-model",
        **fields,
    )


RECORDS = [
    record("mem_a", "I prefer dark mode", 3, tags=["ui"], metadata={"source": "email"}),
    record("mem_b", "I work from Lisbon", 1),
    record("mem_c", "I drink green tea", 2),
]


def only(fake: Any) -> dict[str, Any]:
    [sent] = fake.requests
    return dict(sent.as_dict())


# -- setup -----------------------------------------------------------------------------------------


def test_the_index_template_is_the_documented_mapping(fake: Any) -> None:
    expected = fixture("index_template")
    fake.answer(answer(expected["response"]), (404, {}), (200, {"acknowledged": True}))
    make_index(fake).ensure()
    template, exists, create = (r.as_dict() for r in fake.requests)
    assert template == expected["request"]
    assert (exists["method"], exists["path"]) == ("HEAD", "/engram-memories")
    assert (create["method"], create["path"]) == ("PUT", "/engram-memories")


def test_the_hybrid_search_pipeline_normalises_and_combines(fake: Any) -> None:
    expected = fixture("search_pipeline")
    fake.answer((200, {}), (200, {}), answer(expected["response"]))
    make_index(fake, hybrid_pipeline="engram-hybrid").ensure()
    assert fake.requests[-1].as_dict() == expected["request"]


# -- recall ----------------------------------------------------------------------------------------


def test_recall_candidates_are_one_msearch_with_the_tenant_inside_the_knn_filter(fake: Any) -> None:
    expected = fixture("msearch_candidates")
    fake.answer(answer(expected["response"]))
    fake.answer(answer(expected["vectors_response"]))
    knn, bm25, cos = make_index(fake).candidates("acme", V, "dark mode", 20, ALICE)
    # one multi-search for both lists (the BM25 leg returns no vectors), then the vector of the
    # one BM25-only hit
    candidates, vectors = (r.as_dict() for r in fake.requests)
    assert candidates == expected["request"]
    assert candidates["body"][3]["_source"] is False
    assert vectors == expected["vectors_request"]
    # k-NN scores are (1 + cos) / 2 for cosinesimil: 0.95 -> 0.9, 0.75 -> 0.5
    assert knn == [("mem_a", pytest.approx(0.9)), ("mem_b", pytest.approx(0.5))]
    assert bm25 == [("mem_c", 2.5), ("mem_a", 1.25)]
    # a BM25-only hit gets its cosine from its vector
    assert cos == {"mem_a": pytest.approx(0.9), "mem_b": pytest.approx(0.5), "mem_c": pytest.approx(0.5)}


def test_candidates_found_by_both_legs_need_no_second_request(fake: Any) -> None:
    both = {"hits": {"hits": [{"_id": "acme:mem_a", "_score": 0.95}]}, "status": 200}
    fake.answer((200, {"responses": [both, {"hits": {"hits": [{"_id": "acme:mem_a", "_score": 1.0}]}}]}))
    _, _, cos = make_index(fake).candidates("acme", V, "dark mode", 20, ALICE)
    assert cos == {"mem_a": pytest.approx(0.9)} and len(fake.requests) == 1


def test_a_rejected_search_inside_msearch_is_a_clear_provider_error(fake: Any) -> None:
    fake.answer(answer(fixture("msearch_rejected")["response"]))
    with pytest.raises(ProviderError, match="429: rejected_execution_exception"):
        make_index(fake).candidates("acme", V, "dark mode", 20, ALICE)


def test_the_server_side_hybrid_query_goes_through_the_pipeline(fake: Any) -> None:
    expected = fixture("hybrid_search")
    fake.answer(answer(expected["response"]))
    ranked, bm25, cos = make_index(fake, hybrid_pipeline="engram-hybrid").candidates(
        "acme", V, "dark mode", 20, ALICE
    )
    assert only(fake) == expected["request"]
    assert ranked == [("mem_a", pytest.approx(0.75))] and bm25 == [("mem_a", 0.7)]
    assert cos == {"mem_a": pytest.approx(0.75)}


@pytest.mark.parametrize("status", [429, 500, 503])
def test_an_index_answering_an_error_status_is_a_provider_error(fake: Any, status: int) -> None:
    fake.answer((status, {"error": {"type": "x", "reason": "y"}, "status": status}))
    with pytest.raises(ProviderError, match=f"unavailable \\(HTTP {status}\\)"):
        make_index(fake).knn("acme", V, 5, ALICE)


def test_an_index_that_does_not_answer_in_time_is_a_provider_error(fake: Any) -> None:
    fake.delay_s = 1.0
    index = OpenSearchIndex(fake.client(timeout=0.2), "engram-memories", dimension=3, model_id="test-model")
    with pytest.raises(ProviderError, match="unavailable"):
        index.bm25("acme", "dark mode", 5, ALICE)


# -- writes ----------------------------------------------------------------------------------------


def test_upserts_use_external_versions_and_tenant_routing(fake: Any) -> None:
    expected = fixture("bulk_upsert")
    fake.answer(answer(expected["response_ok"]))
    make_index(fake).upsert("acme", RECORDS, [V, V, V])
    assert fake.requests[0].as_dict() == expected["request"]


def test_a_partial_bulk_failure_resends_only_the_rejected_items(fake: Any) -> None:
    # Given a bulk answer with one created, one version conflict (the index holds a newer
    # version: success for an idempotent write) and one 429 rejection
    expected = fixture("bulk_upsert")
    fake.answer(answer(expected["response_partial"]), answer(expected["response_ok"]))
    make_index(fake).upsert("acme", RECORDS, [V, V, V])
    # Then only the rejected item is sent again, and nothing is reported as failed
    first, second = (r.as_dict() for r in fake.requests)
    assert first == expected["request"]
    assert second == expected["retry_request"]


def test_a_bulk_rejected_until_the_retries_run_out_is_reported(fake: Any) -> None:
    expected = fixture("bulk_upsert")
    rejected = expected["response_partial"]["body"]["items"][2]
    fake.answer(answer(expected["response_partial"]), *[(200, {"errors": True, "items": [rejected]})] * 4)
    with pytest.raises(ProviderError, match="429"):
        make_index(fake).upsert("acme", RECORDS, [V, V, V])
    assert len(fake.requests) == 5


def test_a_whole_bulk_refused_with_429_is_retried(fake: Any) -> None:
    expected = fixture("bulk_upsert")
    fake.answer(
        (429, {"error": {"type": "rejected_execution_exception"}, "status": 429}),
        answer(expected["response_ok"]),
    )
    make_index(fake).upsert("acme", RECORDS, [V, V, V])
    assert [r.body for r in fake.requests] == [expected["request"]["body"]] * 2


def test_a_mapping_error_in_bulk_names_the_document(fake: Any) -> None:
    fake.answer(answer(fixture("bulk_upsert")["response_mapping_error"]))
    with pytest.raises(ProviderError, match="acme:mem_a: mapper_parsing_exception"):
        make_index(fake).upsert("acme", RECORDS, [V, V, V])


def test_a_forgotten_text_retained_again_outranks_the_tombstone_of_its_delete(fake: Any) -> None:
    # Given a memory indexed at version 3, forgotten (a hard delete: the state after version 3)
    first = RECORDS[0]
    index = make_index(fake)
    fake.answer((200, {"errors": False, "items": [{"delete": {"_id": "acme:mem_a", "status": 200}}]}))
    index.remove("acme", [first.id], states=[removed_state(first)])
    # When the same text is retained again a second later (same id, a new record at version 1)
    again = first.model_copy(update={"version": 1, "created_at": T0 + timedelta(seconds=1)})
    fake.answer((200, {"errors": False, "items": [{"index": {"_id": "acme:mem_a", "status": 201}}]}))
    index.upsert("acme", [again], [V])
    # Then the delete carried an external version above the indexed one, and the new write one
    # above the delete's, so OpenSearch applies it instead of answering 409 to the tombstone
    delete, write = (r.body[0] for r in fake.requests)
    assert delete["delete"]["version_type"] == write["index"]["version_type"] == "external"
    assert external_version(first) < delete["delete"]["version"] < write["index"]["version"]


def test_an_archived_record_is_removed_with_its_own_version_so_a_restore_wins(fake: Any) -> None:
    archived = RECORDS[0].model_copy(update={"tier": "archived", "version": 4})
    restored = archived.model_copy(update={"tier": "peripheral", "version": 5})
    fake.answer((200, {"errors": False, "items": [{"delete": {"_id": "acme:mem_a", "status": 200}}]}))
    make_index(fake).upsert("acme", [archived], [V])  # an archived state is a delete
    fake.answer((200, {"errors": False, "items": [{"index": {"_id": "acme:mem_a", "status": 201}}]}))
    make_index(fake).upsert("acme", [restored], [V])
    delete, write = (r.body[0] for r in fake.requests)
    assert delete["delete"]["version"] == external_version(archived) < write["index"]["version"]


def test_a_tenant_erase_repeats_until_no_document_was_skipped_as_a_conflict(fake: Any) -> None:
    # Given a delete_by_query that skipped a document written while it ran (conflicts=proceed)
    fake.answer(
        (200, {"deleted": 5, "version_conflicts": 1, "failures": []}),
        (200, {"deleted": 1, "version_conflicts": 0, "failures": []}),
    )
    # Then the erase runs again and counts both rounds, instead of reporting success with one left
    assert make_index(fake).forget_tenant("acme") == 6
    assert len(fake.requests) == 2


def test_an_endpoint_without_its_scheme_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="scheme"):
        opensearch_client.opensearch_client("search-engram-dev.eu-west-1.es.amazonaws.com", "eu-west-1")
    assert opensearch_client.endpoint_url("https://search-x.es.amazonaws.com") == (
        "search-x.es.amazonaws.com",
        443,
        True,
    )


def test_a_client_for_an_https_endpoint_speaks_tls_on_443(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    client = opensearch_client.opensearch_client("https://search-x.es.amazonaws.com", "eu-west-1")
    [connection] = client.transport.connection_pool.connections
    assert connection.host == "https://search-x.es.amazonaws.com:443"


def test_ensure_sets_the_replicas_of_an_existing_index_and_accepts_a_racing_create(fake: Any) -> None:
    index = make_index(fake, replicas=0)
    fake.answer((200, {"acknowledged": True}), (200, {}), (200, mapping(3)), (200, {"acknowledged": True}))
    index.ensure()
    _, exists, mapped, replicas = (r.as_dict() for r in fake.requests)
    assert (exists["method"], mapped["method"], mapped["path"]) == (
        "HEAD",
        "GET",
        "/engram-memories/_mapping",
    )
    assert (replicas["method"], replicas["path"]) == ("PUT", "/engram-memories/_settings")
    assert replicas["body"] == {"index": {"number_of_replicas": 0}}
    fake.requests.clear()
    already = {"error": {"type": "resource_already_exists_exception"}, "status": 400}
    fake.answer((200, {"acknowledged": True}), (404, {}), (400, already))
    index.ensure()  # another deploy created it meanwhile
    fake.answer(
        (200, {"acknowledged": True}), (404, {}), (400, {"error": {"type": "illegal_argument_exception"}})
    )
    with pytest.raises(ProviderError, match="illegal_argument_exception"):
        index.ensure()


def mapping(dimension: int) -> dict[str, Any]:
    """``GET <index>/_mapping`` of a memory index whose vectors have ``dimension`` components."""
    embedding = {"type": "knn_vector", "dimension": dimension}
    return {"engram-memories": {"mappings": {"properties": {"embedding": embedding}}}}


def test_an_existing_index_of_another_dimension_fails_the_setup_naming_the_setting(fake: Any) -> None:
    """A stage made with 1,024 dimensions deployed again with another size: every write would be
    refused, so the setup stops before changing anything, saying what keeps the stage working."""
    fake.answer((200, {"acknowledged": True}), (200, {}), (200, mapping(1024)))
    with pytest.raises(ConfigurationError, match="holds vectors of 1024 dimensions") as refused:
        make_index(fake, replicas=0).ensure()
    assert "embedding_dimensions=1024" in str(refused.value)
    assert [r.method for r in fake.requests] == ["PUT", "HEAD", "GET"]  # no settings, no pipeline


def test_deletes_are_routed_and_a_missing_document_is_fine(fake: Any) -> None:
    expected = fixture("bulk_delete")
    fake.answer(answer(expected["response"]))
    make_index(fake).remove("acme", ["mem_a", "mem_gone"])
    assert only(fake) == expected["request"]


def test_a_scope_is_erased_with_one_delete_by_query(fake: Any) -> None:
    expected = fixture("delete_by_query_scope")
    fake.answer(answer(expected["response"]))
    assert make_index(fake).forget_scope("acme", "user:alice") == 2
    assert only(fake) == expected["request"]


def test_an_inactive_record_is_removed_not_indexed(fake: Any) -> None:
    fake.answer((200, {"errors": False, "items": [{"delete": {"_id": "acme:mem_a", "status": 200}}]}))
    make_index(fake).upsert("acme", [RECORDS[0].model_copy(update={"status": "superseded"})], [V])
    superseded = RECORDS[0].model_copy(update={"status": "superseded"})
    assert only(fake)["body"] == [
        {
            "delete": {
                "_index": "engram-memories",
                "_id": "acme:mem_a",
                "routing": "acme",
                "version": external_version(superseded),
                "version_type": "external",
            }
        }
    ]


def test_a_vector_of_another_model_or_dimension_is_refused_before_sending(fake: Any) -> None:
    index = make_index(fake)
    with pytest.raises(ValidationFailedError, match="model 'other'"):
        index.upsert("acme", [RECORDS[0].model_copy(update={"embedding_model": "other"})], [V])
    with pytest.raises(ValidationFailedError, match="dimension 4"):
        index.upsert("acme", [RECORDS[0]], [np.ones(4, dtype=np.float32)])
    with pytest.raises(ValidationFailedError, match="tenant"):
        index.upsert("globex", [RECORDS[0]], [V])
    assert fake.requests == []


def test_writes_from_the_request_path_survive_an_index_outage(fake: Any) -> None:
    fake.answer(
        (503, {"error": "unavailable", "status": 503}), (503, {"error": "unavailable", "status": 503})
    )
    index = StreamBackedIndex(make_index(fake))
    index.upsert("acme", RECORDS, [V, V, V])  # logged; the stream indexer applies it later
    index.remove("acme", ["mem_a"])
    fake.answer((503, {"error": "unavailable", "status": 503}))
    with pytest.raises(ProviderError):
        index.knn("acme", V, 5, ALICE)


# -- Serverless ------------------------------------------------------------------------------------


def test_a_serverless_collection_gets_no_routing_shards_or_refresh(fake: Any) -> None:
    index = make_index(fake, serverless=True)
    body = index.template_body()
    assert body["template"]["settings"] == {"index.knn": True}
    assert body["template"]["mappings"]["_routing"] == {"required": False}
    assert body["template"]["mappings"]["properties"]["embedding"]["method"]["engine"] == "faiss"
    fake.answer((200, {"errors": False, "items": [{"index": {"_id": "acme:mem_a", "status": 201}}]}))
    index.upsert("acme", [RECORDS[0]], [V])
    fake.answer((200, {"responses": [{"hits": {"hits": []}, "status": 200}]}))
    index.bm25("acme", "dark mode", 5, ALICE)
    upsert, search = (r.as_dict() for r in fake.requests)
    assert upsert["body"][0] == {"index": {"_index": "engram-memories", "_id": "acme:mem_a"}}
    assert search["body"][0] == {"index": "engram-memories"}
    assert upsert["query"] == {} and search["query"] == {}


# -- the tenant filter is never missing ------------------------------------------------------------

TENANT = {"term": {"tenant_id": "acme"}}


def guarded(query: dict[str, Any]) -> bool:
    """Whether a query can only match documents of tenant ``acme``."""
    if "knn" in query:
        [spec] = query["knn"].values()
        return "filter" in spec and guarded(spec["filter"])
    if "hybrid" in query:
        return all(guarded(q) for q in query["hybrid"]["queries"])
    if "bool" in query:
        filters = query["bool"].get("filter", [])
        return TENANT in filters or any(guarded(f) for f in filters)
    return False


texts = st.text(alphabet="abcxyz:-_ ", min_size=1, max_size=12)
conditions_strategy = st.builds(
    Conditions,
    scopes=st.one_of(
        st.just(ScopeSet.every()), st.lists(texts, min_size=1, max_size=3, unique=True).map(ScopeSet.of)
    ),
    statuses=st.lists(st.sampled_from(["active", "superseded", "archived"]), max_size=2).map(tuple),
    categories=st.lists(st.sampled_from(["fact", "event", "raw"]), max_size=2).map(tuple),
    tiers=st.lists(st.sampled_from(["core", "working"]), max_size=2).map(tuple),
    tags_any=st.lists(texts, max_size=2).map(tuple),
    tags_all=st.lists(texts, max_size=2).map(tuple),
    session_id=st.one_of(st.none(), texts),
    metadata=st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=2).map(tuple)), max_size=2).map(
        tuple
    ),
    occurred_at=st.tuples(st.one_of(st.none(), st.just(T0)), st.none()),
    exclude_tiers=st.one_of(st.just(("archived",)), st.just(())),
)


@settings(max_examples=200, deadline=None)
@given(conditions=conditions_strategy, hybrid=st.booleans(), query=texts, k=st.integers(1, 50))
def test_no_query_the_adapter_builds_lacks_the_tenant_filter(
    conditions: Conditions, hybrid: bool, query: str, k: int
) -> None:
    index = OpenSearchIndex(
        object(), "engram-memories", dimension=3, model_id="m", hybrid_pipeline="p" if hybrid else None
    )
    bodies = [
        index.knn_body("acme", V, k, conditions),
        index.bm25_body("acme", query, k, conditions),
        index.hybrid_body("acme", V, query, k, conditions),
        index.ids_body("acme", ["mem_a"]),
        index.delete_by_query_body("acme"),
        index.delete_by_query_body("acme", "user:alice"),
    ]
    for body in bodies:
        assert guarded(body["query"]), body
    # and the k-NN filter is inside the k-NN clause (efficient filtering), not beside it
    knn = bodies[0]["query"]
    assert set(knn) == {"knn"} and knn["knn"]["embedding"]["filter"]["bool"]["filter"][0] == TENANT


def test_every_request_the_adapter_sends_is_scoped_to_the_tenant(fake: Any) -> None:
    index = make_index(fake)
    one = {"responses": [{"hits": {"hits": []}, "status": 200}]}
    two = {"responses": [{"hits": {"hits": []}, "status": 200}] * 2}
    fake.answer(
        (200, two), (200, two), (200, one), (200, one), (200, one), (200, {"deleted": 0, "failures": []})
    )
    index.candidates("acme", V, "tea", 5, Conditions(scopes=ScopeSet.every()))
    index.knn_many("acme", np.stack([V, V]), 5, ALICE)
    index.bm25("acme", "tea", 5, ALICE)
    index.cosines("acme", V, ["mem_a"])
    index.vectors("acme", ["mem_a"])
    index.forget_tenant("acme")
    for sent in fake.requests:
        searches = sent.body[1::2] if sent.path == "/_msearch" else [sent.body]
        headers = sent.body[0::2] if sent.path == "/_msearch" else [sent.query]
        assert all(guarded(s["query"]) for s in searches), sent
        assert all(h["routing"] == "acme" for h in headers), sent


def test_an_empty_tenant_is_refused() -> None:
    index = OpenSearchIndex(object(), "engram-memories", dimension=3, model_id="m")
    with pytest.raises(ValidationFailedError):
        index.knn_body("", V, 5, ALICE)
    with pytest.raises(ValidationFailedError):
        index.delete_by_query_body("")
