"""Calendars (.ics): a document per event, dated when it was written, about the days it covers."""

from __future__ import annotations

import os
import re
import time
from collections import defaultdict, deque
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import icalendar
from dateutil.rrule import rrulestr

from brainq.config import Limits
from brainq.dates import day_words, find_event_dates
from brainq.documents import Document, Failure, Item, in_the_future
from brainq.errors import ExtractError
from brainq.extract.text import decode

KIND = "calendar"

# The bounds on events and recurrences are `Limits` (patterns.yaml). Recurrences are expanded
# so that questions about a day find the events on it.

# dateutil looks for a rule's next occurrence up to year 9999, which for a rule that never
# matches again (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30) takes seconds. The Gregorian calendar
# repeats every 400 years (146,097 days, exactly 20,871 weeks), so a rule is expanded as many
# whole cycles later as fit before year 9999, where that search ends within one cycle, and its
# occurrences are moved back.
CALENDAR_CYCLE_YEARS = 400
MAX_SKIPPED_LISTED = 20  # a repeating event's days left out, named in its text
LAST_YEAR = 9998  # dateutil fails on periods that reach into year 10000
# Rules more frequent than daily are not expanded: calendar apps do not write them, and the
# search for one whose limits never match (FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30;BYHOUR=3)
# takes minutes even one cycle before year 9999.
SUB_DAILY = ("HOURLY", "MINUTELY", "SECONDLY")

# Which property tells when the entry was written, most specific first.
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
    events, cut = _events(decode(item.read(), item.charset))
    events = events[: limits.max_events + 1]
    moved = _moved_occurrences([event for event, _ in events])
    deadline = time.monotonic() + limits.recurrence_seconds
    saved = _saved(item)
    locators: set[str] = set()
    for number, (event, zone) in enumerate(events[: limits.max_events], 1):
        locator = _unique(_locator(event, number), locators)
        try:
            yield _document(item, event, zone, locator, limits, moved[_uid(event)], deadline, saved)
        except _BadEvent as exc:
            yield Failure(path=str(item.path), reason=f"event {locator}: {exc}")
    if len(events) > limits.max_events:
        yield Failure(path=str(item.path), reason=f"only the first {limits.max_events} events read")
    if cut:
        yield Failure(path=str(item.path), reason="cut short: what follows its last whole event not read")


class _BadEvent(Exception):
    """One event cannot be read (a bad or missing start); the rest of the file can."""


def _events(data: str) -> tuple[list, bool]:
    """The VEVENTs of every calendar in the file (some exports concatenate several), each with
    its calendar's zone (_zone), and whether the file was cut short: icalendar drops a calendar
    cut short whole, without a word, or fails on the whole file, so a file that yields fewer
    events than it begins is read again up to its last whole event. The file's text is read as
    a note's is: UTF-8, else UTF-16 by its byte-order mark, else Windows-1252."""
    if not data.strip():
        raise ExtractError("empty file")
    try:
        events, error = _parsed(data), None
    except ExtractError as exc:
        events, error = [], exc
    begun, ends, cut = len(_EVENT_BEGINS.findall(data)), list(_EVENT_ENDS.finditer(data)), False
    if len(events) < begun and ends:
        try:
            whole = _parsed(data[: ends[-1].end()] + "\r\nEND:VCALENDAR\r\n")
        except ExtractError:
            whole = []
        if len(whole) > len(events):
            events, cut = whole, True
    if error and not events:
        raise error
    if not events:
        raise ExtractError("a calendar cut short before its first event ended; not read" if begun else "no events in it")
    return events, cut


_EVENT_BEGINS = re.compile(r"^BEGIN:VEVENT[ \t\r]*$", re.IGNORECASE | re.MULTILINE)
_EVENT_ENDS = re.compile(r"^END:VEVENT[ \t\r]*$", re.IGNORECASE | re.MULTILINE)


