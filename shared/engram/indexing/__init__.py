"""Indexing: the search index kept in step with the store, from the record stream or rebuilt
(``indexer``), and the stream's one consumer that indexes each batch and then publishes its events
(``consumer``)."""
