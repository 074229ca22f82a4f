"""What happens in the long dev set: events told over one or more sessions, each with the
questions it can answer (see ``devset_scene`` for the parts).

Every arc is a generator: primed with ``next``, then sent the context of each session it is told
in, it yields that session's scene. Questions name the person as users do (mostly in full), and
most reuse the words the speaker used; some paraphrase. Friends answer with near-duplicates of
their own (another dog, another race), which is what makes a question hard to answer by topic.
"""

from __future__ import annotations

from collections.abc import Callable

import devset_world as w
from devset_scene import ME, MULTI, SINGLE, TEMPORAL, YOU, Arc, Ctx, Scene
from devset_talk import ack, react
from devset_world import Person


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def pet(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    species, breed = ctx.rng.choice(w.PETS)
    name = ctx.pick(w.PET_NAMES)
    me.pet = (species, breed, name)
    they = "she" if ctx.rng.random() < 0.5 else "he"
    me.facts.update(pet_name=name, pet_pron=they)
    when = ctx.ago()
    s, adopt, quirk = Scene(), ctx.tag(), ctx.tag()
    s.say(
        ME,
        ctx.pick(
            [
                f"Big news: {when.phrase} we adopted a {breed}! {_cap(they)}'s about four months old and we named {'her' if they == 'she' else 'him'} {name}.",
                f"So {when.phrase} I went to the shelter 'just to look' and came home with a {breed} named {name}. Oops.",
                f"Meet {name}! My new {species}, a little {breed} I picked up from a rescue {when.phrase}.",
            ]
        ),
        adopt,
    )
    s.say(YOU, react(ctx.rng, "good")).say(YOU, f"What's {name} like?")
    habit = ctx.pick(
        [
            "steals socks and hides them under the couch",
            "sleeps on my face at 5am",
            "is scared of the vacuum but not of the mailman",
            "eats grass like it's salad",
        ]
    )
    s.say(ME, f"A total goofball. {_cap(they)} {habit}.", quirk)
    other_breed = ctx.pick([b for _, b in w.PETS if b != breed])
    s.say(
        YOU,
        f"Haha. My coworker {you.friends[0]} has a {other_breed} called {ctx.pick(w.PET_NAMES)}, "
        f"they'd be best friends.",
    )
    s.say(ME, ack(ctx.rng))
    n = me.called(ctx.rng)
    if ctx.verbatim():
        s.ask(SINGLE, f"What did {n} name the {breed} {me.pronoun} adopted?", name, adopt)
    else:
        s.ask(SINGLE, f"What is the name of {n}'s new pet?", name, adopt)
    s.ask(SINGLE, f"What breed is {name}?", breed, adopt)
    s.ask(TEMPORAL, f"When did {n} adopt {name}?", when.answer, adopt)
    s.ask(SINGLE, f"What does {n}'s {species} {name} do that is funny?", habit, quirk)
    ctx.log("pet", me, adopt, name=name, breed=breed, species=species)
    ctx = yield s

    when = ctx.ago()
    thing = ctx.pick(["a whole corn cob", "a hair tie", "half a sock", "a rubber duck", "my earbuds"])
    cost = ctx.money(250, 1400)
    s, ate, bill = Scene(), ctx.tag(), ctx.tag()
    s.say(
        ME,
        ctx.pick(
            [
                f"{name} ate {thing} {when.phrase} and we ended up at the emergency vet.",
                f"Guess who swallowed {thing} {when.phrase}? {name}. We spent the night at the animal ER.",
            ]
        ),
        ate,
    )
    s.say(YOU, react(ctx.rng, "bad")).say(YOU, f"Is {name} okay? How much did that cost?")
    s.say(ME, f"Fine now, just sleepy. The vet bill was ${cost:,}. For {thing}!", bill)
    s.say(YOU, react(ctx.rng, "funny"))
    s.ask(SINGLE, f"What did {name} eat that sent {me.called(ctx.rng)} to the emergency vet?", thing, ate)
    s.ask(SINGLE, f"How much was the vet bill after {name} swallowed {thing}?", f"${cost:,}", bill)
    s.ask(TEMPORAL, f"When did {name} go to the emergency vet?", when.answer, ate)
    s.ask(MULTI, f"What breed is the pet that swallowed {thing}?", breed, adopt, ate)
    ctx = yield s

    when = ctx.ago()
    tricks = ctx.pick(["sit, shake and roll over", "high five and play dead", "sit and wait at the door"])
    s, grad = Scene(), ctx.tag()
    s.say(YOU, f"How's {name} doing?")
    s.say(
        ME,
        f"{name} graduated from obedience class {when.phrase}! We learned {tricks}. There was a tiny hat.",
        grad,
    )
    s.say(YOU, react(ctx.rng, "good"))
    s.ask(SINGLE, f"What tricks did {name} learn in obedience class?", tricks, grad)
    s.ask(
        MULTI,
        f"What kind of pet is {name}, and what did {they} learn in class?",
        f"a {breed}; {tricks}",
        adopt,
        grad,
    )
    yield s


def job(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    boss = ctx.pick(w.PEOPLE)
    s, gripe = Scene(), ctx.tag()
    s.say(
        ME,
        ctx.pick(
            [
                f"Work at {me.employer} is wearing me down. My manager {boss} moved the deadline up again.",
                f"I think I'm done at {me.employer}. {boss}, my manager, scheduled a 7am meeting. Seven!",
            ]
        ),
        gripe,
    )
    s.say(YOU, react(ctx.rng, "bad")).say(YOU, "Are you looking around?")
    s.say(ME, "Quietly. Don't tell anyone. Well, who would you tell.")
    s.ask(SINGLE, f"Who is {me.called(ctx.rng)}'s manager at {me.employer}?", boss, gripe)
    ctx.log("oldjob", me, gripe, company=me.employer)
    ctx = yield s

    role, company = ctx.rng.choice(w.NEW_JOBS)
    when = ctx.ago()
    s, interview, task = Scene(), ctx.tag(), ctx.tag()
    s.say(ME, f"I had an interview at {company} {when.phrase} for a {role} role!", interview)
    s.say(YOU, "Ooh! How did it go?")
    topic = ctx.pick(
        [
            "planning a budget for a fake clinic",
            "redesigning their onboarding flow",
            "a case study about delivery delays",
            "cooking a three-course tasting menu",
        ]
    )
    s.say(ME, f"Good I think? The second round was a take-home, {topic}.", task)
    s.say(YOU, f"You've got this. {ack(ctx.rng)}")
    n = me.called(ctx.rng)
    if ctx.verbatim():
        s.ask(SINGLE, f"Which company did {n} interview at for the {role} role?", company, interview)
    else:
        s.ask(SINGLE, f"Where was {n} hoping to get a new job?", company, interview)
    s.ask(TEMPORAL, f"When did {n} interview at {company}?", when.answer, interview)
    s.ask(SINGLE, f"What was the take-home task in {n}'s second interview round?", topic, task)
    ctx = yield s

    raise_pct = ctx.rng.choice([8, 10, 12, 15, 18, 20, 25])
    start = ctx.ahead()
    s, offer = Scene(), ctx.tag()
    s.say(ME, f"I got the offer from {company}! It's a {raise_pct}% raise and I start {start.phrase}.", offer)
    s.say(YOU, react(ctx.rng, "good"))
    s.say(ME, f"I'll miss my coworker {me.friends[1]} though. We've shared a desk for three years.")
    s.say(YOU, f"You two will still get lunch. {ack(ctx.rng)}")
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"How much of a raise came with {n}'s offer from {company}?", f"{raise_pct}%", offer)
    s.ask(TEMPORAL, f"When does {n} start at {company}?", start.answer, offer)
    s.ask(MULTI, f"Where did {n} work before {me.pronoun} joined {company}?", me.employer, gripe, offer)
    ctx.log("job", me, offer, company=company, role=role)
    me.employer, me.job = company, role
    ctx = yield s

    s, commute = Scene(), ctx.tag()
    how = ctx.pick(["by bike, fifteen minutes", "on the number 12 bus", "on foot, it's a twenty-minute walk"])
    s.say(YOU, "How's the new job going?")
    s.say(
        ME,
        f"First weeks at {company} are great. I get there {how}, and they gave me a standing desk.",
        commute,
    )
    s.say(YOU, react(ctx.rng, "good"))
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"How does {n} get to work at {company}?", how, commute)
    s.ask(MULTI, f"How does {n} commute to the job that came with a {raise_pct}% raise?", how, offer, commute)
    yield s


