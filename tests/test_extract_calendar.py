"""Calendar extraction: a document per event, when it was written, its days, bounded recurrences."""

from __future__ import annotations

import dataclasses
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brainq.annotate import annotate
from brainq.ask import occurrence
from brainq.config import Limits, load_config
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import calendar, extract_item
from brainq.timeref import TimeRef

SCHOOL = Path(__file__).parent / "fixtures/calendar/school.ics"


def ics(*events: str) -> bytes:
    """A calendar file around VEVENT bodies written one property per line."""
    body = "".join(f"BEGIN:VEVENT\n{event.strip()}\nEND:VEVENT\n" for event in events)
    text = f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n{body}END:VCALENDAR\n"
    return text.replace("\n", "\r\n").encode()


def extract(data: bytes, limits: Limits = Limits()) -> list[Document | Failure]:
    item = Item(path=Path("/cal/family.ics"), name="family.ics", data=data)
    return list(calendar.extract(item, limits))


def days(first: date, count: int, step: int = 1) -> list[date]:
    return [first + timedelta(days=n * step) for n in range(count)]


@pytest.fixture(scope="module")
def school() -> dict[str, Document | Failure]:
    results = list(extract_item(Item(path=SCHOOL, name=SCHOOL.name), Limits()))
    return {getattr(r, "locator", None) or "failure": r for r in results}


@pytest.mark.parametrize(
    "name, head, expected",
    [
        ("school.ics", b"BEGIN:VCALENDAR\r\nVERSION:2.0", True),
        ("export", b"\xef\xbb\xbf\r\nbegin:vcalendar\r\n", True),  # BOM, blank line, lower case
        ("broken.ics", b"", True),  # the name claims it, so its failure is reported as a calendar's
        ("notes.txt", b"BEGIN:VCARD\r\n", False),
        ("mail.eml", b"From: a@example.com\r\n\r\nBEGIN:VCALENDAR", False),
    ],
)
def test_sniff(name, head, expected):
    assert calendar.sniff(name, head) is expected


def test_one_document_per_event_and_a_failure_for_the_bad_one(school):
    assert set(school) == {
        "soccer-practice@lincoln.example",
        "soccer-practice@lincoln.example@20260316T153000",  # UID + RECURRENCE-ID
        "spring-break@lincoln.example",
        "half-day@lincoln.example",
        "failure",
    }
    failure = school["failure"]
    assert failure.path == str(SCHOOL)
    assert failure.reason == "event broken@lincoln.example: bad DTSTART (2026-03-XX)"


def test_event_text_and_dates(school):
    practice = school["soccer-practice@lincoln.example"]
    assert (practice.kind, practice.doc_type) == ("calendar", "calendar_event")
    assert practice.title == "Soccer practice"
    assert practice.text == (
        "Soccer practice\n"
        "When: Monday 2 March 2026, 15:30 to 17:00 (America/New_York)\n"
        "Where: North field\n"
        "Repeats: every week on Monday and Thursday until Tuesday 31 March 2026\n"
        "Not on: Thursday 12 March 2026\n"
        "Bring shin guards and water."
    )
    # LAST-MODIFIED wins over DTSTAMP: when the entry was written, not when it was exported.
    assert practice.source_date == datetime(2026, 2, 28, 9, tzinfo=timezone.utc)
    assert (practice.date_source, practice.date_precision) == ("ics", "instant")


def test_recurrence_respects_exdate_and_moved_occurrences(school):
    practice = school["soccer-practice@lincoln.example"].event_dates
    assert practice == [date(2026, 3, d) for d in (2, 5, 9, 19, 23, 26, 30)]  # not 12 nor 16
    moved = school["soccer-practice@lincoln.example@20260316T153000"]
    assert moved.event_dates == [date(2026, 3, 16)]
    # The text says the day left out (test_event_text_and_dates), so "is there practice on the
    # 12th?" finds the series saying no; the moved one has its own event.


