"""Small talk for the long dev set: greetings, check-ins, filler and goodbyes, the part of a chat
that answers no question and sits close to every question about its speakers."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import TypeVar

T = TypeVar("T")

Line = tuple[int, str]  # (speaker 0 or 1, text)

GAP_OPENERS = [
    "Hey {b}! It's been a minute.",
    "{b}!! Finally, I've been meaning to message you all week.",
    "Hi hi. Sorry I went quiet, life has been a lot.",
    "Morning! Are you around for a bit?",
    "Hey you. How's {bcity} treating you?",
    "Okay I have like twenty minutes before my next thing, catch me up.",
    "Hiii. Is it a bad time?",
    "Hey! I saw your message last night but was too tired to type anything coherent.",
    "{b}, hello, it's me, your favorite person.",
    "Are you alive? I feel like we haven't talked in forever.",
    "Knock knock. Got a minute for your favorite chaos goblin?",
    "Hello from the couch! I can't feel my legs, I've been sitting too long.",
    "Hi! Quick break between errands, what's going on with you?",
    "{b}! I just walked past that café we like and thought of you.",
    "Heyyy. It's raining and I'm bored, entertain me.",
    "Good evening! I finally have a quiet moment.",
    "Hey stranger. Remember me?",
    "Hi! I'm on the train so I might cut out.",
    "Hey {b}, you up? Not in a weird way.",
    "I owe you like three replies, I'm sorry! Hi!",
    "Happy {weekday}! Or whatever {weekday} is.",
    "Hey! I just got home and I'm eating chips for dinner. Talk to me.",
    "Helloooo. It feels like a month since we caught up.",
]
GAP_REPLIES = [
    "Hey! Not a bad time at all, I'm just making tea.",
    "Haha yes, I'm alive. Barely, but alive.",
    "Hi!! Perfect timing, I'm on my lunch break.",
    "Omg hi. I was literally about to text you.",
    "I'm here! Lying on the couch pretending to be productive.",
    "Hey hey. It's been a weird couple of weeks honestly.",
    "Always a good time for you. What's up?",
    "Hello hello. I'm waiting for the laundry to finish so I'm all yours.",
    "Hey! Good timing, I just finished a ridiculous day.",
    "You're fine! I owe you replies too.",
    "Hi! I'm in line at the pharmacy, so yes, I have time.",
    "Hey! I was just thinking about you.",
    "Oh hey! I'm walking home, talk to me.",
    "Hello! I just put the kettle on, so you have my full attention.",
    "Haha hi. I'm hiding from my to-do list.",
    "Hey! Give me one sec, I'm finishing a dish. Okay, go.",
    "Hi!! Yes please distract me, I'm supposed to be cleaning.",
    "Hey you! I'm on the balcony pretending it's summer.",
    "Ha, hi. It's been way too long.",
    "Hey, of course. I'm just scrolling anyway.",
]
HOW_ARE_YOU = [
    "How have you been?",
    "How's everything going?",
    "How was your week?",
    "What's new with you?",
    "How are you holding up?",
    "Tell me everything.",
    "How's life on your end?",
    "What have you been up to?",
    "Are you doing okay?",
    "How's the week treating you?",
    "Anything exciting happen?",
    "What's the latest?",
]
FINE = [
    "Pretty good, just busy. You know how it is.",
    "Honestly not bad! Tired, but the good kind.",
    "Up and down. Mostly up this week.",
    "Good! Weirdly good. I don't trust it.",
    "Surviving. The weather has been wild here.",
    "Busy but fine. I had way too much coffee today.",
    "I'm okay. Work has been eating my brain a little.",
    "Can't complain! Well, I can, but I won't.",
    "A little scattered, but okay.",
    "Really good actually, I went to bed early twice this week.",
    "Eh, a Monday kind of week, even on Thursday.",
    "I'm good! Sunburned, but good.",
    "Honestly great. I've been in a good mood for no reason.",
    "Tired. I've had three late nights in a row.",
    "Not bad. The usual chaos.",
    "Pretty calm, which is new for me.",
    "Stressed but managing.",
    "Good! I finally caught up on sleep.",
    "Busy, busy. But the good kind of busy.",
]
WEATHER = {
    "winter": [
        "It snowed again last night and the whole street is a skating rink.",
        "It's so cold here, I've been living in my big scarf.",
        "The heater in my building keeps clanking at 5am, it's like living inside a drum.",
        "I had to scrape ice off the car for twenty minutes this morning.",
        "It got dark at 4:30 today. Four thirty!",
        "I bought fuzzy socks and now I wear them to bed like a grandpa.",
        "Everyone at work has a cold, I'm hiding behind my scarf.",
    ],
    "spring": [
        "The cherry trees on my block are blooming and I keep stopping to take pictures.",
        "It's finally warm enough to open the windows. I forgot what fresh air was like.",
        "Allergy season is here and my eyes are so itchy.",
        "It rained all week, everything smells like worms.",
        "I saw the first ducklings at the pond today!",
        "It's jacket weather in the morning and t-shirt weather by lunch, I never know what to wear.",
        "My balcony is covered in pollen, it's yellow.",
    ],
    "summer": [
        "It's been so hot, I've basically been living on iced coffee and popsicles.",
        "We had a huge thunderstorm last night, the power flickered like three times.",
        "The farmers market is in full swing, I bought way too many peaches.",
        "My apartment has no AC and I'm melting.",
        "I went swimming in the lake last night, it was perfect.",
        "The ice cream truck goes by three times a day and I've given in twice.",
        "The fireflies are out in the park, it's magical.",
    ],
    "autumn": [
        "The leaves are turning here, everything is orange and it's gorgeous.",
        "It's sweater weather finally. I'm very happy about it.",
        "It gets dark so early now, I'm already in pajamas at six.",
        "I've already had four pumpkin spice things and I'm not stopping.",
        "It's so windy, my umbrella turned inside out.",
        "The apple orchard near my place is open, we should go sometime.",
        "I raked leaves for an hour and the tree immediately dropped more.",
    ],
}
SMALL_TALK = [
    [
        (0, "Have you watched anything good lately?"),
        (1, "I rewatched an old baking show all weekend, zero regrets."),
        (0, "Ha, comfort TV is the best TV."),
    ],
    [
        (0, "I made the mistake of reading the news before bed again."),
        (1, "Don't do that to yourself!"),
        (0, "I know, I know."),
    ],
    [
        (0, "I tried that new coffee place near my work."),
        (1, "And? Worth it?"),
        (0, "The coffee was fine, the pastries were incredible."),
    ],
    [
        (0, "My phone screen cracked again, I'm a disaster."),
        (1, "Noooo. Third time this year?"),
        (0, "Second! I'm improving."),
    ],
    [
        (0, "I slept like ten hours on Sunday."),
        (1, "That sounds amazing, I'm jealous."),
        (0, "I woke up so confused, I thought it was Monday."),
    ],
    [
        (0, "I've been trying to drink more water."),
        (1, "How's that going?"),
        (0, "I bought a giant bottle with motivational quotes on it. It yells at me."),
    ],
    [
        (0, "Did you see the game on Saturday?"),
        (1, "Only the second half, but wow."),
        (0, "I yelled at the TV so much my neighbor knocked."),
    ],
    [
        (0, "I cleaned out my closet finally."),
        (1, "Find anything good?"),
        (0, "A twenty dollar bill in an old coat pocket. Best day ever."),
    ],
    [(0, "I think I'm getting a cold."), (1, "Oh no, drink some tea and rest!"), (0, "Yes ma'am.")],
    [
        (0, "I got stuck in traffic for an hour yesterday."),
        (1, "Ugh, the worst."),
        (0, "I listened to an entire podcast about octopuses though, so."),
    ],
    [
        (0, "My neighbor's kid is learning the trumpet."),
        (1, "Oh no. How bad is it?"),
        (0, "He's getting better! Slowly. Very slowly."),
    ],
    [
        (0, "I ate cereal for dinner three nights in a row."),
        (1, "That's a lifestyle choice and I respect it."),
        (0, "Honestly it's been great."),
    ],
    [
        (0, "I started a puzzle, a thousand pieces of sky."),
        (1, "Why would you do that to yourself?"),
        (0, "I don't know! It's all blue!"),
    ],
    [
        (0, "Have you been sleeping okay?"),
        (1, "Not really, my brain won't shut off at night."),
        (0, "Same. I've been trying those sleep stories, they kind of work."),
    ],
    [
        (0, "I got a parking ticket. Four minutes late!"),
        (1, "The meter people are ruthless."),
        (0, "Like vultures."),
    ],
    [
        (0, "I've started saying good morning to the crows on my street."),
        (1, "Do they say it back?"),
        (0, "One of them nodded, I swear."),
    ],
    [
        (0, "I accidentally joined a work call with my camera on while eating soup."),
        (1, "Oh no. How much soup?"),
        (0, "A lot of soup."),
    ],
    [
        (0, "Do you ever just stand in the kitchen eating crackers and thinking?"),
        (1, "That's my whole evening routine."),
        (0, "Glad it's not just me."),
    ],
    [
        (0, "I downloaded one of those step counter apps."),
        (1, "And?"),
        (0, "It's judging me. 2,000 steps today."),
    ],
    [
        (0, "There's a new season of that dating show out."),
        (1, "Don't tell me, I'm two episodes in!"),
        (0, "My lips are sealed."),
    ],
    [
        (0, "I tried meditating this morning."),
        (1, "How long did you last?"),
        (0, "Four minutes. A personal best."),
    ],
    [
        (0, "My upstairs neighbors got a piano."),
        (1, "Are they any good?"),
        (0, "They know one song and it's the Jurassic Park theme."),
    ],
    [(0, "I finally fixed the wobbly chair."), (1, "With what?"), (0, "A folded-up receipt. Engineering.")],
    [(0, "I've been making my bed every morning."), (1, "Who are you?"), (0, "A new person, that's who.")],
    [
        (0, "I saw someone walking a cat on a leash today."),
        (1, "Was the cat into it?"),
        (0, "The cat looked furious."),
    ],
    [
        (0, "I signed up for a newsletter by accident and now I get ten emails a day."),
        (1, "Unsubscribe!"),
        (0, "I tried, it asked me why, I panicked."),
    ],
    [
        (0, "My plant is flowering for the first time."),
        (1, "The one you almost killed?"),
        (0, "That's the one. It forgave me."),
    ],
    [
        (0, "Do you think it's too early to start holiday shopping?"),
        (1, "It's never too early."),
        (0, "That's what I told myself at the store."),
    ],
    [(0, "I went to bed at nine last night."), (1, "Living the dream."), (0, "I woke up at four though.")],
    [
        (0, "I found my old diary from high school."),
        (1, "Please read me something."),
        (0, "Absolutely not. It's all about a boy band."),
    ],
    [
        (0, "The grocery store moved everything around again."),
        (1, "Why do they do that?"),
        (0, "To keep us humble, I think."),
    ],
    [
        (0, "I dropped my keys down the elevator gap."),
        (1, "Oh no!"),
        (0, "The building guy fished them out with a magnet."),
    ],
    [
        (0, "Have you tried the new pizza place?"),
        (1, "Not yet, is it good?"),
        (0, "The crust alone is worth it."),
    ],
]
REACT = {
    "good": [
        "That's amazing! I'm so happy for you.",
        "Wait, that's huge! Congrats!!",
        "I love that for you.",
        "Oh that's so exciting.",
        "Yay! You deserve this.",
        "That's awesome, seriously.",
        "Okay that made my day.",
        "Look at you go!",
    ],
    "bad": [
        "Oh no, I'm so sorry.",
        "Ugh, that sounds awful.",
        "That's rough, are you okay?",
        "Oof. Sending you a hug.",
        "No! That's the worst.",
        "Man, that's so frustrating.",
    ],
    "funny": [
        "Hahaha I'm crying.",
        "Stop, that's hilarious.",
        "Lol of course that happened.",
        "Hahaha classic.",
        "I can picture it perfectly.",
        "That's the funniest thing I've heard all week.",
    ],
    "neutral": [
        "Oh interesting.",
        "Huh, I didn't know that.",
        "Makes sense.",
        "Oh nice.",
        "Ooh, okay.",
        "Fair enough.",
        "Right, right.",
    ],
}
ACKS = [
    "Totally.",
    "Yeah, exactly.",
    "Haha yes.",
    "Mm-hm.",
    "For sure.",
    "100%.",
    "Ha, true.",
    "Right?",
]
CLOSERS = [
    [(0, "Okay I have to run, but this was so nice."), (1, "Same! Talk soon?"), (0, "Definitely. Bye!")],
    [(0, "Ah, I need to go make dinner."), (1, "Go go. Say hi to everyone for me.")],
    [(0, "My battery's about to die, talk later!"), (1, "Bye! Charge your phone, you goblin.")],
    [(0, "I should probably sleep."), (1, "Yes, go to bed. Good night!"), (0, "Night!")],
    [(0, "Okay, meeting time. Ugh."), (1, "Good luck! Text me after.")],
    [(0, "Let's not wait so long next time."), (1, "Deal. Love you, bye!")],
    [(0, "Thanks for listening to me ramble."), (1, "Always. That's what I'm here for.")],
    [(0, "Okay, the pasta water is boiling over, gotta go!"), (1, "Go save dinner!")],
    [(0, "I'm at my stop, talk later?"), (1, "Yes! Get home safe.")],
    [(0, "Alright, I'm going to attempt to be productive."), (1, "Good luck with that. Bye!")],
    [(0, "My eyes are closing, good night!"), (1, "Sleep well!")],
    [(0, "Gotta run, the landlord's here."), (1, "Ooh, good luck. Bye!")],
    [(0, "Okay, I'll let you go. Miss you!"), (1, "Miss you more. Talk soon!")],
    [(0, "Time to walk the long way home. Bye!"), (1, "Enjoy! Bye!")],
    [(0, "I have a call in five, but let's catch up again soon."), (1, "Definitely. Good luck on the call!")],
    [(0, "Okay, I'm being summoned for dinner."), (1, "Go! Eat well.")],
    [(0, "Alright, back to the grind."), (1, "Same. Ugh. Bye!")],
    [(0, "Talk this weekend?"), (1, "Yes please. Saturday?"), (0, "Saturday!")],
    [(0, "I need to go, but this made my day."), (1, "Mine too. Bye!")],
    [(0, "Okay, shower, then bed. Night!"), (1, "Night night!")],
    [(0, "Let me go before I fall asleep on the couch."), (1, "Ha, go to bed properly!")],
    [(0, "Gotta go feed the chaos. Bye!"), (1, "Bye! Good luck.")],
]


def season(when: datetime) -> str:
    return {
        12: "winter",
        1: "winter",
        2: "winter",
        3: "spring",
        4: "spring",
        5: "spring",
        6: "summer",
        7: "summer",
        8: "summer",
    }.get(when.month, "autumn")


class Deck:
    """Draws from each pool without repeating itself until the pool is used up (per conversation)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.left: dict[str, list[int]] = {}

    def draw(self, name: str, pool: Sequence[T]) -> T:
        left = self.left.get(name)
        if not left:
            left = self.left[name] = self.rng.sample(range(len(pool)), len(pool))
        return pool[left.pop()]


