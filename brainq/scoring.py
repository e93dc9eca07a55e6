"""Final score = relevance share ^ p x temporal weight, where the relevance share is a source's
relevance over the best source's, p is `relevance_exponent`, and the temporal weight is
decay(age) x source weight (x cutoff).

Why not relevance x temporal weight directly: measured relevance lives in a narrow band
(about 0.3 to 0.9), so a direct product lets a 7-day half-life outweigh a large difference in
relevance, and an off-topic fresh email beats the one document that answers. Raising the share
to a power keeps the point of decay: time decides among sources that are about equally
relevant. Every parameter comes from patterns.yaml. Age is measured from `source_date` (never
from when brainq ingested the file) to `as_of`, or for decay to the end of a past period the
question names; a date known only to the month or year is aged from the middle of that period,
not its first day.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from brainq.config import Pattern, Retrieval
from brainq.facts import stated_days
from brainq.query.candidates import Candidate, about_the_day, day_factor
from brainq.store import epoch_seconds
from brainq.timeref import TimeRef

_NORMALISE_SUBJECT = ("re:", "fwd:", "fw:", "aw:", "sv:")


@dataclass
class Scored:
    """A candidate with every factor of its score, as `--explain` and `--json` report them."""

    candidate: Candidate
    age_days: float | None  # to as_of: what is shown
    age_then: float | None  # to the end of a past period the question names: what decays
    decay: float
    source_weight: float
    cutoff: float
    time_factor: float  # the question's own range: evidence outside it ranks down
    day_factor: float = 1.0  # the question's own day: evidence about that day ranks up
    replaced_by: list[str] = field(default_factory=list)  # doc_ids of later documents that replace it, newest first
    share: float = 1.0  # rank over the best candidate's, ^ relevance_exponent: what the score multiplies
    score: float = 0.0
    dated: bool = False  # placed by its date: the question asks for the first or the last
    later_version: "Scored | None" = None  # the latest version of its calendar entry (same_entry)

    @property
    def doc(self):
        return self.candidate.doc

    @property
    def superseded_by(self) -> str | None:
        """The latest document that replaces this one: the one `--json` names (it may rank
        below another that replaces this one too, as `_below_replies` ranks)."""
        return self.replaced_by[0] if self.replaced_by else None

    @property
    def relevance(self) -> float:
        """How relevant, on an absolute scale: what the verdict's floor is compared with."""
        return self.candidate.relevance * self.day_factor

    @property
    def rank(self) -> float:
        """How relevant compared with the question's other candidates: what orders them."""
        return self.candidate.rank * self.day_factor

    @property
    def temporal_weight(self) -> float:
        return self.decay * self.source_weight * self.cutoff


def effective_day(when: datetime, precision: str | None) -> date:
    """The day a date stands for: mid-month for a month, mid-year for a year."""
    day = when.date()
    if precision == "month":
        return day.replace(day=15)
    if precision == "year":
        return day.replace(month=7, day=1)
    return day


def as_known(when: datetime, precision: str | None, iso: bool = True) -> str:
    """A date as far as it is known: a month's is "2025-03" ("Mar 2025"), no more its first
    day than its last; `iso` False writes it for a sentence ("Mar 3, 2025")."""
    if iso:
        return when.date().isoformat()[: {"month": 7, "year": 4}.get(precision, 10)]
    return when.strftime({"month": "%b %Y", "year": "%Y"}.get(precision, "%b %-d, %Y"))


def coarse_age(doc, as_of: date) -> str | None:
    """How old a date known only to its month or year is, counted in that unit ("2 years",
    "this month"): a note dated "2026" is not "0 days old" in April 2026. None for a date
    known to the day."""
    if doc.source_date is None or doc.date_precision not in ("month", "year"):
        return None
    unit, n = "year", as_of.year - doc.source_date.year
    if doc.date_precision == "month":
        unit, n = "month", n * 12 + as_of.month - doc.source_date.month
    if n <= 0:
        return f"this {unit}"
    return f"{n} {unit}{'' if n == 1 else 's'}"


def age_in_days(doc, as_of: date) -> float | None:
    if doc.source_date is None:
        return None
    return max(0.0, float((as_of - effective_day(doc.source_date, doc.date_precision)).days))


