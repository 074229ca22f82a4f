"""``SearchIndex`` on OpenSearch (managed domain or Serverless VECTORSEARCH collection).

One index holds every tenant's active memories: ``_id = <tenant>:<memory id>``, routing by tenant
(managed domains), external versioning with the record's version (a replayed or out-of-order
write can never roll a memory back), HNSW cosine ``knn_vector`` plus the text under the standard
analyzer and keyword filter fields. Every query comes from ``tenant_filter``, which puts the
tenant term first in a ``bool`` filter; the k-NN query carries it inside the k-NN ``filter``
(efficient filtering during the graph search, not post-filtering). Recall's two candidate lists
come back from one ``_msearch``; with ``hybrid_pipeline`` set, from one server-side ``hybrid``
query through a search pipeline with a normalization processor (OpenSearch >= 2.19).

The client is injected (``opensearch_client.opensearch_client`` builds one with SigV4 for ``es`` or ``aoss``). No
request is sent at import; opensearch-py is imported only by ``opensearch_client``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from engram import deadline
from engram.adapters.matching import iso
from engram.adapters.opensearch_queries import external_version, metadata_terms, tenant_filter, tenant_only
from engram.adapters.opensearch_setup import IndexSetup
from engram.errors import ProviderError, ValidationFailedError
from engram.models import MemoryRecord
from engram.ports import Conditions, Vector

BULK_RETRIES = 4
CONFLICT = 409
TOO_MANY = 429


class OpenSearchIndex(IndexSetup):
    """The port on one OpenSearch index; ``serverless`` adapts to a VECTORSEARCH collection."""

    def __init__(
        self,
        client: Any,
        index: str,
        *,
        dimension: int,
        model_id: str,
        serverless: bool = False,
        hybrid_pipeline: str | None = None,
        engine: str | None = None,
        shards: int = 1,
        replicas: int = 0,
        timeout_s: float | None = None,
    ) -> None:
        """``timeout_s``: each attempt's timeout (the client's own when None), capped by the
        invocation's time left (``engram.deadline``)."""
        self.client = client
        self.index = index
        self.dimension = dimension
        self.model_id = model_id
        self.serverless = serverless
        self.hybrid_pipeline = hybrid_pipeline
        # Lucene HNSW filters inside the graph search on managed domains; Serverless runs faiss.
        self.engine = engine or ("faiss" if serverless else "lucene")
        self.shards = shards
        self.replicas = replicas
        self.timeout_s = timeout_s

    def _send(self, operation: str, **kwargs: Any) -> Any:
        """One client call; transport failures (429, 5xx, timeouts, refused connections) become
        a ``ProviderError`` that says the search index is unavailable, never a silent empty result."""
        target: Any = self.client
        for part in operation.split("."):
            target = getattr(target, part)
        if self.timeout_s is not None:  # the client retries twice: three attempts fit the time left
            kwargs["request_timeout"] = max(0.05, deadline.left(self.timeout_s * 3) / 3)
        try:
            return target(**kwargs)
        except Exception as exc:
            if not type(exc).__module__.startswith("opensearchpy"):
                raise
            status = getattr(exc, "status_code", None)
            detail = f"HTTP {status}" if isinstance(status, int) else type(exc).__name__
            raise ProviderError(f"the search index is unavailable ({detail}); retry") from exc

    # -- setup -----------------------------------------------------------------------------------

    # -- documents -------------------------------------------------------------------------------

    @staticmethod
    def doc_id(tenant_id: str, memory_id: str) -> str:
        return f"{tenant_id}:{memory_id}"

    def document(self, record: MemoryRecord, vector: Vector) -> dict[str, Any]:
        array = np.asarray(vector, dtype=np.float32)
        if array.shape != (self.dimension,):
            raise ValidationFailedError(
                f"vector of dimension {array.shape[-1]} for an index of dimension {self.dimension}"
            )
        if record.embedding_model and record.embedding_model != self.model_id:
            raise ValidationFailedError(
                f"vector of model '{record.embedding_model}' for an index of model '{self.model_id}'; reindex"
            )
        return {
            "tenant_id": record.tenant_id,
            "memory_id": record.id,
            "scope": record.scope,
            "category": record.category,
            "status": record.status,
            "tier": record.tier,
            "tags": record.tags,
            "session_id": record.source.session_id,
            "metadata_kv": metadata_terms(record.metadata),
            "embedding_model": self.model_id,
            "version": record.version,
            "created_at": iso(record.created_at),
            "occurred_at": iso(record.occurred_at),
            "valid_from": iso(record.valid_from or record.created_at),
            "valid_until": iso(record.valid_until),
            "content": record.content,
            "embedding": [float(x) for x in array],
        }

    def _action(self, op: str, tenant_id: str, memory_id: str, version: int | None) -> dict[str, Any]:
        meta: dict[str, Any] = {"_index": self.index, "_id": self.doc_id(tenant_id, memory_id)}
        if not self.serverless:
            meta["routing"] = tenant_id
            if version is not None:
                meta["version"] = version
                meta["version_type"] = "external"
        return {op: meta}

    def bulk_body(
        self, tenant_id: str, records: Sequence[MemoryRecord], vectors: Sequence[Vector]
    ) -> list[dict[str, Any]]:
        body: list[dict[str, Any]] = []
        for record, vector in zip(records, vectors, strict=True):
            if record.tenant_id != tenant_id:
                raise ValidationFailedError("every record must belong to the tenant indexed")
            if record.status != "active" or record.tier == "archived":  # this state is not searchable
                body.append(self._action("delete", tenant_id, record.id, external_version(record)))
                continue
            body.append(self._action("index", tenant_id, record.id, external_version(record)))
            body.append(self.document(record, vector))
        return body

    def _bulk(self, body: list[dict[str, Any]]) -> None:
        """``_bulk``; items rejected with 429 are resent with backoff, version conflicts are
        success (the index already holds that version or a newer one), anything else fails."""
        pending = body
        for attempt in range(BULK_RETRIES + 1):
            try:
                response = self._send("bulk", body=pending)
            except ProviderError as exc:  # the whole request refused with 429: back off, resend
                if getattr(exc.__cause__, "status_code", None) != TOO_MANY or attempt == BULK_RETRIES:
                    raise
                time.sleep(random.uniform(0, min(2.0, 0.05 * 2**attempt)))
                continue
            if not response.get("errors"):
                return
            retry: list[dict[str, Any]] = []
            failed: list[str] = []
            position = 0
            actions = sum(
                1 for line in pending if next(iter(line)) in ("index", "create", "update", "delete")
            )
            if len(response.get("items", [])) != actions:
                raise ProviderError("the search index answered a bulk request with a different item count")
            for item in response["items"]:
                action = pending[position]
                op = next(iter(action))
                has_doc = op in ("index", "create", "update")
                result = item[op]
                status = int(result.get("status", 500))
                if status == TOO_MANY:
                    retry.append(action)
                    if has_doc:
                        retry.append(pending[position + 1])
                elif status >= 300 and status != CONFLICT and not (op == "delete" and status == 404):
                    reason = result.get("error", {})
                    failed.append(f"{result.get('_id')}: {reason.get('type', status)}")
                position += 2 if has_doc else 1
            if failed:
                raise ProviderError(
                    f"the search index rejected {len(failed)} writes: {'; '.join(failed[:5])}"
                )
            if not retry:
                return
            pending = retry
            if attempt < BULK_RETRIES:
                time.sleep(random.uniform(0, min(2.0, 0.05 * 2**attempt)))
        raise ProviderError(
            "the search index is rejecting writes (429); they will be retried from the stream"
        )

    follows_upserts_only = False
    indexes_unembedded = False
    """Only embedded memories are documents here (the stream indexer removes the others): the
    cloud stack embeds at retain, and a read embeds whatever is still pending first."""

    def rebuild_target(self) -> OpenSearchIndex:
        """This index, once ``ensure`` has set it up."""
        self.ensure()
        return self

    def upsert(
        self, tenant_id: str, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]
    ) -> None:
        ready = [(r, v) for r, v in zip(records, vectors, strict=True) if v is not None]
        if ready:
            self._bulk(self.bulk_body(tenant_id, [r for r, _ in ready], [v for _, v in ready]))

    def remove(
        self, tenant_id: str, memory_ids: Sequence[str], *, states: Sequence[MemoryRecord] = ()
    ) -> None:
        """Delete documents; ``states`` are the removal states known for some of them (an archived
        record, or ``removed_state(record)`` for a hard delete): their deletes carry that state's
        external version, so they can never remove a later write. The others delete whatever is there."""
        versions = {r.id: external_version(r) for r in states if r.tenant_id == tenant_id}
        if memory_ids:
            self._bulk([self._action("delete", tenant_id, i, versions.get(i)) for i in memory_ids])

    def delete_by_query_body(self, tenant_id: str, scope: str | None = None) -> dict[str, Any]:
        extra = [{"term": {"scope": scope}}] if scope is not None else []
        return {"query": tenant_only(tenant_id, *extra)}

    def _delete_by_query(self, tenant_id: str, scope: str | None) -> int:
        """Delete every matching document. A document written while the query ran is a version
        conflict that ``conflicts=proceed`` skips: it is still there, so the query runs again until
        none is left (an erasure that silently kept a memory would not be one)."""
        params: dict[str, Any] = {"conflicts": "proceed", "slices": "auto", "refresh": "true"}
        if not self.serverless:
            params["routing"] = tenant_id
        else:
            params.pop("refresh")
        deleted = 0
        for _ in range(BULK_RETRIES + 1):
            response = self._send(
                "delete_by_query",
                index=self.index,
                body=self.delete_by_query_body(tenant_id, scope),
                params=params,
            )
            if response.get("failures"):
                raise ProviderError(f"delete_by_query left {len(response['failures'])} documents; retry")
            deleted += int(response.get("deleted", 0))
            if not int(response.get("version_conflicts", 0)):
                return deleted
        raise ProviderError("documents kept changing while they were being deleted; retry")

    def indexed_ids(self, tenant_id: str, *, page: int = 1_000) -> Iterator[str]:
        """Every memory id the index holds for the tenant (``search_after`` pages by memory id)."""
        after: list[Any] | None = None
        while True:
            body: dict[str, Any] = {
                "size": page,
                "_source": False,
                "query": tenant_only(tenant_id),
                "sort": [{"memory_id": "asc"}],
            }
            if after is not None:
                body["search_after"] = after
            [hits] = self._msearch(tenant_id, [body])
            for hit in hits:
                yield self._memory_id(hit)
            if len(hits) < page:
                return
            after = hits[-1]["sort"]

    def forget_tenant(self, tenant_id: str) -> int:
        """Erase every document of the tenant; returns how many were deleted."""
        return self._delete_by_query(tenant_id, None)

    def forget_scope(self, tenant_id: str, scope: str) -> int:
        return self._delete_by_query(tenant_id, scope)

    # -- search ----------------------------------------------------------------------------------

    def _header(self, tenant_id: str) -> dict[str, Any]:
        header: dict[str, Any] = {"index": self.index}
        if not self.serverless:
            header["routing"] = tenant_id
        return header

    def knn_body(self, tenant_id: str, vector: Vector, k: int, conditions: Conditions) -> dict[str, Any]:
        return {
            "size": k,
            "_source": False,
            "query": {
                "knn": {
                    "embedding": {
                        "vector": [float(x) for x in np.asarray(vector, dtype=np.float32)],
                        "k": k,
                        "filter": tenant_filter(tenant_id, conditions),
                    }
                }
            },
        }

    def bm25_body(self, tenant_id: str, query: str, k: int, conditions: Conditions) -> dict[str, Any]:
        return {
            "size": k,
            "_source": False,  # its vectors are fetched only for the hits k-NN did not return
            "query": {
                "bool": {
                    "must": [{"match": {"content": {"query": query}}}],
                    "filter": [tenant_filter(tenant_id, conditions)],
                }
            },
        }

    def hybrid_body(
        self, tenant_id: str, vector: Vector, query: str, k: int, conditions: Conditions
    ) -> dict[str, Any]:
        knn = self.knn_body(tenant_id, vector, k, conditions)["query"]
        bm25 = self.bm25_body(tenant_id, query, k, conditions)["query"]
        return {
            "size": k,
            "_source": {"includes": ["embedding"]},
            "query": {"hybrid": {"queries": [bm25, knn]}},
        }

    def msearch_body(self, tenant_id: str, searches: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        body: list[dict[str, Any]] = []
        for search in searches:
            body += [self._header(tenant_id), search]
        return body

    def _msearch(self, tenant_id: str, searches: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
        response = self._send("msearch", body=self.msearch_body(tenant_id, searches))
        if len(response.get("responses", [])) != len(searches):
            raise ProviderError("the search index answered a multi-search with a different count")
        out: list[list[dict[str, Any]]] = []
        for answer in response["responses"]:
            if "error" in answer:
                error = answer["error"]
                kind = error.get("type", "error") if isinstance(error, dict) else str(error)
                raise ProviderError(f"the search index failed a search ({answer.get('status', '?')}: {kind})")
            out.append(answer["hits"]["hits"])
        return out

    @staticmethod
    def _memory_id(hit: dict[str, Any]) -> str:
        return str(hit["_id"]).split(":", 1)[1]

    @staticmethod
    def _cosine_of_score(score: float) -> float:
        """OpenSearch reports ``cosinesimil`` k-NN hits as (1 + cos) / 2; this is the cosine back."""
        return 2.0 * float(score) - 1.0

    def _knn_hits(self, hits: list[dict[str, Any]]) -> list[tuple[str, float]]:
        return [(self._memory_id(h), self._cosine_of_score(h["_score"])) for h in hits]

    def candidates(
        self, tenant_id: str, vector: Vector, query: str, k: int, conditions: Conditions
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]], dict[str, float]]:
        """(k-NN hits, BM25 hits, cosine of every hit) in one round trip.

        Hybrid mode: one ``hybrid`` search through the pipeline. Its hits, with cosines from the
        returned vectors, are the first list; the same hits with the pipeline's combined score
        (BM25 and k-NN normalised on the server) stand in for the lexical list, so recall's
        fusion still weighs the lexical evidence.
        """
        query_vector = np.asarray(vector, dtype=np.float32)
        if self.hybrid_pipeline:
            params: dict[str, Any] = {"search_pipeline": self.hybrid_pipeline}
            if not self.serverless:
                params["routing"] = tenant_id
            response = self._send(
                "search",
                index=self.index,
                body=self.hybrid_body(tenant_id, vector, query, k, conditions),
                params=params,
            )
            hits = response["hits"]["hits"]
            cos = {self._memory_id(h): self._cosine(h, query_vector) for h in hits}
            by_cosine = sorted(cos.items(), key=lambda item: -item[1])
            return by_cosine, [(self._memory_id(h), float(h["_score"])) for h in hits], cos
        knn_hits, bm25_hits = self._msearch(
            tenant_id,
            [
                self.knn_body(tenant_id, vector, k, conditions),
                self.bm25_body(tenant_id, query, k, conditions),
            ],
        )
        knn = self._knn_hits(knn_hits)
        bm25 = [(self._memory_id(h), float(h["_score"])) for h in bm25_hits]
        cos = dict(knn)
        lexical_only = [i for i, _ in bm25 if i not in cos]
        if lexical_only:  # a BM25-only hit still gets its cosine (only those few vectors travel)
            cos |= self.cosines(tenant_id, query_vector, lexical_only)
        return knn, bm25, cos

    @staticmethod
    def _cosine(hit: dict[str, Any], query: Vector) -> float:
        stored = np.asarray(hit["_source"]["embedding"], dtype=np.float32)
        return float(stored @ query)

    def knn(self, tenant_id: str, vector: Vector, k: int, conditions: Conditions) -> list[tuple[str, float]]:
        return self.knn_many(tenant_id, np.asarray(vector, dtype=np.float32)[None, :], k, conditions)[0]

    def knn_many(
        self, tenant_id: str, vectors: Vector, k: int, conditions: Conditions
    ) -> list[list[tuple[str, float]]]:
        rows = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        if k <= 0 or rows.shape[0] == 0:
            return [[] for _ in range(rows.shape[0])]
        answers = self._msearch(tenant_id, [self.knn_body(tenant_id, v, k, conditions) for v in rows])
        return [self._knn_hits(hits) for hits in answers]

    def bm25(
        self, tenant_id: str, query: str, k: int, conditions: Conditions, *, context_weight: float = 0.0
    ) -> list[tuple[str, float]]:
        if k <= 0 or not query.strip():
            return []
        [hits] = self._msearch(tenant_id, [self.bm25_body(tenant_id, query, k, conditions)])
        return [(self._memory_id(h), float(h["_score"])) for h in hits]

    def ids_body(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Any]:
        return {
            "size": len(memory_ids),
            "_source": {"includes": ["embedding"]},
            "query": tenant_only(tenant_id, {"terms": {"memory_id": list(memory_ids)}}),
        }

    def vectors(self, tenant_id: str, memory_ids: Sequence[str]) -> dict[str, Vector]:
        if not memory_ids:
            return {}
        [hits] = self._msearch(tenant_id, [self.ids_body(tenant_id, list(dict.fromkeys(memory_ids)))])
        return {self._memory_id(h): np.asarray(h["_source"]["embedding"], dtype=np.float32) for h in hits}

    def cosines(self, tenant_id: str, vector: Vector, memory_ids: Sequence[str]) -> dict[str, float]:
        query = np.asarray(vector, dtype=np.float32)
        return {i: float(v @ query) for i, v in self.vectors(tenant_id, memory_ids).items()}