def _parsed(data: str) -> list:
    try:
        calendars = icalendar.Calendar.from_ical(data, multiple=True)
    except Exception:  # icalendar raises ValueError and others, quoting the offending line
        raise ExtractError("not a valid iCalendar file") from None
    return [(event, _zone(calendar)) for calendar in calendars for event in calendar.walk("VEVENT")]


def _zone(calendar) -> ZoneInfo | None:
    """The zone a calendar is kept in (X-WR-TIMEZONE, as Google and Apple export it): their
    single events are written in UTC, and an evening's meeting in New York is on the evening's
    day there, not on the next day in UTC."""
    name = str(calendar.get("X-WR-TIMEZONE", "")).strip()
    try:
        return ZoneInfo(name) if name else None
    except (KeyError, ValueError, OSError):  # no zone of that name, or a name that is no zone's
        return None


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
    item: Item, event, zone: ZoneInfo | None, locator: str, limits: Limits, moved: list, deadline: float,
    saved: datetime | None,
) -> Document:
    """The event as a document; _BadEvent when its dates cannot be read."""
    start = _when(event, "DTSTART")
    if start is None:
        raise _BadEvent("no start date (DTSTART)")
    if zone is not None and isinstance(start, datetime) and start.tzinfo and start.tzname() == "UTC":
        # Only a single event moves to the calendar's zone: a rule written in UTC recurs in UTC
        # (across a change to summer time its local hour moves, and its EXDATEs with it).
        start = start if event.get("RRULE") else start.astimezone(zone)  # its end follows the start's zone
    written, precision = _written(event)
    try:
        end = _end(event, start)
        stamped = _stamped(event, saved)
        added = _added(event, start, moved, limits.max_occurrences)
        days, repeats, notes = _event_days(event, start, end, added, moved, deadline, limits, stamped)
        when = _describe_span(start, end, limits.max_event_days)
    except OverflowError:  # a start or end near year 1 or 9999, moved by a duration or a zone
        raise _BadEvent("dates out of range") from None
    title = _text(event, "SUMMARY")[: limits.max_text_chars] or "Untitled event"
    status = _text(event, "STATUS").lower()
    lines = [
        title,
        f"When: {when}",
        _labelled("Where", _text(event, "LOCATION")),
        _labelled("Repeats", repeats),
        # "When is the next allergy shot?": the days RDATE adds, which no rule says.
        _labelled("Also on", "; ".join(day_words(_day(begin)) for begin in added[:MAX_SKIPPED_LISTED])),
        # "Is there a lesson on Monday the 9th?" is answered by the series saying it skips it.
        _labelled("Not on", _skipped(event, start, stamped)) if repeats else "",
        # "Is practice cancelled today?" is answered by a cancelled event saying so.
        _labelled("Status", "" if status == "confirmed" else status),
        _text(event, "DESCRIPTION"),
    ]
    text = "\n".join(line for line in lines if line)
    return Document(
        path=str(item.path),
        locator=locator,
        kind=KIND,
        title=title,
        text=text,
        source_date=written,
        date_source="ics" if written else None,
        date_precision=precision,
        doc_type="calendar_event",
        event_dates=days,
        # Its UID and version, for telling an update of it from another event (scoring.same_entry).
        headers={name: _text(event, name) for name in ("UID", "SEQUENCE", "RECURRENCE-ID") if _text(event, name)},
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
        try:
            delta = getattr(event.get("DURATION"), "dt", None)
        except ValueError:  # icalendar raises when a malformed value is read, as in _when
            delta = None
        end = start + delta if isinstance(delta, timedelta) else start
    if isinstance(start, datetime) != isinstance(end, datetime):
        return start  # a DATE end for a DATE-TIME start: no usable length
    if isinstance(start, datetime) and (start.tzinfo is None) != (end.tzinfo is None):
        end = end.replace(tzinfo=start.tzinfo)  # a floating end for a zoned start, or the reverse
    elif isinstance(start, datetime) and start.tzinfo:
        end = end.astimezone(start.tzinfo)  # an end in another zone: count days where it starts
    return end if end >= start else start


def _stamps(event) -> list[date | datetime]:
    """The entry's readable WRITTEN_PROPERTIES, in their order."""
    stamps = []
    for name in WRITTEN_PROPERTIES:
        try:
            value = _when(event, name)
        except _BadEvent:
            continue  # a bad stamp is no reason to lose the event; try the next one
        if value is not None:
            stamps.append(value)
    return stamps


def _written(event) -> tuple[datetime | None, str | None]:
    """When the entry was written: its first stamp, with its precision."""
    stamps = _stamps(event)
    if not stamps:
        return None, None
    if isinstance(stamps[0], datetime):
        return stamps[0], "instant"
    return _naive(stamps[0]), "day"


def _stamped(event, saved: datetime | None) -> datetime | None:
    """The latest of the entry's stamps: when the calendar was exported or synced (DTSTAMP),
    which for a file downloaded from a calendar service is recent."""
    # A stamp after the file was saved is a broken one: it would centre the window years away,
    # and in the last years dateutil can count to, leave it no room.
    return max(
        (stamp for stamp in map(_naive, _stamps(event))
         if stamp.year < LAST_YEAR - 1 and not (saved and in_the_future(stamp, saved))),
        default=None,
    )  # fmt: skip


def _saved(item: Item) -> datetime | None:
    """When the file holding the calendar (for an attachment, its message's) was last written:
    no stamp in it can be later."""
    try:
        return datetime.fromtimestamp(os.stat(item.path).st_mtime, timezone.utc)
    except OSError:
        return None


def _event_days(event, start, end, added, moved, deadline, limits, stamped) -> tuple[list[date], str, list[str]]:
    """The days the event covers, its recurrences expanded and the occurrences `added` (RDATE);
    the recurrence in words; notes."""
    first, notes = _days(start, end, limits.max_event_days), []
    if _day_count(start, end) > limits.max_event_days:
        notes.append(f"longer than {limits.max_event_days} days: only its first days listed")
    def days_of(begins) -> set[date]:
        """The days of occurrences beginning at `begins`, each as long as the first."""
        return {day for begin in begins for day in _days(begin, begin + (end - start), limits.max_event_days)}

    first = sorted({*first, *days_of(added)})
    rule = event.get("RRULE")
    rule = rule[0] if isinstance(rule, list) else rule  # several RRULEs: deprecated, rare
    if rule is None:
        return first, "", notes
    if not isinstance(rule, icalendar.vRecur):
        return first, "", [*notes, "recurrence rule not understood"]
    repeats = _describe_rule(rule)
    if time.monotonic() > deadline:
        return first, repeats, [*notes, "recurrence not expanded (time limit)"]
    if any(str(freq).upper() in SUB_DAILY for freq in rule.get("FREQ", [])):
        return first, repeats, [*notes, "recurrence more often than daily not expanded"]
    try:
        starts, cuts = _occurrences(rule, start, _excluded(event, start, moved), limits, stamped, deadline)
    except Exception:  # dateutil rejects rules it cannot follow with ValueError and others
        return first, repeats, [*notes, "recurrence rule not understood"]
    # DTSTART is always the first occurrence, even when it does not fit the rule (RFC 5545 3.8.5.3).
    return sorted({*first, *days_of(starts)}), repeats, notes + cuts


def _added(event, start, moved: list, most: int) -> list[date | datetime]:
    """The starts of the occurrences RDATE adds (RFC 5545 3.8.5.2: dates, times or periods),
    as the start's wall-clock time, but those EXDATE leaves out or another entry moves, at most
    `most` of them; none where they cannot be read."""
    found = set()
    try:
        excluded = _excluded(event, start, moved)
        for when in _date_list(event, "RDATE"):
            begin = when[0] if isinstance(when, tuple) else when  # a period: its start
            if isinstance(begin, datetime) != isinstance(start, datetime):
                continue  # a date among times, or the reverse: no occurrence of this event
            begin = _in_zone_of(begin, start)
            if _naive(begin) not in excluded and _naive(begin) != _naive(start):
                found.add(_naive(begin) if isinstance(begin, datetime) else begin)
    except Exception:  # a malformed value (icalendar and dateutil raise several kinds): its own days stand
        return []
    return sorted(found)[:most]


def _occurrences(rule, start, excluded: set, limits: Limits, stamped, deadline: float) -> tuple[list, list[str]]:
    """Starts of the occurrences within the recurrence limits, and notes on what they cut.

    The occurrences listed are those nearest the calendar's stamp, if it is later than the
    start, up to `recurrence_days` after it: a weekly practice that began three years ago, in a
    calendar exported last week, is asked about this week, not in its first year; a series that
    ended before the stamp keeps its last occurrences."""
    # RFC 5545 3.3.10: INTERVAL is a positive integer. dateutil takes 0 and then never moves on
    # from the first period, looping forever when nothing in it matches.
    interval = rule.get("INTERVAL", [1])[0]
    if not isinstance(interval, int) or interval < 1:
        raise ValueError(f"INTERVAL {interval!r} is not a positive integer")
    local = _naive(start)
    centre = max(local, stamped) if stamped else local
    anchor = "its start" if centre == local else f"its calendar's stamp ({centre:%Y-%m-%d})"
    limit = centre + timedelta(days=limits.recurrence_days)
    text = rule.to_ical().decode("ascii")
    # Occurrences are computed in the event's own wall-clock time, so UNTIL (UTC by RFC 5545)
    # is converted to that zone first; dateutil refuses to mix naive and aware values.
    until = rule.get("UNTIL", [None])[0]
    if isinstance(until, datetime) and until.tzinfo and isinstance(start, datetime):
        until = until.astimezone(start.tzinfo)
    # BYEASTER (a dateutil extension) follows the moon, not the 400-year cycle.
    cycles = "BYEASTER" not in text.upper() and (until is None or isinstance(until, date))
    shift = _cycle_shift(limit) if cycles else 0
    recurrence = rrulestr(text, dtstart=_shifted(local, shift), ignoretz=True)
    if shift or (isinstance(until, datetime) and until.tzinfo):
        last = _naive(until) if until is not None else None
        fits = last is not None and last.year + shift <= LAST_YEAR
        recurrence = recurrence.replace(until=_shifted(last, shift) if fits else None)
    found: deque[datetime] = deque()
    cuts = []
    try:
        for occurrence in recurrence:
            occurrence = _shifted(occurrence, -shift)
            if occurrence > limit:
                cuts.append(f"occurrences more than {limits.recurrence_days} days after {anchor} not listed")
                break
            if time.monotonic() > deadline:
                cuts.append("recurrence expanded in part (time limit)")
                break
            if occurrence in excluded:
                continue
            found.append(occurrence)
            if len(found) > limits.max_occurrences:
                if not cuts:
                    cuts.append(f"only the {limits.max_occurrences} occurrences nearest {anchor} listed")
                # The nearest ones are consecutive: once a new one is the farther, so are the rest.
                if occurrence - centre >= centre - found[0]:
                    found.pop()
                    break
                found.popleft()
    except ValueError:
        if not (shift and found):
            raise
        # dateutil fails on a period reaching into year 10000: the end of the shifted search
    return [o if isinstance(start, datetime) else o.date() for o in found], cuts


def _cycle_shift(limit: datetime) -> int:
    """Years to move a rule by, whole calendar cycles, so its window ends just before LAST_YEAR."""
    return max(0, (LAST_YEAR - limit.year) // CALENDAR_CYCLE_YEARS * CALENDAR_CYCLE_YEARS)


def _shifted(moment: datetime, years: int) -> datetime:
    """The same wall-clock moment `years` later (a multiple of the cycle: Feb 29 stays valid)."""
    return moment.replace(year=moment.year + years) if years else moment


def _excluded(event, start, moved: list) -> set[datetime]:
    """EXDATEs and moved occurrences as naive wall-clock times in the event's zone."""
    return {_naive(_in_zone_of(when, start)) for when in [*_date_list(event, "EXDATE"), *(prop.dt for prop in moved)]}


def _date_list(event, name: str) -> list:
    """The values of a property listing dates (EXDATE, RDATE), given on one line or several."""
    props = event.get(name)
    props = props if isinstance(props, list) else [props] if props else []
    return [value.dt for prop in props for value in getattr(prop, "dts", [])]


def _in_zone_of(when, start):
    """A zoned date-time as the start's zone reads it; a floating one or a date as it is."""
    if isinstance(when, datetime) and when.tzinfo and getattr(start, "tzinfo", None):
        return when.astimezone(start.tzinfo)
    return when


def _skipped(event, start, stamped: datetime | None) -> str:
    """The days a repeating event leaves out (its EXDATEs) in words: of many, those nearest the
    calendar's stamp, as its occurrences are (a lesson's skipped days of years ago matter less)."""
    try:
        days = {_day(when) for when in _excluded(event, start, [])}
    except Exception:  # a malformed EXDATE: _event_days notes the rule as not understood
        return ""
    centre = stamped.date() if stamped else max(days, default=None)
    listed = sorted(sorted(days, key=lambda day: abs((day - centre).days))[:MAX_SKIPPED_LISTED])
    text = "; ".join(day_words(day) for day in listed)
    more = len(days) - len(listed)
    return f"{text} and {more} more" if more else text


def _days(start, end, max_days: int) -> list[date]:
    """Every day from start to end, at most `max_days` of them."""
    first = _day(start)
    count = min(_day_count(start, end), max_days)
    return [first + timedelta(days=n) for n in range(max(count, 1))]


def _day_count(start, end) -> int:
    """How many days an occurrence from start to end touches (at least one)."""
    first = _day(start)
    if end <= start:
        last = first
    elif isinstance(end, datetime):
        last = _day(end - timedelta(microseconds=1))  # an event ending at midnight ends that day
    else:
        last = end - timedelta(days=1)  # the DTEND of an all-day event is exclusive
    return max((last - first).days + 1, 1)


def _describe_span(start, end, max_days: int) -> str:
    """'Friday 13 March 2026, 15:00 to 16:30 (America/New_York)'; the days of an all-day event."""
    if not isinstance(start, datetime):
        days = _days(start, end, max_days)
        span = day_words(days[0])
        return span if len(days) == 1 else f"{span} to {day_words(days[-1])}"
    zone = getattr(start.tzinfo, "key", None) or (start.tzname() if start.tzinfo else None)
    suffix = f" ({zone})" if zone else ""
    if end.date() == start.date():
        until = f" to {end:%H:%M}" if end > start else ""
        return f"{day_words(start)}, {start:%H:%M}{until}{suffix}"
    return f"{day_words(start)} {start:%H:%M} to {day_words(end)} {end:%H:%M}{suffix}"


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
        words.append(f"until {day_words(until)}")
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


# An event's "When:" line for one day, as _describe_span writes it: the day, its times and zone.
_ONE_DAY = re.compile(
    r"When: (?P<day>[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ \d{4})"
    r"(?P<rest>(?:, \d\d:\d\d(?: to \d\d:\d\d)?)?(?: \([^()]*\))?)(?! to | \d)"
)


def answer_line(
    line: str, title: str, text: str, repeating: Series | None, day: date | None, asked: tuple[date, date] | None = None
) -> str:
    """An answer line quoting an event's `text`, as a person would say it: with the event's
    title ("When: Friday 13 March 2026" alone says when, not what), its status where it is not
    as planned ("cancelled"), and for a repeating event the occurrence on `day` (see on_day),
    or where it has none in the days `asked` about, those of them it skips ("when is chess club
    next week?" of a week without it). An event of one occasion is said with its "When:": a
    title alone ("Soccer practice (moved to Wednesday)") leaves the day to guess."""
    if title not in line:
        line = f"{title} {line}"
    if repeating and day:
        line = on_day(line, repeating, day)
    elif repeating and asked and (skipped := _skipped_within(text, *asked)) and skipped not in line:
        line = f"{line} {skipped}"
    elif not repeating and "When: " not in line and (when := when_stated(text)):
        line = f"{line} {when}"
    status = _STATUS.search(text)
    return f"{line} {status[0]}" if status and status[0] not in line else line


_STATUS = re.compile(r"^Status: \w+$", re.MULTILINE)


def when_stated(text: str) -> str:
    """What an event's text says of when it is, and of its status: its "When:" and "Status:"."""
    return " ".join(line for line in text.splitlines() if line.startswith(("When: ", "Status: ")))


_NOT_ON = re.compile(r"^Not on: (?P<days>.*)$", re.MULTILINE)


def _skipped_within(text: str, first: date, last: date) -> str:
    """The "Not on:" days of an event's text from `first` to `last`, as its line says them."""
    found = _NOT_ON.search(text)
    days = [d for d in find_event_dates(found["days"], None) if first <= d <= last] if found else []
    return f"Not on: {'; '.join(day_words(d) for d in days)}" if days else ""


@dataclass
class Series:
    """A repeating event of one day at a time, as its text and stored days tell it."""

    when: re.Match  # its "When:" line, which names its first day
    first: date
    days: list[date]  # its own days: the first, and those listed around the calendar's stamp
    ends: bool  # it has a last day (UNTIL or COUNT), so the last day listed may be it


def series(text: str, days: list[date], anchor: date | None, day_first: bool | None = None) -> Series | None:
    """The repeating event `text` describes, with its stored `days`, or None (see own_days)."""
    found = _ONE_DAY.search(text)
    repeats = _REPEATS.search(text)
    if not found or not repeats:
        return None
    first = datetime.strptime(found["day"], "%A %d %B %Y").date()
    own = [d for d in own_days(text, days, anchor, day_first) if d >= first]
    return Series(found, first, own, bool(_ENDS.search(repeats[0]))) if len(own) > 1 else None


def own_days(text: str, days: list[date], anchor: date | None, day_first: bool | None = None) -> list[date]:
    """The days of an event's stored `days` it happens on. Stored, they hold those its text
    names too (a day "Not on:", "moved from Saturday, March 21" in its description), as the
    entry speaks of them; those are left out, but for the days its "When:", "Repeats:" and
    "Also on:" lines name (its first, the last of a series until a day, those RDATE adds).
    `day_first`: its order of numeric dates."""
    lines = text.splitlines()
    stated = set(find_event_dates("\n".join(line for line in lines if line.startswith(_OWN_LINES)), anchor, day_first=day_first))
    named = set(find_event_dates("\n".join(line for line in lines if not line.startswith(_OWN_LINES)), anchor, day_first=day_first))
    return [d for d in days if d in stated or d not in named]


_OWN_LINES = ("When: ", "Repeats: ", "Also on: ")  # the lines an event's own days are written on


_REPEATS = re.compile(r"^Repeats: .*$", re.MULTILINE)
_ENDS = re.compile(r", \d+ times\b| until ")


def on_day(line: str, repeating: Series, day: date) -> str:
    """`line`, about the occurrence of a repeating event on `day`: its "When:" (the day the
    series began) restated for that day, in place or added. "When is the next piano lesson?"
    is not answered by the day the lessons began, three years ago, nor by "Repeats: every week
    on Tuesday" alone."""
    when = repeating.when
    if day == repeating.first:
        restated = when[0]
    else:
        restated = f"When: {day_words(day)}{when['rest']}, one of a series since {day_words(repeating.first)}"
    return line.replace(when[0], restated) if when[0] in line else f"{line} {restated}"


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
