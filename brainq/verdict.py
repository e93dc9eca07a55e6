"""The confidence verdict: answer, verify, or "I don't know".

The level follows from the pattern's freshness rule and from conflicts between sources; the
confidence is a number inside the level's band, so it never contradicts the level:
answer in [answer_confidence, 1], verify in [verify_confidence, answer_confidence),
unknown below verify_confidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from brainq.config import Config
from brainq.dates import day_words, weekly_days
from brainq.extract.calendar import own_days, when_stated
from brainq.facts import MAY_GO_UNSTATED, facts, stated_days
from brainq.scoring import Scored, as_known, as_much_about, coarse_age, effective_day, upcoming_entry
from brainq.timeref import TimeRef

LEVELS = ("answer", "verify", "unknown")


@dataclass
class Verdict:
    level: str  # one of LEVELS
    confidence: float
    reason: str
    conflict: list[tuple[Scored, str]] = field(default_factory=list)  # each source and what it says


def judge(
    results: list[Scored],
    pattern: str,
    config: Config,
    time: TimeRef,
    as_of: date,
    asked: str | None = None,
    missing: list[str] = (),
    outranked_by: Scored | None = None,
) -> Verdict:
    """The verdict on ranked, relevant results; `asked` is the kind of fact the question wants,
    `missing` the question's words no document contains, `outranked_by` a source ranked above
    every relevant one but too weakly related to count as evidence itself."""
    bands = config.verdicts
    if not results:
        reason = "No relevant documents found"
        if missing:
            reason += f" (no document mentions {', '.join(repr(m) for m in missing)})"
        return Verdict("unknown", 0.0, reason)
    top = results[0]
    floor = config.retrieval.relevance_floor
    strength = min(1.0, max(0.0, (top.relevance - floor) / (1.0 - floor)))
    rule = config.patterns[pattern].verdict
    conflict = _conflict(results, pattern, config, time, asked, as_of)
    if conflict:
        said = ", ".join(f"{_label(s)} says {what}" for s, what in conflict)
        return Verdict("verify", _band(bands.verify_confidence, bands.answer_confidence, strength),
                       f"Sources disagree: {said}", conflict)
    caveat = (
        _replaced_entry(top)
        or _outranked(outranked_by)
        or _superseded(top, results, rule, time)
        or _outside(top, time)
        or _another_day(top, time, bands.another_day_days)
        or _staleness(top, rule, time, as_of)
        or _unstated(top, asked)
    )
    if caveat:
        return Verdict("verify", _band(bands.verify_confidence, bands.answer_confidence, strength), caveat)
    return Verdict("answer", _band(bands.answer_confidence, 1.0, strength, closed=True), _where_found(top, config, pattern, as_of))


def _outranked(above: Scored | None) -> str | None:
    """The evidence does not rank first: a source the ranking puts above it (by date, type or
    fused rank) is too loosely related to count. Neither is a clear answer: on the development
    sets, all nine answers given in that case quoted the wrong source."""
    if above is not None:
        return f"Unclear: the evidence ranks below {_label(above)}, which is too loosely related to count"
    return None


def _replaced_entry(top: Scored) -> str | None:
    """The evidence is a calendar entry of which a later version was saved: for any question,
    and before any other doubt, as the entry it was is no more (the meeting moved to Friday is
    not on Wednesday, however well the later version answers the question)."""
    later = top.later_version
    if later is None:
        return None
    said = when_stated(later.candidate.text) or later.doc.title
    return f"Possibly superseded: a later version of this calendar entry, {_label(later)}, says {said}"


def _superseded(top: Scored, results: list[Scored], rule, time: TimeRef) -> str | None:
    """The evidence ranks first though a later message of its thread, or a later one of its
    sender on the same subject, replaces it: the later one says less of the question's words,
    yet what it says may be the change ("the Saturday shift was swapped"). Only for a pattern
    whose answers must be days fresh (plans change; a thing's size or a past event does not
    become wrong because the same sender wrote again), and not for a question about what was
    or one asking for the first or the last; nor where the later one is no evidence itself, or
    lies outside the day or the time asked about (next week's update replaces nothing of this
    week's, nor hides the swap sent before it)."""
    if rule.fresh_days is None or time.past or time.order:
        return None
    by_id = {s.doc.doc_id: s for s in results}
    for doc_id in top.replaced_by:
        newer = by_id.get(doc_id)
        if newer and as_much_about(newer, top):
            return f"Possibly superseded: a later {_label(newer)} from the same sender or thread follows the best source"
    return None


def _outside(top: Scored, time: TimeRef) -> str | None:
    """The evidence lies outside the time the question names, or is only about days to come
    where the question asks what happened: it ranks down, yet can still come first when
    nothing else is nearly as relevant ("what did we pay before 2024?" answered by a 2025
    invoice). That is a lead to check, not the answer."""
    if top.time_factor == 1.0:
        return None
    if time.range:
        return f"Outside the time asked about: the best source is {_label(top)}"
    return f"Not yet happened: the best source, {_label(top)}, is about days still to come"


def _another_day(top: Scored, time: TimeRef, within_days: int) -> str | None:
    """The question names a day, and the answer line names only others close to it: "is
    practice cancelled today?" is not answered by last night's "practice is cancelled tonight",
    however alike the two read. Days on both sides of it are a span that holds it ("closed from
    December 1 to December 5")."""
    if time.day is None or top.day_factor >= 1.0:
        return None
    anchor = top.doc.written_day
    lines = top.candidate.answer_lines
    day_first = top.doc.day_first
    if any(time.day.weekday() in (weekly_days(line, anchor, day_first) or ()) for line in lines):
        return None  # "Sat 10 am - 4 pm" is about every Saturday
    named = sorted({day for line in lines for day in stated_days(line, anchor, day_first=day_first)})
    # An answer line naming no day is about the days its source is about: an event's
    # ("Conference Status: cancelled"), however far off (no habit, as "open Monday through
    # Friday" is), or a shop's "Half-day doorbusters!" of the Friday its mail names.
    # An event's are the days it happens on, not a span: weekly practice on Tuesdays is not
    # on the Wednesday between two of them.
    event = not named and top.doc.kind == "calendar"
    if event:
        named = own_days(top.candidate.text, top.doc.event_dates, anchor, day_first)
    named = named or sorted(top.doc.event_dates)
    if not named or (time.day in named if event else named[0] <= time.day <= named[-1]):
        return None
    nearest = min(named, key=lambda day: abs((day - time.day).days))
    if abs((nearest - time.day).days) > within_days and not event:
        return None
    return f"About another day: the best source speaks of {day_words(nearest)}, not {day_words(time.day)} (the day asked about)"


def _unstated(top: Scored, asked: str | None) -> str | None:
    """A question that asks for a time, an amount, a size, a code or a number is not answered
    by an answer line holding none (one asking "when" or "where" may be: MAY_GO_UNSTATED)."""
    if asked and asked not in MAY_GO_UNSTATED and not (top.candidate.states_answer or top.candidate.support_states):
        return f"The best source does not state the {_KIND_WORDS[asked]} asked for"
    return None


_KIND_WORDS = {"time": "time", "amount": "amount", "size": "size", "code": "number or code", "number": "number", "measure": "weight or height"}


def _band(low: float, high: float, strength: float, closed: bool = False) -> float:
    """A confidence within [low, high) (`closed`: [low, high]), as two decimals show it: 0.7997
    of the verify band must not print as the answer band's 0.80."""
    value = round(low + (high - low) * 0.999 * strength, 2)
    return value if closed else max(low, min(value, round(high - 0.01, 2)))


def is_fresh(s: Scored, rule, time: TimeRef, as_of: date) -> bool:
    """Fresh enough for the pattern to answer without a caveat (as of the period the question
    asks about: "what time was the recital in early March?" asked in November). What was
    written within a past period the question names ("when was the recital last year?") is
    that period's own record, however long ago it ended."""
    if s.age_days is None:
        return False
    if time.range and time.range[1] < as_of:
        start, end = time.range
        if start <= effective_day(s.doc.source_date, s.doc.date_precision) <= end:
            return True
    if rule.fresh_days is not None:
        return s.age_then <= rule.fresh_days
    if rule.min_weight is not None:
        return s.decay >= rule.min_weight
    return True


def _staleness(top: Scored, rule, time: TimeRef, as_of: date) -> str | None:
    if top.doc.date_source == "mtime":
        return "Date uncertain: the best source has no date of its own (file modification time used)"
    if top.doc.source_date is None:
        return "Date uncertain: the best source is undated"
    if not is_fresh(top, rule, time, as_of):
        if upcoming_entry(top.doc, as_of) and not time.past:  # the event is to come: what may be old is the plan
            return f"Possibly changed since: the best source is a calendar entry written {days(top.age_days)} ago"
        return f"Possibly outdated: the best source is {_old(top, as_of)} ({top.doc.doc_type})"
    return None


def _where_found(top: Scored, config: Config, pattern: str, as_of: date) -> str:
    """Where the answer was found: for a pattern about the past, when it was written; else how
    recent it is (recent: within the timeline's first bucket)."""
    age = _old(top, as_of) if top.age_days is not None else "undated"
    if config.patterns[pattern].decay.model == "none" and top.doc.source_date:
        return f"Found in {top.doc.doc_type} from {as_known(top.doc.source_date, top.doc.date_precision)} ({age})"
    recent = config.timeline[0].max_days
    if top.age_days is not None and recent is not None and top.age_days <= recent:
        return f"Recent information found ({top.doc.doc_type}, {age})"
    return f"Found in {top.doc.doc_type} ({age})"


def days(n: float) -> str:
    return "1 day" if round(n) == 1 else f"{n:.0f} days"


def _old(s: Scored, as_of: date) -> str:
    """A dated source's age, in the unit its date is known to."""
    coarse = coarse_age(s.doc, as_of)
    if coarse is None:
        return f"{days(s.age_days)} old"
    return f"dated only to {coarse}" if coarse.startswith("this") else f"{coarse} old"


def _label(s: Scored) -> str:
    when = as_known(s.doc.source_date, s.doc.date_precision, iso=False) if s.doc.source_date else "undated"
    return f"{s.doc.doc_type} ({when})"


def _conflict(results, pattern, config, time, asked, as_of) -> list[tuple[Scored, str]]:
    """Two fresh, relevant, not superseded sources whose answering sentences, about the same
    thing (similar enough), state different values of the fact the question asks for (any
    fact but a day, for a yes/no question)."""
    rule = config.patterns[pattern].verdict
    if not rule.conflicts:
        return []
    strong = [
        s for s in results[: config.verdicts.conflict_sources]
        if s.relevance >= config.verdicts.conflict_min_relevance
        and not s.superseded_by
        and is_fresh(s, rule, time, as_of)
    ]  # fmt: skip
    if len(strong) < 2 or strong[0] is not results[0]:
        return []
    top = results[0]
    top_facts = _facts(top, time, as_of)
    for other in strong[1:]:
        if not top.candidate.alike(other.candidate, config.verdicts.conflict_min_similarity):
            continue
        other_facts = _facts(other, time, as_of)
        if time.day and "day" in top_facts and top_facts["day"] != other_facts.get("day", top_facts["day"]):
            continue  # the question names a day, and the other source speaks of another day
        # "When is the recital?" is answered by a day and its hour: both may disagree.
        wanted = {asked, "time"} if asked == "day" else {asked}
        for kind, value in top_facts.items():
            if (asked and kind not in wanted) or (kind == "day" and not asked):
                continue
            if kind == "day" and ("," in value or "," in other_facts.get(kind, "")):
                continue  # a sentence naming several days is not one claim about one day
            if kind in other_facts and other_facts[kind] != value:
                return [(top, value), (other, other_facts[kind])]
    return []


def _facts(s: Scored, time: TimeRef, as_of: date) -> dict[str, str]:
    """The facts of a source's answering sentence; for a question about now or later, the days
    it names in the past are background ("since March 1"), not claims to compare."""
    anchor = s.doc.written_day
    found = facts(s.candidate.sentence or "", anchor, s.doc.day_first)
    if "day" in found and not time.past:
        upcoming = [d for d in stated_days(s.candidate.sentence or "", anchor, day_first=s.doc.day_first) if d >= as_of]
        if upcoming:
            found["day"] = ", ".join(d.strftime("%a %b %-d") for d in upcoming)
        else:
            del found["day"]
    return found