def decay(pattern: Pattern, age: float | None, doc_type: str, about_day: bool = False) -> float:
    """The pattern's decay model (exponential, linear or none), never below the pattern's
    floor (its day floor for evidence about the day the question asks about)."""
    d = pattern.decay
    if d.model == "none" or age is None:
        return 1.0
    half_life = d.half_life_by_type.get(doc_type, d.half_life_days)
    if d.model == "exponential":
        value = 2.0 ** (-age / half_life)
    else:  # linear
        value = max(0.0, 1.0 - age / (2.0 * half_life))
    return max(value, d.day_floor if about_day else d.floor)


def visible(doc, as_of: date) -> bool:
    """Documents written after as_of do not exist yet for the question."""
    return doc.written_day is None or doc.written_day <= as_of


def score(
    candidates: list[Candidate], pattern: Pattern, retrieval: Retrieval, time: TimeRef, as_of: date, floor: float
) -> list[Scored]:
    """Score visible candidates, mark superseded ones, and order them for the answer; `floor` is
    the relevance evidence needs for this question (only evidence goes by date)."""
    scored = []
    # A question about a past period ("the power bill in August last year") asks as of then:
    # what was written in that period is not stale for it, however long ago the period was.
    then = min(as_of, time.range[1]) if time.range else as_of
    for cand in candidates:
        doc = cand.doc
        if not visible(doc, as_of):
            continue
        age, age_then = age_in_days(doc, as_of), age_in_days(doc, then)
        about = about_the_day(doc, time.day)
        # The recency cutoff is for stale news; a document about the very day asked about is
        # evidence however old (its age still decays it, and the verdict says it is old), and
        # so is a calendar entry still to come: a plan stands until its entry is changed. A
        # document whose answer lines name days still to come is a plan too (a notice of
        # instalments due in January and April), though only an entry's days are surely its
        # own: it escapes the cutoff, not the decay.
        current = about or upcoming_entry(doc, as_of)
        ahead = current or _names_days_ahead(cand, as_of)
        stale = pattern.cutoff.days is not None and age_then is not None and age_then > pattern.cutoff.days
        cutoff = pattern.cutoff.factor if stale and not ahead else 1.0
        s = Scored(
            candidate=cand,
            age_days=age,
            age_then=age_then,
            decay=decay(pattern, age_then, doc.doc_type, current),
            source_weight=pattern.weights.get(doc.doc_type, pattern.default_weight),
            cutoff=cutoff,
            time_factor=_range_factor(doc, time, retrieval, as_of),
            day_factor=day_factor(time.day, about, retrieval.day_boost),
        )
        scored.append(s)
    _carried_up(scored)
    _mark_superseded(scored, retrieval, time)
    best = max((s.rank for s in scored), default=1.0) or 1.0
    for s in scored:
        superseded = retrieval.superseded_factor if s.superseded_by else 1.0
        s.share = (s.rank / best) ** retrieval.relevance_exponent
        s.score = s.share * s.temporal_weight * s.time_factor * superseded
    _below_replies(scored, retrieval)
    scored.sort(key=lambda s: s.score, reverse=True)
    if time.order:
        scored = _by_date(scored, time.order, retrieval, floor)
    return scored


def _below_replies(scored: list[Scored], retrieval: Retrieval) -> None:
    """A message ranks below a later relevant message of its own thread that supersedes it, and
    so does a document below the next of its series that says the same thing anew (the same
    sender, type and subject, the answering sentences alike): a garage's "Next oil change due
    at 53,310 miles" of 2023 below its "... at 66,240 miles" of 2026, however much better it
    matches, as both are long past any decay. A conversation's next session, of the same
    subject, talks of other things. Of several, it ranks just below the best: a barely
    relevant reply does not sink a message that answers well below every other source."""
    by_id = {s.doc.doc_id: s for s in scored}
    for s in sorted(scored, key=lambda s: epoch_seconds(s.doc.source_date) if s.doc.source_date else 0, reverse=True):
        above = [newer.score for newer in (by_id[doc_id] for doc_id in s.replaced_by) if _replaces(newer, s, retrieval)]
        if above:
            s.score = min(s.score, max(above) * retrieval.superseded_factor)


