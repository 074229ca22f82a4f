"""The threads a friend's life keeps coming back to in the long dev set: a pet, work, family, a
hobby, home, and food. Every update of a theme reuses its words (the pet's name, the workplace,
the sibling), so a question about one update has many on-topic turns to be confused with, as in
real chats. Each update is told in one turn, sometimes echoed by the friend, and answers one or
two questions; most questions use ordinary words rather than the update's rarest one.
"""

from __future__ import annotations

from dataclasses import dataclass

from devset_scene import ME, SINGLE, TEMPORAL, YOU, Ctx, Scene
from devset_world import Person


@dataclass(frozen=True)
class Update:
    say: tuple[str, ...]
    """What the friend says (one is picked); ``{when}`` marks a time expression."""
    slots: dict[str, tuple[str, ...]]
    questions: tuple[tuple[int, str, str], ...]
    """(category, question, answer) templates over the same slots."""
    echo: str = ""
    """A reply by the other friend that repeats the update's words (no answer of its own)."""
    asked: tuple[str, str] = ("", "")
    """The same news drawn out by the friend: their question (with the topic's words) and the
    answer, which carries the detail and seldom repeats them; the answer is the evidence."""


def _u(
    say: str | tuple[str, ...],
    questions: tuple[tuple[int, str, str], ...],
    echo: str = "",
    asked: tuple[str, str] = ("", ""),
    **slots: tuple[str, ...],
) -> Update:
    return Update(say if isinstance(say, tuple) else (say,), slots, questions, echo, asked)


PET = [
    _u(
        (
            "I took {pet} to {place} {when} and {pron} would not stop {action}.",
            "{When}, {pet} and I went to {place}. {Pron} spent the whole time {action}.",
        ),
        (
            (SINGLE, "Where did {n} take {pet} {month}?", "{place}"),
            (TEMPORAL, "When did {n} take {pet} to {place}?", "{when_answer}"),
        ),
        "{pet} at {place}, I love that.",
        place=(
            "the dog beach",
            "the lake",
            "the farmers market",
            "my parents' house",
            "the new park by the river",
        ),
        action=("rolling in the sand", "barking at ducks", "begging for snacks", "digging holes"),
        asked=(
            "Did you and {pet} do anything fun?",
            "{When} we went to {place}! {Pron} spent the whole time {action}.",
        ),
    ),
    _u(
        "{pet} has a new favorite toy, a {toy} that {friend} gave us. It squeaks constantly.",
        ((SINGLE, "What toy did {friend} give {pet}?", "a {toy}"),),
        "Haha, poor neighbors.",
        toy=("plush avocado", "rubber chicken", "knitted octopus", "tennis ball with a face"),
        asked=(
            "What's that squeaking in the background?",
            "Oh, the {toy}. {friend} gave it to us and it hasn't stopped since.",
        ),
    ),
    _u(
        ("The groomer gave {pet} {cut} {when}. {Pron} looks like a different animal.",),
        (
            (SINGLE, "What haircut did {pet} get at the groomer?", "{cut}"),
            (TEMPORAL, "When did {pet} go to the groomer?", "{when_answer}"),
        ),
        "Send pics of {pet}'s new look!",
        cut=("a lion cut", "a teddy bear trim", "a summer shave", "a very short puppy cut"),
        asked=(
            "Did {pet} finally go to the groomer?",
            "{When}, yes. {Pron} got {cut} and looks like a different animal.",
        ),
    ),
    _u(
        "{pet} has been waking me up at {hour} every single day. I've tried everything.",
        ((SINGLE, "What time has {pet} been waking {n} up?", "{hour}"),),
        "",
        hour=("4:30am", "5am", "5:15am", "6am"),
        asked=(
            "Are you sleeping okay with {pet} around?",
            "Not really. {hour}, every single day, like an alarm.",
        ),
    ),
    _u(
        ("We had a little birthday party for {pet} {when}. {Pron}'s {age} now! I made a {cake} cake.",),
        (
            (SINGLE, "How old did {pet} turn?", "{age}"),
            (SINGLE, "What kind of cake did {n} make for {pet}'s birthday?", "a {cake} cake"),
            (TEMPORAL, "When was {pet}'s birthday party?", "{when_answer}"),
        ),
        "A {pet} birthday party is the cutest thing I've ever heard.",
        age=("two", "three", "four", "five"),
        cake=("peanut butter and banana", "pumpkin", "carrot", "sweet potato"),
        asked=(
            "Wasn't it {pet}'s birthday recently?",
            "{When}! {Pron}'s {age} now. I made a {cake} cake and {pron} ate half of it.",
        ),
    ),
    _u(
        "{pet} met {other}, the {other_kind} next door, and now they're inseparable.",
        ((SINGLE, "Who is {pet}'s new best friend next door?", "{other}, the {other_kind}"),),
        "",
        other=("Bingo", "Luna", "Captain", "Mochi"),
        other_kind=("husky", "old beagle", "ginger cat", "pug"),
        asked=(
            "Has {pet} made any friends in the building?",
            "Yes! {other}, the {other_kind} next door. They're inseparable.",
        ),
    ),
    _u(
        "The vet says {pet} needs to lose {weight} pounds, so no more cheese. {Pron} is devastated.",
        ((SINGLE, "How many pounds does {pet} need to lose?", "{weight}"),),
        "Noooo, not the cheese.",
        weight=("two", "three", "four", "five"),
        asked=(
            "What did the vet say at {pet}'s checkup?",
            "{weight} pounds to lose, so no more cheese. Tragic.",
        ),
    ),
    _u(
        "I'm thinking about getting {pet} a {gear} because {pron} hates {weather}.",
        ((SINGLE, "What is {n} thinking of getting {pet}?", "a {gear}"),),
        "",
        gear=("raincoat", "little sweater", "pair of booties", "cooling vest"),
        weather=("the rain", "the cold", "the snow", "the heat"),
    ),
]

