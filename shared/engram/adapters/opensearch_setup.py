"""Setting up the memory index: its template, the hybrid search pipeline, fine-grained access roles.

``IndexSetup`` is the part of ``OpenSearchIndex`` that deploys run (the stack's custom resource,
``engram reindex``); requests only read and write documents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engram.errors import ConfigurationError, ProviderError

READER_ROLE = "engram_reader"
WRITER_ROLE = "engram_writer"


class IndexSetup:
    """Index template, search pipeline and roles of one index (mixed into ``OpenSearchIndex``)."""

    index: str
    dimension: int
    engine: str
    serverless: bool
    shards: int
    replicas: int
    hybrid_pipeline: str | None
    _send: Callable[..., Any]
    """One client call (``OpenSearchIndex._send``: transport failures become ``ProviderError``)."""

    def template_body(self) -> dict[str, Any]:
        """``PUT _index_template/<index>``: settings and mappings of the memory index."""
        settings: dict[str, Any] = {"index.knn": True}
        if not self.serverless:  # Serverless manages shards and replicas itself
            settings |= {"number_of_shards": self.shards, "number_of_replicas": self.replicas}
        keyword = {"type": "keyword"}
        return {
            "index_patterns": [self.index],
            "template": {
                "settings": settings,
                "mappings": {
                    "dynamic": "strict",
                    "_routing": {"required": not self.serverless},
                    "properties": {
                        "tenant_id": keyword,
                        "memory_id": keyword,
                        "scope": keyword,
                        "category": keyword,
                        "status": keyword,
                        "tier": keyword,
                        "tags": keyword,
                        "session_id": keyword,
                        "metadata_kv": keyword,
                        "embedding_model": keyword,
                        "version": {"type": "long"},
                        "created_at": {"type": "date"},
                        "occurred_at": {"type": "date"},
                        "valid_from": {"type": "date"},
                        "valid_until": {"type": "date"},
                        "content": {"type": "text", "analyzer": "standard"},
                        "embedding": {
                            "type": "knn_vector",
                            "dimension": self.dimension,
                            "method": {
                                "name": "hnsw",
                                "space_type": "cosinesimil",
                                "engine": self.engine,
                                "parameters": {"m": 16, "ef_construction": 128},
                            },
                        },
                    },
                },
            },
        }

    def pipeline_body(self) -> dict[str, Any]:
        """``PUT _search/pipeline/<name>``: min-max normalisation, weighted arithmetic mean (0.3 BM25, 0.7 k-NN)."""
        return {
            "description": "Engram hybrid recall: BM25 and k-NN scores normalised and combined",
            "phase_results_processors": [
                {
                    "normalization-processor": {
                        "normalization": {"technique": "min_max"},
                        "combination": {
                            "technique": "arithmetic_mean",
                            "parameters": {"weights": [0.3, 0.7]},
                        },
                    }
                }
            ],
        }

    def ensure(self) -> None:
        """Put the index template, create the index if missing (or set its replica count if it
        exists) and put the search pipeline. Idempotent: the stack's custom resource runs it on
        every deploy, and ``engram reindex`` before a rebuild."""
        self._send("indices.put_index_template", name=self.index, body=self.template_body())
        if not self._send("indices.exists", index=self.index):
            created = self._send("indices.create", index=self.index, ignore=400)
            error = created.get("error") if isinstance(created, dict) else None
            kind = error.get("type") if isinstance(error, dict) else error
            if kind is not None and kind != "resource_already_exists_exception":  # a racing create is fine
                raise ProviderError(f"the search index could not be created ({kind})")
        else:
            self.check_dimension()
            if not self.serverless:  # shards are fixed at creation; replicas follow the cluster's size
                self._send(
                    "indices.put_settings",
                    index=self.index,
                    body={"index": {"number_of_replicas": self.replicas}},
                )
        if self.hybrid_pipeline:
            self._send("search_pipeline.put", id=self.hybrid_pipeline, body=self.pipeline_body())

    def check_dimension(self) -> None:
        """Refuse an index whose vectors have another size than this deployment's embeddings (a
        stage made with 1,024 dimensions, deployed again with the 512 default): every write would
        fail, so the deploy fails instead, saying which setting keeps the stage as it is."""
        mappings = self._send("indices.get_mapping", index=self.index)
        for name, body in (mappings if isinstance(mappings, dict) else {}).items():
            if not isinstance(body, dict):
                continue
            properties = (body.get("mappings") or {}).get("properties") or {}
            held = (properties.get("embedding") or {}).get("dimension")
            if held is not None and int(held) != self.dimension:
                raise ConfigurationError(
                    f"the search index '{name}' holds vectors of {held} dimensions and this deployment "
                    f"embeds with {self.dimension}: deploy with embedding_dimensions={held} "
                    f"(-c embedding_dimensions={held}; ENGRAM_EMBEDDING_DIMENSIONS={held}) to keep this "
                    "stage's memories searchable, or use a new stage"
                )

    def access_roles(self) -> dict[str, dict[str, Any]]:
        """Fine-grained access control roles (managed domains): reading, or also writing, this index."""
        patterns = [self.index, f"{self.index}-*"]
        return {
            READER_ROLE: {
                "description": "Engram functions that search the memory index",
                "cluster_permissions": ["cluster_composite_ops_ro"],
                "index_permissions": [{"index_patterns": patterns, "allowed_actions": ["read"]}],
            },
            WRITER_ROLE: {
                "description": "Engram functions that index and delete memories",
                "cluster_permissions": ["cluster_composite_ops", "indices:data/read/scroll*"],
                "index_permissions": [
                    {"index_patterns": patterns, "allowed_actions": ["crud", "indices:admin/refresh*"]}
                ],
            },
        }

    def map_roles(self, *, readers: Sequence[str], writers: Sequence[str], admins: Sequence[str]) -> None:
        """Put the reader and writer roles and map IAM role ARNs to them; ``admins`` get
        ``all_access`` and ``security_manager`` (the master user must be among them). Idempotent:
        every mapping is replaced by what is given."""
        for name, body in self.access_roles().items():
            self._send("security.create_role", role=name, body=body)
        mappings = {
            READER_ROLE: readers,
            WRITER_ROLE: writers,
            "all_access": admins,
            "security_manager": admins,
        }
        for name, arns in mappings.items():
            self._send("security.create_role_mapping", role=name, body={"backend_roles": sorted(set(arns))})
