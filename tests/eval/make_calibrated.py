"""Write the calibrated dev set: ``python tests/eval/make_calibrated.py [--seed 26] [--out FILE]``;
``--check`` then prints its calibration table (the properties beside real long conversations', and
the bm25 and vector baselines through ``engram eval locomo``).

Conversations between two friends in the LoCoMo file format, built from the long set's events
(``devset_events``, ``devset_themes``) but told as real long chats are: shorter sessions of long,
chatty, first-person turns (``devset_chat``), a fifth of them sharing a photo with a caption;
questions in the third person that name the speaker; evidence that is often a short reply whose
meaning sits in the friend's question just before it (then both turns are evidence); dates
relative to the session's date. The generator's knobs were set against the baselines only (bm25
and vector), never against the default pipeline. The same seed writes the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import devset_chat as chat
import devset_talk as talk
import devset_world as w
from devset_events import ARCS
from devset_scene import MULTI, OPEN, SINGLE, TEMPORAL, Ctx, Scene
from devset_themes import mention, update
from make_devset import MULTI_STEP, _callbacks, _cross_session, _date_time, _pet_intro, _plan, _themes

HERE = Path(__file__).resolve().parent
CONVERSATIONS = 6
MIX = {MULTI: 282, TEMPORAL: 321, OPEN: 96, SINGLE: 841}
"""The category mix of the real conversations the set is calibrated to (per 1,540 questions)."""
QUESTIONS_PER_CONVERSATION = 115
IMAGE_SHARE = 0.208
PREVIOUS_AS_EVIDENCE = 0.12
"""How often a reply to the friend's question takes that question as evidence too."""
SHORT_REPLY = 0.7
VERBATIM = 0.3
OWN_SHARE = 0.8
ECHO_WEIGHT = 2
"""How many times more likely an aside echoes a told event than names any one persona line."""
NEWS_MEDIAN, OTHER_MEDIAN = 34.0, 16.0
"""Median words of a turn that tells news and of any other: news comes with more to say."""
"""How many of a turn's asides are about the speaker's own life rather than anyone's."""
CALLBACK = 0.9
"""How often a scene is followed by a mention of something told earlier (it answers nothing)."""
"""How often such a reply stays short, its meaning in the question before it."""


class ChatCtx(Ctx):
    """Real questions reuse the speaker's words less often than the long set's do."""

    def verbatim(self) -> bool:
        return self.rng.random() < VERBATIM


def _session_lines(
    ctx: Ctx,
    deck: talk.Deck,
    people: tuple[w.Person, w.Person],
    slots: list[tuple[int, str]],
    state: dict[str, Any],
) -> tuple[list[tuple[int, str, str | None]], list[tuple[int, str, str, list[str]]]]:
    """One session's (speaker, text, tag) lines and the questions they answer."""
    rng, names = ctx.rng, (people[0].name, people[1].name)
    lines = [(s, t, None) for s, t in talk.opener(deck, names, (people[0].city, people[1].city), ctx.when)]
    questions: list[tuple[int, str, str, list[str]]] = []
    scenes: list[tuple[int, Scene]] = []
    if ctx.session <= 2:
        for person in (0, 1):
            if state["pets"][person] and not people[person].pet and (ctx.session == 2 or rng.random() < 0.5):
                scenes.append((person, _pet_intro(ctx, people[person])))
    running = state["running"]
    for person, arc in slots:
        gen, told = running.get((person, arc), (None, 0))
        if gen is None:
            gen = ARCS[arc](people[person], people[1 - person])
            next(gen)
        scene = gen.send(ctx)
        told += 1
        if told >= MULTI_STEP.get(arc, 1):
            running.pop((person, arc), None)
        else:
            running[(person, arc)] = (gen, told)
        if scene is not None:
            scenes.append((person, scene))
    for _ in range(rng.choice([1, 1, 2])):  # what else happened since they last talked
        person = rng.randrange(2)
        scenes.append((person, update(ctx, people[person], rng.choice(_themes(people[person])))))
    for _ in range(rng.choice([0, 1])):  # and what comes up without news
        person = rng.randrange(2)
        scenes.append(
            (person, Scene(lines=mention(ctx, people[person], rng.choice(_themes(people[person])))))
        )
    rng.shuffle(scenes)
    for person, scene in scenes:
        lines += [((who + person) % 2, text, tag) for who, text, tag in scene.lines]
        questions += scene.questions
        said = {t for _, t, _ in lines}
        earlier = state["earlier"]
        if rng.random() < CALLBACK:
            lines += [(s, t, None) for s, t in _callbacks(deck, ctx.facts[:earlier], names) if t not in said]
    lines += [(s, t, None) for s, t in talk.closer(deck)]
    return lines, questions