WORK = [
    _u(
        (
            "Big day at {employer}: I presented {thing} to {audience} {when}, and nobody fell asleep.",
            "{When} I had to present {thing} to {audience}. At {employer} that's a big deal.",
        ),
        (
            (SINGLE, "What did {n} present at work to {audience}?", "{thing}"),
            (TEMPORAL, "When did {n} present {thing}?", "{when_answer}"),
        ),
        "Presenting to {audience} is so scary, good for you.",
        thing=(
            "the quarterly numbers",
            "our new scheduling system",
            "a redesign of the intake forms",
            "the budget for next year",
        ),
        audience=("the whole department", "the board", "the new director", "a room of sixty people"),
        asked=(
            "How did the big presentation at {employer} go?",
            "It went well! {thing}, in front of {audience}, {when}. Nobody fell asleep.",
        ),
    ),
    _u(
        "My coworker {friend} brought {food} to work and now everyone at {employer} is obsessed.",
        ((SINGLE, "What did {n}'s coworker {friend} bring to work?", "{food}"),),
        "I need {friend}'s recipe.",
        food=("homemade empanadas", "a giant pan of lemon bars", "kimchi from her mom", "cinnamon rolls"),
        asked=(
            "What's the best thing about {employer} lately?",
            "Honestly, {friend} keeps bringing {food} and everyone is obsessed.",
        ),
    ),
    _u(
        "I worked {hours} hours of overtime this week. {employer} is going to owe me a vacation.",
        ((SINGLE, "How many hours of overtime did {n} work that week?", "{hours}"),),
        "That's too much, you need rest.",
        hours=("twelve", "fifteen", "eighteen", "twenty"),
        asked=(
            "Are they still working you to death at {employer}?",
            "Yes. {hours} hours of overtime this week alone.",
        ),
    ),
    _u(
        ("I got the {award} award at {employer} {when}! There was a plaque and a cake.",),
        (
            (SINGLE, "What award did {n} win at work?", "the {award} award"),
            (TEMPORAL, "When did {n} win the {award} award?", "{when_answer}"),
        ),
        "An award! With cake! You deserve it.",
        award=("Team Player of the Quarter", "Rising Star", "Above and Beyond", "Customer Hero"),
        asked=(
            "Anything exciting at {employer}?",
            "I got an award {when}! {award}. There was a plaque and a cake.",
        ),
    ),
    _u(
        "We're getting a new boss at {employer}, her name is {boss}. Everyone's nervous.",
        ((SINGLE, "Who is the new boss at {n}'s work?", "{boss}"),),
        "",
        boss=("Ms. Adeyemi", "Rhonda", "Dr. Castillo", "Beth from the Denver office"),
        asked=("Any news at {employer}?", "New boss starting, {boss}. Everyone is nervous."),
    ),
    _u(
        "They moved our team to the {floor} floor at {employer} and the coffee machine is worse.",
        ((SINGLE, "Which floor did {n}'s team move to?", "the {floor} floor"),),
        "The coffee machine matters!",
        floor=("third", "fifth", "seventh", "ninth"),
    ),
    _u(
        ("I had my annual review {when}. My manager said I should {advice}.",),
        (
            (SINGLE, "What advice did {n} get in {pronposs} annual review?", "to {advice}"),
            (TEMPORAL, "When was {n}'s annual review?", "{when_answer}"),
        ),
        "",
        advice=("speak up more in meetings", "take on a mentee", "delegate more", "apply for the lead role"),
        asked=("How did your review at {employer} go?", "Fine! {When}. My manager said I should {advice}."),
    ),
    _u(
        "Our team outing from {employer} was {outing}. I was terrible at it.",
        ((SINGLE, "What was the team outing at {n}'s work?", "{outing}"),),
        "Haha, {outing} with coworkers sounds chaotic.",
        outing=("axe throwing", "an escape room", "bowling", "a cooking class"),
        asked=("What did your team do for the outing?", "{outing}. I was terrible at it."),
    ),
]