def test_a_calendar_cut_short_keeps_its_whole_events_and_says_so():
    """icalendar drops a calendar with no END:VCALENDAR whole, and says nothing."""
    whole = ics("UID:a\nSUMMARY:Walk\nDTSTART:20260313T100000", "UID:b\nSUMMARY:Swim\nDTSTART:20260314T100000")
    cut = whole[: whole.index(b"SUMMARY:Swim")]
    walk, failure = extract(cut)
    assert walk.title == "Walk" and failure.reason == "cut short: what follows its last whole event not read"
    with pytest.raises(ExtractError, match="cut short before its first event ended"):
        extract(whole[: whole.index(b"SUMMARY:Walk")])
    # cut inside a property's name, where icalendar fails on the whole file
    walk, failure = extract(whole[: whole.index(b"SUMMARY:Swim") + 4])
    assert walk.title == "Walk" and failure.reason.startswith("cut short")
    # a second calendar of the file cut short: the first's events and its whole ones kept
    second = ics("UID:c\nSUMMARY:Run\nDTSTART:20260315T100000", "UID:d\nSUMMARY:Row\nDTSTART:20260316T100000")
    found = extract(whole + second[: second.index(b"SUMMARY:Row")])
    assert [d.title for d in found if isinstance(d, Document)] == ["Walk", "Swim", "Run"]
    assert isinstance(found[-1], Failure) and found[-1].reason.startswith("cut short")
    with pytest.raises(ExtractError, match="no events in it"):
        extract(ics())


def test_a_broken_list_of_days_left_out_keeps_the_event():
    (doc,) = extract(ics("UID:a\nSUMMARY:Walk\nDTSTART:20260313T100000\nRRULE:FREQ=YEARLY\nEXDATE:20261399T100000"))
    assert "Not on" not in doc.text and doc.notes == ["recurrence rule not understood"]


def test_of_many_days_left_out_those_nearest_the_calendars_stamp_are_named():
    skipped = ",".join(f"202601{d:02d}" for d in range(1, 31))
    (doc,) = extract(ics(f"UID:x\nSUMMARY:Walk\nDTSTAMP:20260131T080000Z\nDTSTART;VALUE=DATE:20260101\nRRULE:FREQ=DAILY\n"
                         f"EXDATE;VALUE=DATE:{skipped}"))  # fmt: skip
    line = next(line for line in doc.text.splitlines() if line.startswith("Not on: "))
    assert line.startswith("Not on: Sunday 11 January 2026; Monday 12 January 2026") and line.endswith("Friday 30 January 2026 and 10 more")


def test_all_day_event_covers_every_day_but_its_exclusive_end(school):
    spring_break = school["spring-break@lincoln.example"]
    assert spring_break.event_dates == days(date(2026, 3, 23), 5)
    assert "When: Monday 23 March 2026 to Friday 27 March 2026" in spring_break.text
    assert spring_break.source_date == datetime(2026, 1, 5, 10, tzinfo=timezone.utc)  # DTSTAMP


def test_cancelled_event_says_so(school):
    event = school["half-day@lincoln.example"]
    assert "Status: cancelled" in event.text
    # and so does an answer quoting it: its "When:" line alone says neither what nor that
    when = next(line for line in event.text.splitlines() if line.startswith("When: "))
    line = calendar.answer_line(when, event.title, event.text, None, None)
    assert line == f"{event.title} {when} Status: cancelled"
    assert calendar.answer_line(line, event.title, event.text, None, None) == line  # once each
    # a line without its "When:" gains it: "Soccer practice (moved to Wednesday)" leaves the day to guess
    assert calendar.answer_line(event.title, event.title, event.text, None, None) == f"{event.title} {when} Status: cancelled"


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16", "utf-8-sig"])
def test_a_calendar_not_in_utf_8_is_read_as_written(encoding):
    """Older exporters write Windows' code page or UTF-16: one was stored as "Caf\ufffd", the
    other failed as no iCalendar file."""
    data = ics("UID:x\nSUMMARY:Caf\u00e9 Ol\u00e9 tasting\nDTSTART;VALUE=DATE:20260318").decode().encode(encoding)
    (doc,) = extract(data)
    assert doc.title == "Caf\u00e9 Ol\u00e9 tasting" and doc.event_dates == [date(2026, 3, 18)]