def trip(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    (first, _), (final, highlight) = ctx.rng.sample(w.TRIPS, 2)
    who, who_q = ctx.rng.choice(
        [
            ("my partner", f"{me.poss} partner"),
            (f"my {me.sibling}", f"{me.poss} {me.sibling}"),
            (me.friends[2], me.friends[2]),
            ("my mom", f"{me.poss} mom"),
        ]
    )
    when = ctx.ahead()
    s, plan = Scene(), ctx.tag()
    s.say(ME, f"We're planning a trip to {first} {when.phrase}! {_cap(who)} has never been.", plan)
    s.say(YOU, react(ctx.rng, "good")).say(
        YOU,
        f"I went to {ctx.pick([t for t, _ in w.TRIPS if t not in (first, final)])} last year, "
        "if you ever want tips for somewhere else.",
    )
    s.ask(SINGLE, f"Where did {me.called(ctx.rng)} first plan to travel with {who_q}?", first, plan)
    ctx = yield s

    reason = ctx.pick(
        [
            f"the flights to {first} doubled in price",
            f"there's a transit strike in {first}",
            f"{who} got a cheap deal on a rental in {final}",
        ]
    )
    s, change = Scene(), ctx.tag()
    s.say(ME, f"Change of plans: we're doing {final} instead of {first}, because {reason}.", change)
    s.say(YOU, react(ctx.rng, "neutral")).say(YOU, f"Honestly {final} sounds better anyway.")
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"Why did {n} switch the trip from {first} to {final}?", reason, change)
    s.ask(
        MULTI,
        f"Where did {n} plan to go first, and where did {me.pronoun} end up going?",
        f"{first}, then {final}",
        plan,
        change,
    )
    ctx = yield s

    nights = ctx.rng.randrange(4, 12)
    when = ctx.ago()
    s, back, stay = Scene(), ctx.tag(), ctx.tag()
    s.news(
        ctx,
        back,
        [f"We got back from {final} {when.phrase}. The best part was {highlight}."],
        f"You're back from {final}! How was it?",
        f"Amazing. We got back {when.phrase}, and the best part was {highlight}.",
    )
    s.say(YOU, "Jealous! How long were you there?")
    s.say(ME, f"{nights} nights. Not enough.", stay)
    s.say(YOU, react(ctx.rng, "good"))
    n = me.called(ctx.rng)
    if ctx.verbatim():
        s.ask(SINGLE, f"What was the best part of {n}'s trip to {final}?", highlight, back)
    else:
        s.ask(SINGLE, f"What did {n} enjoy most on {me.poss} vacation?", highlight, back)
    s.ask(SINGLE, f"How many nights did {n} spend in {final}?", str(nights), back, stay)
    s.ask(TEMPORAL, f"When did {n} get back from {final}?", when.answer, back)
    ctx.log("trip", me, back, place=final)
    yield s


