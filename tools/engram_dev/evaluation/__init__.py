"""Evaluation harnesses: recall quality measured through the public API."""
