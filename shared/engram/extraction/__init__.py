"""Offline extraction: turn conversation messages into memory candidates without an LLM."""

from __future__ import annotations

from engram.extraction.noise import is_noise
from engram.extraction.rules import RuleExtractor

__all__ = ["RuleExtractor", "is_noise"]
