"""Embedding providers for the AWS backend, chosen by ``settings.embedder``."""

from __future__ import annotations

from engram.errors import ValidationFailedError
from engram.ports import Embedder
from engram.settings import Settings


def embedding_spec(settings: Settings) -> tuple[str, int]:
    """(model id, dimension) the configured embedder produces, without loading or calling it."""
    if settings.embedder == "bedrock":
        return settings.aws.bedrock_model, settings.aws.embedding_dimensions
    if settings.embedder == "openai":
        return settings.aws.openai_model, settings.aws.embedding_dimensions
    from engram.adapters.local_embedder import DIMENSION, MODEL_ID

    return MODEL_ID, DIMENSION


def build_embedder(settings: Settings) -> Embedder:
    """The configured embedder: ``local`` (the bundled model, also usable inside Lambda)."""
    if settings.embedder == "local":
        from engram.adapters.local_embedder import shared_embedder

        return shared_embedder()
    raise ValidationFailedError(f"embedder '{settings.embedder}' is not available in this build")