def hobby(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    klass, thing, word = me.hobbies[0] if "hobby" not in me.facts else me.hobbies[1]
    me.facts["hobby"] = word
    teacher, weekday = ctx.pick(w.PEOPLE), ctx.pick(["Monday", "Tuesday", "Wednesday", "Thursday"])
    me.facts["teacher"] = teacher
    s, start = Scene(), ctx.tag()
    s.say(
        ME,
        ctx.pick(
            [
                f"I signed up for a {klass} on {weekday} nights. The teacher, {teacher}, is hilarious.",
                f"New thing: {word}! There's a {klass} near my place on {weekday}s, taught by a guy named {teacher}."
                if teacher[-1] not in "aey"
                else f"New thing: {word}! There's a {klass} near my place on {weekday}s, and the teacher {teacher} is great.",
            ]
        ),
        start,
    )
    s.say(YOU, react(ctx.rng, "good")).say(YOU, f"I tried {word} once and it did not go well, haha.")
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"Who teaches {n}'s {word} class?", teacher, start)
    s.ask(SINGLE, f"What night of the week is {n}'s {word} class?", weekday, start)
    ctx.log("hobby", me, start, word=word)
    ctx = yield s

    when = ctx.ago()
    s, made = Scene(), ctx.tag()
    s.say(
        ME,
        f"I finally finished {thing} in {word} {when.phrase}! {teacher} said it was 'structurally brave'.",
        made,
    )
    s.say(YOU, react(ctx.rng, "funny")).say(YOU, "Send me a picture!")
    s.say(ME, "It's not pretty. But it's mine.")
    n = me.called(ctx.rng)
    if ctx.verbatim():
        s.ask(SINGLE, f"What did {n} finish in {word}?", thing, made)
    else:
        s.ask(SINGLE, f"What was the first thing {n} completed in {me.poss} new class?", thing, made)
    s.ask(TEMPORAL, f"When did {n} finish {thing}?", when.answer, made)
    s.ask(MULTI, f"Who teaches the class where {n} made {thing}?", teacher, start, made)
    yield s


