"""Query pattern classification with the cues of the real patterns.yaml."""

import pytest

from brainq.config import load_config, parse_config
from brainq.errors import UsageError
from brainq.intent import classify


@pytest.fixture(scope="module")
def config():
    return load_config()


LOGISTICAL = [
    "Is Friday a half-day?",
    "Why was Thursday practice cancelled?",  # "why" opens no past event over a day's cues
    "Is practice cancelled today?",
    "What's the early dismissal time?",
    "Is the band concert cancelled?",
    "Is soccer canceled because of the rain?",
    "What time is pickup?",
    "Do the kids have school on Monday?",
    "Is there practice tomorrow?",
    "When is the field trip?",
    "Is the pool open this weekend?",
    "Did the game get moved?",
    "Is school closed tomorrow for snow?",
    "What should Harper bring to school on Thursday?",
    "Is the library open on Saturday?",
    "When does swim practice start?",
    "Is there a PTA meeting this week?",
    "Is tonight's recital still on?",
    "What time does the bus come on Wednesday?",
    "Has the dentist appointment been rescheduled?",
    "Is the book fair still happening?",
    "Where is the game on Saturday?",
    "What's the schedule for spring break?",
    "Is there early release next Wednesday?",
    "When is the first day of school?",
    "Was practice cancelled on Friday?",
]
ENTITY = [
    "What size is our HVAC filter?",
    "What's our WiFi password?",
    "When was Maggie's last vet visit?",
    "What's the model number of the dishwasher?",
    "How much is the water bill?",
    "Who is our dentist?",
    "What's the policy number for the car insurance?",
    "What is the account number for the electric company?",
    "What's the phone number of the plumber?",
    "What size tires does the minivan take?",
    "What model is the furnace?",
    "What's the garage door code?",
    "What's the serial number on the fridge?",
    "Who is our insurance agent?",
    "What's the license plate of the Honda?",
    "What's the password for the router?",
    "Which filter does the furnace take?",
    "What's Harper's shoe size?",
]
HISTORICAL = [
    "Who was Harper's teacher in 2023?",
    "What was the name of the roofer we used?",
    "When did we replace the water heater?",
    "Where did we stay in Maine?",
    "What did we pay for the fence?",
    "When did we first adopt Maggie?",
    "What was the first car we bought?",
    "How much did the roof cost in 2023?",
    "Which contractor did we hire for the kitchen remodel?",
    "Where did we go on vacation last summer?",
    "Who was the babysitter we had back in 2019?",
    "When did Harper get her braces?",
    "Who painted the house?",
    "What year did we buy the minivan?",
    "How long ago did we repave the driveway?",
    "Which plumber put in our hot water heater?",
    "Why did we take the dog to the vet in November?",
]
CASES = (
    [(q, "logistical") for q in LOGISTICAL]
    + [(q, "entity") for q in ENTITY]
    + [(q, "historical") for q in HISTORICAL]
)


@pytest.mark.parametrize("question, pattern", CASES)
def test_classify(config, question, pattern):
    intent = classify(question, config)
    assert intent.pattern == pattern, intent.reason
    assert intent.scores[pattern] > 0


@pytest.mark.parametrize(
    "question, pattern, reason",
    [
        # a past question with a year is historical though it names a size
        ("What size was the rug we bought in 2021?", "historical", "past-tense question"),
        ("How much did the roof cost in 2023?", "historical", "past-tense question"),
        # "when was ... last" asks for a thing's latest state, even with a year
        ("When was Maggie's last vet visit in 2025?", "entity", "latest state"),
        # ... but a "last" that names a time is that time: a past event in a named period
        ("When was spring break last year?", "historical", "past-tense question"),
        ("When was the school play last spring?", "historical", "past-tense question"),
        # a grade is no day of the month
        ("What is the 3rd grade supply list?", "entity", "no cue matched"),
        # a day in a present or future question leans logistical
        ("How much is the field trip on Friday?", "logistical", "a day in a present"),
        ("What's the WiFi password for the hotel this weekend?", "logistical", "a day in a present"),
        ("What's happening on 14 March?", "logistical", "a day in a present"),  # a date however written
        ("What's on the 3rd of April?", "logistical", "a day in a present"),
        ("Anything on 2026-03-14?", "logistical", "a day in a present"),
        ("practice on fri?", "logistical", "a day in a present"),
        # a present question about a thing bought long ago asks about it now
        ("What's the HVAC filter size we bought?", "entity", "how things are now"),
        ("How much is the fence we bought?", "entity", "how things are now"),
        # equal cues: the default pattern wins
        ("When is Maggie's next vet appointment?", "entity", "cues tied between logistical and entity"),
    ],
)
def test_overlap_rules(config, question, pattern, reason):
    intent = classify(question, config)
    assert intent.pattern == pattern
    assert reason in intent.reason