FAMILY = [
    _u(
        ("My {sibling} {sib} came to visit {when}. We spent the whole time {doing}.",),
        (
            (SINGLE, "What did {n} and {pronposs} {sibling} do during the visit?", "{doing}"),
            (TEMPORAL, "When did {sib} visit {n}?", "{when_answer}"),
        ),
        "Aww, {doing} with {sib} sounds perfect.",
        doing=("playing board games", "eating dumplings", "hiking", "watching old home videos"),
        asked=("How was the visit with {sib}?", "So nice. {When}, and we spent the whole time {doing}."),
    ),
    _u(
        "{sib} just got a new job as {sibjob}. Our mom won't stop telling people.",
        ((SINGLE, "What is {n}'s {sibling}'s new job?", "{sibjob}"),),
        "",
        sibjob=("a firefighter", "a middle school principal", "a pilot", "a zookeeper"),
        asked=("What's new with {sib}?", "New job! {sibjob}. Our mom won't stop telling people."),
    ),
    _u(
        "My parents are celebrating their {years}th anniversary, and {sib} and I are planning a surprise {party}.",
        (
            (SINGLE, "Which anniversary are {n}'s parents celebrating?", "their {years}th"),
            (SINGLE, "What surprise are {n} and {sib} planning for their parents?", "a surprise {party}"),
        ),
        "",
        years=("30", "35", "40", "25"),
        party=("dinner", "trip to the coast", "party at the old house"),
    ),
    _u(
        "My mom started {momhobby} at seventy. She's better at it than me already.",
        ((SINGLE, "What did {n}'s mom take up?", "{momhobby}"),),
        "Your mom is my hero.",
        momhobby=("pickleball", "watercolor", "learning the cello", "tai chi"),
    ),
    _u(
        ("{When} my grandpa told us the story of how he {story}. Nobody knew!",),
        ((SINGLE, "What story did {n}'s grandpa tell?", "how he {story}"),),
        "",
        story=("met my grandma at a dance hall", "won a car in a raffle", "sailed to Alaska", "ran a diner"),
    ),
    _u(
        "{sib} and I have a bet going about {bet}. Loser buys dinner.",
        ((SINGLE, "What is the bet between {n} and {pronposs} {sibling}?", "about {bet}"),),
        "",
        bet=("who can run a mile faster", "whose team wins the finals", "who finishes the puzzle first"),
    ),
]

