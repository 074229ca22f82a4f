"""Engram: long-term memory for AI agents (retain, recall, forget, feedback)."""

__version__ = "0.1.0"
