"""The embedding budget holds for deferred retains: each is charged an estimate when accepted
(settled when the background embeds it), so a run of bulk retains stops at the budget instead
of overshooting it while the vectors wait."""

from __future__ import annotations

from pathlib import Path

from engram.engine import Engine
from engram.errors import QuotaExceededError
from engram.models import RetainRequest
from engram.settings import Settings

BUDGET = 1_000


def _bulk(n: int) -> RetainRequest:
    items = [
        {"text": f"meeting note {n}-{i}: the quarterly budget review moved to room {i}"} for i in range(10)
    ]
    return RetainRequest.model_validate({"scope": "user:alice", "items": items, "mode": "raw"})


def test_bulk_retains_stop_at_the_embedding_budget_within_ten_percent(tmp_path: Path) -> None:
    # Given a tenant allowed 1,000 embedding tokens a month, whose retains are embedded later
    engine = Engine.local(Settings(data_dir=tmp_path / "data", background_embedding=False))
    engine.create_tenant("acme")
    engine.configure_tenant("acme", {"limits": {"embedding_tokens_per_month": BUDGET}})
    # When it retains batches of ten until it is refused
    accepted, refused = 0, None
    for n in range(40):
        try:
            engine.retain("acme", _bulk(n))
            accepted += 1
        except QuotaExceededError as exc:
            refused = exc
            break
    engine.embed_pending("acme")  # the backlog is embedded (and its estimate settled)
    usage = engine.stats("acme").usage
    engine.close()
    # Then it was refused before the budget was overshot by more than 10 %, once the vectors exist
    assert refused is not None and accepted >= 1
    assert usage["embedding_tokens"] <= BUDGET * 1.10, usage
    assert usage["embedding_tokens_settled"] == usage["embedding_tokens_reserved"], usage