def race(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    distance, low, high = ctx.rng.choice(w.RACES)
    s, train = Scene(), ctx.tag()
    weekday = ctx.pick(["Saturday", "Sunday"])
    s.say(ME, f"I'm training for a {distance}. The {weekday} long runs are killing me.", train)
    s.say(YOU, react(ctx.rng, "good")).say(YOU, "You're braver than me. I run only when chased.")
    s.ask(SINGLE, f"What race is {me.called(ctx.rng)} training for?", distance, train)
    ctx = yield s

    minutes = ctx.rng.randrange(low, high)
    finish = f"{minutes // 60}:{minutes % 60:02d}" if minutes >= 60 else f"{minutes} minutes"
    when = ctx.ago()
    s, ran = Scene(), ctx.tag()
    s.news(
        ctx,
        ran,
        [f"I ran the {distance} {when.phrase}! Finished in {finish}, and I only cried a little."],
        f"Wait, wasn't your {distance} coming up? How did it go?",
        f"Done, {when.phrase}! {finish}, and I only cried a little.",
    )
    s.say(YOU, react(ctx.rng, "good"))
    rival = ctx.rng.randrange(low, high)
    s.say(YOU, f"My cousin ran one too, she did it in {rival // 60}:{rival % 60:02d}. You beat her, I think!")
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"What was {n}'s finishing time in the {distance}?", finish, ran)
    s.ask(TEMPORAL, f"When did {n} run the {distance}?", when.answer, ran)
    s.ask(
        MULTI,
        f"How long did {n} take to finish the race {me.pronoun} trained for with {weekday} long runs?",
        finish,
        train,
        ran,
    )
    ctx.log("race", me, ran, distance=distance)
    yield s


