"""Time in a question, resolved against a fixed as_of."""

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brainq.timeref import TimeRef, is_past_tense, resolve

WED = date(2026, 3, 11)  # as_of of most cases: Wednesday, March 11, 2026
FRI = date(2026, 3, 13)
SUN = date(2026, 3, 15)
JAN_3 = date(2026, 1, 3)  # a Saturday, just after New Year


@pytest.mark.parametrize(
    "question, as_of, day",
    [
        ("Is Friday a half-day?", WED, FRI),
        ("Is Friday a half-day?", FRI, FRI),  # as_of itself a Friday
        ("Is Friday a half-day?", date(2026, 3, 14), date(2026, 3, 20)),
        ("Was Friday a half-day?", FRI, date(2026, 3, 6)),
        ("Was Friday a half-day?", SUN, FRI),
        ("Did the game get moved on Friday?", WED, date(2026, 3, 6)),
        ("Do the kids have school on Monday?", SUN, date(2026, 3, 16)),  # Sunday asking Monday
        ("Was there school on Monday?", SUN, date(2026, 3, 9)),
        ("Is there practice tomorrow?", WED, date(2026, 3, 12)),
        ("Is practice cancelled today?", WED, WED),
        ("Is the recital tonight?", WED, WED),
        ("is practice tmrw", WED, date(2026, 3, 12)),  # as typed
        ("Is there practice tommorow?", WED, date(2026, 3, 12)),
        ("What happened yesterday?", WED, date(2026, 3, 10)),
        ("What about the day after tomorrow?", WED, FRI),
        ("Is there a game next Friday?", WED, date(2026, 3, 20)),
        ("Is there a game next Friday?", date(2026, 3, 14), date(2026, 3, 20)),
        ("Was the game last Friday?", WED, date(2026, 3, 6)),
        ("Is the game this Friday?", WED, FRI),
        ("Is March 13 a half day?", WED, FRI),
        ("Was March 13 a half day?", WED, date(2025, 3, 13)),
        ("Was March 11 a half day?", WED, WED),
        ("Is Friday, March 13 a half day?", WED, FRI),
        ("Is 3/13 a half day?", WED, FRI),
        ("Was 3/13/2025 a half day?", WED, date(2025, 3, 13)),
        ("What happened on March 13?", WED, date(2025, 3, 13)),
        ("Is the 13th a half day?", WED, FRI),
        ("Is the 5th a half day?", WED, date(2026, 4, 5)),  # past this month: next month's
        ("Is the 31st a half day?", date(2026, 4, 2), date(2026, 5, 31)),  # April has no 31st
        ("Was the 10th a half day?", WED, date(2026, 3, 10)),
        ("Was the 20th a half day?", WED, date(2026, 2, 20)),
        ("Is January 2 a school day?", date(2025, 12, 28), date(2026, 1, 2)),
        # A printed date is the day meant, even after a day word.
        ("What did Joanna finish last Friday on 23 January, 2022?", WED, date(2022, 1, 23)),
        ("What did the plumber say yesterday about the work on March 2?", WED, date(2026, 3, 2)),
        ("What happened 3 days ago?", WED, date(2026, 3, 8)),
        ("Is there a game 3 days from now?", WED, date(2026, 3, 14)),
        ("What's happening ten days from now?", WED, date(2026, 3, 21)),
        # "the week before March 2" counts back from that day: no open range
        ("What did John do the week before March 2?", WED, date(2026, 3, 2)),
        # the clause after "whether" holds what is asked, and its tense
        ("Did the principal say whether Friday is a half-day?", WED, FRI),
        ("Did they say if Friday was a half-day?", WED, date(2026, 3, 6)),
        ("Does anyone know if Friday is a half-day?", WED, FRI),
        # "if" alone is a condition: the question's own tense holds
        ("What's on Friday if the game was moved?", WED, FRI),
        ("What did the school send on Friday, if anything?", WED, date(2026, 3, 6)),
        # the past of a verb of saying is the saying's: a day said of is the nearest such day
        ("What did the coach say about Thursday?", WED, date(2026, 3, 12)),
        ("What did the coach say about Thursday?", FRI, date(2026, 3, 12)),
        ("Did the school email anything about Friday?", date(2026, 3, 16), FRI),
        ("What did the coach say on Friday?", WED, date(2026, 3, 6)),  # the saying's day
        ("Did we email the landlord on Tuesday?", date(2026, 3, 14), date(2026, 3, 10)),
        ("What did the teacher tell us at pickup on Friday about the trip?", date(2026, 3, 17), FRI),
        # a name or a number in -ed is no past verb; a capitalised verb is, at the start of a
        # sentence or in a question written in capitals or title case
        ("Jared's game on Friday?", WED, FRI),
        ("Hundred dollar deposit due Friday?", WED, FRI),
        ("Soccer on Friday. Rained out?", WED, date(2026, 3, 6)),
        # a plan's state, its auxiliary left out, is no past verb, unless a question word is its subject
        ("Soccer on Friday. Cancelled?", WED, FRI),
        ("practice cancelled fri?", WED, FRI),
        ("game rescheduled to sunday", WED, SUN),
        ("Who cancelled practice on Friday?", WED, date(2026, 3, 6)),
        ("Leo played soccer saturday?", WED, date(2026, 3, 7)),
        # abbreviations that are no other word
        ("is practice on thurs", WED, date(2026, 3, 12)),
        ("Tues pickup time?", WED, date(2026, 3, 17)),
        ("Is the sale on Sat?", WED, None),
        ("Is the recital the Friday after next?", WED, date(2026, 3, 27)),
        ("What's on Tuesday after next?", WED, date(2026, 3, 24)),
        # a weekday of a week named: not the coming one, nor today
        ("What's on Friday next week?", WED, date(2026, 3, 20)),
        ("What is on Wednesday next week?", WED, date(2026, 3, 18)),
        ("Is there practice on Monday of next week?", FRI, date(2026, 3, 16)),
        ("What happened on Friday last week?", WED, date(2026, 3, 6)),
        # a weekday and its date: the date, that is that weekday
        ("What's on Tuesday the 17th?", WED, date(2026, 3, 17)),
        ("Is Thursday, the 2nd a half day?", WED, date(2026, 4, 2)),
        ("Was Tuesday the 3rd a half day?", WED, date(2026, 3, 3)),
        ("Is Monday the 1st day of school?", WED, date(2026, 3, 16)),  # a count: the weekday alone
        ("Is Saturday the 2nd game of the season?", WED, date(2026, 3, 14)),
        ("Is the recital a week from Friday?", WED, date(2026, 3, 20)),
        ("WHO PAINTED THE FENCE ON FRIDAY?", WED, date(2026, 3, 6)),
        ("Who Called on Friday?", WED, date(2026, 3, 6)),
    ],
)
def test_days(question, as_of, day):
    ref = resolve(question, as_of)
    assert ref.day == day and ref.range is None


