"""Write the long dev set: ``python tests/eval/make_devset.py [--seed 14] [--out tests/eval/devset-long.json]``.

Seven conversations between two friends, 21–25 sessions each over about a year, in the LoCoMo file
format that ``engram eval locomo`` reads. Each session opens with small talk, tells two or three
events of either friend's life (``devset_events``) with reactions, near-duplicate stories of the
other friend's, mentions of earlier events that answer nothing, and filler, and says goodbye.
Questions come from the events (single-hop, temporal: the speaker said "last weekend" and the
answer is the date), across sessions (aggregates, plans that changed, which came first) and a few
that need an inference (open-domain). The same seed writes the same file.
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import devset_talk as talk
import devset_world as w
from devset_events import ARCS
from devset_scene import ME, MULTI, OPEN, SINGLE, TEMPORAL, YOU, Arc, Ctx, Scene
from devset_themes import mention, update
from devset_world import Person

HERE = Path(__file__).resolve().parent
MULTI_STEP = {
    "pet": 3,
    "job": 4,
    "trip": 3,
    "hobby": 2,
    "race": 2,
    "move": 2,
    "diet": 2,
    "volunteer": 2,
    "language": 2,
    "project": 2,
    "injury": 2,
    "garden": 2,
}
# What each friend's year holds: arcs every friend lives, and a draw from the rest.
ALWAYS = ["trip", "hobby", "purchase", "concert", "book"]
ONE_OFF = ["purchase", "concert", "book", "paint", "cook", "visitor", "family"]
SOMETIMES = [
    "pet",
    "job",
    "race",
    "move",
    "diet",
    "volunteer",
    "language",
    "paint",
    "cook",
    "project",
    "injury",
    "visitor",
    "garden",
    "family",
    "book",
    "concert",
    "purchase",
    "hobby",
    "trip",
]


def _plan(rng: random.Random, sessions: int, pets: tuple[bool, bool]) -> list[list[tuple[int, str]]]:
    """Per session, the (friend, arc step) told in it: each arc's steps in order, 1–4 sessions
    apart, at most three events a session; a friend who has a pet already adopts none."""
    slots: list[list[tuple[int, str]]] = [[] for _ in range(sessions)]
    for person in (0, 1):
        arcs = [a for a in ALWAYS + rng.sample(SOMETIMES, 7) if a != "pet" or not pets[person]]
        if not pets[person] and "pet" not in arcs:
            arcs.insert(0, "pet")
        for arc in arcs:
            steps = MULTI_STEP.get(arc, 1)
            at = rng.randrange(0, max(1, sessions - 3 * steps))
            for _ in range(steps):
                while at < sessions and len(slots[at]) >= 3:
                    at += 1
                if at >= sessions:
                    break
                slots[at].append((person, arc))
                at += rng.randrange(1, 5)
    for number, slot in enumerate(slots):  # every session tells at least two things
        while len(slot) < 2:
            person = (number + len(slot)) % 2
            slot.append((person, rng.choice(ONE_OFF)))
    return slots


def _callbacks(
    deck: talk.Deck, facts: list[tuple[str, str, str, dict[str, Any]]], names: tuple[str, str]
) -> list[tuple[int, str]]:
    """A mention of something told earlier that answers no question (an on-topic distractor)."""
    if not facts or deck.rng.random() < 0.5:
        return []
    kind, owner, _, data = deck.rng.choice(facts)
    me = names.index(owner)
    exchanges = talk.CALLBACKS.get(kind)
    if not exchanges:
        return []
    return [
        (me if who == 0 else 1 - me, text.format(**data)) for who, text in deck.draw(f"cb-{kind}", exchanges)
    ]


def _pet_intro(ctx: Ctx, me: Person) -> Scene:
    """A friend who has a pet from the start says so (its breed and age) in passing."""
    species, breed = ctx.rng.choice(w.PETS)
    name, pron = ctx.pick(w.PET_NAMES), ctx.pick(["she", "he"])
    me.pet = (species, breed, name)
    me.facts.update(pet_name=name, pet_pron=pron)
    age = ctx.pick(["two", "three", "five", "seven"])
    tag = ctx.tag()
    scene = Scene().say(
        ME,
        f"Sorry, {name} keeps stepping on my keyboard. {pron.capitalize()}'s my {breed}, "
        f"{age} years old and very needy today.",
        tag,
    )
    scene.say(YOU, f"Tell {name} I said hi!")
    n = me.called(ctx.rng)
    scene.ask(SINGLE, f"What breed is {n}'s {species} {name}?", breed, tag)
    scene.ask(SINGLE, f"How old is {name}?", f"{age} years old", tag)
    ctx.log("pet", me, tag, name=name, breed=breed, species=species)
    return scene


def _themes(me: Person) -> list[str]:
    """The threads of ``me``'s life that updates can come from now."""
    active = ["work", "family", "home", "food"]
    if me.facts.get("pet_name"):
        active += ["pet", "pet"]
    if me.facts.get("hobby"):
        active += ["hobby", "hobby"]
    return active