def move(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    hood = ctx.pick(w.NEIGHBOURHOODS)
    s, hunt = Scene(), ctx.tag()
    s.say(ME, f"Apartment hunting is a nightmare. Everything in {hood} is tiny or haunted or both.", hunt)
    s.say(YOU, react(ctx.rng, "bad"))
    ctx = yield s

    rent = ctx.money(1200, 2900)
    feature = ctx.pick(["a balcony", "a clawfoot tub", "a washer and dryer", "a tiny garden"])
    when = ctx.ago()
    s, lease = Scene(), ctx.tag()
    s.say(
        ME,
        f"We signed the lease {when.phrase}! Two bedrooms in {hood}, ${rent:,} a month, and there's {feature}.",
        lease,
    )
    s.say(YOU, react(ctx.rng, "good")).say(YOU, f"Is {feature} as nice as it sounds?")
    s.say(ME, "Nicer. I'm never leaving.")
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"How much is the rent on {n}'s new place in {hood}?", f"${rent:,} a month", lease)
    if ctx.verbatim():
        s.ask(SINGLE, f"Which neighborhood did {n} sign a lease in?", hood, lease)
    else:
        s.ask(SINGLE, f"Where is {n}'s new apartment?", hood, lease)
    s.ask(TEMPORAL, f"When did {n} sign the lease on the apartment?", when.answer, lease)
    s.ask(
        MULTI,
        f"Did {n} end up living in the neighborhood {me.pronoun} said was a nightmare to search?",
        f"Yes, {hood}",
        hunt,
        lease,
    )
    ctx.log("move", me, lease, hood=hood)
    yield s


def purchase(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    item, (low, high), where = ctx.rng.choice(w.PURCHASES)
    price = ctx.money(low, high)
    when = ctx.ago()
    s, buy = Scene(), ctx.tag()
    short = item.removeprefix("a ").removeprefix("an ")
    s.news(
        ctx,
        buy,
        [
            f"I finally bought {item}! Got it from {where} {when.phrase} for ${price:,}.",
            f"Okay so {when.phrase} I impulse-bought {item}. ${price:,}, from {where}. No regrets. Some regrets.",
        ],
        f"Did you end up getting the {short} you were looking at?",
        f"Yes! {_cap(when.phrase)}, from {where}. ${price:,}.",
    )
    s.say(YOU, "Was that a good deal?")
    s.say(
        ME,
        ctx.pick(
            [
                "I think so? It works, which is the main thing.",
                "Compared to new, definitely.",
                "Ask me in a month.",
            ]
        ),
    )
    s.say(YOU, react(ctx.rng, "good"))
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"How much did {n} pay for the {short}?", f"${price:,}", buy)
    s.ask(SINGLE, f"Where did {n} buy {me.poss} {short}?", where, buy)
    ctx.log("purchase", me, buy, item=short, price=price)
    yield s


def concert(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    band, venue, buddy = ctx.pick(w.BANDS), ctx.pick(w.VENUES), ctx.pick(me.friends)
    when = ctx.ago()
    s, gig = Scene(), ctx.tag()
    s.news(
        ctx,
        gig,
        [
            f"{_cap(when.phrase)} I saw {band} at {venue} with {buddy}. I screamed through the whole encore.",
            f"Guess who saw {band} live {when.phrase}? Me! {buddy} got us tickets for {venue}.",
        ],
        f"Didn't you have {band} tickets? How was the show?",
        f"Incredible. {_cap(when.phrase)}, at {venue}, and {buddy} lost their voice screaming.",
    )
    s.say(YOU, react(ctx.rng, "good")).say(YOU, f"I've only heard {band} on the radio, are they good live?")
    s.say(ME, "So good. The drummer is a menace in the best way.")
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"Which band did {n} see at {venue}?", band, gig)
    s.ask(SINGLE, f"Who went with {n} to see {band}?", buddy, gig)
    s.ask(TEMPORAL, f"When did {n} see {band} live?", when.answer, gig)
    ctx.log("concert", me, gig, band=band)
    yield s