@pytest.mark.parametrize(
    "question, as_of, start, end",
    [
        ("Who was Harper's teacher in 2023?", WED, date(2023, 1, 1), date(2023, 12, 31)),
        ("What did we buy during 2023?", WED, date(2023, 1, 1), date(2023, 12, 31)),
        ("What did the roof cost last year?", WED, date(2025, 1, 1), date(2025, 12, 31)),
        ("What have we paid this year?", WED, date(2026, 1, 1), date(2026, 12, 31)),
        ("Where did we go last spring?", WED, date(2025, 3, 1), date(2025, 5, 31)),
        # the spring under way is not over yet; the one that just ended is
        ("Where did we go last spring?", date(2026, 4, 10), date(2025, 3, 1), date(2025, 5, 31)),
        ("Where did we go last spring?", date(2026, 6, 1), date(2026, 3, 1), date(2026, 5, 31)),
        ("What did we plant this spring?", date(2026, 6, 10), date(2026, 3, 1), date(2026, 5, 31)),
        ("Where are we going this summer?", WED, date(2026, 6, 1), date(2026, 8, 31)),
        ("Is the furnace serviced this winter?", date(2026, 10, 1), date(2026, 12, 1), date(2027, 2, 28)),
        ("What broke last fall?", WED, date(2025, 9, 1), date(2025, 11, 30)),
        ("What broke last autumn?", WED, date(2025, 9, 1), date(2025, 11, 30)),
        ("Where did we go in the summer of 2023?", WED, date(2023, 6, 1), date(2023, 8, 31)),
        ("What did we do in June?", WED, date(2025, 6, 1), date(2025, 6, 30)),
        ("Is there a concert in June?", WED, date(2026, 6, 1), date(2026, 6, 30)),
        ("What did we do in March?", WED, date(2026, 3, 1), date(2026, 3, 31)),
        ("What did we do in June 2024?", WED, date(2024, 6, 1), date(2024, 6, 30)),
        ("What was paid between March and May?", WED, date(2026, 3, 1), date(2026, 5, 31)),
        ("What was paid between March and May?", date(2026, 2, 1), date(2025, 3, 1), date(2025, 5, 31)),
        ("What was paid from November to February?", WED, date(2025, 11, 1), date(2026, 2, 28)),
        ("Paid between March and May 2024?", WED, date(2024, 3, 1), date(2024, 5, 31)),
        ("Paid between March 2023 and May 2024?", WED, date(2023, 3, 1), date(2024, 5, 31)),
        ("What size filter did the furnace take back in 2024?", WED, date(2024, 1, 1), date(2024, 12, 31)),
        ("What came last week?", WED, date(2026, 3, 2), date(2026, 3, 8)),
        ("What came last week?", SUN, date(2026, 3, 2), date(2026, 3, 8)),
        ("What is due this week?", WED, date(2026, 3, 9), date(2026, 3, 15)),
        ("What is due next week?", SUN, date(2026, 3, 16), date(2026, 3, 22)),
        ("Is the pool open this weekend?", WED, date(2026, 3, 14), SUN),
        ("What came last month?", WED, date(2026, 2, 1), date(2026, 2, 28)),
        ("What is due this month?", WED, date(2026, 3, 1), date(2026, 3, 31)),
        ("Who is Harper's teacher this school year?", WED, date(2025, 8, 15), date(2026, 6, 30)),
        ("Who is Harper's teacher this school year?", date(2026, 8, 20), date(2026, 8, 15), date(2027, 6, 30)),
        # in the summer break, "this school year" is the one just ended
        ("Who was Harper's teacher this school year?", date(2026, 7, 10), date(2025, 8, 15), date(2026, 6, 30)),
        ("Who was Harper's teacher last school year?", WED, date(2024, 8, 15), date(2025, 6, 30)),
        ("Who was the teacher in the 2023-2024 school year?", WED, date(2023, 8, 15), date(2024, 6, 30)),
        ("Who was the teacher in school year 2023-24?", WED, date(2023, 8, 15), date(2024, 6, 30)),
        # a question about school counts its years as school years
        ("Who was Sam's teacher last year?", WED, date(2024, 8, 15), date(2025, 6, 30)),
        ("What time did school let out on half days last year?", WED, date(2024, 8, 15), date(2025, 6, 30)),
        ("Who is Sam's 2nd grade teacher this year?", date(2026, 9, 2), date(2026, 8, 15), date(2027, 6, 30)),
        # in the summer break, the school year just ended
        ("Who was her teacher last year?", date(2026, 7, 20), date(2025, 8, 15), date(2026, 6, 30)),
        ("Which teacher will she have next year?", WED, date(2026, 8, 15), date(2027, 6, 30)),
        # a class or a principal is not school's: the calendar year
        ("What did the yoga class cost last year?", WED, date(2025, 1, 1), date(2025, 12, 31)),
        ("How much principal did we pay off last year?", WED, date(2025, 1, 1), date(2025, 12, 31)),
        ("What grade of oil did the mower take last year?", WED, date(2025, 1, 1), date(2025, 12, 31)),
        # year boundaries: as_of just after New Year
        ("What did we do last December?", JAN_3, date(2025, 12, 1), date(2025, 12, 31)),
        ("What did we do in December?", JAN_3, date(2025, 12, 1), date(2025, 12, 31)),
        ("Is there a concert in December?", JAN_3, date(2026, 12, 1), date(2026, 12, 31)),
        ("How cold was it last winter?", JAN_3, date(2024, 12, 1), date(2025, 2, 28)),
        ("How cold is it this winter?", JAN_3, date(2025, 12, 1), date(2026, 2, 28)),
        # "this" season, not under way, is the one the tense picks
        ("Where are we going this summer?", date(2026, 1, 15), date(2026, 6, 1), date(2026, 8, 31)),
        ("When does swim start this fall?", date(2026, 3, 9), date(2026, 9, 1), date(2026, 11, 30)),
        ("What did we do this summer?", date(2026, 10, 5), date(2026, 6, 1), date(2026, 8, 31)),
        ("What did we do this past summer?", date(2026, 10, 5), date(2026, 6, 1), date(2026, 8, 31)),
        ("What did the kids do over the summer?", date(2026, 10, 5), date(2026, 6, 1), date(2026, 8, 31)),
        # a week, weekend, month or year counted from this one
        ("What happened the week before last?", WED, date(2026, 2, 23), date(2026, 3, 1)),
        # weeks or months from now: the week or the month that far off, as loosely as it is said
        ("What's on two weeks from now?", WED, date(2026, 3, 23), date(2026, 3, 29)),
        ("What is due a month from today?", WED, date(2026, 4, 1), date(2026, 4, 30)),
        ("What did we pay the month before last?", WED, date(2026, 1, 1), date(2026, 1, 31)),
        ("Is the tournament the weekend after next?", WED, date(2026, 3, 28), date(2026, 3, 29)),
        ("What did we do this past weekend?", WED, date(2026, 3, 7), date(2026, 3, 8)),
        ("What did we do over the weekend?", WED, date(2026, 3, 7), date(2026, 3, 8)),
        ("What did we do over the weekend?", SUN, date(2026, 3, 14), SUN),
        ("What are we doing over the weekend?", WED, date(2026, 3, 14), SUN),
        ("What's on this week?", SUN, date(2026, 3, 16), date(2026, 3, 22)),  # asked on a Sunday: the coming one
        ("What did we pay this week?", SUN, date(2026, 3, 9), SUN),
        ("What came last month?", JAN_3, date(2025, 12, 1), date(2025, 12, 31)),
        ("What came last year?", JAN_3, date(2025, 1, 1), date(2025, 12, 31)),
        ("What came last week?", JAN_3, date(2025, 12, 22), date(2025, 12, 28)),
        # parts of a month and of a year
        ("What did we do in early March?", WED, date(2026, 3, 1), date(2026, 3, 10)),
        ("Is the recital in mid-June?", WED, date(2026, 6, 11), date(2026, 6, 20)),
        ("What happened at the end of February?", WED, date(2026, 2, 21), date(2026, 2, 28)),
        ("Who won in the beginning of November 2022?", WED, date(2022, 11, 1), date(2022, 11, 10)),
        ("Where was Tim in the second week of November?", WED, date(2025, 11, 8), date(2025, 11, 14)),
        ("What happened in the last week of June 2023?", WED, date(2023, 6, 24), date(2023, 6, 30)),
        ("What did she do in late 2022?", WED, date(2022, 9, 1), date(2022, 12, 31)),
        # counts back from as_of
        ("What happened in the past month?", WED, date(2026, 2, 11), WED),
        ("What did we spend over the last 3 years?", WED, date(2023, 3, 11), WED),
        ("Who called in the past few weeks?", WED, date(2026, 2, 18), WED),
        # open ranges
        ("What did we pay since January?", WED, date(2026, 1, 1), WED),
        ("What did we pay after June?", WED, date(2025, 7, 1), WED),
        ("What did we pay before 2020?", WED, date.min, date(2019, 12, 31)),
        ("Is anything due before June?", WED, WED, date(2026, 5, 31)),
        ("Which bills are from before March?", WED, date.min, date(2026, 2, 28)),
        ("What was paid before the end of 2022?", WED, date.min, date(2022, 12, 31)),
        ("What did we pay since early March?", WED, date(2026, 3, 1), WED),
        ("What did we pay since last June?", WED, date(2025, 6, 1), WED),
        ("What did we get since March 3?", WED, date(2026, 3, 3), WED),
        # a part of a month is the occurrence of the part that the tense picks
        ("What did we do in late August?", date(2026, 8, 15), date(2025, 8, 21), date(2025, 8, 31)),
        ("Is there school the first week of March?", date(2026, 3, 20), date(2027, 3, 1), date(2027, 3, 7)),
    ],
)
def test_ranges(question, as_of, start, end):
    ref = resolve(question, as_of)
    assert ref.range == (start, end) and ref.day is None


