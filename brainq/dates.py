"""Dates printed in documents: the days a text talks about, and the date it was written.

Everything here is regular expressions over plain text, linear in its length, and deliberately
conservative: a wrong date ranks a document for the wrong day, which is worse than no date.
Numeric dates are read month first (3/13/2026), as in the US, unless one of them can only be
day first ("25/11/2026", as British and European households write): then the text's others are
read day first too ("8/12/2026" is 8 December), as no text mixes the two.
Nothing here reads the clock: relative words ("tomorrow", "next Tuesday") resolve against an
anchor the caller passes, usually the document's own date.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from brainq import cjk

MONTHS: dict[str, int] = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
    "december": 12, "dec": 12,
}  # fmt: skip

# Full names only: "Sun", "Sat" and "Wed" are ordinary words too, so abbreviations are accepted
# only right before a month ("Sat, Mar 14"), where they cannot be mistaken.
WEEKDAYS: dict[str, int] = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6,
}  # fmt: skip
WEEKDAY_ABBREVIATIONS: dict[str, int] = {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
    "sat": 5, "sun": 6,
}  # fmt: skip

# Days named relative to the day of writing (or of asking), as an offset in days: single words,
# and phrases ("I watched it last night", written on the 2nd, is about the 1st).
DAY_WORDS: dict[str, int] = {
    "today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1,
    "tonite": 0, "tmrw": 1, "tomorow": 1, "tommorow": 1, "tommorrow": 1,  # as they are typed too
}  # fmt: skip
DAY_PHRASES: dict[str, int] = {
    "last night": -1, "this morning": 0, "this afternoon": 0, "this evening": 0,
    "day before yesterday": -2, "day after tomorrow": 2,
}  # fmt: skip
DAY_OFFSETS = DAY_WORDS | DAY_PHRASES


def _alternation(names) -> str:
    """A regex alternation trying longer names first, so "march" wins over "mar"."""
    return "|".join(sorted(names, key=len, reverse=True))


DAY_OFFSET_RE = _alternation(w.replace(" ", r"\s+") for w in DAY_OFFSETS)
MONTH_RE = rf"\b(?:{_alternation(MONTHS)})\b"
WEEKDAY_RE = rf"\b(?:{_alternation(WEEKDAYS)})\b"
# A day as a question may type it: its full name, or an abbreviation that is no other word
# ("fri", "thurs"; not "sun", "sat", "wed" or "mon").
TYPED_WEEKDAYS = WEEKDAYS | {"tue": 1, "tues": 1, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4}
TYPED_WEEKDAY_RE = rf"\b(?:{_alternation(TYPED_WEEKDAYS)})\b"
_ANY_WEEKDAY_RE = rf"\b(?:{_alternation(WEEKDAYS | WEEKDAY_ABBREVIATIONS)})\b"

# The first year of each Japanese era a document of today's may date by (元年 is its first).
ERAS = {"令和": 2019, "平成": 1989, "昭和": 1926}

# Years a document or a question plausibly talks about; anything else is a number.
MIN_YEAR, MAX_YEAR = 1900, 2199

# A 2 MB manual names its dates in its first pages, if at all; scanning further only costs time.
SCAN_CHARS = 200_000
# Where a document's own date is printed: labelled near the top, or a letter's date line.
DOCUMENT_HEAD_CHARS = 3000
# Two consecutive years joined by a dash or slash; not part of an ISO date ("2025-10-13").
_YEAR_SPAN = re.compile(r"(?<![\d-])(?P<first>(?:19|20)\d\d) ?[-–/] ?(?P<second>(?:19|20)?\d\d)(?![\d-])")
LETTER_HEAD_LINES = 15

# Where a number starts a word: also right after a Chinese, Japanese or Korean character
# ("会議は3/13"), where no word boundary is, as those scripts write no spaces.
_START = rf"(?:\b|(?<=[{cjk.CHARACTERS}]))"
_DAY = rf"{_START}(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?![:./]\d)"  # not a time, decimal or fraction
_YEAR = r"(?P<year>\d{4})(?!\d)"
_WEEKDAY_PREFIX = rf"(?:(?P<weekday>{_ANY_WEEKDAY_RE})\.?,?\s+)?"
_MONTH_NAME = rf"(?P<month>{MONTH_RE})\.?"

# The ways a calendar date is printed. Each form names its parts (weekday, month, day, year);
# _tagged() makes the names unique so that one regex, one pass, can hold every form.
_FORMS = {
    # "Friday, March 13", "Mar. 13th", "March 13, 2026"
    "md": rf"{_WEEKDAY_PREFIX}{_MONTH_NAME}\s+{_DAY}(?:(?:,\s*|\s+){_YEAR})?",
    # "March3, 2026", "April8,2025": OCR runs large print together; only with a year after it,
    # so that no code ("MAR3") is a date
    "md_glued": rf"\b(?P<month>{_alternation(MONTHS)})(?P<day>\d{{1,2}}),\s*{_YEAR}",
    # "13 March 2026", "Fri 13th of March"; in "3 may arrive late", "may" is the verb, in "the
    # 5th of may" the month
    "dm": rf"{_WEEKDAY_PREFIX}(?<![\d.,$/:-]){_DAY}\s+(?:of\s+|(?-i:(?!may\b))){_MONTH_NAME}"
    rf"(?:,?\s+{_YEAR})?",
    # "2026-03-13", "2026/03/13": ISO order, year first
    "ymd": rf"(?<![\d./-]){_START}(?P<year>\d{{4}})(?P<sep>[-/])(?P<month>\d{{1,2}})(?P=sep)(?P<day>\d{{1,2}})"
    r"(?![\d/]|-\d)",
    # "3/13", "Fri 3/13", "3/13/26", "03/13/2026"
    "mdy": rf"{_WEEKDAY_PREFIX}(?<![\d./$:-]){_START}(?P<month>\d{{1,2}})/(?P<day>\d{{1,2}})"
    r"(?:/(?P<year>\d{4}|\d{2}))?(?![\d/%]|[.,:]\d)",
    # "3-13-2026"; with dashes only when a year follows, so "555-1212" stays a phone number
    "mdy_dash": rf"(?<![\d./$:-]){_START}(?P<month>\d{{1,2}})-(?P<day>\d{{1,2}})-(?P<year>\d{{4}})(?![\d-])",
    # "2026年3月13日", "3月13日", "3月13号" (Chinese and Japanese), "2026년 3월 13일" (Korean): the marks
    # name each part, so no order is guessed and no fraction mistaken (`marked`); a Japanese
    # year may be of an era ("令和8年": the eighth year of Reiwa, 2026)
    "cjk": r"(?<!\d)(?:(?:(?P<year>\d{4})|(?P<era>令和|平成|昭和)[ \t]*(?P<era_year>\d{1,2}|元))[ \t]*[年년][ \t]*)?"
    r"(?P<month>\d{1,2})[ \t]*[月월][ \t]*(?P<day>\d{1,2})[ \t]*[日号일](?P<marked>)",
}
# "Black Friday" and "Good Friday" are names of days, not the coming Friday.
NAMED_DAY = r"(?<!black )(?<!good )"
# "tomorrow", "next Tuesday"; "every Friday" is a habit.
_RELATIVE_PREFIXES = ("next", "this", "coming", "last", "past", "previous", "every")
_RELATIVE = (
    rf"\b(?:(?P<prefix>{'|'.join(_RELATIVE_PREFIXES)})\s+)?{NAMED_DAY}"
    rf"(?P<weekday>{WEEKDAY_RE})|\b(?P<word>{DAY_OFFSET_RE})\b"
)


def _tagged(tag: str, form: str) -> str:
    """`form` with each group name suffixed by __tag, as one regex may not repeat a name."""
    return re.sub(r"\(\?P([<=])(\w+)", rf"(?P\1\2__{tag}", form)


def _at_word_starts(alternation: str) -> re.Pattern:
    """`alternation`, tried only where a digit or a name above starts a word (every form does):
    the engine would try each alternative at every character, four times slower."""
    names = (*MONTHS, *WEEKDAYS, *WEEKDAY_ABBREVIATIONS, *DAY_OFFSETS, *_RELATIVE_PREFIXES, *ERAS)
    first = "".join(sorted({name[0] for name in names}))
    return re.compile(rf"{_START}(?=[0-9{first}])(?:{alternation})", re.IGNORECASE)


_CALENDAR_FORMS = "|".join(_tagged(tag, form) for tag, form in _FORMS.items())
_EVENT_FORMS = f"{_CALENDAR_FORMS}|{_tagged('rel', _RELATIVE)}"
_CALENDAR_DATE = _at_word_starts(_CALENDAR_FORMS)
_EVENT_DATE = _at_word_starts(_EVENT_FORMS)

# "1/2", "3/4", "4/5 stars": fractions and ratings look like month/day; such a pair counts as a
# date only with a weekday or after a word that introduces one ("on 3/4", "Friday 3/4").
_FRACTION_DENOMINATORS = {2, 3, 4, 5, 8, 10}
_DATE_INTRODUCER = re.compile(
    r"\b(?:on|by|due|until|till|thru|through|from|dated|date)[\s.,:]*$", re.IGNORECASE
)
# A house number on a street named after a month, on one line: "30 March Street", "12 May Ave".
_STREET_AFTER = re.compile(r"[ \t]+(?:Street|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Boulevard|Blvd|Terrace|Crescent|Court|Place|Way)\b")
_PLAIN_NUMBER = re.compile(r"\d{1,2}\s")


@dataclass(frozen=True)
class Mention:
    """A calendar date as printed: the year is None when the text leaves it out."""

    start: int
    end: int
    month: int
    day: int
    year: int | None
    weekday: int | None = None  # the weekday printed with it, if any ("Friday, March 13")


# A date in numbers with slashes and a four-digit year, the order of whose day and month is
# to be told (without one, "open 24/7" or "15/12/10 reps" is no date).
_SLASHED = re.compile(r"(?<![\d./$:-])(\d{1,2})/(\d{1,2})/\d{4}(?![\d/%])")


# What a document's notes say when its numeric dates are read day first: kept with it, so the
# sentences of it read at question time are read as the whole document was at ingest.
DAY_FIRST_NOTE = "numeric dates read day first (25/11/2026)"


def writes_day_first(text: str) -> bool:
    """Whether the text writes numeric dates day first: one of them, with its year, can only be
    read so ("25/11/2026"), and none only month first ("11/25/2026")."""
    pairs = [(int(a), int(b)) for a, b in _SLASHED.findall(text[:SCAN_CHARS])]
    return any(a > 12 >= b >= 1 for a, b in pairs) and not any(b > 12 >= a >= 1 for a, b in pairs)


def set_order(order: str) -> bool | None:
    """The order of numeric dates patterns.yaml's `numeric_dates` sets: day first (True), month
    first (False), or none (auto: as each text shows)."""
    return {"day_first": True, "month_first": False}.get(order)


def reads_day_first(text: str, order: str) -> bool:
    """Whether a document's ambiguous numeric dates ("8/12/2026") are read day first, under
    patterns.yaml's `numeric_dates`: always, never, or (auto) where its text shows it writes them
    so. A date that can only be read one way is read so under every setting."""
    fixed = set_order(order)
    return writes_day_first(text) if fixed is None else fixed


def has_numeric_dates(text: str) -> bool:
    """Whether the text may hold a date in numbers whose order matters ("8/12", "8-12-2026")."""
    return _NUMERIC_PAIR.search(text[:SCAN_CHARS]) is not None


_NUMERIC_PAIR = re.compile(r"(?<![\d.])\d{1,2}[/.-]\d{1,2}(?![\d])")


def iter_mentions(text: str, day_first: bool | None = None) -> Iterator[Mention]:
    """Calendar dates printed in `text`, in order; impossible ones (February 30) are skipped.
    `day_first`: whether the document the text is part of writes numeric dates so (by default,
    whether the text itself shows it)."""
    day_first = writes_day_first(text) if day_first is None else day_first
    for m in _CALENDAR_DATE.finditer(text):
        mention = _mention(m, _parts(m), text, day_first)
        if mention is not None:
            yield mention


# What follows a month and a figure that are a date, not a count ("the Feb 30 day trial", "the
# September 90-day pass", "August 32 years ago", "31 April Lane"): the question's end, a stop,
# or a word that goes on after a date.
_ENDS_A_DATE = re.compile(r"\s*(?:$|[?.,;:!)]|(?:at|in|on|is|was|and|or|for|this|next|last|from|to|until)\b)", re.IGNORECASE)


def impossible_days(text: str) -> list[str]:
    """Days written with a month's name that no calendar has ("February 30", "the 31st of April",
    "Feb 29, 2027"), as printed. iter_mentions passes over them, so a question naming one would
    be answered as if it named no day, or another ("the 31st")."""
    found = []
    for m in _CALENDAR_DATE.finditer(text):
        parts = _parts(m)
        if "day" not in parts or parts["month"].isdigit() or not _ENDS_A_DATE.match(text, m.end()):
            continue
        try:
            date(plausible_year(parts.get("year")) or 2000, MONTHS[parts["month"].lower()], int(parts["day"]))
        except ValueError:
            found.append(m.group().strip())
    return found


def _parts(m: re.Match) -> dict[str, str]:
    """The parts of a match by their untagged names: weekday, month, day, year, ..."""
    found = m.groupdict().items()
    parts = {name.split("__")[0]: value for name, value in found if value is not None}
    if "era" in parts:  # a Japanese era's year, as the year of the common era
        n = 1 if parts["era_year"] == "元" else int(parts["era_year"])
        parts["year"] = str(ERAS[parts["era"]] + n - 1)
    return parts


def _mention(m: re.Match, parts: dict[str, str], text: str, day_first: bool = False) -> Mention | None:
    """The date a match stands for; None for a fraction, an impossible day or a numeric date
    with an implausible year. After a month name, a number that is no year ("March 13, 1500
    guests") is just a number: the day stands, without a year. A date of numbers in US order
    is read day first where the text writes it so (`day_first`), or where it can only be."""
    numeric = parts["month"].isdigit()
    month = int(parts["month"]) if numeric else MONTHS[parts["month"].lower()]
    day, year = int(parts["day"]), plausible_year(parts.get("year"))
    if numeric and "year" in parts and year is None:
        return None  # "3/13/1066": a number with slashes, not a date
    if numeric and not ({"year", "weekday", "marked"} & parts.keys()):
        before = text[max(0, m.start() - 20) : m.start()]
        if _looks_like_fraction(month, day, before) or (day_first and (month, day) == (24, 7) and not _DATE_INTRODUCER.search(before)):
            return None  # "1/2 cup"; "open 24/7"
    if numeric and not ({"sep", "marked"} & parts.keys()):  # not ISO's year-month-day, nor marked parts
        only_day_first = len(parts.get("year", "")) == 4 and month > 12 >= day
        if only_day_first or (day_first and day <= 12):  # "11/25/2026" is month first however written
            month, day = day, month
    if not numeric and not ({"year", "weekday"} & parts.keys()) and _is_address(m, text):
        return None
    try:
        date(year or 2000, month, day)  # 2000 is a leap year: February 29 may exist
    except ValueError:
        return None
    return Mention(m.start(), m.end(), month, day, year, _weekday(parts.get("weekday")))


def _is_address(m: re.Match, text: str) -> bool:
    """A plain number, a month's name and a street's ("30 March Street"), with no word before it
    that introduces a date ("on 12 May Drive ...")."""
    return bool(
        _PLAIN_NUMBER.match(m.group())
        and _STREET_AFTER.match(text, m.end())
        and not _DATE_INTRODUCER.search(text[max(0, m.start() - 20) : m.start()])
    )


def _weekday(name: str | None) -> int | None:
    if name is None:
        return None
    name = name.lower()
    return WEEKDAYS.get(name, WEEKDAY_ABBREVIATIONS.get(name))


def plausible_year(text: str | None) -> int | None:
    """A printed year, or None; two digits pivot like strptime's %y (69-99 → 1900s)."""
    if text is None:
        return None
    year = int(text)
    if len(text) == 2:
        year += 1900 if year >= 69 else 2000
    return year if MIN_YEAR <= year <= MAX_YEAR else None


def _looks_like_fraction(month: int, day: int, before: str) -> bool:
    return month < day and day in _FRACTION_DENOMINATORS and not _DATE_INTRODUCER.search(before)


def nearest_occurrence(
    month: int, day: int, anchor: date, weekday: int | None = None
) -> date | None:
    """The `month`/`day` nearest the anchor: a December email's "January 5" is next January.

    A printed weekday ("Friday, March 13") picks, of last, this and next year, the one in which
    that day is that weekday. None for February 29 near a year that has none.
    """
    candidates = []
    for year in (anchor.year - 1, anchor.year, anchor.year + 1):
        try:
            candidates.append(date(year, month, day))
        except ValueError:
            continue
    if weekday is not None and any(d.weekday() == weekday for d in candidates):
        candidates = [d for d in candidates if d.weekday() == weekday]
    if not candidates:
        return None
    return min(candidates, key=lambda d: (abs((d - anchor).days), d < anchor))


def weekday_on_or_after(anchor: date, weekday: int) -> date:
    """The first `weekday` on or after the anchor: "Friday" on a Friday is that day."""
    return anchor + timedelta(days=(weekday - anchor.weekday()) % 7)


def weekday_before(anchor: date, weekday: int) -> date:
    """The last `weekday` strictly before the anchor: one to seven days back."""
    return anchor - timedelta(days=(anchor.weekday() - weekday - 1) % 7 + 1)


def weekday_of_week(anchor: date, weekday: int, weeks: int) -> date:
    """`weekday` of the Monday-to-Sunday week `weeks` away from the anchor's week.

    "next Tuesday" is the Tuesday of next week and "last Tuesday" the Tuesday of last week, as
    "next week" and "last week" are; "this Tuesday" means the coming one.
    """
    monday = anchor - timedelta(days=anchor.weekday())
    return monday + timedelta(weeks=weeks, days=weekday)


def day_words(day: date) -> str:
    """A day as a sentence writes it: "Friday 13 March 2026"."""
    return f"{day:%A} {day.day} {day:%B %Y}"


def _habit_day(group: str) -> str:
    """A weekday in a line of standing hours: its full name (or plural: "Saturdays"), or an
    abbreviation written with a capital ("Sat 10 am - 4 pm"; "sat" is a verb)."""
    abbreviations = _alternation(a.capitalize() for a in WEEKDAY_ABBREVIATIONS)
    return rf"(?P<{group}>(?i:{_alternation(WEEKDAYS)})(?P<{group}_plural>s)?\b|(?:{abbreviations})\b\.?)"


_HABIT_DAYS = re.compile(
    rf"(?P<every>\b(?i:every|each)\s+)?\b{_habit_day('first')}(?:\s*(?:-|–|to|through|thru)\s*{_habit_day('last')})?"
)


# A line about a change or a particular week ("moved from Friday to Monday", "closed Mon-Fri
# next week") speaks of days of particular weeks.
_A_CHANGE = re.compile(r"\b(?:moved|moving|changed|postponed|rescheduled|switched|(?:next|this|that) week)\b", re.I)


def weekly_days(text: str, anchor: date | None, day_first: bool | None = None) -> set[int] | None:
    """The weekdays a line of standing hours or habits names ("Mon-Fri 9-7, Sat 10-4, closed
    Sunday": every day of the week), or None when it is no such line. It is one when it names
    a range of weekdays ("Mon-Fri"), a weekday in the plural or "every" weekday, and no day by
    its date: a weekday alone is a particular week's ("No school Friday", "Saturday, March 14")."""
    found = list(_HABIT_DAYS.finditer(text))
    if not any(m["last"] or m["first_plural"] or m["every"] for m in found) or _A_CHANGE.search(text):
        return None
    if find_event_dates(_HABIT_DAYS.sub(" ", text), anchor, limit=1, day_first=day_first):
        return None
    days = set()
    for m in found:
        first = _named_weekday(m, "first")
        last = _named_weekday(m, "last") if m["last"] else first
        days.update((first + i) % 7 for i in range((last - first) % 7 + 1))
    return days


def _named_weekday(m: re.Match, group: str) -> int:
    name = m[group].rstrip(".")
    return _weekday(name[:-1] if m[f"{group}_plural"] else name)


def find_event_dates(text: str, anchor: date | None, limit: int = 50, day_first: bool | None = None) -> list[date]:
    """The days `text` talks about, sorted and unique: at most `limit`, the first ones printed.

    Dates without a year, weekdays and words like "tomorrow" need the anchor (the date the text
    was written) and are skipped without one. A document headed by a span of years ("School
    Calendar 2025-2026") places its dates without a year inside that span instead. `day_first`:
    as for `iter_mentions` (a sentence is read in its document's order).
    """
    found: dict[date, None] = {}  # in the order first printed
    span = covered_year(text, anchor)
    day_first = writes_day_first(text) if day_first is None else day_first
    for m in _EVENT_DATE.finditer(text[:SCAN_CHARS]):
        parts = _parts(m)
        if "day" in parts:
            mention = _mention(m, parts, text, day_first)
            day = _absolute_day(mention, anchor, span) if mention else None
        else:
            day = _relative_day(parts, anchor) if anchor else None
        if day is not None:
            found.setdefault(day)
    return sorted(list(found)[: max(limit, 0)])


def covered_year(text: str, anchor: date | None) -> date | None:
    """The first day of the twelve months a document covers, when its head names a span of two
    years ("2025-2026", "2025–26", "2025/26": a school, fiscal or club year).

    The nearest occurrence is wrong for such documents: a school calendar published in August
    lists next June, not last June. The twelve months start with the month the document was
    written in, when that falls in the span; otherwise on July 1 of the span's first year.
    """
    for m in _YEAR_SPAN.finditer(text[:DOCUMENT_HEAD_CHARS]):
        first, second = int(m.group("first")), int(m.group("second"))
        if second < 100:
            second += first - first % 100
        if second == first + 1 and plausible_year(str(first)):
            if anchor is not None and date(first, 1, 1) <= anchor < date(second, 7, 1):
                return anchor.replace(day=1)
            return date(first, 7, 1)
    return None


def _absolute_day(mention: Mention, anchor: date | None, span: date | None = None) -> date | None:
    if mention.year is not None:
        return date(mention.year, mention.month, mention.day)
    if span is not None:
        for year in (span.year, span.year + 1):
            try:
                day = date(year, mention.month, mention.day)
            except ValueError:
                continue
            if span <= day < span.replace(year=span.year + 1):
                return day
    if anchor is None:
        return None
    return nearest_occurrence(mention.month, mention.day, anchor, mention.weekday)


def _relative_day(parts: dict[str, str], anchor: date) -> date | None:
    """The day a relative word means, written on `anchor`; None for a habit ("every Friday")."""
    if "word" in parts:
        return anchor + timedelta(days=DAY_OFFSETS[" ".join(parts["word"].lower().split())])
    weekday = WEEKDAYS[parts["weekday"].lower()]
    prefix = parts.get("prefix", "").lower()
    if prefix == "every":
        return None
    if prefix == "next":
        return weekday_of_week(anchor, weekday, 1)
    if prefix in ("last", "past", "previous"):
        return weekday_of_week(anchor, weekday, -1)
    return weekday_on_or_after(anchor, weekday)


# A label saying the date after it is when the document was written. A specific one ("Invoice
# date") beats a bare "Date:", which could be anything on a form.
_LABEL = re.compile(
    r"\b(?:(?P<specific>(?:invoice|statement|receipt|order|bill|billing|letter|document|issue"
    r"|transaction|purchase)\s+date|date\s+of\s+(?:issue|invoice|statement)|dated|issued(?:\s+on)?)"
    r"|date)\s*[:#.-]?\s*$",
    re.IGNORECASE,
)
# ... as is one that opens a line, or a remark in brackets, saying when it was written or last
# revised ("Updated: March 2025", "Notes (written March 2023)"): inside a sentence ("the
# will, written on June 4, 2012"; "our policy was last updated on ...") it dates something else.
_REVISED = re.compile(
    r"(?:^|\()\s*(?:last\s+)?(?:updated|revised|modified|written|created)(?:\s+on)?\s*[:#.-]?\s*$", re.IGNORECASE
)
# Words before a date that make it some other date than the writing date: an invoice's due date
# is when it must be paid, not when it was written.
_NOT_WRITTEN = re.compile(
    r"\b(?:due|pay|payable|expir\w*|exp|valid|deliver\w*|ship\w*|arriv\w*|birth\w*|born|dob|d\.o\.b|start|end"
    r"|effective|until|thru|through|renew\w*|next|service|travel|event|appointment|since|established)\b",
    re.IGNORECASE,
)
_WORDS_BEFORE = re.compile(r"(?:[A-Za-z]++[^\w\n]*+){1,4}$")

_MONTH_YEAR = re.compile(rf"{_MONTH_NAME},?\s+{_YEAR}", re.IGNORECASE)
_BARE_YEAR = re.compile(r"(?<![\d.,$/-])(\d{4})(?![\d/-]|[.,]\d)")


def iso_date(raw: str | None) -> datetime | None:
    """A date a file's metadata states in ISO 8601 (naive when it names no zone, as a PDF's may
    be); None when missing, unreadable or before MIN_YEAR (Word writes 1601 for "never")."""
    if not raw:
        return None
    raw = re.sub(r"(\.\d{6})\d+", r"\1", raw.strip())  # OpenDocument keeps nanoseconds
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        return None
    return when if when.year >= MIN_YEAR else None


def given_day(text: str) -> date:
    """A day given as YYYY-MM-DD, as `--as-of` and a tool's `since` take it; raises ValueError
    for anything else (date.fromisoformat alone also takes "20260101" and "2026-W05")."""
    if not _GIVEN_DAY.fullmatch(text):
        raise ValueError(text)
    return date.fromisoformat(text)


_GIVEN_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def find_document_date(text: str, labelled_only: bool = False, day_first: bool | None = None) -> tuple[datetime, str] | None:
    """When a document was written, if printed prominently: (midnight of that day, precision).

    First choice is a labelled date in the first 3000 characters ("Invoice Date: March 3, 2025",
    "Dated 3/3/2025"; "Date: March 2025" gives precision "month", "Date: 2025" "year"); else,
    unless `labelled_only` (a picture's text: a flyer's first date is its event's), the first
    full date in the first 15 lines (a letter's date). Due, expiry and delivery dates are never
    taken for the writing date. `day_first`: as for `iter_mentions`.
    """
    head = text[:DOCUMENT_HEAD_CHARS]
    day_first = writes_day_first(text) if day_first is None else day_first
    labelled = _labelled_dates(head, day_first)
    if labelled:
        _, _, when, precision = min(labelled, key=lambda found: found[:2])
        return when, precision
    if labelled_only:
        return None
    letter_head = "\n".join(head.split("\n", LETTER_HEAD_LINES)[:LETTER_HEAD_LINES])
    for mention in iter_mentions(letter_head, day_first):
        if mention.year is not None and not _NOT_WRITTEN.search(_words_before(head, mention.start)):
            return datetime(mention.year, mention.month, mention.day), "day"
    return None


def _labelled_dates(head: str, day_first: bool) -> list[tuple[int, int, datetime, str]]:
    """(rank, position, date, precision) of every date that follows a writing-date label."""
    found = []
    for start, when, precision in _dates_with_year(head, day_first):
        words = _words_before(head, start)
        label = _LABEL.search(words)
        revised = _REVISED.search(head[head.rfind("\n", 0, start) + 1 : start])
        if (label is None and revised is None) or _NOT_WRITTEN.search(words):
            continue
        rank = 0 if label and label.group("specific") else 1
        found.append((rank, start, when, precision))
    return found


def _dates_with_year(head: str, day_first: bool) -> Iterator[tuple[int, datetime, str]]:
    """(position, date, precision) of full dates, month-year and bare years in `head`."""
    taken: list[tuple[int, int]] = []
    for mention in iter_mentions(head, day_first):
        if mention.year is not None:
            taken.append((mention.start, mention.end))
            yield mention.start, datetime(mention.year, mention.month, mention.day), "day"
    for m in _MONTH_YEAR.finditer(head):
        year = plausible_year(m.group("year"))
        if year is not None and not _overlaps(m.span(), taken):
            taken.append(m.span())
            yield m.start(), datetime(year, MONTHS[m.group("month").lower()], 1), "month"
    for m in _BARE_YEAR.finditer(head):
        year = plausible_year(m.group(1))
        if year is not None and not _overlaps(m.span(), taken):
            yield m.start(), datetime(year, 1, 1), "year"


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(start < span[1] and span[0] < end for start, end in spans)


def _words_before(text: str, position: int) -> str:
    """Up to four words just before `position` on the same line: where a date's label is."""
    line_start = max(text.rfind("\n", 0, position) + 1, position - 80)
    m = _WORDS_BEFORE.search(text, line_start, position)
    return m.group(0) if m else ""

