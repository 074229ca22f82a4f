"""The people, places and things of the long dev set (``make_devset.py``), all invented here.

Each conversation is between two friends; each friend has a life drawn from these pools (a job, a
city, family, a pet, hobbies), and what happens to them over the sessions is drawn from
``devset_events``. Names of bands, books, shops and projects are made up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

PAIRS = [
    # (name, short name, pronoun) for each friend of a conversation
    (("Marisol", "Mari", "she"), ("Kenji", "Ken", "he")),
    (("Hannah", "Han", "she"), ("Obinna", "Obi", "he")),
    (("Lucia", "Lu", "she"), ("Ravi", "Rav", "he")),
    (("Freya", "Frey", "she"), ("Mateo", "Teo", "he")),
    (("Zainab", "Zee", "she"), ("Connor", "Con", "he")),
    (("Ingrid", "Inge", "she"), ("Devraj", "Dev", "he")),
    (("Beatriz", "Bea", "she"), ("Tobias", "Tobi", "he")),
]

CITIES = [
    "Portland",
    "Denver",
    "Austin",
    "Chicago",
    "Seattle",
    "Boston",
    "Minneapolis",
    "Pittsburgh",
    "Tucson",
    "Raleigh",
    "Madison",
    "Sacramento",
    "Savannah",
    "Baltimore",
    "Cleveland",
    "Boise",
    "Albuquerque",
    "Richmond",
    "Milwaukee",
    "Spokane",
]
NEIGHBOURHOODS = [
    "Elm Park",
    "the Riverside district",
    "Hawthorne",
    "Old Mill",
    "Cedar Heights",
    "Northgate",
    "Brickyard",
    "Lakeview",
    "the East End",
    "Fairmount",
]
JOBS = [
    ("nurse", "St. Brigid's Hospital"),
    ("data analyst", "Kestrel Analytics"),
    ("high school chemistry teacher", "Lincoln High"),
    ("graphic designer", "Foxglove Studio"),
    ("pharmacist", "Greenway Pharmacy"),
    ("software developer", "Tidewater Labs"),
    ("physical therapist", "MoveWell Clinic"),
    ("accountant", "Barrow & Finch"),
    ("line cook", "Olive & Ash"),
    ("landscape architect", "Terra Verde"),
    ("librarian", "the county library"),
    ("sound engineer", "Blue Room Studios"),
    ("veterinary technician", "Paws & Claws Animal Hospital"),
    ("civil engineer", "Harlow Engineering"),
]
NEW_JOBS = [
    ("product manager", "Lumen Health"),
    ("senior analyst", "Northwind Logistics"),
    ("art director", "Paperplane Media"),
    ("clinic manager", "Juniper Care"),
    ("backend engineer", "Quarry Systems"),
    ("head chef", "The Copper Pot"),
    ("research assistant", "the university's ecology lab"),
    ("project lead", "Brightline Transit"),
]
PEOPLE = [
    "Jess",
    "Marcus",
    "Priscilla",
    "Owen",
    "Talia",
    "Femi",
    "Rosa",
    "Gideon",
    "Yuki",
    "Anders",
    "Leila",
    "Cormac",
    "Nadia",
    "Wes",
    "Imani",
    "Sven",
    "Paloma",
    "Arjun",
    "Greta",
    "Malik",
    "Esme",
    "Hugo",
    "Soraya",
    "Callum",
    "Delphine",
    "Rafael",
    "Nell",
    "Joaquin",
    "Saoirse",
    "Kwame",
]
SIBLINGS = ["sister", "brother"]
PETS = [
    ("dog", "corgi"),
    ("dog", "beagle"),
    ("dog", "border collie"),
    ("dog", "greyhound"),
    ("dog", "labradoodle"),
    ("cat", "tabby"),
    ("cat", "Maine Coon"),
    ("cat", "tuxedo cat"),
    ("rabbit", "Holland Lop"),
]
PET_NAMES = [
    "Waffles",
    "Pickle",
    "Juniper",
    "Biscotti",
    "Moose",
    "Clementine",
    "Ziggy",
    "Pepper",
    "Noodle",
    "Tofu",
    "Marzipan",
    "Bruno",
    "Olive",
    "Sprocket",
    "Maple",
    "Gus",
    "Fennel",
    "Ripley",
]
HOBBIES = [
    # (the hobby as a class, what one makes or does in it, a word people reuse for it)
    ("pottery class", "a lopsided mug", "pottery"),
    ("bouldering gym", "a V4 route", "bouldering"),
    ("salsa class", "a full routine without stepping on anyone", "salsa"),
    ("woodworking course", "a walnut cutting board", "woodworking"),
    ("watercolor workshop", "a painting of the harbor at dusk", "watercolor"),
    ("community choir", "a solo in the spring concert", "choir"),
    ("beekeeping course", "the first jar of honey", "beekeeping"),
    ("improv class", "a whole scene about a haunted vending machine", "improv"),
    ("sourdough baking class", "a loaf with a proper ear", "sourdough"),
    ("ceramics studio", "a set of four bowls", "ceramics"),
]
TRIPS = [
    ("Lisbon", "the pastel de nata at a tiny bakery"),
    ("Kyoto", "the moss garden at dawn"),
    ("Mexico City", "the tacos al pastor near the hostel"),
    ("Iceland", "the black sand beach"),
    ("Montreal", "the bagels at two in the morning"),
    ("Edinburgh", "the hike up Arthur's Seat"),
    ("Vancouver Island", "the whale watching boat"),
    ("Oaxaca", "the mole class"),
    ("Copenhagen", "biking everywhere"),
    ("Banff", "Lake Louise at sunrise"),
    ("New Orleans", "the brass band on Frenchmen Street"),
    ("Sicily", "the cannoli in Palermo"),
]
BANDS = [
    "The Velvet Orchards",
    "Paper Lanterns",
    "Moss & Marrow",
    "Static Bloom",
    "The Wandering Tides",
    "Copper Foxes",
    "Neon Harbor",
    "Saint Juniper",
    "The Quiet Engines",
    "Lowland Echo",
]
VENUES = ["the Crystal Ballroom", "the Fox Theater", "Riverfront Park", "the Bluebird", "the Armory"]
BOOKS = [
    ("The Salt Archive", "Mira Okafor", "mystery"),
    ("Hollow Pines", "Jonah Reyes", "thriller"),
    ("A Map of Small Fires", "Leona Hart", "literary novel"),
    ("The Glass Orchard", "Tamsin Vale", "fantasy"),
    ("Seven Winters", "Ilya Brandt", "memoir"),
    ("Under the Copper Moon", "Ada Lindqvist", "sci-fi"),
    ("The Cartographer's Daughter", "Rosalind Achebe", "historical novel"),
    ("Quiet Machines", "Felix Moreau", "essay collection"),
]
PURCHASES = [
    # (item, price range in dollars, where)
    ("a used Subaru Outback", (6500, 16000), "a guy on Craigslist"),
    ("a road bike", (450, 1800), "a shop downtown"),
    ("an espresso machine", (180, 900), "a warehouse sale"),
    ("a secondhand upright piano", (300, 2500), "a church that was closing"),
    ("a standing desk", (250, 700), "an office clearance"),
    ("a kayak", (400, 1200), "a neighbor who was moving"),
    ("a vintage record player", (120, 600), "a flea market"),
    ("a new laptop", (900, 2200), "the outlet store"),
]
DISHES = [
    "shakshuka",
    "mushroom risotto",
    "a lemon olive oil cake",
    "pozole",
    "pad see ew",
    "lamb tagine",
    "cheesy polenta with greens",
    "jollof rice",
    "butter chicken",
    "a plum galette",
]
PROJECTS = ["Project Lantern", "the Atlas migration", "Bluebird", "the Harbor redesign", "Falcon"]
COLORS = ["sage green", "terracotta", "deep navy", "butter yellow", "dusty pink", "charcoal"]
RACES = [("5K", 20, 38), ("10K", 45, 75), ("half marathon", 95, 150), ("marathon", 200, 320)]
SHELTERS = ["the animal shelter on Fifth", "the food bank", "the public library's reading program"]
LANGUAGES = [("Portuguese", "Duolingo"), ("Japanese", "a tutor"), ("Italian", "an evening class")]


@dataclass
class Person:
    """One friend of a conversation and the facts of their life so far."""

    name: str
    short: str
    pronoun: str
    city: str
    job: str
    employer: str
    sibling: str
    sibling_name: str
    friends: list[str]
    hobbies: list[tuple[str, str, str]]
    pet: tuple[str, str, str] | None = None
    facts: dict[str, object] = field(default_factory=dict)

    @property
    def poss(self) -> str:
        return {"she": "her", "he": "his"}[self.pronoun]

    @property
    def obj(self) -> str:
        return {"she": "her", "he": "him"}[self.pronoun]

    def called(self, rng: random.Random) -> str:
        """How a question names this person: mostly in full, sometimes by the short name."""
        return self.short if rng.random() < 0.12 else self.name


def people(pair: int, rng: random.Random) -> tuple[Person, Person]:
    """The two friends of conversation ``pair``, with lives that do not collide."""
    cities = rng.sample(CITIES, 2)
    jobs = rng.sample(JOBS, 2)
    friends = rng.sample(PEOPLE, 8)
    hobbies = rng.sample(HOBBIES, 4)
    out = []
    for i, (name, short, pronoun) in enumerate(PAIRS[pair]):
        out.append(
            Person(
                name=name,
                short=short,
                pronoun=pronoun,
                city=cities[i],
                job=jobs[i][0],
                employer=jobs[i][1],
                sibling=rng.choice(SIBLINGS),
                sibling_name=friends[i * 4],
                friends=friends[i * 4 + 1 : i * 4 + 4],
                hobbies=hobbies[i * 2 : i * 2 + 2],
            )
        )
    return out[0], out[1]
