"""The Bedrock models a deploy may name, and the regions each is offered in, as of a date.

A model id in ``cdk.json`` (or ``-c``) that is retired or not offered in the stack's region
deploys fine and then fails at the first call: every smart retain would fall back to the rules
and every rerank would be skipped. ``check_models`` refuses such a configuration at synth time
when the stack's region is known (``CDK_DEFAULT_REGION``, which the CDK CLI sets from the
profile), and ``region_rule`` adds a CloudFormation rule that refuses the deploy in any other
region when the template is region-agnostic.

The table is a snapshot: it was read from Bedrock's "Model lifecycle" and "Supported Regions
and models for reranking" pages and the model cards on ``MODELS_AS_OF``. Update it (and that
date) when a model is added, moves to Legacy or EOL, or gains regions; ``docs/deploy.md``'s
model table is generated from the same rows (``markdown_table``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MODELS_AS_OF = "2026-12-02"

Kind = Literal["llm", "embedding", "rerank"]


@dataclass(frozen=True)
class Model:
    model_id: str
    kind: Kind
    name: str
    regions: tuple[str, ...]
    """Regions a call may be made from: in-region support, or an inference profile's source regions."""
    lifecycle: str
    """Bedrock's lifecycle state and its EOL date (or the earliest EOL) on ``MODELS_AS_OF``."""


_US = ("us-east-1", "us-east-2", "us-west-2")
_EU = ("eu-central-1", "eu-west-1", "eu-west-3")
MODELS: dict[str, Model] = {
    m.model_id: m
    for m in (
        Model(
            "us.anthropic.claude-haiku-5-5",
            "llm",
            "Claude Haiku 5.5 (US inference profile)",
            _US,
            "Active; launched 2026-10-07, EOL no sooner than 2027-10-07",
        ),
        Model(
            "eu.anthropic.claude-haiku-5-5",
            "llm",
            "Claude Haiku 5.5 (EU inference profile)",
            _EU,
            "Active; launched 2026-10-07, EOL no sooner than 2027-10-07",
        ),
        Model(
            "amazon.titan-embed-text-v2:0",
            "embedding",
            "Titan Text Embeddings V2 (8,192 tokens or 50,000 characters a call)",
            (*_US, "ca-central-1", *_EU, "eu-west-2", "ap-northeast-1", "ap-south-1", "ap-southeast-2"),
            "Active; no EOL date",
        ),
        Model(
            "cohere.rerank-v3-5:0",
            "rerank",
            "Cohere Rerank 3.5",
            ("ap-northeast-1", "ca-central-1", "eu-central-1", "us-east-1", "us-west-2"),
            "Active",
        ),
        Model(
            "amazon.rerank-v1:0",
            "rerank",
            "Amazon Rerank 1.0 (not offered in us-east-1)",
            ("ap-northeast-1", "ca-central-1", "eu-central-1", "us-west-2"),
            "Active",
        ),
    )
}
RETIRED: dict[str, str] = {
    "anthropic.claude-3-5-haiku-20241022-v1:0": "Claude 3.5 Haiku reached its Bedrock end of life on 2026-06-19",
    "us.anthropic.claude-3-5-haiku-20241022-v1:0": "Claude 3.5 Haiku reached its Bedrock end of life on 2026-06-19",
    "anthropic.claude-3-haiku-20240307-v1:0": "Claude 3 Haiku reached its Bedrock end of life on 2026-09-10",
}


CONTEXT_KEYS: dict[Kind, str] = {
    "llm": "llm_model_id",
    "embedding": "embedding_model_id",
    "rerank": "rerank_model_id",
}


def configured(*, llm: str, embedding: str, rerank: str | None) -> dict[Kind, str]:
    """The models a deploy calls: its LLM and embedding model, and the rerank model when used."""
    models: dict[Kind, str] = {"llm": llm, "embedding": embedding}
    if rerank is not None:
        models["rerank"] = rerank
    return models


def problems(models: dict[Kind, str], region: str | None) -> list[str]:
    """What is wrong with each configured model (empty: all fine). ``region`` None: the
    template is region-agnostic, so only the model's existence is checked here."""
    found = []
    for kind, model_id in models.items():
        key = CONTEXT_KEYS[kind]
        if model_id in RETIRED:
            found.append(f"{key}: '{model_id}' is retired ({RETIRED[model_id]})")
            continue
        model = MODELS.get(model_id)
        if model is None:
            found.append(
                f"{key}: '{model_id}' is not in the table of Bedrock models of infra/engram_infra/models.py "
                f"(as of {MODELS_AS_OF}); add it there with the regions it is offered in"
            )
        elif model.kind != kind:
            found.append(f"{key}: '{model_id}' is a {model.kind} model, not a {kind} model")
        elif region is not None and region not in model.regions:
            found.append(
                f"{key}: '{model_id}' is not offered in {region} (as of {MODELS_AS_OF}: {', '.join(model.regions)})"
            )
    return found


def check_models(models: dict[Kind, str], region: str | None) -> None:
    """Raise ValueError naming every configured model that is retired, unknown or not offered."""
    found = problems(models, region)
    if found:
        raise ValueError("; ".join(found))


def regions_of_all(models: dict[Kind, str]) -> list[str]:
    """The regions where every configured model is offered (the deploy rule's allowed values)."""
    sets = [set(MODELS[m].regions) for m in models.values() if m in MODELS]
    return sorted(set.intersection(*sets)) if sets else []


def markdown_table() -> str:
    """The model table of docs/deploy.md (kept equal to it by a test)."""
    rows = ["| model id | kind | what | regions | lifecycle |", "|---|---|---|---|---|"]
    for m in MODELS.values():
        rows.append(f"| `{m.model_id}` | {m.kind} | {m.name} | {', '.join(m.regions)} | {m.lifecycle} |")
    return "\n".join(rows)