@pytest.mark.parametrize(
    "question, order",
    [
        ("When did we first adopt Maggie?", "asc"),
        ("What was the earliest quote for the roof?", "asc"),
        ("Who did we originally hire?", "asc"),
        ("What was the first car we bought?", "asc"),
        ("When was Maggie's last vet visit?", "desc"),
        ("When did we last replace the filter?", "desc"),
        ("What was the last time we saw the dentist?", "desc"),
        ("What is the most recent water bill?", "desc"),
        ("What's the latest from the school?", "desc"),
        # a "last" or "first" that names a time or a thing is no ordering
        ("What came last week?", None),
        ("Where did we go last spring?", None),
        ("What did the roof cost last year?", None),
        ("Was the game last Friday?", None),
        ("What is Harper's teacher's last name?", None),
        ("When is the last day of school?", None),
        ("What did we spend in the last 3 months?", None),
        ("When is the first day of school?", None),
        ("Who was Harper's first grade teacher?", None),
        ("What's our WiFi password?", None),
        ("Who was our first-grade teacher?", None),
        ("Where is the first-aid kit?", None),
        ("Was the trip moved to a last-minute date?", None),
        ("Did the refund come at last?", None),
        ("What did the vet look at last time?", "desc"),
        # in a question about what is to come, "first" and "last" are of the events
        ("When is Leo's first soccer game?", None),
        ("When is the last game of the season?", None),
        ("When's the last time the furnace was serviced?", "desc"),
        ("What week was the first game?", "asc"),
    ],
)
def test_order(question, order):
    assert resolve(question, WED).order == order


