"""Adapters: the concrete stores, indexes and providers behind ``engram.ports``."""