HOME = [
    _u(
        ("A pipe burst in my kitchen {when}. The landlord took {days} days to fix it.",),
        (
            (SINGLE, "How long did the landlord take to fix {n}'s burst pipe?", "{days} days"),
            (TEMPORAL, "When did the pipe burst in {n}'s kitchen?", "{when_answer}"),
        ),
        "{days} days with a burst pipe? That's awful.",
        days=("two", "three", "four", "five"),
        asked=(
            "Did the landlord ever fix your kitchen?",
            "Eventually. The pipe burst {when} and it took {days} days.",
        ),
    ),
    _u(
        "My upstairs neighbor has started {noise} at midnight. Every. Night.",
        ((SINGLE, "What is {n}'s upstairs neighbor doing at midnight?", "{noise}"),),
        "",
        noise=("practicing tap dance", "vacuuming", "moving furniture", "playing the drums"),
        asked=("Is your upstairs neighbor still loud?", "Worse. {noise} at midnight now. Every. Night."),
    ),
    _u(
        "I bought {plants} houseplants this month. The apartment is a jungle now.",
        ((SINGLE, "How many houseplants did {n} buy?", "{plants}"),),
        "A jungle! Love it.",
        plants=("six", "seven", "nine", "eleven"),
    ),
    _u(
        "I finally hung the {art} over the couch. It only took three tries and one hole in the wall.",
        ((SINGLE, "What did {n} hang over the couch?", "the {art}"),),
        "",
        art=("big mirror", "print from the museum", "quilt my aunt made", "map of the city"),
    ),
    _u(
        "There's a new {shop} on my street and I've gone {times} times already.",
        ((SINGLE, "What opened on {n}'s street?", "a {shop}"),),
        "",
        shop=("ramen place", "bakery", "bookstore", "taco truck"),
        times=("three", "four", "five"),
    ),
]

FOOD = [
    _u(
        ("I tried making {dish} from scratch {when}. It took {hours} hours and it was worth it.",),
        (
            (SINGLE, "What did {n} make from scratch?", "{dish}"),
            (TEMPORAL, "When did {n} make {dish}?", "{when_answer}"),
        ),
        "{dish} from scratch?! I'm impressed.",
        dish=("ramen", "croissants", "tamales", "dumplings", "bagels"),
        hours=("three", "four", "five", "six"),
        asked=(
            "Did you end up cooking anything fun?",
            "{dish}, from scratch, {when}. {hours} hours and worth it.",
        ),
    ),
    _u(
        "My new go-to lunch is {lunch}. I've had it every day for two weeks.",
        ((SINGLE, "What is {n}'s new go-to lunch?", "{lunch}"),),
        "",
        lunch=("a chickpea salad", "leftover fried rice", "a turkey and brie sandwich", "miso soup"),
    ),
    _u(
        "We went to {restaurant} for my birthday and the {order} was unreal.",
        (
            (SINGLE, "Where did {n} go for {pronposs} birthday dinner?", "{restaurant}"),
            (SINGLE, "What was unreal at {restaurant}?", "the {order}"),
        ),
        "I've heard about {restaurant}!",
        restaurant=("Lola's", "The Brass Anchor", "Casa Verde", "Noodle Theory"),
        order=("short rib", "duck", "tasting menu", "tiramisu"),
        asked=("Where did you go for your birthday?", "{restaurant}! The {order} was unreal."),
    ),
    _u(
        "I'm doing a {challenge} challenge this month, day {day} so far.",
        ((SINGLE, "What challenge is {n} doing this month?", "a {challenge} challenge"),),
        "",
        challenge=("no-takeout", "no-sugar", "cook-every-night", "one-new-vegetable-a-week"),
        day=("nine", "twelve", "fifteen"),
    ),
]


