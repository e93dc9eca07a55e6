"""Calendars (.ics): a document per event, dated when it was written, about the days it covers."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from datetime import date, datetime, timedelta

import icalendar
from dateutil.rrule import rrulestr

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError

KIND = "calendar"

# Bounds that keep a hostile or enormous calendar from stalling a run. A decade of a busy
# person's calendar is a few thousand events; a day list longer than a month is a date typo.
MAX_EVENTS = 20_000
MAX_DAYS_PER_OCCURRENCE = 31
# Recurrences are expanded for matching questions about a day, over the first 400 days only
# (a weekly practice repeats its first year's pattern), and at most 200 times (a daily event).
RECURRENCE_WINDOW = timedelta(days=400)
MAX_OCCURRENCES = 200
# dateutil searches a rule that never matches (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30) until year
# 9999, which takes seconds. An ordinary rule takes about a millisecond, so only a hostile file
# spends this long expanding; its remaining rules are then left unexpanded.
EXPANSION_BUDGET_SECONDS = 5.0

# Which property tells when the entry was written, most specific first (DESIGN.md section 1).
WRITTEN_PROPERTIES = ("LAST-MODIFIED", "DTSTAMP", "CREATED")
FREQUENCY_WORDS = {
    "YEARLY": "year", "MONTHLY": "month", "WEEKLY": "week", "DAILY": "day",
    "HOURLY": "hour", "MINUTELY": "minute", "SECONDLY": "second",
}
WEEKDAYS = {
    "MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday",
    "FR": "Friday", "SA": "Saturday", "SU": "Sunday",
}
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", -1: "last"}


def sniff(name: str, head: bytes) -> bool:
    """An iCalendar header (RFC 5545 names are case-insensitive); an .ics name too."""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:15].upper()
    return start == b"BEGIN:VCALENDAR" or name.lower().endswith(".ics")


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    """A document per event; an event with a bad date is a Failure, its neighbours still count."""
    events = _events(item.read())[:MAX_EVENTS + 1]
    moved = _moved_occurrences(events)
    deadline = time.monotonic() + EXPANSION_BUDGET_SECONDS
    locators: set[str] = set()
    for number, event in enumerate(events[:MAX_EVENTS], 1):
        locator = _unique(_locator(event, number), locators)
        try:
            yield _document(item, event, locator, limits, moved[_uid(event)], deadline)
        except _BadEvent as exc:
            yield Failure(path=str(item.path), reason=f"event {locator}: {exc}")
    if len(events) > MAX_EVENTS:
        yield Failure(path=str(item.path), reason=f"only the first {MAX_EVENTS} events read")


class _BadEvent(Exception):
    """One event cannot be read (a bad or missing start); the rest of the file can."""


def _events(data: bytes) -> list:
    """The VEVENTs of every calendar in the file (some exports concatenate several)."""
    if not data.strip():
        raise ExtractError("empty file")
    try:
        calendars = icalendar.Calendar.from_ical(data, multiple=True)
    except Exception:  # icalendar raises ValueError and others, quoting the offending line
        raise ExtractError("not a valid iCalendar file") from None
    return [event for calendar in calendars for event in calendar.walk("VEVENT")]


def _moved_occurrences(events: list) -> defaultdict[str, list]:
    """RECURRENCE-IDs by UID: occurrences of a recurring event that a separate entry replaces."""
    moved = defaultdict(list)
    for event in events:
        if event.get("RECURRENCE-ID") is not None:
            moved[_uid(event)].append(event["RECURRENCE-ID"])
    return moved


def _uid(event) -> str:
    return str(event.get("UID", "")).strip()


def _locator(event, number: int) -> str:
    """UID, plus RECURRENCE-ID for a changed occurrence of a recurring event (RFC 5545 3.8.4.4)."""
    uid = _uid(event) or f"event-{number}"
    recurrence_id = event.get("RECURRENCE-ID")
    if recurrence_id is None:
        return uid
    return f"{uid}@{_as_written(recurrence_id)}"


def _unique(locator: str, seen: set[str]) -> str:
    """`locator`, suffixed #2, #3 ... when the file already used it (duplicate UIDs happen)."""
    candidate, n = locator, 1
    while candidate in seen:
        n += 1
        candidate = f"{locator}#{n}"
    seen.add(candidate)
    return candidate