def test_an_event_written_in_utc_is_on_its_calendars_day():
    """Google and Apple export single events in UTC, with the calendar's zone beside them: an
    evening meeting in New York is on that evening's day, not the next one in UTC."""
    event = "UID:board\nSUMMARY:School board meeting\nDTSTART:20260313T003000Z\nDTEND:20260313T020000Z"
    data = ics(event).replace(b"VERSION:2.0\r\n", b"VERSION:2.0\r\nX-WR-TIMEZONE:America/New_York\r\n")
    (doc,) = extract(data)
    assert doc.event_dates == [date(2026, 3, 12)]
    assert "Thursday 12 March 2026, 20:30 to 22:00 (America/New_York)" in doc.text
    assert doc.headers == {"UID": "board"}  # what tells an update of it from another event
    # an event with its own zone keeps it; a calendar naming no zone keeps UTC
    zoned = "UID:lesson\nSUMMARY:Lesson\nDTSTART;TZID=Europe/London:20260313T003000"
    (doc,) = extract(ics(zoned).replace(b"VERSION:2.0\r\n", b"VERSION:2.0\r\nX-WR-TIMEZONE:America/New_York\r\n"))
    assert doc.event_dates == [date(2026, 3, 13)]
    (doc,) = extract(ics(event))
    assert doc.event_dates == [date(2026, 3, 13)]
    # a rule written in UTC recurs in UTC: the day it leaves out, past a change to summer time,
    # is still left out
    weekly = "UID:w\nSUMMARY:Club\nDTSTART:20260107T230000Z\nRRULE:FREQ=WEEKLY;COUNT=20\nEXDATE:20260408T230000Z"
    (doc,) = extract(ics(weekly).replace(b"VERSION:2.0\r\n", b"VERSION:2.0\r\nX-WR-TIMEZONE:America/New_York\r\n"))
    assert date(2026, 4, 8) not in doc.event_dates and date(2026, 4, 15) in doc.event_dates


@pytest.mark.parametrize(
    "props, expected",
    [
        ("DTSTART:20260313T220000\nDTEND:20260314T000000", [date(2026, 3, 13)]),  # ends at midnight
        ("DTSTART:20260313T220000\nDURATION:PT4H", [date(2026, 3, 13), date(2026, 3, 14)]),
        ("DTSTART;VALUE=DATE:20260313", [date(2026, 3, 13)]),
        (  # a year-long "event" is capped
            "DTSTART;VALUE=DATE:20260101\nDTEND;VALUE=DATE:20270101",
            days(date(2026, 1, 1), Limits().max_event_days),
        ),
        ("DTSTART:20260313T100000\nDTEND:20260301T100000", [date(2026, 3, 13)]),  # end before start
        # days RDATE adds: dates, times and periods, each as long as the first
        ("DTSTART;VALUE=DATE:20260316\nRDATE;VALUE=DATE:20260330,20260413", [date(2026, 3, 16), date(2026, 3, 30), date(2026, 4, 13)]),
        # one left out (EXDATE) is no day of it; a date among times is no occurrence
        ("DTSTART;VALUE=DATE:20260316\nRDATE;VALUE=DATE:20260330,20260413\nEXDATE;VALUE=DATE:20260330", [date(2026, 3, 16), date(2026, 4, 13)]),
        (  # floating and zoned values together: no comparison of the two fails the file
            "DTSTART:20260316T160000\nRDATE;TZID=America/New_York:20260323T160000\nRDATE:20260330T160000\nRDATE;VALUE=DATE:20260406",
            [date(2026, 3, 16), date(2026, 3, 23), date(2026, 3, 30)],
        ),
        (
            "DTSTART:20260316T230000\nDTEND:20260317T010000\nRDATE:20260323T230000\nRDATE;VALUE=PERIOD:20260401T160000/PT1H",
            [date(2026, 3, 16), date(2026, 3, 17), date(2026, 3, 23), date(2026, 3, 24), date(2026, 4, 1)],
        ),
    ],
)
def test_event_days(props, expected):
    (doc,) = extract(ics(f"UID:x\nSUMMARY:Thing\n{props}"))
    assert doc.event_dates == expected
    assert ("Also on: " in doc.text) == ("RDATE" in props)  # "when is the next one?" reads them


