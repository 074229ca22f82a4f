"""What the dev set's events are made of: a scene of chat lines, the questions it answers, and the
context an event is told in (who speaks, when, what came before)."""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from devset_world import Person

ME, YOU = 0, 1  # the person an event happens to, and the friend they tell it to

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MULTI, TEMPORAL, OPEN, SINGLE = 1, 2, 3, 4


def day(d: datetime) -> str:
    """``7 May 2023``."""
    return f"{d.day} {d:%B} {d.year}"


@dataclass(frozen=True)
class When:
    """A time expression a speaker uses, and what it means for a question's answer."""

    phrase: str
    answer: str


@dataclass
class Scene:
    lines: list[tuple[int, str, str | None]] = field(default_factory=list)
    questions: list[tuple[int, str, str, list[str]]] = field(default_factory=list)

    def say(self, who: int, text: str, tag: str | None = None) -> Scene:
        self.lines.append((who, text, tag))
        return self

    def news(self, ctx: Ctx, tag: str, statements: Sequence[str], prompt: str = "", reply: str = "") -> Scene:
        """News said outright (one of ``statements``) or, as often in real chats, drawn out by the
        friend's ``prompt`` and told in ``reply``, which seldom repeats the topic's words."""
        if prompt and ctx.rng.random() < 0.45:
            return self.say(YOU, prompt).say(ME, reply, tag)
        return self.say(ME, ctx.pick(statements), tag)

    def ask(self, category: int, question: str, answer: str, *tags: str) -> Scene:
        self.questions.append((category, question, answer, list(tags)))
        return self


@dataclass
class Ctx:
    """Where in the conversation an event is told."""

    rng: random.Random
    when: datetime
    session: int
    facts: list[tuple[str, str, str, dict[str, object]]]
    """(kind, owner, tag, data) of everything that happened so far, for questions across sessions."""
    counter: list[int]

    def tag(self) -> str:
        self.counter[0] += 1
        return f"t{self.counter[0]}"

    def pick(self, options: Sequence[str]) -> str:
        return self.rng.choice(list(options))

    def log(self, kind: str, owner: Person, tag: str, **data: object) -> None:
        self.facts.append((kind, owner.name, tag, data))

    def money(self, low: int, high: int, step: int = 50) -> int:
        return self.rng.randrange(low // step, high // step + 1) * step

    def verbatim(self) -> bool:
        """Whether a question reuses the speaker's words (as most real questions do) or paraphrases."""
        return self.rng.random() < 0.65

    def ago(self) -> When:
        """A past time expression relative to this session, and its answer."""
        w = self.when
        choice = self.rng.randrange(8)
        if choice == 0:
            return When("yesterday", day(w - timedelta(days=1)))
        if choice == 1:
            return When("last night", day(w - timedelta(days=1)))
        if choice == 2:
            back = self.rng.randrange(2, 6)
            d = w - timedelta(days=back)
            return When(f"on {WEEKDAYS[d.weekday()]}", day(d))
        if choice == 3:
            return When("last weekend", f"the weekend before {day(w)}")
        if choice == 4:
            return When("two weeks ago", f"two weeks before {day(w)}")
        if choice == 5:
            last = w.replace(day=1) - timedelta(days=1)
            return When("last month", f"{last:%B} {last.year}")
        if choice == 6:
            return When("this morning", day(w))
        return When("a few days ago", f"a few days before {day(w)}")

    def ahead(self) -> When:
        """A future time expression relative to this session, and its answer."""
        w = self.when
        choice = self.rng.randrange(4)
        if choice == 0:
            nxt = (w.replace(day=1) + timedelta(days=32)).replace(day=1)
            return When(f"in {nxt:%B}", f"{nxt:%B} {nxt.year}")
        if choice == 1:
            return When("next month", f"the month after {day(w)}")
        if choice == 2:
            return When("in a couple of weeks", f"a couple of weeks after {day(w)}")
        d = w + timedelta(days=(4 - w.weekday()) % 7 + 7)
        return When("next Friday", day(d))


Arc = Generator["Scene | None", Ctx, None]
"""An event over one or more sessions: a generator sent the context of each session it is told in,
yielding that session's scene (it is primed with ``next`` first)."""