def _document(
    item: Item, event, locator: str, limits: Limits, moved: list, deadline: float
) -> Document:
    """The event as a document; _BadEvent when its dates cannot be read."""
    start = _when(event, "DTSTART")
    if start is None:
        raise _BadEvent("no start date (DTSTART)")
    end = _end(event, start)
    written, precision = _written(event)
    days, repeats, notes = _event_days(event, start, end, moved, deadline)
    title = _text(event, "SUMMARY") or "Untitled event"
    status = _text(event, "STATUS").lower()
    lines = [
        title,
        f"When: {_describe_span(start, end)}",
        _labelled("Where", _text(event, "LOCATION")),
        _labelled("Repeats", repeats),
        # "Is practice cancelled today?" is answered by a cancelled event saying so.
        _labelled("Status", "" if status == "confirmed" else status),
        _text(event, "DESCRIPTION"),
    ]
    return Document(
        path=str(item.path),
        locator=locator,
        kind=KIND,
        title=title,
        text="\n".join(line for line in lines if line)[: limits.max_text_chars],
        source_date=written,
        date_source="ics" if written else None,
        date_precision=precision,
        doc_type="calendar_event",
        event_dates=days,
        notes=notes,
    )


def _when(event, name: str) -> date | datetime | None:
    """A DATE or DATE-TIME property's value; _BadEvent when it is present but unreadable."""
    prop = event.get(name)
    if prop is None:
        return None
    try:
        value = prop.dt
    except (AttributeError, ValueError):  # icalendar raises when a malformed value is read
        value = None
    if not isinstance(value, date):  # malformed, repeated, or a PERIOD where a date belongs
        raise _BadEvent(f"bad {name} ({_as_written(prop)})")
    return value


def _as_written(prop) -> str:
    """A property's value as the file wrote it, shortened, for a message."""
    if isinstance(prop, list):
        return "given more than once"
    return prop.to_ical().decode("utf-8", "replace")[:40]


def _end(event, start: date | datetime) -> date | datetime:
    """DTEND, else DTSTART + DURATION, else the start (RFC 5545 3.6.1), in the start's terms."""
    end = _when(event, "DTEND")
    if end is None:
        duration = event.get("DURATION")
        delta = getattr(duration, "dt", None)
        end = start + delta if isinstance(delta, timedelta) else start
    if isinstance(start, datetime) != isinstance(end, datetime):
        return start  # a DATE end for a DATE-TIME start: no usable length
    if isinstance(start, datetime) and (start.tzinfo is None) != (end.tzinfo is None):
        end = end.replace(tzinfo=start.tzinfo)  # a floating end for a zoned start, or the reverse
    elif isinstance(start, datetime) and start.tzinfo:
        end = end.astimezone(start.tzinfo)  # an end in another zone: count days where it starts
    return end if end >= start else start


def _written(event) -> tuple[datetime | None, str | None]:
    """When the entry was written, from WRITTEN_PROPERTIES, with its precision."""
    for name in WRITTEN_PROPERTIES:
        try:
            value = _when(event, name)
        except _BadEvent:
            continue  # a bad stamp is no reason to lose the event; try the next one
        if isinstance(value, datetime):
            return value, "instant"
        if value is not None:
            return datetime(value.year, value.month, value.day), "day"
    return None, None


def _event_days(event, start, end, moved, deadline) -> tuple[list[date], str, list[str]]:
    """The days the event covers, its recurrences expanded; the recurrence in words; notes."""
    rule = event.get("RRULE")
    rule = rule[0] if isinstance(rule, list) else rule  # several RRULEs: deprecated, rare
    if rule is None:
        return _days(start, end), "", []
    if not isinstance(rule, icalendar.vRecur):
        return _days(start, end), "", ["recurrence rule not understood"]
    repeats = _describe_rule(rule)
    if time.monotonic() > deadline:
        return _days(start, end), repeats, ["recurrence not expanded (time limit)"]
    try:
        starts = _occurrences(rule, start, _excluded(event, start, moved))
    except Exception:  # dateutil rejects rules it cannot follow with ValueError and others
        return _days(start, end), repeats, ["recurrence rule not understood"]
    # DTSTART is always the first occurrence, even when it does not fit the rule (RFC 5545 3.8.5.3).
    days = set(_days(start, end))
    days.update(day for begin in starts for day in _days(begin, begin + (end - start)))
    return sorted(days), repeats, []


