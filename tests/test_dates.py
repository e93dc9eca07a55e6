"""Dates printed in documents: the days a text is about, and the date it was written."""

import re
import time
from datetime import date, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brainq import dates
from brainq.dates import (
    find_document_date,
    find_event_dates,
    impossible_days,
    nearest_occurrence,
    reads_day_first,
    weekday_before,
    weekday_of_week,
    weekday_on_or_after,
    weekly_days,
)

TUESDAY = date(2026, 3, 10)  # anchor of most cases: an email written on Tuesday, March 10, 2026
MAR_13 = date(2026, 3, 13)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Friday, March 13 is a full school day.", [MAR_13]),
        ("See you March 13.", [MAR_13]),
        ("Pictures on Mar 13th", [MAR_13]),
        ("Mar. 13 at noon", [MAR_13]),
        ("held 13 March 2026", [MAR_13]),
        ("on the 13th of March", [MAR_13]),
        ("Due 3/13/26", [MAR_13]),
        ("Due 03/13/2026", [MAR_13]),
        ("Due 3-13-2026", [MAR_13]),
        ("Game 3/13 at the park", [MAR_13]),
        ("Fri 3/13", [MAR_13]),
        ("Sat, Mar 14", [date(2026, 3, 14)]),
        ("Total due:March13,2026", [MAR_13]),  # run together, as OCR reads large print
        ("Filter MAR13 in stock", []),  # without its year, a code
        ("starts 2026-03-13T09:00", [MAR_13]),
        ("next Tuesday", [date(2026, 3, 17)]),
        ("this Friday", [MAR_13]),
        ("Friday", [MAR_13]),
        ("Tuesday", [TUESDAY]),  # a bare weekday on that weekday is the same day
        ("Monday", [date(2026, 3, 16)]),
        ("last Friday's game", [date(2026, 3, 6)]),
        ("tomorrow", [date(2026, 3, 11)]),
        ("today", [TUESDAY]),
        ("tonight", [TUESDAY]),
        ("We watched it last night", [date(2026, 3, 9)]),  # written Tuesday: about Monday
        ("the day before yesterday", [date(2026, 3, 8)]),
        ("the day after\ntomorrow", [date(2026, 3, 12)]),
        ("this morning", [TUESDAY]),
        ("March 13, 2025", [date(2025, 3, 13)]),
        ("Feb 29, 2024", [date(2024, 2, 29)]),
        ("Tomorrow, then Friday, March 13 and 3/20", [date(2026, 3, 11), MAR_13, date(2026, 3, 20)]),
        ("Friday, March 13. Again: March 13!", [MAR_13]),
        ("no school on 3/4", [date(2026, 3, 4)]),
        ("Jan 5", [date(2026, 1, 5)]),
        ("the 5th of may", [date(2026, 5, 5)]),  # "may" after "of" is the month
        ("by 3 May 2026", [date(2026, 5, 3)]),
        # Chinese, Japanese and Korean: each part marked, written without spaces
        ("運動会は2026年3月13日(金)です", [MAR_13]),
        ("締切は3月4日", [date(2026, 3, 4)]),  # marked: no fraction
        ("2026년 3월 13일 회의", [MAR_13]),
        ("会議は3/13", [MAR_13]),  # a date right after such a character
        ("会議は令和8年3月13日", [MAR_13]),  # the eighth year of Reiwa
        ("平成30年3月13日", [date(2018, 3, 13)]),
        ("令和元年5月1日", [date(2019, 5, 1)]),  # an era's first year
        ("3月\n13日", []),  # one date's marks are on one line
        ("会议定于3月13号", [MAR_13]),  # Chinese writes the day 号 as often as 日
    ],
)
def test_event_dates(text, expected):
    assert find_event_dates(text, TUESDAY) == expected


