"""Time in a question: the day, the range or the ordering it asks about, resolved against as_of.

Rules, where everyday speech is ambiguous:
- Tense picks among occurrences. A present or future question means the next one ("Is Friday
  a half-day?": the first Friday on or after as_of, as_of itself if it is a Friday; "in June":
  this June if not over, else next June). A past question means the last one ("Was Friday a
  half-day?": the last Friday before as_of; "March 13" and "the 13th": the last one on or before
  as_of; "in June": the last June that has begun). The first auxiliary verb decides the tense,
  but for what was said of: "What did the coach say about Thursday?" is about the nearest
  Thursday, and does not rule out what is to come.
- "next Friday" and "last Friday" are the Fridays of next and last week (weeks run Monday to
  Sunday, as "next week" and "last week" do); "this Friday" is the Friday the tense picks. A
  typed "fri", "tues" or "thurs" is the day; "sun", "sat", "wed" and "mon" are other words too.
- "this past week" is last week, "the week before last" the one before it, "the weekend after
  next" the one after the next; "over the weekend" is the one just over in the past tense, else
  the coming one; "this week" asked on a Sunday in the present tense is the week ahead. "The
  Friday after next" is the Friday of the week after next, "a week from Friday" seven days
  after the coming Friday.
- Seasons are meteorological, northern hemisphere: spring March-May, summer June-August, fall
  September-November, winter December-February, a winter named by the year it begins in
  ("winter 2025" is December 2025 - February 2026). "last spring" and "last June" are the most
  recent ones that ended before as_of; "this spring" is the one under way, else the one the
  tense picks ("Where are we going this summer?" asked in January is the coming one, "What did
  we do this summer?" asked in October the one just over); "next spring" the first to begin
  after as_of.
- Parts of a month are its thirds ("early March": 1-10, "mid-March": 11-20, "late March" and
  "the end of March": 21 to the end) and its weeks from the first ("the second week of May":
  8-14, "the last week of May": its last seven days); "early/mid/late 2022" are its thirds.
- Counts back: "3 days ago" is that day; "in the past month" or "over the last 3 years" runs
  from then to as_of; "since January" from its start to as_of, "before 2020" up to its start,
  "after June" from its end. "Two weeks ago" and "4 years ago" are said too loosely to be a
  range that demotes what lies outside it, and are left to the words.
- A school year runs August 15 to June 30; "this school year" is the one under way, or, in the
  summer break, the one just ended. "Last year", "this year" and "next year" in a question
  about school ("Who was her teacher last year?", "What time did school let out last year?")
  are school years: a family counts those years by them. In the summer break "last year" is
  the school year just ended, as "this year" is.
- Ordering: "first", "earliest", "originally" ask for the oldest evidence; "last time", "most
  recent", "latest", "when did we last", "last <thing>" ("last vet visit") for the newest. A
  "last" that names a time ("last week", "last spring") is a range, not an ordering, and "first"
  or "last" in a name ("first grade", "last day of school", "last name") is neither; in a
  question about what is to come ("When is the first game of the season?") they are of the
  events, not of the documents, except in "the last time".
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta

from brainq.dates import (
    DAY_OFFSET_RE,
    DAY_OFFSETS,
    MONTH_RE,
    MONTHS,
    NAMED_DAY,
    TYPED_WEEKDAY_RE,
    TYPED_WEEKDAYS,
    iter_mentions,
    plausible_year,
    weekday_before,
    weekday_of_week,
    weekday_on_or_after,
)

# A question is a sentence or two: ask refuses a longer one, and nothing longer is scanned here.
QUESTION_CHARS = 2000

# (month, day): a school year runs from August 15 to June 30 of the next year.
SCHOOL_YEAR_START = (8, 15)
SCHOOL_YEAR_END = (6, 30)
# "the 3rd grade", "the 2nd floor" and "her 10th birthday" are no days of a month.
NOT_AN_ORDINAL = (
    r"(?![\s-]*(?:grade|grader|floor|birthday|anniversary|place|half|quarter|period|inning|row"
    r"|payment|installment|edition|century)\b)"
)
# A question about school: its "last year" is the last school year. Not "class" (a yoga class),
# "principal" (a loan's) nor a grade without its number (of motor oil).
_SCHOOL = re.compile(
    r"\b(?:school|teachers?|homeroom|classroom|kindergarten|pre-?k|preschool|semesters?|trimesters?|report cards?"
    r"|(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)"
    r"[\s-]+grade(?:rs?)?)\b",
    re.IGNORECASE,
)
SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}  # first month
SEASON_MONTHS = 3


@dataclass(frozen=True)
class TimeRef:
    """What a question says about time; all None when it says nothing."""

    day: date | None = None  # a single day asked about
    range: tuple[date, date] | None = None  # inclusive range asked about
    order: str | None = None  # "asc" (first/earliest) or "desc" (last/latest/most recent)
    phrases: tuple[str, ...] = ()  # the words resolved, for --explain
    past: bool = False  # the question asks about the past ("was", "did")
    # "asc" or "desc" where "first" or "last" is of events still to come ("when is the last game
    # of the season?"): no ordering of the documents, but of a repeating event's days
    events: str | None = None


_AUXILIARY = re.compile(
    r"\b(?:(?P<past>was|were|did|had|wasn't|weren't|didn't|hadn't|used to)"
    r"|is|are|am|will|do|does|has|have|can|could|should|would|shall|isn't|aren't|won't|don't"
    r"|doesn't|haven't|hasn't|can't|what's|when's|where's|who's|how's|it's|there's|that's)\b",
    re.IGNORECASE,
)
# Without an auxiliary ("What happened on March 13?", "Which plumber put in the heater?"), a
# question's verb follows its subject: a form without -s is past ("put", not "puts"), as is a
# regular -ed form (not a possessive: "Jared's game") or an irregular past that is no adjective
# or noun too (not "lost", "saw", "held", "sold": "Lost and found pickup on March 13?"); and a
# few time words.
_PAST_WORDS = re.compile(
    r"\b(?:happened|went|paid|bought|got|came|left|sent|said|took|gave|made|told|ago|yesterday"
    r"|built|brought|won|broke|wrote|met|began|became|drove|flew|ran|chose|taught|caught|grew|knew"
    r"|heard|forgot|spoke|stole|swam|sang|threw|wore|drew|rode|fought|slept|woke|dug|lent|meant"
    r"|last night|previously|put|set|cut|let|shut|(?P<regular>\w{3,}(?<!e)ed\b(?!')))\b",
    re.IGNORECASE,
)
# Words of the -ed form that are no verb.
_NOT_VERBS = frozenset("hundred kindred sacred naked wicked rugged ragged wretched crooked".split())
# Words of a plan's state, which a question without its auxiliary keeps ("practice cancelled
# thursday?" is "is practice cancelled on Thursday?"): no past verbs there, unless a question
# word is their subject ("Who cancelled practice on Friday?").
_STATES = frozenset(
    "cancelled canceled postponed rescheduled moved delayed closed scheduled planned booked confirmed"
    " expected supposed required allowed".split()
)
# "What did the coach say about Thursday?", "Did the school email anything about Friday?": the
# past is the saying's, and what was said of is as often a day to come. A day said of (after
# "about", "for" or "regarding") is the nearest such day, and what is to come is not ruled out
# for a question of what was said of something. A day of the saying itself ("Did we email the
# landlord on Tuesday?") keeps the question's tense.
_REPORTED = re.compile(
    r"\b(?:did|didn't)\b(?:\s+[\w']+){0,3}?\s+(?:say|mention|confirm|tell|write|email|text|announce|post)\b"
    r"(?=.*?\b(?:about|for|regarding|concerning)\b)",
    re.IGNORECASE,
)
_SAID_OF = re.compile(r"\b(?:about|for|regarding|concerning)\s+(?:(?:the|this|next|last|coming)\s+)?$", re.IGNORECASE)
_SUBJECT_ASKED = re.compile(r"\W*(?:who|what|which|whose)\b", re.IGNORECASE)
# A word starts a sentence, or a part of one, after these ("Soccer on Saturday. Cancelled?").
_SENTENCE_START = re.compile(r"(?:^|[.?!:;\-\u2013\u2014(])[\W_]*$")
# "Did they say whether Friday is a half-day?", "Does anyone know if the pool is open?": the
# clause after "whether", or after "if" that follows a verb of saying or knowing, has a tense
# of its own, that of the days named in it ("if" alone is a condition: "What's on Friday if the
# game was moved?").
_ASKED_CLAUSE = re.compile(
    r"\bwhether\b|\b(?:say|says|said|tell|told|know|knows|knew|ask|asked|check|checked|wonder|mention"
    r"|mentioned|confirm|confirmed|hear|heard|see|sure)\b(?:\s+\w+){0,2}?\s+if\b",
    re.IGNORECASE,
)


def is_past_tense(question: str) -> bool:
    """Whether a question asks about the past: its first auxiliary verb says, else a past word."""
    return _tense_at(question)(None)


def _tense_at(question: str) -> Callable[[int | None], bool | None]:
    """Whether the question asks about the past at a position of it (None: the question as a
    whole), found once for all its time words: a day named inside an asked clause ("whether
    Friday is ...") takes that clause's auxiliary, one named after a verb of saying in the past
    ("did the coach say ... Thursday") either tense (None: the nearest), any other the
    question's."""
    question = question.replace("\u2019", "'")
    m = _AUXILIARY.search(question)
    if m is not None:
        past = m.group("past") is not None
    else:
        past = any(_is_past_word(w, question) for w in _PAST_WORDS.finditer(question))
    clause = _ASKED_CLAUSE.search(question)
    inner = clause and _AUXILIARY.search(question, clause.end())
    if not inner:
        reported = _REPORTED.search(question)
        if reported:
            return lambda at: None if _said_of(question, reported, at) else past
        return lambda at: past
    inner_past = inner.group("past") is not None
    return lambda at: inner_past if at is not None and at >= clause.end() else past


def _said_of(question: str, reported: re.Match, at: int | None) -> bool:
    """Whether a time phrase at `at` is what was said of, not when it was said: after the verb
    and right after "about", "for" or "regarding"."""
    return at is not None and at >= reported.end() and bool(_SAID_OF.search(question, reported.end(), at))


def _is_past_word(m: re.Match, question: str) -> bool:
    """A past form, unless an -ed form is a word that is no verb ("hundred") or a name: a
    capitalised word inside a sentence ("Jared", "Mildred") of a question not written in
    capitals or title case."""
    word = m.group("regular")
    if not word:
        return True
    if word.lower() in _NOT_VERBS or (word.lower() in _STATES and not _SUBJECT_ASKED.match(question)):
        return False
    if not word[0].isupper() or word.isupper() or _SENTENCE_START.search(question, 0, m.start()):
        return True
    words = re.findall(r"[^\W\d_]+", question)
    return sum(w[0].isupper() for w in words) > len(words) / 2  # title case: its verbs too


# "since March 3" is from then on; "the week before March 3" is no open range, so "before" and
# "after" a printed date are left to it.
_SINCE = re.compile(r"\bsince\s+$", re.IGNORECASE)


def resolve(question: str, as_of: date, day_first: bool | None = None) -> TimeRef:
    """The day, range and ordering `question` asks about, as seen on `as_of`; `day_first`: the
    household's order of numeric dates, where patterns.yaml sets one (else the question's own)."""
    text = question[:QUESTION_CHARS].replace("\u2019", "'")
    past_at = _tense_at(text)
    found: list[tuple[int, int, str, object]] = []  # start, end, "day"/"range"/"order", value

    def free(start: int, end: int) -> bool:
        return all(end <= s or e <= start for s, e, _, _ in found)

    printed: list[date] = []
    for mention in iter_mentions(text, day_first):
        past = past_at(mention.start)
        if past is None:
            day = _nearest(*(_month_day(mention.year, mention.month, mention.day, as_of, p) for p in (True, False)), as_of)
        else:
            day = _month_day(mention.year, mention.month, mention.day, as_of, past)
        opener = _SINCE.search(text, 0, mention.start)  # "since March 3": from then on
        if day is not None and opener is not None:
            span = _open_span("since", day, day, as_of, past is not False)
            if span is not None:
                found.append((opener.start(), mention.end, *span))
        elif day is not None:
            found.append((mention.start, mention.end, "day", day))
            printed.append(day)
    for regex, rule in _RULES:
        for m in regex.finditer(text):
            if free(*m.span()):
                past = past_at(m.start())
                if past is None:
                    resolved = _nearest_reading(rule(m, as_of, True), rule(m, as_of, False), as_of)
                else:
                    resolved = rule(m, as_of, past)
                if resolved is not None:
                    found.append((m.start(), m.end(), *resolved))
    order, events = _order(text, free, past_at)
    if order is not None:
        found.append(order)
    found.sort(key=lambda item: item[0])
    # The tense of the question's time, where it names one: "did they say whether Friday is a
    # half-day?" asks about a day to come; what was said ("what did the coach say?") may be too.
    past = past_at(found[0][0]) if found else past_at(None) and not _REPORTED.search(text)
    return TimeRef(
        # A printed date is the day meant, before any day word: "what did Sam finish last
        # Friday, on 23 January 2022?", "what did the plumber say yesterday about May 3's work?"
        day=next(iter(printed), None) or next((v for _, _, kind, v in found if kind == "day"), None),
        range=next((v for _, _, kind, v in found if kind == "range"), None),
        order=next((v for _, _, kind, v in found if kind == "order"), None),
        phrases=tuple(" ".join(text[s:e].split()) for s, e, _, _ in found),
        past=bool(past),
        events=events,
    )


def _nearest(past: date | None, future: date | None, as_of: date) -> date | None:
    """Of a day's last and next occurrences, the one nearer as_of (the next, if as near)."""
    if past is None or future is None:
        return future or past
    return past if (as_of - past) < (future - as_of) else future


def _nearest_reading(past, future, as_of: date):
    """Of a rule's readings in the past and in the present tense, the nearer day; a range in
    the present tense's reading, which takes in what is to come."""
    if past and future and past[0] == future[0] == "day":
        return "day", _nearest(past[1], future[1], as_of)
    return future or past


# ---- days


def _month_day(year: int | None, month: int, day: int, as_of: date, past: bool) -> date | None:
    """A date printed in the question; without a year, the occurrence the tense picks."""
    if year is not None:
        return date(year, month, day)
    step = -1 if past else 1
    # February 29 comes round within 8 years
    return _first_fitting(((as_of.year + step * k, month, day) for k in range(9)), as_of, past)


def _first_fitting(candidates: Iterable[tuple[int, int, int]], as_of: date, past: bool):
    """The first (year, month, day) that exists and lies on the tense's side of as_of."""
    for year, month, day in candidates:
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if (candidate <= as_of) if past else (candidate >= as_of):
            return candidate
    return None


def _day_word(m: re.Match, as_of: date, past: bool):
    word = " ".join(m.group(0).lower().split()).removeprefix("the ")
    return "day", as_of + timedelta(days=DAY_OFFSETS[word])


def _weekday(m: re.Match, as_of: date, past: bool):
    weekday = TYPED_WEEKDAYS[m.group("weekday").lower()]
    rel = (m.group("rel") or "").lower()
    if rel == "next":
        return "day", weekday_of_week(as_of, weekday, 1)
    if rel == "last":
        return "day", weekday_of_week(as_of, weekday, -1)
    if past:
        return "day", weekday_before(as_of, weekday)
    return "day", weekday_on_or_after(as_of, weekday)


def _weekday_after_next(m: re.Match, as_of: date, past: bool):
    """"the Friday after next": the Friday of the week after next week."""
    return "day", weekday_of_week(as_of, TYPED_WEEKDAYS[m.group("weekday").lower()], 2)


def _weekday_of_week(m: re.Match, as_of: date, past: bool):
    """"Friday next week": the Friday of next week, as "next Friday" is."""
    weeks = {"next": 1, "this": 0, "last": -1}[m.group("rel").lower()]
    return "day", weekday_of_week(as_of, TYPED_WEEKDAYS[m.group("weekday").lower()], weeks)


def _weekday_nth(m: re.Match, as_of: date, past: bool):
    """"Tuesday the 17th": the 17th that is a Tuesday, of the months the tense looks to (the
    17th as _nth reads it where none within a year is)."""
    weekday = TYPED_WEEKDAYS[m.group("weekday").lower()]
    day = next((d for d in _days_numbered(int(m.group("n")), as_of, past) if d.weekday() == weekday), None)
    return ("day", day) if day else _nth(m, as_of, past)


def _week_from(m: re.Match, as_of: date, past: bool):
    """"a week from Friday": seven days after the coming Friday."""
    return "day", weekday_on_or_after(as_of, TYPED_WEEKDAYS[m.group("weekday").lower()]) + timedelta(weeks=1)


def _nth(m: re.Match, as_of: date, past: bool):
    """"the 13th": this month's if the tense allows, else the next (or last) month's."""
    day = next(_days_numbered(int(m.group("n")), as_of, past), None)
    return None if day is None else ("day", day)


def _days_numbered(n: int, as_of: date, past: bool) -> Iterator[date]:
    """The days numbered `n` of this month and the next twelve (the last, in the past tense),
    those that exist and lie on the tense's side of as_of, nearest first."""
    step = -1 if past else 1
    for k in range(13):
        year, month = _add_months(as_of.year, as_of.month, step * k)
        day = _first_fitting([(year, month, n)], as_of, past)
        if day is not None:
            yield day


# ---- ranges


def _add_months(year: int, month: int, months: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + months
    return index // 12, index % 12 + 1


def _months_span(year: int, month: int, months: int) -> tuple[date, date]:
    """From the first day of year/month, `months` whole months long."""
    end_year, end_month = _add_months(year, month, months)
    return date(year, month, 1), date(end_year, end_month, 1) - timedelta(days=1)


def _period(first_month: int, months: int, as_of: date, how: str) -> tuple[date, date]:
    """The occurrence of a yearly period (a month, a season, March to May) that `how` picks."""
    return _occurrence(lambda year: _months_span(year, first_month, months), as_of, how)


def _occurrence(span_in: Callable[[int], tuple[date, date]], as_of: date, how: str) -> tuple[date, date]:
    """Of a yearly span's occurrences (`span_in(year)`), the one `how` picks."""
    spans = [span_in(y) for y in range(as_of.year - 2, as_of.year + 2)]
    if how == "last":
        return max(s for s in spans if s[1] < as_of)
    if how == "next":
        return min(s for s in spans if s[0] > as_of)
    if how.startswith("this"):
        current = [s for s in spans if s[0] <= as_of <= s[1]]
        if current:
            return current[0]
        how = how.removeprefix("this ")
    if how == "past":
        return max(s for s in spans if s[0] <= as_of)
    return min(s for s in spans if s[1] >= as_of)


def _how(rel: str | None, past: bool) -> str:
    """Which occurrence a prefix ("last", "this", "in", none) and the tense pick."""
    rel = " ".join((rel or "").lower().split())
    tense = "past" if past else "future"
    if rel == "this past":
        return "last"
    if rel in ("last", "next"):
        return rel
    return f"this {tense}" if rel == "this" else tense


def _month(m: re.Match, as_of: date, how: str, within=lambda first, last: (first, last)) -> tuple[date, date]:
    """The match's month, or the part of it `within` takes: in the year it prints, else the
    occurrence that `how` picks (of the part itself: "late August" asked on August 15 in the
    past tense is last year's)."""
    month, year = MONTHS[m.group("month").lower()], plausible_year(m.group("year"))

    def span_in(in_year: int) -> tuple[date, date]:
        return within(*_months_span(in_year, month, 1))

    return span_in(year) if year is not None else _occurrence(span_in, as_of, how)


def _month_range(m: re.Match, as_of: date, past: bool):
    if plausible_year(m.group("year")) is None and m.group("rel") is None:
        return None  # a bare month name is no time reference ("the June concert")
    return "range", _month(m, as_of, _how(m.group("rel"), past))


def _season(m: re.Match, as_of: date, past: bool):
    first = SEASONS[m.group("season").lower()]
    year = plausible_year(m.group("year"))
    if year is not None:
        return "range", _months_span(year, first, SEASON_MONTHS)
    if m.group("rel") is None:
        return None
    return "range", _period(first, SEASON_MONTHS, as_of, _how(m.group("rel"), past))


def _between(m: re.Match, as_of: date, past: bool):
    """"between March and May": the months from one to the other, with or without years."""
    first, last = MONTHS[m.group("m1").lower()], MONTHS[m.group("m2").lower()]
    y1, y2 = plausible_year(m.group("y1")), plausible_year(m.group("y2"))
    months = (last - first) % 12 + 1
    if y1 is not None and y2 is not None:
        months = (y2 * 12 + last) - (y1 * 12 + first) + 1
        return ("range", _months_span(y1, first, months)) if months > 0 else None
    if y1 is None and y2 is not None:
        y1 = y2 if last >= first else y2 - 1  # "between November and February 2024"
    if y1 is not None:
        return "range", _months_span(y1, first, months)
    return "range", _period(first, months, as_of, _how(None, past))


# Parts of a month ("early March", "the second week of May") and of a year ("late 2022"):
# thirds of a month by its days (1-10, 11-20, 21 to the end), weeks by seven days from the
# first (the last week: its last seven days), thirds of a year by four months.
_PART = r"early|mid|late|(?:the\s+)?(?:beginning|start|middle|end)\s+of"
_NTH_WEEK = r"(?:the\s+)?(?P<nth>first|second|third|fourth|last)\s+week\s+of"
_THIRDS = {"early": 0, "beginning": 0, "start": 0, "mid": 1, "middle": 1, "late": 2, "end": 2}
_WEEKS = {"first": 0, "second": 1, "third": 2, "fourth": 3}


def _third(m: re.Match) -> int:
    return _THIRDS[m.group("part").lower().removeprefix("the").split()[0]]


def _part_of(first: date, last: date, m: re.Match) -> tuple[date, date]:
    """The part of a month or a year (first to last) the match names, or all of it."""
    groups = m.groupdict()
    nth = (groups.get("nth") or "").lower()
    if nth == "last":
        return last - timedelta(days=6), last
    if nth:
        start = first + timedelta(weeks=_WEEKS[nth])
        return start, start + timedelta(days=6)
    if not groups.get("part"):
        return first, last
    if first.month != last.month:  # a year: thirds of four months
        return _months_span(first.year, 1 + 4 * _third(m), 4)
    start = first + timedelta(days=10 * _third(m))
    return start, last if _third(m) == 2 else start + timedelta(days=9)


def _month_part(m: re.Match, as_of: date, past: bool):
    return "range", _month(m, as_of, _how(m.group("rel"), past), lambda first, last: _part_of(first, last, m))


def _year_part(m: re.Match, as_of: date, past: bool):
    year = plausible_year(m.group("year"))
    return None if year is None else ("range", _part_of(date(year, 1, 1), date(year, 12, 31), m))


# "3 days ago", "in the past 3 months": counts of a unit back from as_of.
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "couple of": 2,
           "a couple": 2, "couple": 2, "a few": 3, "few": 3}  # fmt: skip
_COUNT_RE = r"\d{1,3}|" + "|".join(c.replace(" ", r"\s+") for c in sorted(_COUNTS, key=len, reverse=True))
_UNIT_RE = r"(?P<unit>day|week|month|year)s?"
_NOT_A_PART = r"(?!\s+of\b|'s\b)"  # "the last two weeks of school", "last month's bill"


def _count(m: re.Match) -> int:
    """The match's count of its unit, in figures or words ("3", "a couple of"); one if none."""
    text = " ".join((m.group("n") or "one").lower().split())
    return int(text) if text.isdigit() else _COUNTS[text]


def _back(as_of: date, m: re.Match) -> date:
    """The day the match's count of its unit before as_of (a month's last day where the
    earlier month is shorter)."""
    n, unit = _count(m), m.group("unit").lower()
    if unit in ("day", "week"):
        return as_of - timedelta(days=n * (7 if unit == "week" else 1))
    year, month = _add_months(as_of.year, as_of.month, -n * (12 if unit == "year" else 1))
    return date(year, month, min(as_of.day, monthrange(year, month)[1]))


def _days_ago(m: re.Match, as_of: date, past: bool):
    return "day", _back(as_of, m)


def _ahead(m: re.Match, as_of: date, past: bool):
    """"3 days from now": the day that far ahead; of weeks or months, the week or the month it
    falls in, as loosely as it is said. ("In two weeks" is as often how long something takes,
    "can the roof be done in two weeks?", as when.)"""
    if past:
        return None
    n, unit = _count(m), m.group("unit").lower()
    if unit == "day":
        return "day", as_of + timedelta(days=n)
    return "range", _week_or_month(as_of, unit, n)


def _trailing(m: re.Match, as_of: date, past: bool):
    """"in the past month", "over the last 3 years": from that long before as_of up to it."""
    return "range", (_back(as_of, m), as_of)


def _open_range(m: re.Match, as_of: date, past: bool):
    """"since January", "after early 2020", "before last March": from or up to a month or a
    year, or a part of one. A month without a year is the last one begun for "since"; for
    "after" in the past tense the last one over; else the one its prefix or the tense picks."""
    rel = m.group("rel").lower()
    if m.group("month"):
        if m.group("how"):
            how = _how(m.group("how"), past)
        else:
            how = "past" if rel == "since" else ("last" if past and rel == "after" else _how(None, past))
        first, last = _month(m, as_of, how)
    elif (year := plausible_year(m.group("y"))) is not None:
        first, last = date(year, 1, 1), date(year, 12, 31)
    else:
        return None
    first, last = _part_of(first, last, m)
    if rel == "before" and "end" in (m.group("part") or "").lower():  # "before the end of 2022": by then
        return "range", (date.min if past else as_of, last)
    return _open_span(rel, first, last, as_of, past)


def _open_span(rel: str, first: date, last: date, as_of: date, past: bool):
    """From (since, after) or up to (before) the span first to last, as a range or None."""
    if rel == "before":  # in the future tense, what is due between now and then
        until = first - timedelta(days=1)
        return "range", (date.min if past or until < as_of else as_of, until)
    start = first if rel == "since" else last + timedelta(days=1)
    if start > as_of:  # "since 2027" asked in 2026 looks forward, as "after June" may
        return None if past or rel == "since" else ("range", (start, date.max))
    return "range", (start, as_of if past or rel == "since" else date.max)


def _calendar_year(m: re.Match, as_of: date, past: bool):
    year = plausible_year(m.group("year"))
    return None if year is None else ("range", (date(year, 1, 1), date(year, 12, 31)))


_UNIT_OFFSETS = {"before last": -2, "last": -1, "this past": -1, "this": 0, "next": 1, "after next": 2}


def _relative_unit(m: re.Match, as_of: date, past: bool):
    """last/this/next week, weekend, month or year (a school year in a question about school);
    "this past" week is last week, "the week before last" the one before it, and "over the
    weekend" the one just over in the past tense, else the coming one."""
    rel, unit = " ".join(m.group("rel").lower().split()), m.group("unit").lower()
    if rel == "over the":
        if unit != "weekend":
            return None  # "over the year" is no year
        rel = "last" if past and as_of.weekday() < 5 else "this"
    offset = _UNIT_OFFSETS[rel]
    if unit == "year" and _SCHOOL.search(m.string):
        # In the summer break the school year just ended is "this year" and "last year" both:
        # "her teacher last year", asked in July, is June's.
        summer = SCHOOL_YEAR_END < (as_of.month, as_of.day) < SCHOOL_YEAR_START
        return "range", _school_years(_current_school_year(as_of) + (max(offset, 0) if summer else offset))
    if unit == "weekend" and offset == 0 and past and as_of.weekday() < 2:
        # "Was the game cancelled this weekend?" asked on a Monday or a Tuesday: the one just
        # over; later in the week, news of the coming one.
        offset = -1
    if unit == "week" and offset == 0 and not past and as_of.weekday() == 6:
        offset = 1  # "What's on this week?" asked on a Sunday: the week it begins tomorrow
    if unit in ("week", "month"):
        return "range", _week_or_month(as_of, unit, offset)
    if unit == "weekend":
        sunday = _week_or_month(as_of, "week", offset)[1]
        return "range", (sunday - timedelta(days=1), sunday)
    year = as_of.year + offset
    return "range", (date(year, 1, 1), date(year, 12, 31))


def _week_or_month(as_of: date, unit: str, offset: int) -> tuple[date, date]:
    """The week (Monday to Sunday) or the month `offset` of them away from as_of's."""
    if unit == "week":
        monday = as_of - timedelta(days=as_of.weekday()) + timedelta(weeks=offset)
        return monday, monday + timedelta(days=6)
    return _months_span(*_add_months(as_of.year, as_of.month, offset), 1)


def _school_year(m: re.Match, as_of: date, past: bool):
    """A school year, named by the year it begins in: "2023-2024 school year" begins in 2023."""
    start_text = m.group("y1") or m.group("y3")
    if start_text:
        start = plausible_year(start_text)
        end_text = m.group("y2") or m.group("y4")
        if start is None or int(end_text) % 100 != (start + 1) % 100:
            return None
    elif m.group("rel"):
        start = _current_school_year(as_of) + {"this": 0, "current": 0, "last": -1, "next": 1}[m.group("rel").lower()]
    else:
        return None
    return "range", _school_years(start)


def _current_school_year(as_of: date) -> int:
    """The year the school year under way (or, in the summer break, just ended) began in."""
    return as_of.year if (as_of.month, as_of.day) >= SCHOOL_YEAR_START else as_of.year - 1


def _school_years(start: int) -> tuple[date, date]:
    return date(start, *SCHOOL_YEAR_START), date(start + 1, *SCHOOL_YEAR_END)


_YEARS = r"(?P<{a}>\d{{4}})\s*[-/\u2013]\s*(?P<{b}>\d{{4}}|\d{{2}})\b"
_SEASON_RE = "|".join(SEASONS)

# Tried in this order; a phrase once resolved is not read again ("last week" is not "last").
_RULES: tuple[tuple[re.Pattern, Callable], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), rule)
    for pattern, rule in (
        (
            rf"(?<!week )(?<!weeks )(?<!days )(?<!months )(?<!years )\b(?P<rel>since|after|before)\s+"
            rf"(?:(?P<part>{_PART})[\s-]+)?(?:(?P<how>last|this|next)\s+)?"
            rf"(?:(?P<month>{MONTH_RE})(?:,?\s+(?:of\s+)?(?P<year>\d{{4}})\b)?|(?P<y>\d{{4}})\b)",
            _open_range,
        ),
        (
            rf"\b(?:(?P<rel>last|this|next)\s+)?(?P<part>{_PART}|{_NTH_WEEK})[\s-]+(?P<month>{MONTH_RE})"
            r"(?:,?\s+(?:of\s+)?(?P<year>\d{4})\b)?",
            _month_part,
        ),
        (rf"\b(?P<part>{_PART})[\s-]+(?P<year>\d{{4}})\b", _year_part),
        (rf"\b(?P<n>{_COUNT_RE})\s+(?P<unit>day)s?\s+ago\b", _days_ago),
        (rf"\b(?P<n>{_COUNT_RE})\s+(?P<unit>day|week|month)s?\s+from\s+(?:now|today)\b", _ahead),
        (
            rf"\b(?:in|over|during|within|for)\s+the\s+(?:past|last|previous)\s+(?:(?P<n>{_COUNT_RE})\s+)?"
            rf"{_UNIT_RE}\b{_NOT_A_PART}",
            _trailing,
        ),
        (rf"\b(?:past|last|previous)\s+(?P<n>{_COUNT_RE})\s+{_UNIT_RE}\b{_NOT_A_PART}", _trailing),
        (
            rf"\b(?:(?P<rel>this|current|last|next)\s+)?(?:{_YEARS.format(a='y1', b='y2')}\s+)?"
            rf"school\s+year\b(?:\s+{_YEARS.format(a='y3', b='y4')})?",
            _school_year,
        ),
        (
            rf"\b(?:between|from)\s+(?P<m1>{MONTH_RE})(?:\s+(?P<y1>\d{{4}}))?\s+"
            rf"(?:and|to|until|till|through|thru)\s+(?P<m2>{MONTH_RE})(?:,?\s+(?P<y2>\d{{4}})\b)?",
            _between,
        ),
        (
            rf"\b(?:(?P<rel>this\s+past|last|this|next|in|during|over)\s+(?:the\s+)?)?(?P<season>{_SEASON_RE})\b"
            r"(?:,?\s+(?:of\s+)?(?P<year>\d{4})\b)?",
            _season,
        ),
        (
            rf"\b(?:(?P<rel>last|this|next|in|during)\s+)?(?P<month>{MONTH_RE})"
            r"(?:,?\s+(?:of\s+)?(?P<year>\d{4})\b)?",
            _month_range,
        ),
        (
            r"\b(?:back\s+)?(?:in|during|throughout)\s+(?:the\s+year\s+)?(?P<year>\d{4})\b",
            _calendar_year,
        ),
        (r"\bthe\s+(?P<unit>week|weekend|month|year)\s+(?P<rel>before\s+last|after\s+next)\b", _relative_unit),
        (
            rf"{NAMED_DAY}(?P<weekday>{TYPED_WEEKDAY_RE})\s+(?:of\s+)?(?P<rel>next|this|last)\s+week\b(?!\s+of\b)",
            _weekday_of_week,
        ),
        (
            r"\b(?P<rel>this\s+past|last|this|next|over\s+the)\s+(?P<unit>week|weekend|month|year)\b",
            _relative_unit,
        ),
        (rf"(?:\bthe\s+)?{NAMED_DAY}(?P<weekday>{TYPED_WEEKDAY_RE})\s+after\s+next\b", _weekday_after_next),
        (rf"\ba\s+week\s+from\s+(?:this\s+)?(?P<weekday>{TYPED_WEEKDAY_RE})", _week_from),
        (
            # a date, not a count ("Is Monday the 1st day of school?"): what follows is no noun
            rf"{NAMED_DAY}(?P<weekday>{TYPED_WEEKDAY_RE}),?\s+(?:the\s+)?(?P<n>\d{{1,2}})(?:st|nd|rd|th)\b{NOT_AN_ORDINAL}"
            rf"(?=\s*(?:[?.!,;:)]|$)|\s+(?:of|at|in|on|for|a|an|the|is|was|be|and|or|from|to|with|when|still)\b)",
            _weekday_nth,
        ),
        (rf"\b(?:(?P<rel>next|last|this|coming)\s+)?{NAMED_DAY}(?P<weekday>{TYPED_WEEKDAY_RE})", _weekday),
        (rf"\bthe\s+(?P<n>\d{{1,2}})(?:st|nd|rd|th)\b{NOT_AN_ORDINAL}", _nth),
        # The days a document names relative to its writing, relative to as_of.
        (rf"\b(?:the\s+(?=day\b))?(?:{DAY_OFFSET_RE})\b", _day_word),
    )
)