@pytest.mark.parametrize(
    "rule, expected_days, words",
    [
        ("FREQ=DAILY;COUNT=3", days(date(2026, 3, 13), 3), "every day, 3 times"),
        (
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;COUNT=3",
            days(date(2026, 3, 13), 3, step=14),
            "every 2 weeks on Friday, 3 times",
        ),
        (  # DTSTART counts even when it does not fit the rule
            "FREQ=MONTHLY;BYDAY=-1FR;COUNT=2",
            [date(2026, 3, 13), date(2026, 3, 27), date(2026, 4, 24)],
            "every month on the last Friday, 2 times",
        ),
    ],
)
def test_recurrence_in_days_and_words(rule, expected_days, words):
    (doc,) = extract(ics(f"UID:x\nSUMMARY:Thing\nDTSTART:20260313T150000\nRRULE:{rule}"))
    assert doc.event_dates == expected_days
    assert f"Repeats: {words}" in doc.text


@pytest.mark.parametrize("rule", ["FREQ=SECONDLY", "FREQ=DAILY;COUNT=1000000", "FREQ=HOURLY"])
def test_recurrence_storm_is_bounded(rule):
    started = time.monotonic()
    (doc,) = extract(ics(f"UID:x\nDTSTART:20260101T000000\nRRULE:{rule}"))
    assert time.monotonic() - started < 2
    assert len(doc.event_dates) <= Limits().max_occurrences
    assert (doc.event_dates[-1] - doc.event_dates[0]).days <= Limits().recurrence_days


def test_a_long_running_recurrence_is_listed_around_its_calendars_stamp():
    """A weekly lesson since 2023, in a calendar exported in November 2026: this week's
    lesson is listed, not only those of its first year."""
    (doc,) = extract(ics("UID:x\nSUMMARY:Piano\nDTSTAMP:20261120T080000Z\nDTSTART:20230102T160000\nRRULE:FREQ=WEEKLY"))
    days = doc.event_dates
    assert date(2026, 11, 23) in days and date(2023, 1, 2) in days  # this week's; the first stays
    assert len(days) == Limits().max_occurrences + 1 and max(days) <= date(2027, 12, 25)  # 400 days on
    assert doc.notes == [
        "only the 200 occurrences nearest its calendar's stamp (2026-11-20) listed",
        "occurrences more than 400 days after its calendar's stamp (2026-11-20) not listed",
    ]


PIANO = "UID:x\nSUMMARY:Piano\nLOCATION:Hall\nDTSTAMP:20261120T080000Z\nDTSTART:20230103T160000\nDTEND:20230103T163000\nRRULE:FREQ=WEEKLY"
NOW = datetime(2026, 11, 28, tzinfo=timezone.utc)


def stored(*events: str) -> list[Document]:
    """The events as ingest stores them: annotated, so their days include those their text names."""
    return [annotate(doc, load_config(), NOW.timestamp(), NOW) for doc in extract(ics(*events))]


def repeating(doc: Document) -> calendar.Series | None:
    return calendar.series(doc.text, doc.event_dates, doc.source_date.date() if doc.source_date else None)