@pytest.mark.parametrize(
    "text",
    [
        "It costs $3.13 plus tax",
        "Filter size 16x25x4",
        "Call 555-1213 or (555) 313-1313 or 1-800-313-1313",
        "Doors open at 3:13 pm",
        "Upgrade to version 3.13 or 1.2.3",
        "Add 1/2 cup of flour and 3/4 tsp salt",
        "Rated 4/5 stars",
        "We're open 24/7; 50/50 raffle",
        "Founded in 2026",
        "March 2026 newsletter",
        "Every Friday is pizza day",
        "Black Friday sale",
        "Omar 13 and smarch 13",
        "Part AB3/13 in stock",
        "Invoice 1234/56/78",
        "February 30",
        "13/13",
        "Born 3/13/1066",
        "May 16x25x4 filters",
        "Jan 3:30 meeting",
        "The first 3 may arrive late",
        "Our new office is at 30 March Street",
        "Drop-off at 12 May Ave, Unit 2",
    ],
)
def test_no_false_event_dates(text):
    assert find_event_dates(text, TUESDAY) == []


@pytest.mark.parametrize(
    "text, day",
    [
        ("Hearing date: 12 March\nCourt 4, Main Building", (3, 12)),  # the next line's first word
        ("Friday, 13 March Court hearing at 10", (3, 13)),  # a weekday
        ("12th March Road trip", (3, 12)),  # an ordinal
        ("We go on 12 May Drive carefully", (5, 12)),  # a word that introduces a date
        ("The 12 March street party", (3, 12)),  # no street's name
    ],
)
def test_a_date_followed_by_a_word_a_street_may_end_with_is_still_a_date(text, day):
    assert [(d.month, d.day) for d in find_event_dates(text, TUESDAY)] == [day]


def test_dates_without_a_year_take_the_nearest_year():
    # A December email's "January 5" is next January, a January email's "December 20" last one.
    assert find_event_dates("Back on January 5", date(2025, 12, 28)) == [date(2026, 1, 5)]
    assert find_event_dates("Since December 20", date(2026, 1, 3)) == [date(2025, 12, 20)]


def test_a_year_span_in_the_head_holds_the_dates_without_a_year():
    # A school calendar published in August lists next June, not the nearer last June.
    calendar = "Birchwood School Calendar 2025-2026\nSept 3 First day\nMarch 13 Half day\nJune 17 Last day"
    assert find_event_dates(calendar, date(2025, 8, 4)) == [date(2025, 9, 3), date(2026, 3, 13), date(2026, 6, 17)]
    # Undated, or written outside the span: a July-to-June year.
    assert find_event_dates("Season 2024/25: May 2 final, Sept 14 opener", None) == [date(2024, 9, 14), date(2025, 5, 2)]
    # No span: an ISO date, a range of more than a year, and dates with their years stay as they were.
    assert find_event_dates("Sent 2025-08-04. June 17 party", date(2025, 8, 4)) == [date(2025, 6, 17), date(2025, 8, 4)]
    assert find_event_dates("Plan 2025-2027: June 17", date(2025, 8, 4)) == [date(2025, 6, 17)]


def test_a_printed_weekday_picks_the_year():
    # March 13 is a Friday in 2026, not in 2025: the weekday settles which one is meant.
    assert find_event_dates("Friday, March 13", date(2025, 9, 1)) == [MAR_13]


def test_relative_words_need_an_anchor():
    text = "Friday, March 13, tomorrow, next Tuesday, March 20, 2026"
    assert find_event_dates(text, None) == [date(2026, 3, 20)]


def test_limit_keeps_the_first_printed():
    text = " ".join(f"April {d}" for d in range(30, 0, -1))
    assert find_event_dates(text, TUESDAY, limit=3) == [date(2026, 4, d) for d in (28, 29, 30)]
    assert find_event_dates(text, TUESDAY, limit=0) == []