def opener(deck: Deck, names: tuple[str, str], cities: tuple[str, str], when: datetime) -> list[Line]:
    """How a session starts: a greeting, a reply, a check-in, sometimes the weather."""
    rng = deck.rng
    a = rng.randrange(2)
    b = 1 - a
    hello = deck.draw("hello", GAP_OPENERS).format(b=names[b], bcity=cities[b], weekday=f"{when:%A}")
    lines: list[Line] = [(a, hello), (b, deck.draw("reply", GAP_REPLIES))]
    if rng.random() < 0.8:
        lines += [(b, deck.draw("how", HOW_ARE_YOU)), (a, deck.draw("fine", FINE))]
    if rng.random() < 0.45:
        lines += [
            (a, deck.draw(season(when), WEATHER[season(when)])),
            (b, rng.choice(REACT["neutral"] + ACKS)),
        ]
    return lines


def filler(deck: Deck) -> list[Line]:
    """A short exchange about nothing in particular, with either friend starting it."""
    first = deck.rng.randrange(2)
    return [((who + first) % 2, text) for who, text in deck.draw("small", SMALL_TALK)]


def closer(deck: Deck) -> list[Line]:
    first = deck.rng.randrange(2)
    return [((who + first) % 2, text) for who, text in deck.draw("bye", CLOSERS)]