def hobby_updates(word: str) -> list[Update]:
    """Updates about a class the friend goes to (``word``: pottery, salsa, ...)."""
    return [
        _u(
            ("In {word} {when} {teacher} taught us {technique}. I was hopeless at first.",),
            (
                (SINGLE, "What technique did {n} learn in {word} class?", "{technique}"),
                (TEMPORAL, "When did {n} learn {technique}?", "{when_answer}"),
            ),
            "{teacher} sounds like a great teacher.",
            technique=(
                "a new trick for the basics",
                "how to fix mistakes without starting over",
                "a move the advanced group does",
                "a warm-up routine from Japan",
            ),
            asked=(
                "What did you learn in {word} this week?",
                "{teacher} showed us {technique} {when}. I was hopeless at first.",
            ),
        ),
        _u(
            "I made {gift} in {word} for {friend}. {friend} pretended to love it.",
            ((SINGLE, "What did {n} make in {word} for {friend}?", "{gift}"),),
            "",
            gift=("a little present", "a thank-you card", "a birthday surprise", "a housewarming gift"),
            asked=(
                "Did you make anything in {word} lately?",
                "{gift} for {friend}. {friend} pretended to love it.",
            ),
        ),
        _u(
            "Someone in my {word} class turned out to be {coincidence}. Small world.",
            ((SINGLE, "Who turned out to be in {n}'s {word} class?", "{coincidence}"),),
            "Small world indeed.",
            coincidence=("my old roommate", "my dentist", "my boss's husband", "a guy from high school"),
        ),
        _u(
            "I spent ${cost} on {gear} for {word}. Don't tell anyone.",
            ((SINGLE, "How much did {n} spend on {gear} for {word}?", "${cost}"),),
            "Your secret is safe.",
            cost=("85", "120", "160", "240"),
            gear=("new supplies", "proper shoes", "a fancy apron", "a bag of tools"),
        ),
        _u(
            ("We have a {word} showcase {when_ahead} and {teacher} wants me in the front row.",),
            ((SINGLE, "Where does {teacher} want {n} at the {word} showcase?", "in the front row"),),
            "",
        ),
    ]


THEMES = {"pet": PET, "work": WORK, "family": FAMILY, "home": HOME, "food": FOOD}


def update(ctx: Ctx, me: Person, theme: str) -> Scene:
    """One update of ``theme`` in ``me``'s life, and the questions it answers."""
    options = hobby_updates(str(me.facts["hobby"])) if theme == "hobby" else THEMES[theme]
    used = me.facts.setdefault(f"used-{theme}", {})
    fresh = [i for i in range(len(options)) if used.get(i, 0) < 2]  # type: ignore[union-attr]
    choice = ctx.rng.choice(fresh or list(range(len(options))))
    used[choice] = used.get(choice, 0) + 1  # type: ignore[index, union-attr]
    item = options[choice]
    when, ahead = ctx.ago(), ctx.ahead()
    values = {k: ctx.rng.choice(v) for k, v in item.slots.items()}
    pron = me.pronoun if theme != "pet" else str(me.facts.get("pet_pron", "she"))
    values.update(
        n=me.called(ctx.rng),
        pet=str(me.facts.get("pet_name", "")),
        employer=me.employer,
        sib=me.sibling_name,
        sibling=me.sibling,
        friend=ctx.rng.choice(me.friends),
        teacher=str(me.facts.get("teacher", "")),
        word=str(me.facts.get("hobby", "")),
        when=when.phrase,
        When=when.phrase[0].upper() + when.phrase[1:],
        when_answer=when.answer,
        when_ahead=ahead.phrase,
        month="that time",
        pron=pron,
        Pron=pron.capitalize(),
        pronposs=me.poss,
    )
    tag = ctx.tag()
    if item.asked[0] and ctx.rng.random() < 0.55:
        said = item.asked[1]
        scene = Scene().say(YOU, item.asked[0].format(**values)).say(ME, said.format(**values), tag)
    else:
        said = ctx.rng.choice(item.say)
        scene = Scene().say(ME, said.format(**values), tag)
        if item.echo and ctx.rng.random() < 0.6:
            scene.say(YOU, item.echo.format(**values))
    askable = [q for q in item.questions if q[0] != TEMPORAL or "{when}" in said.lower()]
    for category, question, answer in ctx.rng.sample(askable, min(len(askable), ctx.rng.choice([1, 1, 2]))):
        text = question.format(**values).replace(" that time", "")
        scene.ask(category, text, answer.format(**values), tag)
    return scene