def test_large_text_is_fast():
    text = ("Meeting Friday, March 13 at 3:13, $3.13, 16x25x4, 555-1212. " * 40_000)[:2_000_000]
    start = time.perf_counter()
    assert find_event_dates(text, TUESDAY) == [MAR_13]
    find_document_date(text)
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize(
    "anchor, weekday, on_or_after, before, next_week, last_week",
    [
        # anchor is a Friday (4): "Friday" is that day, the one before is a week back
        (date(2026, 3, 13), 4, date(2026, 3, 13), date(2026, 3, 6), date(2026, 3, 20), date(2026, 3, 6)),
        # anchor is a Sunday asking about Monday (0)
        (date(2026, 3, 15), 0, date(2026, 3, 16), date(2026, 3, 9), date(2026, 3, 16), date(2026, 3, 2)),
        # anchor is a Wednesday asking about Friday
        (date(2026, 3, 11), 4, date(2026, 3, 13), date(2026, 3, 6), date(2026, 3, 20), date(2026, 3, 6)),
    ],
)
def test_weekday_helpers(anchor, weekday, on_or_after, before, next_week, last_week):
    assert weekday_on_or_after(anchor, weekday) == on_or_after
    assert weekday_before(anchor, weekday) == before
    assert weekday_of_week(anchor, weekday, 1) == next_week
    assert weekday_of_week(anchor, weekday, -1) == last_week


def test_nearest_occurrence_of_february_29():
    assert nearest_occurrence(2, 29, date(2024, 6, 1)) == date(2024, 2, 29)
    assert nearest_occurrence(2, 29, date(2026, 6, 1)) is None