@pytest.mark.parametrize(
    "question, events",
    [
        ("When is Leo's first soccer game?", "asc"),  # of the games, which a repeating event lists
        ("When is the last game of the season?", "desc"),
        ("When was the last game?", None),  # an ordering of what happened: `order`
        ("When is the last day of school?", None),  # a name
        ("When is the next game?", None),
    ],
)
def test_first_and_last_of_events_to_come(question, events):
    assert resolve(question, WED).events == events


def test_what_was_said_may_be_about_days_to_come():
    assert not resolve("What did the coach say about practice?", WED).past
    assert resolve("What did the coach say on Friday?", WED).past
    assert resolve("When did we send the deposit?", WED).past
    assert resolve("What did the coach say about the last game?", WED).order == "desc"


def test_time_and_order_together():
    ref = resolve("When did we last see the dentist in 2025?", WED)
    assert ref == TimeRef(
        range=(date(2025, 1, 1), date(2025, 12, 31)), order="desc", phrases=("last", "in 2025"), past=True
    )


@pytest.mark.parametrize(
    "question", ["When is the last day to register?", "What homework was in the last two weeks of school?"]
)
def test_the_last_days_of_something_are_no_span_up_to_today(question):
    assert resolve(question, WED).range is None


@pytest.mark.parametrize("question", ["What did we pay two weeks ago?", "Where did she move from 4 years ago?"])
def test_weeks_or_years_ago_are_said_too_loosely_to_be_a_range(question):
    """A 2023 letter saying "we moved here 4 years ago" is the evidence, and it was not written
    four years ago: a range would demote it."""
    assert resolve(question, WED) == TimeRef(past=True)


