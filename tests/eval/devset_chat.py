"""How the calibrated dev set's turns read: long, chatty and first person, a fifth of them about a
photo, the way people type to a friend ("Omg that's amazing! We finally drove up to the lake house
last weekend and…"). Everything is drawn from a seeded ``random.Random``.

A turn's news is padded with asides about the rest of the speaker's life (other activities,
people, places, feelings) until it reaches a length drawn from a log-normal distribution with
median 20 and mean ≈ 22.7 words. The asides name everyday things a question may also name, as real
chat does, so a topic word alone does not find the turn that answers.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

RUN_UPS = [
    "Omg",
    "Haha",
    "Oh wow",
    "Aww",
    "Honestly",
    "Okay so",
    "Ugh",
    "Yesss",
    "Hey",
    "Wow",
    "Ahh",
    "Lol",
]
ACTIVITIES = [
    "yoga",
    "baking bread",
    "hiking",
    "painting",
    "pottery",
    "reading before bed",
    "gardening",
    "cooking new recipes",
    "running in the mornings",
    "journaling",
    "swimming",
    "playing guitar",
    "taking photos",
    "volunteering",
    "learning to knit",
    "board games",
    "cycling to work",
    "watching old movies",
    "meal prepping",
    "camping",
]
PEOPLE = [
    "my mom",
    "my sister",
    "my brother",
    "my coworker",
    "my neighbor",
    "my best friend from college",
    "my cousin",
    "my dad",
    "my kid",
    "my roommate",
    "my grandma",
    "my boss",
]
PLACES = [
    "the park",
    "the beach",
    "the farmers market",
    "the gym",
    "the library",
    "that little cafe downtown",
    "the lake",
    "the museum",
    "the mall",
    "my parents' place",
    "the community center",
    "the bookstore",
]
WHEN = [
    "last week",
    "on Sunday",
    "this morning",
    "the other day",
    "over the weekend",
    "a while ago",
    "lately",
    "recently",
]
FEELINGS = [
    "so relaxing",
    "kind of chaotic",
    "really special",
    "exhausting but fun",
    "a nice change",
    "super calming",
    "a lot harder than I thought",
    "honestly the highlight of my week",
]
ASIDES = [
    "I've been really into {activity} {when} and it's been {feeling}.",
    "{person} and I went to {place} {when}, which was {feeling}.",
    "I finally got back into {activity}, it's {feeling}.",
    "{person} keeps telling me to try {activity}.",
    "Things have been busy with {person}, but I'm hanging in there.",
    "I was at {place} {when} and thought of you.",
    "It's been such a roller coaster of a month.",
    "I'm trying to make more time for the things that make me happy.",
    "It reminded me how much I love spending time with the people I care about.",
    "I've been feeling really inspired {when}.",
    "{person} says hi, by the way!",
    "Sorry, I've been so bad at texting back.",
    "I can't believe how fast this year is going.",
    "It's the little moments like that that keep me going.",
    "I've been trying to take better care of myself, like {activity} and sleeping more.",
    "We spent most of the afternoon at {place}.",
    "Life has been pretty hectic, but good hectic.",
    "I'm so grateful to have you to talk to about this stuff.",
    "Also {person} got me into {activity}, which I did not see coming.",
    "I keep meaning to get back to {place} one of these days.",
]
FRIEND_ASIDES = [
    "That's so awesome, I'm really happy for you!",
    "You always have the best stories.",
    "I love that you're making time for yourself.",
    "Honestly that sounds like exactly what you needed.",
    "I've been thinking about you a lot {when}.",
    "{person} was asking about you the other day.",
    "It's so good to hear from you!",
    "That really makes me smile.",
]
IMAGE_REMARKS = [
    "Here's a pic!",
    "Look at this photo!",
    "Check this out.",
    "I took this one {when}.",
    "Sending you a picture.",
    "This is from that day.",
]
SCENES = [
    "a dog laying on a couch with a blanket",
    "a plate of food on a wooden table",
    "a group of people standing on a beach",
    "a painting of a sunset over the ocean",
    "a woman smiling at the camera",
    "a man holding a cup of coffee",
    "a park with trees and a bench",
    "a cake with candles on a table",
    "a view of a city at night",
    "a bookshelf full of books",
    "a bowl of soup and a spoon",
    "a cat sitting in a window",
    "a trail through a forest",
    "a table with a laptop and a notebook",
    "a garden with flowers and a fence",
    "a bicycle leaning against a wall",
    "a kitchen with pots on the stove",
    "a lake with mountains in the background",
]


PERSONA = [
    "Work at {employer} has been {feeling} {when}.",
    "{sibling_name} came over {when}, which was {feeling}.",
    "My {sibling} {sibling_name} keeps asking about you.",
    "I've been doing a lot of {hobby} {when}.",
    "{friend} and I grabbed coffee {when}.",
    "{friend} from work says hi!",
    "The weather in {city} has been wild {when}.",
    "I'm thinking about signing up for another {hobby} class.",
]
PET_PERSONA = [
    "{pet} has been so clingy {when}.",
    "{pet} is asleep on my feet right now, by the way.",
    "I took {pet} to {place} {when} and it was {feeling}.",
]


def persona(person: Any) -> list[str]:
    """Asides about the speaker's own life (employer, sibling, friends, hobbies, pet), which the
    questions about that life also name; ``{when}``, ``{feeling}`` and ``{place}`` stay open."""
    fields = {
        "employer": person.employer,
        "sibling": person.sibling,
        "sibling_name": person.sibling_name,
        "city": person.city,
        "when": "{when}",
        "feeling": "{feeling}",
        "place": "{place}",
    }
    out = [
        t.format(**fields, hobby=hobby[2], friend=friend)
        for t in PERSONA
        for hobby in person.hobbies
        for friend in person.friends[:2]
    ]
    if person.pet:
        out += [t.format(**fields, pet=person.pet[2]) for t in PET_PERSONA]
    return list(dict.fromkeys(out))


ECHOES = {
    "pet": [
        "{name} says hi, by the way.",
        "I swear {name} understands everything I say.",
        "{name} has been such a good {species} {when}.",
    ],
    "trip": ["I still think about {place} all the time.", "I was telling {person} about {place} {when}."],
    "concert": ["I've had {band} on repeat {when}.", "{person} wants to see {band} with me next time."],
    "book": ["I keep recommending {title} to everyone.", "{person} borrowed my copy of {title}."],
    "hobby": ["I've been practising {word} {when}.", "{word} has been {feeling} {when}."],
    "purchase": ["Still loving the {item}, honestly.", "The {item} was worth every penny."],
    "job": ["Things at {company} are {feeling} {when}.", "{person} asked me how {company} is going."],
    "race": ["My legs still remember the {distance}.", "{person} wants me to do another {distance}."],
    "move": ["{hood} is really starting to feel like home.", "I found a great coffee place in {hood}."],
    "volunteer": ["I was back at {place} {when}.", "{place} needs more volunteers, if you know anyone."],
}


def echoes(kind: str, data: dict[str, Any]) -> list[str]:
    """Asides that mention something the speaker told earlier (they answer no question)."""
    open_fields = {"when": "{when}", "feeling": "{feeling}", "person": "{person}"}
    return [t.format(**open_fields, **data) for t in ECHOES.get(kind, [])]


def _fill(template: str, rng: random.Random) -> str:
    return template.format(
        activity=rng.choice(ACTIVITIES),
        person=rng.choice(PEOPLE),
        place=rng.choice(PLACES),
        when=rng.choice(WHEN),
        feeling=rng.choice(FEELINGS),
    )


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


def target_words(rng: random.Random, median: float = 20.0, sigma: float = 0.5) -> int:
    """A turn's length in words: log-normal, median 20, mean median·e^(σ²/2) ≈ 22.7."""
    return max(3, round(median * math.exp(rng.gauss(0.0, sigma))))