def test_reason_names_the_cue(config):
    intent = classify("Is practice cancelled?", config)
    assert intent.reason == 'cues matched: logistical "cancelled"'
    assert intent.scores == {"logistical": 1.0, "entity": 0.0, "historical": 0.0}


def test_no_cue_gives_the_default(config):
    intent = classify("Tell me about the roof", config)
    assert intent.pattern == config.default_pattern
    assert intent.reason == "no cue matched; default pattern"
    shaped = classify("When should we drop her off for the concert on the 30th?", config)
    assert shaped.pattern == "logistical" and shaped.reason == "no cue matched; a day in a present or future question asks what happens that day"


@pytest.mark.parametrize("override", ["historical", "Historical", "HISTORICAL"])
def test_override(config, override):
    intent = classify("Is Friday a half-day?", config, override=override)
    assert intent.pattern == "historical"
    assert intent.scores["logistical"] > 0


def test_unknown_override_names_the_valid_patterns(config):
    with pytest.raises(UsageError, match="logistical, entity, historical"):
        classify("Is Friday a half-day?", config, override="urgent")


def test_ties_in_other_configurations_go_to_the_first_listed():
    text = (
        "default_pattern: chores\n"
        "patterns:\n"
        "  chores: {description: x, cues: ['\\blaundry\\b'], decay: {model: none}, weights: {}}\n"
        "  school: {description: x, cues: ['\\bhomework\\b'], decay: {model: none}, weights: {}}\n"
        "  sports: {description: x, cues: ['\\bgame\\b'], decay: {model: none}, weights: {}}\n"
        "doc_types: {rules: [], default_by_kind: {}}\n"
        "synonyms: []\n"
        "timeline: [{name: ALL}]\n"
    )
    config = parse_config(text)
    assert classify("Homework before the game on Friday?", config).pattern == "school"
    assert classify("Laundry or homework?", config).pattern == "chores"
    assert classify("Is it raining?", config).pattern == "chores"


def test_question_shapes_favour_the_patterns_configured_for_them():
    """Tie rules follow patterns.yaml, not the patterns' names: a household's own patterns use them."""
    text = (
        "default_pattern: chores\n"
        "patterns:\n"
        "  chores: {description: x, cues: ['\\bmow'], decay: {model: none}, weights: {}}\n"
        "  diary: {description: x, cues: ['\\blawn\\b'], decay: {model: none}, weights: {},\n"
        "          prevails_when: [past_event], yields_in_present: true}\n"
        "doc_types: {rules: [], default_by_kind: {}}\n"
        "synonyms: []\n"
        "timeline: [{name: ALL}]\n"
    )
    config = parse_config(text)
    past = classify("When did we mow the lawn?", config)
    assert (past.pattern, "asks what happened" in past.reason) == ("diary", True)
    now = classify("Do we mow the lawn?", config)
    assert (now.pattern, "how things are now" in now.reason) == ("chores", True)
    assert classify("Will we mow the lawn on Friday?", config).pattern == "chores"  # no one prevails on a day


def test_every_question_shape_is_known_to_the_configuration():
    from brainq.config import QUESTION_SHAPES
    from brainq.intent import _SHAPES

    assert tuple(_SHAPES) == QUESTION_SHAPES