def _occurrences(rule, start, excluded: set) -> list:
    """Starts of the occurrences within RECURRENCE_WINDOW, at most MAX_OCCURRENCES of them."""
    local = _naive(start)
    # Occurrences are computed in the event's own wall-clock time, so UNTIL (UTC by RFC 5545)
    # is converted to that zone first; dateutil refuses to mix naive and aware values.
    recurrence = rrulestr(rule.to_ical().decode("ascii"), dtstart=local, ignoretz=True)
    until = rule.get("UNTIL", [None])[0]
    if isinstance(until, datetime) and until.tzinfo and isinstance(start, datetime):
        recurrence = recurrence.replace(until=_naive(until.astimezone(start.tzinfo)))
    limit = local + RECURRENCE_WINDOW
    found = []
    for occurrence in recurrence:
        if occurrence > limit or len(found) >= MAX_OCCURRENCES:
            break
        if occurrence not in excluded:
            found.append(occurrence if isinstance(start, datetime) else occurrence.date())
    return found


def _excluded(event, start, moved: list) -> set[datetime]:
    """EXDATEs and moved occurrences as naive wall-clock times in the event's zone."""
    exdates = event.get("EXDATE")
    exdates = exdates if isinstance(exdates, list) else [exdates] if exdates else []
    values = set()
    for prop in [value for exdate in exdates for value in getattr(exdate, "dts", [])] + moved:
        when = prop.dt
        if isinstance(when, datetime) and when.tzinfo and getattr(start, "tzinfo", None):
            when = when.astimezone(start.tzinfo)
        values.add(_naive(when))
    return values


def _days(start, end) -> list[date]:
    """Every day from start to end, at most MAX_DAYS_PER_OCCURRENCE of them."""
    first = _day(start)
    if end <= start:
        last = first
    elif isinstance(end, datetime):
        last = _day(end - timedelta(microseconds=1))  # an event ending at midnight ends that day
    else:
        last = end - timedelta(days=1)  # the DTEND of an all-day event is exclusive
    count = min(max((last - first).days + 1, 1), MAX_DAYS_PER_OCCURRENCE)
    return [first + timedelta(days=n) for n in range(count)]


def _describe_span(start, end) -> str:
    """'Friday 13 March 2026, 15:00 to 16:30 (America/New_York)'; the days of an all-day event."""
    if not isinstance(start, datetime):
        days = _days(start, end)
        span = _day_words(days[0])
        return span if len(days) == 1 else f"{span} to {_day_words(days[-1])}"
    zone = getattr(start.tzinfo, "key", None) or (start.tzname() if start.tzinfo else None)
    suffix = f" ({zone})" if zone else ""
    if end.date() == start.date():
        until = f" to {end:%H:%M}" if end > start else ""
        return f"{_day_words(start)}, {start:%H:%M}{until}{suffix}"
    return f"{_day_words(start)} {start:%H:%M} to {_day_words(end)} {end:%H:%M}{suffix}"


def _describe_rule(rule) -> str:
    """An RRULE in words: 'every 2 weeks on Monday and Wednesday until 30 June 2026'."""
    try:
        frequency = FREQUENCY_WORDS[rule["FREQ"][0]]
        interval = int(rule.get("INTERVAL", [1])[0])
    except (KeyError, IndexError, TypeError, ValueError):
        return "yes"
    words = [f"every {interval} {frequency}s" if interval > 1 else f"every {frequency}"]
    weekdays = [_weekday_words(str(day)) for day in rule.get("BYDAY", [])]
    if weekdays:
        words.append("on " + _join(weekdays))
    if rule.get("COUNT"):
        words[-1] += f", {rule['COUNT'][0]} times"
    until = rule.get("UNTIL", [None])[0]
    if isinstance(until, date):
        words.append(f"until {_day_words(until)}")
    return " ".join(words)


def _weekday_words(byday: str) -> str:
    """'MO' is Monday, '1MO' the first Monday, '-1FR' the last Friday."""
    name = WEEKDAYS.get(byday[-2:].upper(), byday)
    ordinal = byday[:-2].lstrip("+")
    if ordinal.lstrip("-").isdigit() and int(ordinal) in ORDINALS:
        return f"the {ORDINALS[int(ordinal)]} {name}"
    return name


def _labelled(label: str, value: str) -> str:
    return f"{label}: {value}" if value else ""


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _day_words(day: date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


def _day(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


def _naive(value: date | datetime) -> datetime:
    """Wall-clock time without a zone; a DATE as its midnight."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    return datetime(value.year, value.month, value.day)


def _text(event, name: str) -> str:
    """A text property, stripped; "" when absent."""
    return str(event.get(name, "")).strip()