# ---- ordering

# Words after "first" or "last" that make it part of a name, not an ordering ("first grade",
# "first-aid kit").
_NAMED = (
    r"(?![\s-]+(?:day|days|week|weekend|month|half|quarter|semester|term|trimester|grade|grader"
    r"|floor|name|names|aid|period|class|minute|resort|call)\b)"
)
_ORDER = re.compile(
    rf"\b(?:(?P<asc>first{_NAMED}|earliest|originally|initially)"
    rf"|(?P<desc>last{_NAMED}|latest|most\s+recent(?:ly)?|recently|lately))\b",
    re.IGNORECASE,
)


# "At last" ends its clause; "what did the vet look at last time?" is an ordering.
_AT, _CLAUSE_END = re.compile(r"\bat\s+$", re.IGNORECASE), re.compile(r"\s*(?:[.?!,;]|$)")
_TIME_AFTER = re.compile(r"\s+times?\b", re.IGNORECASE)


def _order(text: str, free: Callable[[int, int], bool], past_at: Callable[[int | None], bool | None]):
    """The first ordering word not already read as part of a time phrase, and the first of the
    events to come. In a question about what is to come, "first" and "last" are of the events
    ("When is the first game of the season?"), not of the documents, but for "the last time"."""
    events = None
    for m in _ORDER.finditer(text):
        if _AT.search(text, 0, m.start()) and _CLAUSE_END.match(text, m.end()):
            continue  # "did the refund come at last?"
        word = m.group(0).lower()
        if word in ("first", "last") and past_at(m.start()) is False and not _TIME_AFTER.match(text, m.end()):
            events = events or ("asc" if word == "first" else "desc")
            continue
        if free(*m.span()):
            return (m.start(), m.end(), "order", "asc" if m.group("asc") else "desc"), events
    return None, events