@pytest.mark.parametrize(
    "line, day, expected",
    [
        # the "When:" quoted is restated for the occurrence asked about
        ("Piano When: Tuesday 3 January 2023, 16:00 to 16:30", date(2026, 12, 1),
         "Piano When: Tuesday 1 December 2026, 16:00 to 16:30, one of a series since Tuesday 3 January 2023"),
        # an answer line without it gains it; the first occurrence is quoted as it is
        ("Piano Repeats: every week", date(2026, 12, 1),
         "Piano Repeats: every week When: Tuesday 1 December 2026, 16:00 to 16:30, one of a series since Tuesday 3 January 2023"),
        ("Piano Repeats: every week", date(2023, 1, 3), "Piano Repeats: every week When: Tuesday 3 January 2023, 16:00 to 16:30"),
    ],
)
def test_a_repeating_events_answer_names_the_occurrence_asked_about(line, day, expected):
    (doc,) = stored(PIANO)
    assert calendar.on_day(line, repeating(doc), day) == expected


def test_a_series_leaves_out_the_days_its_text_names_in_its_order_of_dates():
    """Its description's "8/12/2026", read day first as ingest read it, is no lesson."""
    config = dataclasses.replace(load_config(), numeric_dates="day_first")
    (doc,) = [annotate(d, config, NOW.timestamp(), NOW) for d in extract(ics(PIANO + "\nDESCRIPTION:No lesson 8/12/2026."))]
    series = calendar.series(doc.text, doc.event_dates, doc.source_date.date(), day_first=True)
    assert date(2026, 12, 8) in doc.event_dates and date(2026, 12, 8) not in series.days
    assert date(2026, 12, 15) in series.days


def test_an_events_own_days_keep_its_day_however_its_description_names_it():
    """"Moved to Saturday, March 21 from Saturday, March 14": the 21st is its day, the 14th not."""
    (doc,) = stored("UID:m\nSUMMARY:Game\nDTSTAMP:20260301T080000Z\nDTSTART:20260321T090000\nDTEND:20260321T100000"
                    "\nDESCRIPTION:Moved to Saturday, March 21 from Saturday, March 14.")
    assert set(doc.event_dates) == {date(2026, 3, 14), date(2026, 3, 21)}  # the entry speaks of both
    assert calendar.own_days(doc.text, doc.event_dates, doc.source_date.date()) == [date(2026, 3, 21)]


def test_an_event_of_one_occurrence_or_of_several_days_is_no_series():
    once, camp = stored("UID:a\nSUMMARY:Recital\nDTSTART:20261205T140000\nDTEND:20261205T153000",
                        "UID:b\nSUMMARY:Camp\nDTSTART;VALUE=DATE:20260706\nDTEND;VALUE=DATE:20260709\nRRULE:FREQ=YEARLY")
    assert repeating(once) is None and repeating(camp) is None


@pytest.mark.parametrize(
    "time, expected",
    [
        (TimeRef(), date(2026, 12, 8)),  # the next to come: not December 1, left out, nor the 6th, a concert
        (TimeRef(past=True), date(2026, 11, 24)),  # the last that was
        (TimeRef(order="desc", past=True), date(2026, 11, 24)),
        (TimeRef(events="asc"), date(2023, 1, 3)),  # "when is the first lesson?"
        (TimeRef(events="desc"), None),  # "... the last?": a series without an end does not say
        (TimeRef(range=(date(2026, 1, 1), date(2026, 12, 31)), events="desc"), date(2026, 12, 29)),
        (TimeRef(range=(date(2026, 12, 1), date(2026, 12, 31)), events="asc"), date(2026, 12, 8)),
        (TimeRef(day=date(2026, 12, 15)), date(2026, 12, 15)),
        (TimeRef(day=date(2026, 12, 1)), None),  # "Not on" that day
        (TimeRef(day=date(2026, 12, 6)), None),  # the concert's day, not a lesson's
        (TimeRef(range=(date(2026, 12, 7), date(2026, 12, 13))), date(2026, 12, 8)),
        # "when is piano this week?" asked after this week's lesson: that lesson, not the first
        (TimeRef(range=(date(2026, 11, 23), date(2026, 11, 29))), date(2026, 11, 24)),
        (TimeRef(range=(date(2026, 11, 30), date(2026, 12, 6))), None),  # its only day there left out
        (TimeRef(range=(date(2026, 11, 1), date(2026, 11, 30)), past=True), date(2026, 11, 24)),
        (TimeRef(range=(date(2030, 1, 1), date(2030, 12, 31))), None),
    ],
)
def test_the_occurrence_a_question_is_about(time, expected):
    (doc,) = stored(f"{PIANO};BYDAY=TU\nEXDATE:20261201T160000\nDESCRIPTION:Student concert on Sunday December 6.")
    assert occurrence(repeating(doc), time, date(2026, 11, 28)) == expected