MENTIONS = {
    # Lines that bring a theme up without saying anything a question asks about.
    "pet": [
        (ME, "Hold on, {pet} is barking at the mail carrier again."),
        (ME, "{pet} is asleep on my feet, I can't move."),
        (YOU, "Give {pet} a scratch behind the ears from me."),
        (ME, "Sorry, {pet} needed to go out."),
        (YOU, "How's {pet}, by the way?"),
        (ME, "{pet} says hi. Well, {pron} sneezed, which I'm taking as hi."),
        (ME, "I swear {pet} understands the word walk now, I have to spell it."),
    ],
    "work": [
        (ME, "Work at {employer} was fine today, nothing to report."),
        (YOU, "How's {employer} these days?"),
        (ME, "Long day at {employer}. Meetings about meetings."),
        (ME, "I have to go in early to {employer} tomorrow, ugh."),
        (YOU, "Are they still making you do the thing at {employer}?"),
        (ME, "Yep. Same as always at work."),
    ],
    "family": [
        (ME, "{sib} called me for an hour last night about nothing."),
        (YOU, "How's your {sibling} doing?"),
        (ME, "My mom keeps sending me articles about vitamins."),
        (ME, "{sib} says hi, by the way."),
        (YOU, "Tell {sib} I said hello!"),
        (ME, "Family group chat has been wild this week."),
    ],
    "home": [
        (ME, "My apartment is a mess, I'm ignoring it."),
        (YOU, "Is the place still freezing?"),
        (ME, "Someone on my street is always mowing at 7am."),
        (ME, "I rearranged the living room again, don't ask."),
    ],
    "food": [
        (ME, "I'm so hungry, I skipped lunch."),
        (YOU, "What are you having for dinner?"),
        (ME, "Leftovers. The sad kind."),
        (ME, "I've been eating way too much takeout lately."),
    ],
    "hobby": [
        (ME, "{word} was fun this week, {teacher} was in a great mood."),
        (YOU, "Still going to {word}?"),
        (ME, "I skipped {word} this week, I was too tired."),
        (YOU, "How's {word} going?"),
        (ME, "Honestly {word} is the only thing keeping me sane."),
    ],
}


def mention(ctx: Ctx, me: Person, theme: str) -> list[tuple[int, str, str | None]]:
    """One or two lines on ``theme`` that answer nothing (a near-duplicate of its updates)."""
    pron = str(me.facts.get("pet_pron", "she"))
    values = {
        "pet": str(me.facts.get("pet_name", "")),
        "pron": pron,
        "employer": me.employer,
        "sib": me.sibling_name,
        "sibling": me.sibling,
        "word": str(me.facts.get("hobby", "")),
        "teacher": str(me.facts.get("teacher", "")),
    }
    who, text = ctx.rng.choice(MENTIONS[theme])
    lines: list[tuple[int, str, str | None]] = [(who, text.format(**values), None)]
    if who == YOU:
        lines.append(
            (
                ME,
                ctx.rng.choice(["Good! Same old.", "Honestly? Great.", "Fine, fine.", "Ha, don't ask."]),
                None,
            )
        )
    return lines