@pytest.mark.parametrize(
    "question",
    [
        "What size is our HVAC filter?",
        "What is the 3rd grade supply list?",  # a class, not the 3rd of a month
        "Who teaches the 2nd-grade class?",
        "Which bathroom is on the 2nd floor?",  # ordinals of things
        "Where is Harper's 10th birthday party?",
        "How much is the 3rd payment?",
        "Is Good Friday a holiday?",  # the name of a day, not the coming Friday
        "Are there tickets for March Madness?",  # a name
        "What does the email from April say?",  # a person, as likely as a month
        "What is planned for May?",  # a bill "for May" is of a May gone, a plan of one to come
        "When is Black Friday?",
        "Can the roof be done in two weeks?",  # how long, not when
    ],
)
def test_nothing_about_time(question):
    assert resolve(question, WED) == TimeRef()


@pytest.mark.parametrize(
    "question, as_of, start",
    [
        ("Was the game cancelled this weekend?", date(2026, 3, 16), date(2026, 3, 14)),  # Monday: just over
        ("Was the game cancelled this weekend?", FRI, date(2026, 3, 14)),  # late in the week: the coming one
        ("Was the game cancelled this weekend?", SUN, date(2026, 3, 14)),  # under way
        ("Is the game cancelled this weekend?", date(2026, 3, 16), date(2026, 3, 21)),  # the coming one
    ],
)
def test_this_weekend_follows_the_tense(question, as_of, start):
    assert resolve(question, as_of).range == (start, start + timedelta(days=1))