def as_much_about(newer: Scored, s: Scored) -> bool:
    """Whether a later document is as much about the question's own day and time as `s`: one
    they rank down replaces nothing of it (the bill of the month asked about stays above the
    next month's, and a swap about the day asked about above the plan it changed when next
    week's plan follows both)."""
    return newer.time_factor >= s.time_factor and newer.day_factor >= s.day_factor


def _replaces(newer: Scored, s: Scored, retrieval: Retrieval) -> bool:
    """Whether a later document that supersedes `s` is one it ranks below: its thread's, or
    its series' saying the same thing anew, as much about the question's day and time; a
    later version of its calendar entry, whatever day that is about (the meeting moved away
    from the day asked about is no longer on it)."""
    if same_entry(s.doc, newer.doc):
        return True
    if not as_much_about(newer, s):
        return False
    same_thread = s.doc.thread and newer.doc.thread == s.doc.thread
    restated = (
        _same_source(s.doc, newer.doc)
        and normalised_subject(s.doc.title) == normalised_subject(newer.doc.title)
        and s.candidate.alike(newer.candidate, retrieval.supersede_min_similarity)
    )
    return bool(same_thread or restated)


def _names_days_ahead(cand: Candidate, as_of: date) -> bool:
    """Whether the lines a document answers with name a day still to come: its plan, where a
    day to come anywhere in it may be another matter ("the lease ends June 30, 2027")."""
    doc = cand.doc
    if not any(day >= as_of for day in doc.event_dates):
        return False
    anchor = doc.written_day
    return any(
        day >= as_of for line in cand.answer_lines for day in stated_days(line, anchor, day_first=doc.day_first)
    )


def upcoming_entry(doc, as_of: date) -> bool:
    """A calendar entry whose own days are still to come (its days are its event's, not days a
    text mentions, as a newsletter's or a printed calendar's are)."""
    return doc.kind == "calendar" and any(d >= as_of for d in doc.event_dates)


def _range_factor(doc, time: TimeRef, retrieval: Retrieval, as_of: date) -> float:
    """Evidence outside the question's range ranks down; a question in the past tense ("when
    was her last well visit?") asks what has happened, so a document only about days still to
    come (next month's dentist appointment) is outside it."""
    if not time.range:
        upcoming = time.past and doc.event_dates and min(doc.event_dates) > as_of
        return retrieval.out_of_range_factor if upcoming else 1.0
    start, end = time.range
    days = list(doc.event_dates)
    if doc.source_date:
        days.append(effective_day(doc.source_date, doc.date_precision))
    return 1.0 if any(start <= d <= end for d in days) else retrieval.out_of_range_factor


def _by_date(scored: list[Scored], order: str, retrieval: Retrieval, floor: float) -> list[Scored]:
    """Ordering questions ("first", "last time"): relevant evidence within the question's time
    by date, the rest after it ("the last one in 2023" is no 2025 document)."""
    relevant = [
        s for s in scored
        if s.relevance >= floor and s.doc.source_date and s.time_factor == 1.0
    ]  # fmt: skip
    if not relevant:
        return scored
    best = max(s.relevance for s in relevant)
    # Only evidence nearly as relevant as the best competes on date; a barely relevant old
    # document must not become "the first time" just by being old.
    close = [s for s in relevant if s.relevance >= retrieval.order_min_share * best]
    close.sort(key=lambda s: effective_day(s.doc.source_date, s.doc.date_precision), reverse=order == "desc")
    for s in close:
        s.dated = True
    rest = [s for s in scored if s not in close]
    return close + rest


def normalised_subject(title: str) -> str:
    words = title.lower().split()
    while words and words[0] in _NORMALISE_SUBJECT:
        words = words[1:]
    return " ".join(words)