def lengthen(
    rng: random.Random,
    text: str,
    target: int,
    *,
    friend: bool = False,
    own: Sequence[str] = (),
    own_share: float = 0.5,
) -> str:
    """``text`` padded with asides (before a question, after a statement) to about ``target`` words;
    ``own`` asides (the speaker's ``persona``) make up about ``own_share`` of them."""
    generic = FRIEND_ASIDES if friend else ASIDES
    question = text.rstrip().endswith("?")
    before: list[str] = []
    after: list[str] = []
    if rng.random() < 0.35:
        before.append(rng.choice(RUN_UPS) + ("!" if rng.random() < 0.5 else ","))
    count = len(text.split()) + sum(len(p.split()) for p in before)
    while count < target - 3:
        pool = own if own and rng.random() < own_share else generic
        aside = _cap(_fill(rng.choice(pool), rng))
        if aside in before or aside in after:
            count += 1  # a person says a thing once a turn; the loop still ends
            continue
        (before if question or rng.random() < 0.3 else after).append(aside)
        count += len(aside.split())
    if before and before[0].endswith(","):
        first = text.split(" ", 1)[0]
        keep = first == "I" or first.startswith("I'") or (first[:1].isupper() and first[1:2].isupper())
        before[0] += " " + (text if keep else text[0].lower() + text[1:])
        return " ".join([*before, *after])
    return " ".join([*before, text, *after])


def caption(rng: random.Random, text: str) -> tuple[str, str]:
    """A turn that shares a photo: the text with a remark about it, and the photo's caption."""
    remark = _fill(rng.choice(IMAGE_REMARKS), rng)
    return f"{text} {remark}", "a photo of " + rng.choice(SCENES)