@pytest.mark.parametrize(
    "question, past",
    [
        ("Is Friday a half-day?", False),
        ("Was Friday a half-day?", True),
        ("Did the game get moved?", True),
        ("What time is pickup and was it moved?", False),  # the first auxiliary decides
        ("When was Maggie's last vet visit?", True),
        ("What’s the plan for Friday?", False),
        ("Who painted the house two years ago?", True),
        ("Practice on Friday?", False),
        # no auxiliary: the verb after the subject is past unless it takes -s
        ("Which plumber put in our hot water heater?", True),
        ("Who installed the water heater?", True),
        ("Who needs a ride to practice?", False),
        ("Who built the fence?", True),  # an irregular verb
        ("Who taught Sam piano?", True),
        ("Who builds decks around here?", False),
        # a past form that is an adjective or a noun too says nothing of the tense
        ("Lost and found pickup on March 13?", False),
        ("Which saw fits the miter box?", False),
    ],
)
def test_tense(question, past):
    assert is_past_tense(question) is past


@given(st.text(max_size=300), st.dates(min_value=date(1901, 1, 1), max_value=date(2198, 12, 31)))
def test_resolve_never_raises(question, as_of):
    assert isinstance(resolve(question, as_of), TimeRef)


_WORDS = st.sampled_from(
    "last this next in during between and from to the first of school year week weekend month "
    "spring winter fall June December May Friday Monday 13th 31st 2023 2024-25 1899 2300 3/13 "
    "2/29 Feb 29 tomorrow was is did ago".split()
)


@given(st.lists(_WORDS, max_size=12), st.dates(min_value=date(1901, 1, 1), max_value=date(2198, 12, 31)))
def test_resolve_never_raises_on_time_words(words, as_of):
    ref = resolve(" ".join(words), as_of)
    assert ref.range is None or ref.range[0] <= ref.range[1]