def _carried_up(scored: list[Scored]) -> None:
    """A message and what it carries are one piece of evidence, found by the message's words
    and answered by whichever part states the fact asked for: "your statement is ready,
    attached" names the bill, the statement it carries holds the amount and may name neither
    the bill nor the utility. The best such attachment is as relevant as its message (not every
    one: the leaflet beside the statement may hold an amount too)."""
    messages = [s for s in scored if s.doc.kind == "email" and not s.candidate.answers_in_kind]
    stating = sorted(
        (s for s in scored if s.doc.kind != "email" and s.candidate.answers_in_kind), key=lambda s: s.rank, reverse=True
    )
    for message in messages:
        part = next((part for part in stating if _inside(part.doc, message.doc)), None)
        if part is not None:
            part.candidate.rank = max(part.candidate.rank, message.candidate.rank)
            part.candidate.relevance = max(part.candidate.relevance, message.candidate.relevance)


def same_entry(old, new) -> bool:
    """Whether two documents are versions of one calendar entry (RFC 5545: one UID, and one
    occurrence of it where a RECURRENCE-ID names one), saved apart: an invitation and its
    update, mailed or downloaded twice ("invite.ics", "invite (1).ics"). In one calendar, two
    entries of one UID are versions only where their SEQUENCE differs (a feed may reuse one)."""
    if old.kind != "calendar" or new.kind != "calendar":
        return False
    version = ("UID", "RECURRENCE-ID")
    if not old.headers.get("UID") or any(old.headers.get(h) != new.headers.get(h) for h in version):
        return False
    one_calendar = old.path == new.path and _calendar_of(old.locator) == _calendar_of(new.locator)
    return not one_calendar or old.headers.get("SEQUENCE") != new.headers.get("SEQUENCE")


def _calendar_of(locator: str | None) -> str:
    """Where in its file an event's calendar is: the attachment ("invite.ics/UID"), or the file."""
    return (locator or "").rpartition("/")[0]


def _same_source(old, new) -> bool:
    return bool(old.sender) and old.sender == new.sender and old.doc_type == new.doc_type


def _inside(doc, message) -> bool:
    """Whether a document is carried by the message (attached to it, or to a message it
    carries): the two are one piece of evidence, whatever dates each has of its own."""
    if doc.path != message.path or doc.locator is None:
        return False
    return message.locator is None or doc.locator.startswith(message.locator + "/")


def _mark_superseded(scored: list[Scored], retrieval: Retrieval, time: TimeRef) -> None:
    """A later message of the same thread, or a later document of the same sender and type on
    the same subject (same normalised title, answering sentences alike, or both about the day
    the question asks about), supersedes the older one: the principal's second letter about
    Friday replaces her first. A reply that says nothing of the question ("Got it, thanks!")
    replaces nothing."""
    dated = [s for s in scored if s.doc.source_date]
    relevant = [s for s in dated if s.relevance >= retrieval.relevance_floor]
    written = {s.doc.doc_id: epoch_seconds(s.doc.source_date) for s in dated}
    on_the_day = {s.doc.doc_id for s in relevant if about_the_day(s.doc, time.day)}
    for old in relevant:
        for new in dated:
            if written[new.doc.doc_id] <= written[old.doc.doc_id] or new.candidate.says_nothing:
                continue
            # A later version of a calendar entry replaces it, however little the question
            # finds in it: moved to another day, it may be about none of the question's words.
            if same_entry(old.doc, new.doc):
                old.replaced_by.append(new.doc.doc_id)
                if old.later_version is None or written[new.doc.doc_id] > written[old.later_version.doc.doc_id]:
                    old.later_version = new
                continue
            if new.relevance < retrieval.relevance_floor:
                continue
            # A thread goes on in its messages: an attachment is superseded with the message
            # that carried it, and supersedes nothing of its own thread.
            same_thread = (
                old.doc.thread
                and old.doc.thread == new.doc.thread
                and new.doc.kind == "email"
                and not _inside(old.doc, new.doc)
            )
            same_series = _same_source(old.doc, new.doc) and (
                normalised_subject(old.doc.title) == normalised_subject(new.doc.title)
                or old.candidate.alike(new.candidate, retrieval.supersede_min_similarity)
                or (old.doc.doc_id in on_the_day and new.doc.doc_id in on_the_day)
            )
            if same_thread or same_series:
                old.replaced_by.append(new.doc.doc_id)
        old.replaced_by.sort(key=written.get, reverse=True)