def _date_time(when: datetime) -> str:
    hour = when.hour % 12 or 12
    return f"{hour}:{when.minute:02d} {'am' if when.hour < 12 else 'pm'} on {when.day} {when:%B}, {when.year}"


def _cross_session(
    rng: random.Random, people: tuple[Person, Person], facts: list[tuple[str, str, str, dict[str, Any]]]
) -> list[tuple[int, str, str, list[str]]]:
    """Questions whose evidence spans sessions: aggregates, orderings, and a few inferences."""
    out: list[tuple[int, str, str, list[str]]] = []
    by: dict[tuple[str, str], list[tuple[str, dict[str, Any]]]] = {}
    for kind, owner, tag, data in facts:
        by.setdefault((owner, kind), []).append((tag, data))
    aggregates = {
        "trip": ("Which places has {n} traveled to this year?", "place"),
        "concert": ("Which bands has {n} seen live?", "band"),
        "book": ("What books has {n} read?", "title"),
        "hobby": ("What classes or hobbies has {n} taken up?", "word"),
        "purchase": ("What big purchases has {n} made?", "item"),
    }
    for person in people:
        n = person.called(rng)
        for kind, (question, key) in aggregates.items():
            told = by.get((person.name, kind), [])
            if len(told) >= 2:
                out.append(
                    (
                        MULTI,
                        question.format(n=n),
                        ", ".join(str(d[key]) for _, d in told),
                        [t for t, _ in told],
                    )
                )
        bought = by.get((person.name, "purchase"), [])
        if len(bought) >= 2:
            (t1, d1), (t2, d2) = bought[:2]
            total = int(d1["price"]) + int(d2["price"])
            out.append(
                (
                    MULTI,
                    f"How much did {n} spend on the {d1['item']} and the {d2['item']} together?",
                    f"${total:,}",
                    [t1, t2],
                )
            )
        dated = [(tag, kind, d) for kind, owner, tag, d in facts if owner == person.name and kind in _EVENT]
        if len(dated) >= 2:
            for _ in range(2):
                (ta, ka, da), (tb, kb, db) = sorted(rng.sample(dated, 2), key=lambda x: int(x[0][1:]))
                first, second = _EVENT[ka].format(**da), _EVENT[kb].format(**db)
                if rng.random() < 0.5:
                    out.append((TEMPORAL, f"Which came first for {n}: {first} or {second}?", first, [ta, tb]))
                else:
                    out.append((TEMPORAL, f"Which came first for {n}: {second} or {first}?", first, [ta, tb]))
        for kind, question in _INFERENCE.items():
            told = by.get((person.name, kind), [])
            if told:
                values = {"genre": "", "name": "", "word": "", **told[-1][1], "n": n, "p_poss": person.poss}
                answer = "Likely no" if kind == "oldjob" else "Likely yes"
                out.append((OPEN, question.format(**values), answer, [t for t, _ in told]))
    pets = [by.get((p.name, "pet"), []) for p in people]
    if all(pets):
        out.append(
            (
                MULTI,
                f"What are the names of {people[0].name}'s and {people[1].name}'s pets?",
                f"{pets[0][0][1]['name']} and {pets[1][0][1]['name']}",
                [pets[0][0][0], pets[1][0][0]],
            )
        )
    return out


_EVENT = {
    "pet": "adopting {name}",
    "trip": "the trip to {place}",
    "race": "the {distance}",
    "move": "the move to {hood}",
    "concert": "seeing {band}",
    "job": "the offer from {company}",
    "hobby": "starting {word}",
    "purchase": "buying the {item}",
    "book": "reading {title}",
}
_INFERENCE = {
    "pet": "Would {n} rather spend a quiet weekend at home with {name} than go to a party?",
    "race": "Would {n} enjoy joining a running club?",
    "concert": "Does {n} like going to live music shows?",
    "book": "Would {n} enjoy a {genre} book club?",
    "trip": "Does {n} like to travel?",
    "volunteer": "Does {n} seem to care about giving back to the community?",
    "hobby": "Would {n} enjoy a gift related to {word}?",
    "oldjob": "Was {n} happy at {company}?",
}


