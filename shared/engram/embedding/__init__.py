"""Embedding: what a memory is embedded as (``key_text``), what a model takes in one call
(``inputs``), the embedded default's model files (``local_model``) and the backlog of memories
stored without a vector (``backlog``)."""
