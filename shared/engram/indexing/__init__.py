"""Indexing: the search index kept in step with the store, from the record stream or rebuilt
(``indexer``)."""
