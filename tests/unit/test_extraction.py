"""Unit tests for ``engram.extraction``: the noise filter and the rule-based extractor."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from engram.extraction import RuleExtractor, is_noise
from engram.models import ExtractedMemory, Message
from engram.ports import Extractor

# A Wednesday afternoon; every relative date below is computed from it by hand.
REFERENCE = datetime(2023, 5, 10, 14, 30, tzinfo=UTC)


def extract(
    *contents: str, role: str = "user", reference_time: datetime = REFERENCE
) -> list[ExtractedMemory]:
    """Run a fresh extractor over one message per content, all with the same role."""
    messages = [Message.model_validate({"role": role, "content": content}) for content in contents]
    return RuleExtractor().extract(messages, reference_time=reference_time)


def only(memories: list[ExtractedMemory]) -> ExtractedMemory:
    """The single memory of a result, failing clearly if there is not exactly one."""
    assert len(memories) == 1, memories
    return memories[0]


# --- noise ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "hi",
        "Hello there!",
        "good morning",
        "ok",
        "Thanks!",
        "got it",
        "sure",
        "Sounds good.",
        "cool",
        "lol",
        "Ok, thanks!",
        "I'm sorry, I can't help with that.",
        "As an AI language model, I cannot browse the internet.",
        "What did you just say?",
        "Can you repeat that?",
        "Are you there?",
        "Who are you?",
        "Hey, are you there?",
    ],
)
def test_chit_chat_boilerplate_and_meta_questions_are_noise(text: str) -> None:
    # Given a message that carries nothing about the user
    # When it is checked
    noisy = is_noise(text)

    # Then it is noise
    assert noisy is True


@pytest.mark.parametrize(
    "text",
    [
        "ok so my flight is on Tuesday",
        "Thanks, I moved to Berlin last month",
        "Sure, my name is Sam",
        "Hi, I'm allergic to peanuts",
        "As an AI researcher I work at DeepMind",
        "Sorry, I meant Berlin",
    ],
)
def test_content_that_merely_starts_like_chit_chat_is_not_noise(text: str) -> None:
    # Given a message that opens with a greeting or acknowledgement but carries content
    # When it is checked
    noisy = is_noise(text)

    # Then it is not noise
    assert noisy is False


def test_text_shorter_than_min_chars_after_stripping_is_noise() -> None:
    # Given a short word padded with whitespace
    text = "   Rome   "

    # When it is checked with a minimum longer than the word
    noisy = is_noise(text, min_chars=5)

    # Then it is noise, although the same word passes a lower minimum
    assert noisy is True
    assert is_noise(text, min_chars=4) is False


# --- categories -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "I prefer dark mode in every editor.",
        "I really love spicy Thai food.",
        "I can't stand tabs for indentation.",
        "My favourite programming language is Rust.",
        "I'd rather take the train than fly.",
        "Please always answer in French.",
    ],
)
def test_a_preference_sentence_becomes_a_preference_memory(sentence: str) -> None:
    # Given a user stating a like, dislike, habit or standing instruction
    # When it is extracted
    memory = only(extract(sentence))

    # Then it is a preference with the preference scores and the sentence as content
    assert memory.category == "preference"
    assert (memory.importance, memory.confidence) == (0.7, 0.8)
    assert memory.content == sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "My name is Sam Carter.",
        "I'm 34 years old.",
        "I am a software engineer.",
        "I work at Acme Corp as a designer.",
        "I live in Lisbon.",
        "My wife's name is Anna.",
        "I'm allergic to peanuts.",
        "I speak German and Portuguese.",
    ],
)
def test_a_profile_sentence_becomes_a_profile_memory(sentence: str) -> None:
    # Given a user stating who they are
    # When it is extracted
    memory = only(extract(sentence))

    # Then it is a profile fact with the profile scores
    assert memory.category == "profile"
    assert (memory.importance, memory.confidence) == (0.8, 0.85)


@pytest.mark.parametrize(
    "sentence",
    [
        "My flight to Rome leaves tomorrow.",
        "The conference is on 8 May 2023.",
        "We launch the beta on May 8th, 2023.",
        "The release was tagged 2023-05-08.",
        "I visited my parents 2 weeks ago.",
    ],
)
def test_a_sentence_with_a_date_becomes_an_event_memory(sentence: str) -> None:
    # Given a statement anchored in time
    # When it is extracted
    memory = only(extract(sentence))

    # Then it is an event with a resolved time
    assert memory.category == "event"
    assert memory.importance == 0.6
    assert memory.occurred_at is not None


@pytest.mark.parametrize(
    "sentence",
    [
        "I have two cats and a parrot.",
        "We are migrating to Postgres.",
        "Our deploy runs on Fridays.",
    ],
)
def test_a_first_person_statement_becomes_a_fact_memory(sentence: str) -> None:
    # Given a first-person statement that fits no more specific rule
    # When it is extracted
    memory = only(extract(sentence))

    # Then it is a plain fact with the fact scores and no date
    assert memory.category == "fact"
    assert (memory.importance, memory.confidence) == (0.5, 0.7)
    assert memory.occurred_at is None


@pytest.mark.parametrize(
    ("sentence", "tag"),
    [
        ("I can't stand tabs for indentation.", "dislikes"),
        ("I usually wake up at six.", "habit"),
        ("My wife's name is Anna.", "family"),
        ("My brother Tom, who lives abroad, is a pilot.", "family"),
        ("I live in Lisbon.", "location"),
        ("My flight to Rome leaves tomorrow.", "dated"),
    ],
)
def test_a_memory_is_tagged_with_the_kind_of_statement_it_is(sentence: str, tag: str) -> None:
    # Given a sentence matching one specific rule
    # When it is extracted
    memory = only(extract(sentence))

    # Then the rule's hint is its tag
    assert memory.tags == [tag]


@pytest.mark.parametrize("sentence", ["The sky is very blue.", "I love it.", "We did it."])
def test_impersonal_or_very_short_statements_produce_nothing(sentence: str) -> None:
    # Given a statement that is not first-person, or too short to stand on its own
    # When it is extracted
    memories = extract(sentence)

    # Then nothing is kept
    assert memories == []


# --- dates ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I had lunch with Tom yesterday.", datetime(2023, 5, 9, 14, 30, tzinfo=UTC)),
        ("The dentist appointment is next Tuesday.", datetime(2023, 5, 16, 14, 30, tzinfo=UTC)),
        ("The conference started on 8 May 2023.", datetime(2023, 5, 8, tzinfo=UTC)),
        ("Our team offsite starts in 3 days.", datetime(2023, 5, 13, 14, 30, tzinfo=UTC)),
        ("I visited my parents 2 weeks ago.", datetime(2023, 4, 26, 14, 30, tzinfo=UTC)),
        ("We signed the lease last month.", datetime(2023, 4, 10, 14, 30, tzinfo=UTC)),
        ("I went hiking on Saturday.", datetime(2023, 5, 6, 14, 30, tzinfo=UTC)),
        ("The invoice is due 2023-06-01.", datetime(2023, 6, 1, tzinfo=UTC)),
        ("We moved the office in March 2021.", datetime(2021, 3, 1, tzinfo=UTC)),
        ("I graduated from college in 2019.", datetime(2019, 1, 1, tzinfo=UTC)),
    ],
)
def test_a_date_expression_resolves_against_the_reference_time(sentence: str, expected: datetime) -> None:
    # Given a sentence with a relative or explicit date, and a fixed Wednesday reference time
    # When it is extracted
    memory = only(extract(sentence))

    # Then occurred_at is that day: at the reference's time of day for a relative date, at
    # midnight for a calendar date
    assert memory.occurred_at == expected


# 1 December, late morning: a day named without its year lies either way of it.
DECEMBER = datetime(2026, 12, 1, 10, 45, tzinfo=UTC)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Remember that I have a flight to Tokyo for 12 May.", datetime(2027, 5, 12, tzinfo=UTC)),
        ("My sister's wedding will be on 3 March.", datetime(2027, 3, 3, tzinfo=UTC)),
        ("The concert is on 20 December.", datetime(2026, 12, 20, tzinfo=UTC)),
        ("I visited Kyoto on 12 May.", datetime(2026, 5, 12, tzinfo=UTC)),
        ("We met on 20 December.", datetime(2025, 12, 20, tzinfo=UTC)),
    ],
)
def test_a_day_without_a_year_is_the_next_one_unless_the_statement_is_in_the_past(
    sentence: str, expected: datetime
) -> None:
    # Given a statement naming a day but no year, made on 1 December
    # When it is extracted
    memory = only(extract(sentence, reference_time=DECEMBER))

    # Then a plan or a date ahead is the next such day, a past-tense statement the last one
    assert memory.occurred_at == expected


def test_a_month_and_year_name_midnight_of_its_first_day_not_the_time_of_the_call() -> None:
    # Given a statement naming only a month and year, made at 10:45
    # When it is extracted
    memory = only(extract("Remember that my passport expires in March 2027.", reference_time=DECEMBER))

    # Then it is dated 1 March 2027 at midnight, no time of day copied from the call
    assert memory.occurred_at == datetime(2027, 3, 1, tzinfo=UTC)


def test_the_resolved_date_is_recorded_as_a_key_fact() -> None:
    # Given an event said the day after it happened
    # When it is extracted
    memory = only(extract("I had lunch with Tom yesterday."))

    # Then the ISO date is among the key facts
    assert memory.key_facts == ["date: 2023-05-09"]


def test_a_resolved_date_keeps_the_reference_timezone() -> None:
    # Given a reference time in UTC+02:00, late in the evening
    berlin = timezone(timedelta(hours=2))
    reference = datetime(2023, 5, 10, 23, 15, tzinfo=berlin)

    # When "tomorrow" is resolved against it
    memory = only(extract("My flight to Rome leaves tomorrow.", reference_time=reference))

    # Then it is the next calendar day in that timezone
    assert memory.occurred_at == datetime(2023, 5, 11, 23, 15, tzinfo=berlin)
    assert memory.key_facts == ["date: 2023-05-11"]


def test_a_date_that_does_not_exist_falls_back_to_the_reference_time() -> None:
    # Given a date expression naming an impossible day
    # When it is extracted
    memory = only(extract("The party is on 31 February 2023."))

    # Then it is still an event, dated at the reference time
    assert memory.category == "event"
    assert memory.occurred_at == REFERENCE


def test_a_profile_fact_with_a_date_carries_that_date() -> None:
    # Given a profile statement anchored in time
    # When it is extracted
    memory = only(extract("Thanks, I moved to Berlin last month."))

    # Then it stays a profile fact but records when it happened
    assert memory.category == "profile"
    assert memory.key_facts == ["date: 2023-04-10"]


# --- what is skipped --------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["assistant", "system", "tool"])
def test_messages_not_from_the_user_produce_nothing(role: str) -> None:
    # Given a non-user message full of extractable statements
    content = "Remember that I prefer tea. My name is Sam. I moved to Berlin yesterday."

    # When it is extracted
    memories = extract(content, role=role)

    # Then nothing is kept
    assert memories == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Do I prefer tea or coffee?",
        "What is my name?",
        "Is my flight tomorrow",
        "Where did we put the staging credentials?",
    ],
)
def test_questions_produce_nothing(sentence: str) -> None:
    # Given a question, with or without a question mark
    # When it is extracted
    memories = extract(sentence)

    # Then nothing is kept
    assert memories == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Can you book me a table for tomorrow.",
        "Help me write an email to my landlord.",
        "I don't know really.",
    ],
)
def test_requests_to_the_assistant_and_hedges_produce_nothing(sentence: str) -> None:
    # Given an instruction for this turn, or a hedge, rather than a statement about the user
    # When it is extracted
    memories = extract(sentence)

    # Then nothing is kept
    assert memories == []


def test_noise_sentences_inside_a_message_are_dropped() -> None:
    # Given a message mixing chit-chat with one real statement
    # When it is extracted
    memories = extract("Hi! Thanks! I moved to Berlin last month. Got it.")

    # Then only the statement is kept
    assert [m.content for m in memories] == ["I moved to Berlin last month."]


# --- explicit requests ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "Remember that my locker code is 4471.",
        "please remember my locker code is 4471",
        "Note that my locker code is 4471.",
        "Don't forget that my locker code is 4471.",
        "Can you remember that my locker code is 4471?",
    ],
)
def test_an_explicit_request_stores_its_payload_without_the_prefix(sentence: str) -> None:
    # Given an explicit request to remember something
    # When it is extracted
    memory = only(extract(sentence))

    # Then the content is the payload, capitalised, with the explicit scores and tag
    assert memory.content.rstrip(".") == "My locker code is 4471"
    assert (memory.importance, memory.confidence) == (0.9, 0.95)
    assert "explicit" in memory.tags


def test_an_explicit_request_beats_the_other_rules_and_reclassifies_its_payload() -> None:
    # Given an explicit request whose payload is itself a preference
    # When it is extracted
    memory = only(extract("Remember that I prefer window seats."))

    # Then the payload keeps its own category but the explicit importance
    assert memory.category == "preference"
    assert memory.content == "I prefer window seats."
    assert memory.importance == 0.9


def test_an_explicit_request_without_a_specific_category_is_a_fact() -> None:
    # Given an explicit request whose payload fits no category and is not first-person
    # When it is extracted
    memory = only(extract("Remember that the wifi password is hunter2."))

    # Then it is still kept, as a fact
    assert memory.category == "fact"
    assert memory.content == "The wifi password is hunter2."


def test_an_explicit_request_with_a_date_resolves_it() -> None:
    # Given an explicit request about a dated event
    # When it is extracted
    memory = only(extract("Don't forget that the board meeting is next Tuesday."))

    # Then the payload is an event on the following Tuesday
    assert memory.category == "event"
    assert memory.key_facts == ["date: 2023-05-16"]


# --- entities ---------------------------------------------------------------------------------


def test_entities_include_place_names_and_product_codes() -> None:
    # Given a sentence naming a city and a product code
    # When it is extracted
    memory = only(extract("My order E4711 is shipping from Berlin."))

    # Then both are entities
    assert memory.entities == ["E4711", "Berlin"]


def test_entities_keep_multi_word_names_whole() -> None:
    # Given a sentence with multi-word proper names
    # When it is extracted
    memory = only(extract("I work at Bank of America in New York City."))

    # Then each name is a single entity
    assert memory.entities == ["Bank of America", "New York City"]


def test_the_sentence_initial_word_weekdays_and_pronouns_are_not_entities() -> None:
    # Given a sentence whose only capitalised words are its first word, "I" and a weekday
    # When it is extracted
    memory = only(extract("Yesterday I said the demo is on Friday."))

    # Then there are no entities
    assert memory.entities == []


# --- shape of the result ----------------------------------------------------------------------


def test_every_result_validates_as_an_extracted_memory() -> None:
    # Given a conversation producing every category
    contents = [
        "Remember that I'm vegan.",
        "I prefer tea. I live in Lisbon. I went hiking on Saturday. We are migrating to Postgres.",
    ]

    # When it is extracted
    memories = extract(*contents)

    # Then each memory survives a round trip through model validation
    assert {m.category for m in memories} == {"profile", "preference", "event", "fact"}
    for memory in memories:
        assert ExtractedMemory.model_validate(memory.model_dump()) == memory


def test_each_memory_points_at_its_message_and_is_user_stated() -> None:
    # Given a user message after an assistant message
    messages = [
        Message(role="assistant", content="How can I help?"),
        Message(role="user", content="I live in Lisbon."),
    ]

    # When they are extracted
    memory = only(RuleExtractor().extract(messages, reference_time=REFERENCE))

    # Then the memory names the user message by index, with user trust and role
    assert memory.message_refs == [1]
    assert (memory.trust, memory.role) == ("user-stated", "user")


def test_abstract_is_one_short_line_and_overview_repeats_the_content() -> None:
    # Given a very long first-person sentence
    sentence = "We are migrating " + "the old billing service and " * 20 + "everything else to Postgres."

    # When it is extracted
    memory = only(extract(sentence))

    # Then the abstract is at most 120 characters on one line, and the overview is the content
    assert len(memory.abstract) <= 120
    assert "\n" not in memory.abstract
    assert memory.abstract.endswith("…")
    assert memory.overview == memory.content == sentence


def test_content_is_capped_at_two_thousand_characters() -> None:
    # Given a first-person sentence far longer than the cap
    sentence = "We keep " + "very " * 600 + "old logs."

    # When it is extracted
    memory = only(extract(sentence))

    # Then the content is cut to the cap
    assert len(memory.content) <= 2000


def test_identical_contents_within_one_call_are_kept_once_with_both_refs() -> None:
    # Given the same statement made twice, the second time as an explicit request
    # When it is extracted
    memory = only(extract("I'm vegan.", "Remember that I'm vegan."))

    # Then one memory remains, the stronger explicit one, naming both messages
    assert memory.message_refs == [0, 1]
    assert memory.importance == 0.9


def test_extraction_is_deterministic() -> None:
    # Given a mixed conversation
    content = "I prefer tea. I live in Lisbon. My order E4711 arrives next Tuesday. We use Postgres daily."

    # When it is extracted twice
    first, second = extract(content), extract(content)

    # Then both results are identical
    assert first == second


def test_the_rule_extractor_satisfies_the_extractor_port() -> None:
    # Given a rule extractor
    extractor = RuleExtractor()

    # When it is checked against the port
    # Then it conforms
    assert isinstance(extractor, Extractor)


def test_text_with_empty_lines_and_unusual_line_separators_splits_without_error() -> None:
    # Given text whose lines are separated by form feeds and file separators, some of them empty
    from engram.extraction.rules import _sentences

    text = "I like tea.\x1c\x1c\x0cI live in Porto. Really\n\n"
    # When it is split into sentences
    got = _sentences(text)
    # Then the empty lines are skipped and the sentences kept
    assert got == ["I like tea.", "I live in Porto.", "Really"]
