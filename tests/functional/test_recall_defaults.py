"""Recall as an agent first calls it, with only ``query`` and ``scopes``: a clear paraphrase just
under the absolute ``min_score`` is still answered, and a query about nothing stored gets nothing.

"where do I live?" is the paraphrase: at the defaults the place bonus lifts "I moved to Lisbon"
over the bar, so the tests of what happens under it turn that bonus off."""

from __future__ import annotations

from engram.engine import Engine
from engram.models import RecallRequest, RetainItem, RetainRequest, parse

MEMORIES = [
    "I moved to Lisbon last March",
    "I prefer dark mode in every editor",
    "Remember that my daughter Mia is allergic to peanuts",
    "We hit error E4711 when the billing job runs twice",
]


def _retain(engine: Engine) -> None:
    engine.retain(
        "acme", RetainRequest(scope="user:alice", items=[RetainItem(text=t) for t in MEMORIES], mode="raw")
    )


def _ask(engine: Engine, query: str, **extra: object) -> list[tuple[str, float]]:
    request = parse(RecallRequest, {"query": query, "scopes": ["user:alice"], **extra})
    return [(m.content, m.score) for m in engine.recall("acme", request).memories]


UNDER_THE_BAR = {"recall": {"place_weight": 0.0}}


def test_at_the_defaults_a_question_asking_where_finds_the_place_over_the_bar(engine: Engine) -> None:
    # Given where the user lives, said in other words than the question's
    _retain(engine)

    # When the agent asks with only the query and the scope
    found = _ask(engine, "where do I live?")

    # Then the move to Lisbon is the first answer, on its own score
    assert found and found[0][0] == MEMORIES[0]
    assert found[0][1] >= engine.settings_for("acme").recall.min_score


def test_a_clear_paraphrase_under_the_bar_is_still_answered(engine: Engine) -> None:
    # Given where the user lives, said in other words than the question's (no place bonus)
    _retain(engine)
    engine.configure_tenant("acme", UNDER_THE_BAR)

    # When the agent asks with only the query and the scope
    found = _ask(engine, "where do I live?")

    # Then the move to Lisbon is the first answer, though its score is under min_score
    assert found and found[0][0] == MEMORIES[0]
    assert found[0][1] < engine.settings_for("acme").recall.min_score
    # And what does not match the question stays out
    assert all(content != MEMORIES[3] for content, _ in found)


def test_a_query_about_nothing_stored_gets_an_empty_answer(engine: Engine) -> None:
    # Given four memories about a home, an editor, an allergy and an error
    _retain(engine)

    # When the agent asks about something none of them is about
    # Then nothing comes back
    assert _ask(engine, "What is the boiling point of mercury?") == []
    assert _ask(engine, "Who won the 1998 World Cup?") == []


def test_with_min_results_off_the_absolute_bar_alone_decides(engine: Engine) -> None:
    # Given the same memories, and a tenant that keeps only what reaches min_score
    _retain(engine)
    engine.configure_tenant("acme", {"recall": {"min_results": 0, **UNDER_THE_BAR["recall"]}})

    # When the agent asks the paraphrase
    # Then the memory under the bar is not returned
    assert all(content != MEMORIES[0] for content, _ in _ask(engine, "where do I live?"))