def react(rng: random.Random, mood: str) -> str:
    return rng.choice(REACT[mood])


def ack(rng: random.Random) -> str:
    return rng.choice(ACKS)


OPENINGS = [
    "Okay so, ",
    "Honestly, ",
    "Oh man, ",
    "So, funny story, ",
    "Not gonna lie, ",
    "Ugh, okay, ",
    "You know what, ",
    "Haha okay, ",
]
COMMON_STARTS = {
    "We",
    "The",
    "My",
    "So",
    "Big",
    "Guess",
    "New",
    "Random",
    "Confession",
    "Change",
    "Meet",
    "First",
    "Work",
    "Someone",
    "There's",
    "They",
    "Our",
    "In",
    "A",
    "Physio",
    "Last",
    "Yesterday",
}
SELF_TAILS = [
    "It's been a lot, but a good lot.",
    "I'm still kind of processing it honestly.",
    "Life is so random sometimes.",
    "Anyway, how are things with you?",
    "I feel like I've grown so much this year.",
    "It really made me appreciate the little things.",
    "I've been so grateful for moments like that lately.",
    "Sorry, I'm rambling.",
    "I keep thinking about it.",
    "It felt like a sign, you know?",
    "I'll tell you the whole story when we see each other.",
    "It's the little things, right?",
    "I didn't expect to feel so emotional about it.",
    "Which, you know me, is very on brand.",
    "I'm trying to be better about enjoying stuff like that.",
    "My therapist would be proud.",
    "Honestly it's been one of those weeks where everything happens at once.",
    "I've been trying to slow down and notice things more.",
    "It reminded me of when we were in college.",
    "I was smiling about it all day.",
    "Work has been busy, so it was nice to have something else to think about.",
    "I'm learning to just go with it.",
    "It's funny how things work out.",
    "I really needed that, to be honest.",
    "I've been sleeping badly, but that helped.",
]
FRIEND_TAILS = [
    "I'm so proud of you, by the way.",
    "You always find the silver lining.",
    "That must have meant a lot to you.",
    "Tell me more when you can!",
    "You deserve all the good things.",
    "This is why I love talking to you.",
    "How have you been feeling about it?",
    "We should do something like that together soon.",
    "Honestly you inspire me.",
    "I love hearing about this stuff.",
]