def conversation(index: int, seed: int) -> dict[str, Any]:
    """One conversation in the LoCoMo format."""
    rng = random.Random(seed * 1000 + index)
    people = w.people(index, rng)
    names = (people[0].name, people[1].name)
    sessions = rng.randrange(21, 26)
    when = datetime(rng.choice([2022, 2023]), rng.randrange(1, 13), rng.randrange(1, 28), 9)
    pets = (rng.random() < 0.5, rng.random() < 0.5)
    deck = talk.Deck(rng)
    slots = _plan(rng, sessions, pets)
    facts: list[tuple[str, str, str, dict[str, Any]]] = []
    counter = [0]
    running: dict[tuple[int, str], tuple[Arc, int]] = {}  # an arc under way, and its steps told
    convo: dict[str, Any] = {"speaker_a": names[0], "speaker_b": names[1]}
    dia_of: dict[str, str] = {}
    questions: list[tuple[int, str, str, list[str]]] = []
    for number in range(1, sessions + 1):
        when += timedelta(days=rng.randrange(4, 21), minutes=rng.randrange(-400, 400))
        when = when.replace(hour=rng.randrange(8, 22))
        ctx = Ctx(rng=rng, when=when, session=number, facts=facts, counter=counter)
        earlier = len(facts)  # what was told in earlier sessions (callbacks mention only those)
        opening = talk.opener(deck, names, (people[0].city, people[1].city), when)
        lines: list[tuple[int, str, str | None]] = [(s, talk.chatter(rng, t, 0.25), None) for s, t in opening]
        scenes: list[tuple[int, Scene]] = []
        if number <= 2:
            for person in (0, 1):
                if pets[person] and not people[person].pet and (number == 2 or rng.random() < 0.5):
                    scenes.append((person, _pet_intro(ctx, people[person])))
        for person, arc in slots[number - 1]:
            gen, told = running.get((person, arc), (None, 0))
            if gen is None:
                gen = ARCS[arc](people[person], people[1 - person])
                next(gen)
            scene = gen.send(ctx)
            told += 1
            if told >= MULTI_STEP.get(arc, 1):
                running.pop((person, arc), None)  # done: the next of its kind starts afresh
            else:
                running[(person, arc)] = (gen, told)
            if scene is not None:
                scenes.append((person, scene))
        for _ in range(rng.choice([1, 2, 2, 3])):  # what else happened since they last talked
            person = rng.randrange(2)
            scenes.append((person, update(ctx, people[person], rng.choice(_themes(people[person])))))
        for _ in range(rng.randrange(2, 6)):  # and what comes up without news
            person = rng.randrange(2)
            scenes.append(
                (person, Scene(lines=mention(ctx, people[person], rng.choice(_themes(people[person])))))
            )
        rng.shuffle(scenes)
        for person, scene in scenes:
            lines += [
                ((who + person) % 2, talk.chatter(rng, text, 0.8 if tag else 0.5, friend=who == YOU), tag)
                for who, text, tag in scene.lines
            ]
            questions += scene.questions
            if rng.random() < 0.3:
                lines += [(s, talk.chatter(rng, t, 0.3), None) for s, t in talk.filler(deck)]
            said = {t for _, t, _ in lines}
            lines += [(s, t, None) for s, t in _callbacks(deck, facts[:earlier], names) if t not in said]
        lines += [(s, t, None) for s, t in talk.closer(deck)]
        turns = []
        for position, (who, text, tag) in enumerate(lines, start=1):
            dia = f"D{number}:{position}"
            if tag is not None:
                dia_of[tag] = dia
            turns.append({"speaker": names[who], "dia_id": dia, "text": text})
        convo[f"session_{number}_date_time"] = _date_time(when)
        convo[f"session_{number}"] = turns
    questions += _cross_session(rng, people, facts)
    qa = [
        {"question": q, "answer": a, "evidence": [dia_of[t] for t in tags], "category": c}
        for c, q, a, tags in questions
        if all(t in dia_of for t in tags)
    ]
    return {"sample_id": f"long-{index + 1}", "conversation": convo, "qa": qa}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--out", default=str(HERE / "devset-long.json"))
    args = parser.parse_args()
    data = [conversation(i, args.seed) for i in range(len(w.PAIRS))]
    Path(args.out).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    turns = sum(
        len(v)
        for s in data
        for k, v in s["conversation"].items()
        if k.startswith("session_") and isinstance(v, list)
    )
    print(
        f"wrote {args.out}: {len(data)} conversations, {turns} turns, {sum(len(s['qa']) for s in data)} questions"
    )


if __name__ == "__main__":
    main()