def book(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    title, author, genre = ctx.rng.choice([b for b in w.BOOKS if b[0] not in me.facts.get("books", [])])
    me.facts.setdefault("books", []).append(title)  # type: ignore[union-attr]
    s, read = Scene(), ctx.tag()
    s.say(
        ME,
        ctx.pick(
            [
                f"I just finished {title} by {author}. It's a {genre} and the ending wrecked me.",
                f"Have you read {title}? {author}. I stayed up until 2am finishing it.",
            ]
        ),
        read,
    )
    s.say(YOU, "Would I like it?")
    s.say(
        ME,
        ctx.pick(
            [
                "If you like being emotionally destroyed, yes.",
                "Maybe! It's slow at the start.",
                "You'd love the main character, she's so stubborn.",
            ]
        ),
    )
    n = me.called(ctx.rng)
    if ctx.verbatim():
        s.ask(SINGLE, f"Who wrote {title}, the book {n} finished?", author, read)
    else:
        s.ask(SINGLE, f"What {genre} did {n} stay up reading?", title, read)
    ctx.log("book", me, read, title=title, genre=genre)
    yield s


def family(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    sib = me.sibling_name
    s = Scene()
    if ctx.rng.random() < 0.5:
        baby = ctx.pick(["Iris", "Theo", "Mabel", "Arlo", "Nova", "Felix", "June", "Otis"])
        weight = f"{ctx.rng.randrange(6, 9)} pounds {ctx.rng.randrange(1, 15)} ounces"
        when = ctx.ago()
        born = ctx.tag()
        s.say(
            ME,
            f"My {me.sibling} {sib} had the baby {when.phrase}! {baby}, {weight}. I'm an aunt!"
            if me.pronoun == "she"
            else f"My {me.sibling} {sib} had the baby {when.phrase}! {baby}, {weight}. I'm an uncle!",
            born,
        )
        s.say(YOU, react(ctx.rng, "good")).say(YOU, f"{baby} is such a cute name.")
        n = me.called(ctx.rng)
        s.ask(SINGLE, f"What is the name of {n}'s {me.sibling}'s baby?", baby, born)
        s.ask(TEMPORAL, f"When was {sib}'s baby born?", when.answer, born)
        s.ask(SINGLE, f"How much did {baby} weigh at birth?", weight, born)
    else:
        place = ctx.pick(
            ["a vineyard outside Napa", "a barn in Vermont", "her grandparents' farm", "a lighthouse"]
        )
        when = ctx.ahead()
        wed = ctx.tag()
        s.say(ME, f"{sib} is getting married {when.phrase}, at {place}! I'm giving a speech, help.", wed)
        s.say(YOU, react(ctx.rng, "good")).say(YOU, "Start with a joke, end with a cry. Classic.")
        n = me.called(ctx.rng)
        s.ask(SINGLE, f"Where is {n}'s {me.sibling} {sib} getting married?", place, wed)
        s.ask(TEMPORAL, f"When is {sib}'s wedding?", when.answer, wed)
    yield s


def diet(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    s, veg = Scene(), ctx.tag()
    s.say(
        ME,
        "Random update: I've gone vegetarian. It's been a month and I feel great, I miss bacon though.",
        veg,
    )
    s.say(YOU, react(ctx.rng, "neutral")).say(YOU, "I tried that once and lasted four days.")
    ctx = yield s
    s, fish = Scene(), ctx.tag()
    s.say(ME, "Confession: I'm eating fish again. Pescatarian is more my speed. Sushi won.", fish)
    s.say(YOU, react(ctx.rng, "funny"))
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"Does {n} eat fish now?", "Yes, pescatarian now", fish)
    s.ask(MULTI, f"How has {n}'s diet changed this year?", "vegetarian, then pescatarian", veg, fish)
    yield s


def volunteer(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    place, weekday = ctx.pick(w.SHELTERS), ctx.pick(["Saturday", "Sunday", "Wednesday"])
    s, start = Scene(), ctx.tag()
    s.say(
        ME, f"I started volunteering at {place} on {weekday} mornings. It's the best part of my week.", start
    )
    s.say(YOU, react(ctx.rng, "good"))
    s.ask(SINGLE, f"Where does {me.called(ctx.rng)} volunteer on {weekday}s?", place, start)
    ctx.log("volunteer", me, start, place=place)
    ctx = yield s
    hours = ctx.rng.randrange(20, 90)
    s, total = Scene(), ctx.tag()
    s.say(
        ME,
        f"I hit {hours} volunteer hours at {place}! They gave me a pin. I'm weirdly proud of the pin.",
        total,
    )
    s.say(YOU, react(ctx.rng, "good"))
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"How many volunteer hours has {n} done at {place}?", str(hours), total)
    s.ask(
        MULTI,
        f"Which mornings does {n} volunteer, and how many hours has {me.pronoun} done so far?",
        f"{weekday}s; {hours} hours",
        start,
        total,
    )
    yield s


def language(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    lang, how = ctx.rng.choice(w.LANGUAGES)
    s, start = Scene(), ctx.tag()
    s.say(ME, f"I'm learning {lang}! With {how}. Ask me how to order a coffee.", start)
    s.say(YOU, "How do you order a coffee?").say(ME, "I don't know yet. Give me a week.")
    s.ask(SINGLE, f"What language is {me.called(ctx.rng)} learning?", lang, start)
    ctx = yield s
    streak = ctx.rng.randrange(40, 200)
    s, days = Scene(), ctx.tag()
    s.say(ME, f"My {lang} streak is at {streak} days. I dream in verb tables now.", days)
    s.say(YOU, react(ctx.rng, "good"))
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"How many days is {n}'s {lang} streak?", str(streak), days)
    s.ask(
        MULTI,
        f"How is {n} learning the language {me.pronoun} has a {streak}-day streak in?",
        how,
        start,
        days,
    )
    yield s


def paint(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    room, color = ctx.pick(["kitchen", "bedroom", "bathroom", "hallway"]), ctx.pick(w.COLORS)
    when = ctx.ago()
    s, done = Scene(), ctx.tag()
    s.say(ME, f"We painted the {room} {color} {when.phrase}. It took three coats and my arms are dead.", done)
    s.say(YOU, react(ctx.rng, "good")).say(
        YOU,
        f"I painted my {ctx.pick(['office', 'porch'])} {ctx.pick(w.COLORS)} once and regretted it instantly.",
    )
    n = me.called(ctx.rng)
    if ctx.verbatim():
        s.ask(SINGLE, f"What color did {n} paint the {room}?", color, done)
    else:
        s.ask(SINGLE, f"Which room did {n} redo, and in what shade?", f"the {room}, {color}", done)
    s.ask(TEMPORAL, f"When did {n} paint the {room}?", when.answer, done)
    yield s


def cook(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    dish, guest = ctx.pick(w.DISHES), ctx.pick(me.friends)
    s, made = Scene(), ctx.tag()
    s.say(
        ME,
        f"I made {dish} for {guest}'s birthday dinner. My grandma's recipe, I only burned it a little.",
        made,
    )
    s.say(YOU, "Save me some next time!").say(ME, ack(ctx.rng))
    s.ask(SINGLE, f"What did {me.called(ctx.rng)} cook for {guest}'s birthday?", dish, made)
    yield s


def project(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    name, when = ctx.pick(w.PROJECTS), ctx.ahead()
    s, plan = Scene(), ctx.tag()
    s.say(
        ME,
        f"We're launching {name} {when.phrase} and I'm the one writing the release notes. Pray for me.",
        plan,
    )
    s.say(YOU, react(ctx.rng, "neutral"))
    s.ask(SINGLE, f"What is {me.called(ctx.rng)} writing for the {name} launch?", "the release notes", plan)
    ctx = yield s
    when = ctx.ago()
    s, launched = Scene(), ctx.tag()
    s.say(ME, f"{name} launched {when.phrase}! Only one outage, and it wasn't my fault.", launched)
    s.say(YOU, react(ctx.rng, "good"))
    s.ask(TEMPORAL, f"When did {name} launch?", when.answer, launched)
    s.ask(
        MULTI,
        f"When did the launch {me.called(ctx.rng)} wrote the release notes for happen?",
        when.answer,
        plan,
        launched,
    )
    yield s


def injury(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    sport, when = ctx.pick(["pickup basketball", "volleyball at the beach", "a trampoline park"]), ctx.ago()
    s, hurt = Scene(), ctx.tag()
    s.say(
        ME,
        f"I sprained my ankle playing {sport} {when.phrase}. I'm on the couch with a bag of frozen peas.",
        hurt,
    )
    s.say(YOU, react(ctx.rng, "bad"))
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"How did {n} sprain {me.poss} ankle?", f"playing {sport}", hurt)
    s.ask(TEMPORAL, f"When did {n} sprain {me.poss} ankle?", when.answer, hurt)
    ctx = yield s
    sessions = ctx.rng.randrange(5, 14)
    s, physio = Scene(), ctx.tag()
    s.say(ME, f"Physio session number {sessions} today. I can finally jog again!", physio)
    s.say(YOU, react(ctx.rng, "good"))
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"How many physio sessions had {n} had for the ankle?", str(sessions), physio)
    s.ask(
        MULTI,
        f"How many physio sessions did {n} need after getting hurt playing {sport}?",
        str(sessions),
        hurt,
        physio,
    )
    yield s


def visitor(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    guest, city, when = ctx.pick(me.friends), ctx.pick(w.CITIES), ctx.ahead()
    nights = ctx.rng.randrange(2, 8)
    s, visit = Scene(), ctx.tag()
    s.say(
        ME, f"{guest} is flying in from {city} {when.phrase} and staying with me for {nights} nights.", visit
    )
    s.say(YOU, "Fun! Do you have a plan?").say(ME, "Eat everything. That's the plan.")
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"Who is coming to stay with {n} from {city}?", guest, visit)
    s.ask(SINGLE, f"How many nights is {guest} staying with {n}?", str(nights), visit)
    yield s


def garden(me: Person, you: Person) -> Arc:
    ctx: Ctx = yield None
    plants = ctx.rng.randrange(3, 9)
    s, planted = Scene(), ctx.tag()
    s.say(
        ME, f"I planted {plants} tomato plants on the balcony. I've named them all. Is that weird?", planted
    )
    s.say(YOU, "Very weird. What are their names?").say(ME, "That's between me and the tomatoes.")
    s.ask(SINGLE, f"How many tomato plants did {me.called(ctx.rng)} plant?", str(plants), planted)
    ctx = yield s
    picked = ctx.rng.randrange(20, 90)
    s, harvest = Scene(), ctx.tag()
    s.say(
        ME,
        f"The balcony garden exploded. I've picked {picked} tomatoes so far and I'm giving them to strangers.",
        harvest,
    )
    s.say(YOU, react(ctx.rng, "funny"))
    n = me.called(ctx.rng)
    s.ask(SINGLE, f"How many tomatoes has {n} picked from the balcony?", str(picked), harvest)
    s.ask(MULTI, f"How many tomatoes have {n}'s {plants} plants given so far?", str(picked), planted, harvest)
    yield s


ARCS: dict[str, Callable[[Person, Person], Arc]] = {
    "pet": pet,
    "job": job,
    "trip": trip,
    "hobby": hobby,
    "race": race,
    "move": move,
    "purchase": purchase,
    "concert": concert,
    "book": book,
    "family": family,
    "diet": diet,
    "volunteer": volunteer,
    "language": language,
    "paint": paint,
    "cook": cook,
    "project": project,
    "injury": injury,
    "visitor": visitor,
    "garden": garden,
}