def chatter(rng: random.Random, text: str, rate: float, *, friend: bool = False) -> str:
    """``text`` as people type it: sometimes with a run-up, sometimes trailing off into feelings
    (one's own, or the friend's support). Questions are left as they are."""
    if text.rstrip().endswith("?"):
        return text
    first = text.split(" ", 1)[0]
    if not friend and rng.random() < rate * 0.3 and first in COMMON_STARTS:
        text = rng.choice(OPENINGS) + text[0].lower() + text[1:]
    tails = FRIEND_TAILS if friend else SELF_TAILS
    if rng.random() < rate:
        text = f"{text} {rng.choice(tails)}"
        if rng.random() < rate * 0.5:
            text = f"{text} {rng.choice(tails)}"
    return text


# Mentions of something told in an earlier session that answer no question: (speaker, line)
# exchanges where 0 is the person it happened to. Formatted with that event's own words.
CALLBACKS: dict[str, list[list[tuple[int, str]]]] = {
    "pet": [
        [(1, "How's {name} doing?"), (0, "Chaotic as always. Thanks for asking.")],
        [(1, "Is {name} still being a menace?"), (0, "Always. It's a full-time job.")],
        [(0, "{name} just knocked a glass off the table while looking me in the eye.")],
        [(1, "Give {name} a treat from me."), (0, "{name} says thank you. Loudly.")],
        [(0, "{name} has decided the bathtub is their bedroom now. I've stopped asking why.")],
        [
            (1, "I saw a {breed} at the park and thought of {name}!"),
            (0, "Was it as cute as {name}? Impossible."),
        ],
    ],
    "trip": [
        [(0, "I still think about {place} every day."), (1, "We need a group trip.")],
        [(1, "Have you printed any of the {place} photos?"), (0, "Not yet! They're all still on my phone.")],
        [(0, "I found sand from {place} in my suitcase yesterday, ha.")],
        [(1, "Would you go back to {place}?"), (0, "In a heartbeat. Next time for longer.")],
    ],
    "job": [
        [(1, "Still liking {company}?"), (0, "So far so good! Ask me again in a month.")],
        [(0, "{company} had a fire drill today and I left my coffee inside. Tragic.")],
        [(1, "Do you miss your old job at all?"), (0, "Not even a little. Okay, maybe the snacks.")],
        [(0, "The people at {company} are starting to feel like friends, which is nice.")],
    ],
    "race": [
        [(1, "Any more races coming up?"), (0, "Maybe! My knees say no, my heart says yes.")],
        [(0, "I still have my medal from the {distance} hanging on the door.")],
        [(1, "Are you still running?"), (0, "A little. Mostly on weekends now.")],
    ],
    "hobby": [
        [(1, "Still doing {word}?"), (0, "Every week. It's my therapy.")],
        [(1, "How's {word} going these days?"), (0, "Slowly getting less terrible at it!")],
        [(0, "I've been watching {word} videos online at 1am. It's a problem.")],
        [
            (1, "Did you ever show your {word} stuff to your family?"),
            (0, "My mom framed something. I'm mortified."),
        ],
    ],
    "concert": [
        [(0, "I've had {band} stuck in my head all week."), (1, "Same, honestly.")],
        [(1, "Are {band} touring again?"), (0, "Next spring, I think. I'm already saving.")],
        [(0, "I bought a {band} shirt at the merch table and I wear it constantly.")],
    ],
    "book": [
        [(1, "I started {title} because of you."), (0, "Yes!! Tell me when you hit the twist.")],
        [(0, "I keep recommending {title} to everyone at work.")],
        [(1, "Did you ever read anything else by that author?"), (0, "Not yet, it's on my list.")],
    ],
    "move": [
        [(0, "Still unpacking boxes, by the way."), (1, "That's forever. You live there now.")],
        [
            (1, "Are you settled into {hood}?"),
            (0, "Mostly! I found a coffee place I like, so that's home now."),
        ],
        [(0, "My new neighbors in {hood} left cookies on my doorstep. I might cry.")],
    ],
    "purchase": [
        [(0, "The {item} is still the best thing I own."), (1, "Love a purchase that holds up.")],
        [(1, "Still happy with the {item}?"), (0, "Weirdly yes. I use it every day.")],
    ],
    "volunteer": [
        [(0, "Another good morning at {place} today."), (1, "Love that.")],
        [(1, "Are you still going to {place}?"), (0, "Every week. The regulars know my name now.")],
    ],
}