def test_a_series_skipping_the_days_asked_about_says_so():
    """"When is piano next week?" of a week without a lesson: the answer is the skip, not the
    day the lessons began."""
    (doc,) = stored(f"{PIANO};BYDAY=TU\nEXDATE:20261201T160000")
    series, first_week = repeating(doc), (date(2026, 11, 30), date(2026, 12, 6))
    line = calendar.answer_line("When: Tuesday 3 January 2023", doc.title, doc.text, series, None, first_week)
    assert line.endswith("Not on: Tuesday 1 December 2026")
    later = calendar.answer_line("When: Tuesday 3 January 2023", doc.title, doc.text, series, None, (date(2027, 3, 1), date(2027, 3, 7)))
    assert "Not on" not in later


def test_a_series_listed_only_before_today_names_no_next_day_but_its_last_if_it_ends():
    """A monthly club stamped in January 2025: its days listed end in February 2026."""
    club = "UID:c\nSUMMARY:Book club\nDTSTAMP:20250110T080000Z\nDTSTART:20250213T190000\nRRULE:FREQ=MONTHLY;BYDAY=2TH"
    (doc,) = stored(club)
    assert occurrence(repeating(doc), TimeRef(), date(2026, 11, 28)) is None
    (games,) = stored("UID:g\nSUMMARY:Soccer\nDTSTAMP:20260801T080000Z\nDTSTART:20260905T090000\nRRULE:FREQ=WEEKLY;UNTIL=20261212T140000Z")
    assert occurrence(repeating(games), TimeRef(events="desc"), date(2026, 11, 28)) == date(2026, 12, 12)
    assert occurrence(repeating(games), TimeRef(events="asc"), date(2026, 11, 28)) == date(2026, 9, 5)


@pytest.mark.parametrize(
    "rule, last, count",
    [("FREQ=WEEKLY;COUNT=10", date(2023, 3, 6), 10), ("FREQ=WEEKLY;UNTIL=20240601T000000Z", date(2024, 5, 27), 74)],
)
def test_a_series_that_ended_before_the_stamp_keeps_its_occurrences(rule, last, count):
    (doc,) = extract(ics(f"UID:x\nDTSTAMP:20261120T080000Z\nDTSTART:20230102T160000\nRRULE:{rule}"))
    assert (len(doc.event_dates), max(doc.event_dates), doc.notes) == (count, last, [])


# A stamp after the file was saved is a broken one.
@pytest.mark.parametrize("stamp", ["99991120T080000Z", "20991120T080000Z"])
def test_a_broken_stamp_is_no_centre(stamp, tmp_path):
    path = tmp_path / "family.ics"
    path.write_bytes(ics(f"UID:x\nDTSTAMP:{stamp}\nDTSTART:20230102T160000\nRRULE:FREQ=WEEKLY"))
    (doc,) = calendar.extract(Item(path=path, name=path.name), Limits())
    assert doc.event_dates[:2] == [date(2023, 1, 2), date(2023, 1, 9)]
    assert doc.notes == ["occurrences more than 400 days after its start not listed"]


def test_a_daily_recurrence_keeps_the_occurrences_nearest_its_stamp():
    (doc,) = extract(ics("UID:x\nDTSTAMP:20261120T080000Z\nDTSTART:20260101T070000\nRRULE:FREQ=DAILY"))
    window = doc.event_dates[1:]  # after the start day, always listed
    assert len(window) == Limits().max_occurrences and window == sorted(window)
    # 07:00 each day, stamped at 08:00: the stamp's own day and 99 before it, 100 after it
    assert window[0] == date(2026, 11, 20) - timedelta(days=99) and window[-1] == date(2026, 11, 20) + timedelta(days=100)
    assert doc.notes == ["only the 200 occurrences nearest its calendar's stamp (2026-11-20) listed"]