@pytest.mark.parametrize(
    "text, impossible",
    [
        ("What happens on February 30?", ["February 30"]),
        ("Is practice on the 31st of April?", ["31st of April"]),
        ("What's on Feb 29, 2027?", ["Feb 29, 2027"]),  # no leap year
        ("What's on Feb 29, 2028?", []),
        ("What's on April 30?", []),
        ("Is 2/30 the ratio?", []),  # numbers alone may be no date at all
        ("What did the Feb 30 day trial cost?", []),  # nor a month and a count
        ("How much was the September 90-day pass?", []),
        ("Who lives at 31 April Lane?", []),
    ],
)
def test_impossible_days_are_the_named_months_days_no_calendar_has(text, impossible):
    assert impossible_days(text) == impossible


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "ACME Plumbing\nInvoice #1234\nInvoice Date: March 3, 2025\nDue Date: April 2, 2025\n",
            (datetime(2025, 3, 3), "day"),
        ),
        # the due date comes first, on the same line: still not the writing date
        ("Due Date: April 2, 2025    Invoice Date: March 3, 2025", (datetime(2025, 3, 3), "day")),
        ("To: Bob\nDate: 2025-03-03\nRe: roof", (datetime(2025, 3, 3), "day")),
        ("Dated 3/3/2025", (datetime(2025, 3, 3), "day")),
        ("Statement date 02/15/2025\nPeriod 01/15/2025 - 02/14/2025", (datetime(2025, 2, 15), "day")),
        ("Receipt date: Jan 5, 2024\nTotal $45.00", (datetime(2024, 1, 5), "day")),
        # large print as OCR reads it: the month and its day, or the year, run together
        ("SUMMIT ROOFING CO.\nEstimate date: April8,2025", (datetime(2025, 4, 8), "day")),
        ("Invoice date: March3, 2026\nTotal $212.50", (datetime(2026, 3, 3), "day")),
        ("Invoice date: March 3,2026", (datetime(2026, 3, 3), "day")),
        ("Order date: 12/24/2023  Delivery date: 12/30/2023", (datetime(2023, 12, 24), "day")),
        ("Issued: 7 May 2024", (datetime(2024, 5, 7), "day")),
        ("Expiration date: 12/31/2026\nDate of issue: 01/01/2024", (datetime(2024, 1, 1), "day")),
        ("Date: 01/01/2020\nInvoice date: 3/3/2023", (datetime(2023, 3, 3), "day")),
        ("Date of birth: 01/02/1980\nDate: 03/04/2025", (datetime(2025, 3, 4), "day")),
        ("Quarterly update\nDate: March 2025", (datetime(2025, 3, 1), "month")),
        ("Date: 2025", (datetime(2025, 1, 1), "year")),
        ("Gutters\nLast updated: March 2025\nThe gutter guy charged $90.", (datetime(2025, 3, 1), "month")),
        ("Created on 2024-01-05\nnotes", (datetime(2024, 1, 5), "day")),
        ("HOUSE NOTES (written March 2023)\n\nWi-Fi: Home", (datetime(2023, 3, 1), "month")),
        # inside a sentence, it dates something else than the letter
        ("March 3, 2025\n\nDear Ms. Smith,\n\nYour will, written on June 4, 2012, is on file.", (datetime(2025, 3, 3), "day")),
        ("Acme Bank\nMarch 3, 2025\n\nOur policy was last updated on January 1, 2020.", (datetime(2025, 3, 3), "day")),
        ("Report\nDate modified: 2019-05-01\nDate: 2025-03-03", (datetime(2025, 3, 3), "day")),
        (
            "Jane Doe\n12 Elm St\nSpringfield, IL\n\nMarch 3, 2025\n\nDear Mr. Smith,\n...",
            (datetime(2025, 3, 3), "day"),
        ),
        ("\n" * 20 + "Invoice Date: 3/3/2025", (datetime(2025, 3, 3), "day")),
        ("Payment due: April 2, 2025\nThanks!", None),
        ("Valid until 2025-12-31", None),
        ("Dad's medications\nBorn March 3, 1948\nLisinopril 10 mg", None),  # a note about someone
        ("Acme Credit Union\nMember since March 3, 2011\nYour statement", None),  # a customer's, not the page's
        ("Cat notes\nDOB: 4/2/2019\nWeight 4.1 kg", None),
        ("Copyright 2025 ACME Corp", None),  # a bare year only counts when labelled
        ("We met on March 3 at the park.", None),  # no year: not a document's date
        ("\n" * 20 + "On March 3, 2025 we met.", None),  # past the letter's head
        ("x" * 3000 + "Invoice Date: 3/3/2025", None),  # past the first 3000 characters
        ("Total 2025.00  Date: 1999.00", None),
        ("作成日: 2025年3月3日\n議事録", (datetime(2025, 3, 3), "day")),
    ],
)
def test_document_date(text, expected):
    assert find_document_date(text) == expected


@given(st.text(max_size=300), st.dates(min_value=date(1901, 1, 1), max_value=date(2198, 12, 31)))
def test_event_dates_never_raise(text, anchor):
    found = find_event_dates(text, anchor, limit=5)
    assert found == sorted(set(found)) and len(found) <= 5


@given(st.text(alphabet=st.sampled_from("0123456789/-.,: MarchFriday2025Date\n"), max_size=200))
def test_date_like_noise_never_raises(text):
    find_event_dates(text, date(2026, 3, 10))
    find_event_dates(text, None)
    find_document_date(text)


def test_the_word_start_gate_finds_what_every_form_finds_alone():
    """The scan tries its forms only where a digit or a date word starts; a form added later
    that starts otherwise would be skipped silently, so the gated scan is compared with the
    plain one over every sample document."""
    plain = re.compile(dates._EVENT_FORMS, re.IGNORECASE)
    samples = Path(__file__).resolve().parents[1] / "corpus_samples"
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in samples.rglob("*") if p.is_file()]
    texts.append("Due 3/13, on the 13th of March, 2026-03-13, 3-13-2026; next Friday, tomorrow, Sat, Mar 14.")
    texts.append("運動会は2026年3月13日、締切は3月4日、会議は3/13")
    for text in texts:
        gated = [(m.span(), m.groupdict()) for m in dates._EVENT_DATE.finditer(text)]
        assert gated == [(m.span(), m.groupdict()) for m in plain.finditer(text)]