def _turns(
    rng: random.Random,
    lines: list[tuple[int, str, str | None]],
    people: tuple[w.Person, w.Person],
    number: int,
    echoed: dict[str, list[str]],
) -> tuple[list[dict[str, Any]], dict[str, str], set[str]]:
    """The session's turns as people type them; tag → dia id, and the tags whose reply is short."""
    turns: list[dict[str, Any]] = []
    dia_of: dict[str, str] = {}
    prompted: set[str] = set()
    for position, (who, text, tag) in enumerate(lines, start=1):
        dia = f"D{number}:{position}"
        previous = lines[position - 2] if position > 1 else None
        replying = bool(tag and previous and previous[0] != who and previous[1].rstrip().endswith("?"))
        if tag is not None:
            dia_of[tag] = dia
            if replying:
                prompted.add(tag)
        friend = bool(previous and previous[0] != who and not text.rstrip().endswith("?") and tag is None)
        if replying and rng.random() < SHORT_REPLY:
            body = text
        else:
            own = chat.persona(people[who]) + echoed.get(people[who].name, [])
            median = NEWS_MEDIAN if tag else OTHER_MEDIAN
            body = chat.lengthen(
                rng, text, chat.target_words(rng, median), friend=friend, own=own, own_share=OWN_SHARE
            )
        turn: dict[str, Any] = {"speaker": people[who].name, "dia_id": dia, "text": body}
        if not body.rstrip().endswith("?") and rng.random() < IMAGE_SHARE / 0.8:
            turn["text"], turn["blip_caption"] = chat.caption(rng, body)
        turns.append(turn)
    return turns, dia_of, prompted


def _names_speaker(question: str, people: tuple[w.Person, w.Person]) -> str | None:
    """The question with short names written in full, or None when it names neither speaker."""
    for person in people:
        question = re.sub(rf"\b{re.escape(person.short)}\b(?!\w)", person.name, question)
    return question if any(re.search(rf"\b{p.name}\b", question) for p in people) else None


def conversation(index: int, seed: int) -> dict[str, Any]:
    """One conversation in the LoCoMo format."""
    rng = random.Random(seed * 1000 + index)
    people = w.people(index, rng)
    names = (people[0].name, people[1].name)
    sessions = rng.randrange(24, 29)
    when = datetime(rng.choice([2022, 2023]), rng.randrange(1, 13), rng.randrange(1, 28), 9)
    deck = talk.Deck(rng)
    state: dict[str, Any] = {"pets": (rng.random() < 0.5, rng.random() < 0.5), "running": {}, "earlier": 0}
    slots = _plan(rng, sessions, state["pets"])
    facts: list[tuple[str, str, str, dict[str, Any]]] = []
    counter = [0]
    convo: dict[str, Any] = {"speaker_a": names[0], "speaker_b": names[1]}
    dia_of: dict[str, str] = {}
    prompted: set[str] = set()
    echoed: dict[str, list[str]] = {}
    questions: list[tuple[int, str, str, list[str]]] = []
    for number in range(1, sessions + 1):
        when += timedelta(days=rng.randrange(4, 18), minutes=rng.randrange(-400, 400))
        when = when.replace(hour=rng.randrange(8, 22))
        ctx = ChatCtx(rng=rng, when=when, session=number, facts=facts, counter=counter)
        state["earlier"] = len(facts)
        lines, asked = _session_lines(ctx, deck, people, slots[number - 1], state)
        turns, tags, short = _turns(rng, lines, people, number, echoed)
        for kind, owner, _, data in facts[state["earlier"] :]:  # later asides echo what was told
            echoed.setdefault(owner, []).extend(chat.echoes(kind, data) * ECHO_WEIGHT)
        dia_of.update(tags)
        prompted |= short
        questions += asked
        convo[f"session_{number}_date_time"] = _date_time(when)
        convo[f"session_{number}"] = turns
    questions += _cross_session(rng, people, facts) + _inferences(rng, people, facts)
    ask = random.Random(f"{seed}-{index}-questions")  # which questions: apart from the talk
    return {
        "sample_id": f"calibrated-{index + 1}",
        "conversation": convo,
        "qa": _qa(ask, questions, dia_of, prompted, people),
    }