def test_rule_that_never_matches_keeps_the_start_day():
    rule = "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"
    (doc,) = extract(ics(f"UID:x\nDTSTART:20260313T100000\nRRULE:{rule}"))
    assert doc.event_dates == [date(2026, 3, 13)]


def test_expansion_stops_once_the_time_budget_is_spent():
    rule = "UID:x\nDTSTART:20260313T100000\nRRULE:FREQ=DAILY;COUNT=5"
    (doc,) = extract(ics(rule), Limits(recurrence_seconds=0))
    assert doc.event_dates == [date(2026, 3, 13)]
    assert doc.notes == ["recurrence not expanded (time limit)"]


def test_unreadable_rule_keeps_the_event():
    (doc,) = extract(ics("UID:x\nDTSTART:20260313T100000\nRRULE:FREQ=FORTNIGHTLY"))
    assert doc.event_dates == [date(2026, 3, 13)]
    assert doc.notes == ["recurrence rule not understood"]


def test_written_date_falls_back_to_created_and_may_be_absent():
    with_created, without = extract(
        ics(
            "UID:a\nDTSTART:20260313T100000\nCREATED:20250101T000000Z",
            "UID:b\nDTSTART:20260313T100000",
        )
    )
    assert with_created.source_date == datetime(2025, 1, 1, tzinfo=timezone.utc)
    assert (without.source_date, without.date_source, without.date_precision) == (None, None, None)


def test_missing_uid_and_duplicate_uids_still_get_unique_locators():
    docs = extract(
        ics(
            "DTSTART:20260313T100000",
            "UID:same\nDTSTART:20260313T100000",
            "UID:same\nDTSTART:20260314T100000",
        )
    )
    assert [d.locator for d in docs] == ["event-1", "same", "same#2"]
    assert docs[0].title == "Untitled event"


@pytest.mark.parametrize(
    "props, reason",
    [
        ("SUMMARY:No start", "no start date (DTSTART)"),
        ("DTSTART:20261399T100000", "bad DTSTART (20261399T100000)"),
        ("DTSTART:20260313T100000\nDTEND:tomorrow", "bad DTEND (tomorrow)"),
    ],
)
def test_bad_event_is_a_failure_and_its_neighbour_survives(props, reason):
    bad, good = extract(ics(f"UID:bad\n{props}", "UID:good\nDTSTART:20260313T100000"))
    assert isinstance(bad, Failure) and bad.reason == f"event bad: {reason}"
    assert isinstance(good, Document) and good.locator == "good"


@settings(max_examples=100)
@given(st.lists(st.sampled_from(["DTSTART", "DTEND", "RRULE", "EXDATE", "DTSTAMP"])), st.text())
def test_any_event_yields_a_document_a_failure_or_an_extract_error(names, value):
    lines = "\n".join(f"{name}:{value}".replace("\n", " ").replace("\r", " ") for name in names)
    try:
        results = extract(ics(lines))
    except ExtractError:
        return
    assert all(isinstance(r, (Document, Failure)) for r in results)


def test_event_count_is_capped():
    events = (f"UID:{n}\nDTSTART:20260313T100000" for n in range(4))
    results = extract(ics(*events), Limits(max_events=2))
    assert [type(r) for r in results] == [Document, Document, Failure]
    assert results[-1].reason == "only the first 2 events read"


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "empty file"),
        (b"BEGIN:VCALENDAR\r\nthis is not ical\r\n", "not a valid iCalendar file"),
    ],
)
def test_unreadable_files_raise_extract_error(tmp_path, data, reason):
    path = tmp_path / "broken.ics"
    path.write_bytes(data)
    with pytest.raises(ExtractError, match=reason):
        list(extract_item(Item(path=path, name=path.name), Limits()))