@pytest.mark.parametrize(
    "line, days",
    [
        ("Pharmacy hours: Mon-Fri 9 am - 7 pm, Sat 10 am - 4 pm, closed Sunday.", {0, 1, 2, 3, 4, 5, 6}),
        ("Open Monday through Friday, 8 to 5.", {0, 1, 2, 3, 4}),
        ("The library is open Tue-Sat.", {1, 2, 3, 4, 5}),
        ("Closed on Sundays.", {6}),
        ("Practice every Tuesday at 6.", {1}),
        ("Practice moved from Friday to Monday.", None),  # a change, of particular weeks
        ("Closed Mon-Fri next week for the refit.", None),
        ("Open Saturdays to Mondays", {5, 6, 0}),  # a range round the weekend
        # a weekday alone is a particular week's, and so is one beside a date
        ("No school Friday.", None),
        ("Game on Sat!", None),
        ("Saturday, March 14 is cancelled.", None),
        ("Mon-Fri, but not March 3", None),
        ("We sat down on Sunday.", None),
    ],
)
def test_a_line_of_standing_hours_names_weekdays_of_every_week(line, days):
    assert weekly_days(line, date(2026, 3, 10)) == days


@pytest.mark.parametrize(
    "text, days",
    [
        # a date that can only be day first makes the text's others day first too
        ("Isla was born 14/3/2025. Next check 12/10/2026.", [date(2025, 3, 14), date(2026, 10, 12)]),
        ("Closed from 24/12/2026 until 2/1/2027.", [date(2026, 12, 24), date(2027, 1, 2)]),
        # month first where one can only be read so, or where nothing tells
        ("Practice 3/13/2026, then 4/1/2026.", [date(2026, 3, 13), date(2026, 4, 1)]),
        ("Appointment 8/12/2026 08:40", [date(2026, 8, 12)]),
        # without a year, a pair of numbers is no evidence of either ("open 24/7")
        ("Open 24/7. Inspection 8/12/2026.", [date(2026, 8, 12)]),
        ("Leg day: 15/12/10 reps. Class moved to 3/4/2026", [date(2026, 3, 4)]),  # no four-digit year
    ],
)
def test_numeric_dates_are_read_day_first_where_the_text_writes_them_so(text, days):
    assert find_event_dates(text, TUESDAY) == days


@pytest.mark.parametrize(
    "text, order, day_first",
    [
        ("Flight 8/12/2026", "auto", False),
        ("Flight 8/12/2026, back 20/12/2026", "auto", True),
        ("Flight 8/12/2026", "day_first", True),
        ("Flight 8/12/2026, back 20/12/2026", "month_first", False),
    ],
)
def test_patterns_set_the_order_of_ambiguous_numeric_dates(text, order, day_first):
    assert reads_day_first(text, order) is day_first


@pytest.mark.parametrize("day_first", [True, False])
def test_a_date_that_can_only_be_read_one_way_is_read_so_in_either_order(day_first):
    assert find_event_dates("Back 20/12/2026", TUESDAY, day_first=day_first) == [date(2026, 12, 20)]
    assert find_event_dates("Due 11/25/2026", TUESDAY, day_first=day_first) == [date(2026, 11, 25)]
    assert find_event_dates("Open 24/7 all year", TUESDAY, day_first=day_first) == []


def test_a_letter_written_day_first_is_dated_so():
    assert find_document_date("Meter readings\n1/8/2026: 45,100\n14/10/2026: 46,000") == (datetime(2026, 8, 1), "day")
    # its whole text tells, not its head alone: as its event dates are read
    assert find_document_date("Letter\n03/04/2026\n" + "x\n" * 16 + "Due 25/03/2026")[0] == datetime(2026, 4, 3)