NAMED_OPEN = -OPEN
"""An open-domain question that names the thing told about; drawn for ``NAMED_OPEN_SHARE`` of the open-domain quota."""
NAMED_OPEN_SHARE = 0.8
ORDER = -TEMPORAL
"""A temporal question that asks which of two events came first (most real ones ask when)."""
ORDER_SHARE = 0.1
OPEN_NAMED = {
    "trip": "Would {n} want to go back to {place} someday?",
    "concert": "Would {n} buy tickets if {band} played nearby again?",
    "book": "Would {n} recommend {title} to a friend?",
    "pet": "Does {n} seem to enjoy life with {name}?",
    "hobby": "Is {n} likely to keep up {word}?",
    "purchase": "Is {n} happy with the {item}?",
    "job": "Does {n} seem to like working at {company}?",
    "move": "Is {n} settling in well in {hood}?",
}


def _inferences(
    rng: random.Random, people: tuple[w.Person, w.Person], facts: list[tuple[str, str, str, dict[str, Any]]]
) -> list[tuple[int, str, str, list[str]]]:
    """Open-domain questions that name the thing told about and ask what follows from it."""
    out: list[tuple[int, str, str, list[str]]] = []
    names = {p.name: p for p in people}
    for kind, owner, tag, data in facts:
        if kind in OPEN_NAMED:
            out.append(
                (NAMED_OPEN, OPEN_NAMED[kind].format(n=names[owner].name, **data), "Likely yes", [tag])
            )
    return out


def _previous(dia: str) -> str:
    session, turn = dia[1:].split(":")
    return f"D{session}:{int(turn) - 1}"


def _qa(
    rng: random.Random,
    questions: list[tuple[int, str, str, list[str]]],
    dia_of: dict[str, str],
    prompted: set[str],
    people: tuple[w.Person, w.Person],
) -> list[dict[str, Any]]:
    """The questions that name a speaker, drawn to the real category mix."""
    by: dict[int, list[dict[str, Any]]] = {c: [] for c in [*MIX, NAMED_OPEN, ORDER]}
    for category, question, answer, tags in questions:
        named = _names_speaker(question, people)
        if named is None or not all(t in dia_of for t in tags):
            continue
        evidence = [dia_of[t] for t in tags]
        for tag in tags:
            if tag in prompted and rng.random() < PREVIOUS_AS_EVIDENCE:
                evidence.insert(evidence.index(dia_of[tag]), _previous(dia_of[tag]))
        item = {"question": named, "answer": answer, "evidence": evidence, "category": abs(category)}
        by[ORDER if question.startswith("Which came first") else category].append(item)
    total = sum(MIX.values())
    quota = {c: round(QUESTIONS_PER_CONVERSATION * share / total) for c, share in MIX.items()}
    quota[NAMED_OPEN] = round(quota[OPEN] * NAMED_OPEN_SHARE + rng.random() - 0.5)
    quota[OPEN] -= quota[NAMED_OPEN]
    quota[ORDER] = round(quota[TEMPORAL] * ORDER_SHARE)
    quota[TEMPORAL] -= quota[ORDER]
    qa: list[dict[str, Any]] = []
    for category, want in quota.items():
        qa += rng.sample(by[category], min(want, len(by[category])))
    return qa


def write(seed: int, out: Path, conversations: int = CONVERSATIONS) -> list[dict[str, Any]]:
    data = [conversation(i, seed) for i in range(conversations)]
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--out", default=str(HERE / "devset-calibrated.json"))
    parser.add_argument("--conversations", type=int, default=CONVERSATIONS)
    parser.add_argument(
        "--check", action="store_true", help="then print the calibration table (runs the baselines)"
    )
    parser.add_argument(
        "--report",
        metavar="LOCOMO_JSON",
        help="with --check: the baselines of an engram eval run on this file",
    )
    parser.add_argument("--no-baselines", action="store_true", help="with --check: the properties only")
    args = parser.parse_args(argv)
    out = Path(args.out)
    data = write(args.seed, out, args.conversations)
    turns = sum(len(v) for s in data for k, v in s["conversation"].items() if isinstance(v, list))
    print(
        f"wrote {out}: {len(data)} conversations, {turns} turns, {sum(len(s['qa']) for s in data)} questions"
    )
    if args.check:
        from engram_dev.evaluation.calibration import from_report, table

        measured = from_report(Path(args.report)) if args.report else None
        print(table(out, baselines_too=not args.no_baselines, measured=measured))
    return 0


if __name__ == "__main__":
    sys.exit(main())
