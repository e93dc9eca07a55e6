"""The confidence verdict: answer, verify, or "I don't know" (DESIGN.md section 4).

The level follows from the pattern's freshness rule and from conflicts between sources; the
confidence is a number inside the level's band, so it never contradicts the level:
answer in [answer_confidence, 1], verify in [verify_confidence, answer_confidence),
unknown below verify_confidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from brainq.config import Config
from brainq.scoring import Scored
from brainq.timeref import TimeRef

# Facts that two sources can disagree on, each normalised so "2:45 PM" equals "2:45pm".
_TIME = re.compile(r"\b(1[0-2]|0?[1-9])(?::([0-5]\d))?\s*([ap])\.?\s?m\b\.?|\bnoon\b", re.IGNORECASE)
_AMOUNT = re.compile(r"\$\s?(\d[\d,]*(?:\.\d\d)?)")
_SIZE = re.compile(r"\b\d+(?:\.\d+)?\s?[x×]\s?\d+(?:\.\d+)?(?:\s?[x×]\s?\d+(?:\.\d+)?)?\b", re.IGNORECASE)
_NEGATIVE = re.compile(r"\b(cancel\w*|postpon\w*|called off|closed|no school|half[- ]day|early dismissal)\b", re.I)
_POSITIVE = re.compile(r"\b(as scheduled|still on|will go ahead|go on as planned|open as usual|full (school )?day|regular (school )?day|not (be )?cancel\w*)\b", re.I)


@dataclass
class Verdict:
    level: str  # answer | verify | unknown
    confidence: float
    reason: str
    conflict: list[tuple[Scored, str]] = field(default_factory=list)  # each source and what it says


def facts(sentence: str) -> dict[str, str]:
    """The checkable facts a sentence states: a time, an amount, a size, yes/no."""
    found = {}
    if m := _TIME.search(sentence):
        if m.group(0).lower() == "noon":
            found["time"] = "12:00 PM"
        else:
            found["time"] = f"{int(m.group(1))}:{m.group(2) or '00'} {m.group(3).upper()}M"
    if m := _AMOUNT.search(sentence):
        found["amount"] = "$" + m.group(1).replace(",", "")
    if m := _SIZE.search(sentence):
        found["size"] = re.sub(r"\s|×", lambda x: "" if x.group(0).isspace() else "x", m.group(0).lower())
    positive, negative = _POSITIVE.search(sentence), _NEGATIVE.search(sentence)
    if positive and not negative:
        found["yes/no"] = "on as planned"
    elif negative and not positive:
        found["yes/no"] = "off or changed"
    return found


def judge(results: list[Scored], pattern: str, config: Config, time: TimeRef, as_of: date) -> Verdict:
    """The verdict on ranked, relevant results."""
    bands = config.verdicts
    if not results:
        return Verdict("unknown", 0.0, "No relevant documents found")
    top = results[0]
    floor = config.retrieval.relevance_floor
    strength = min(1.0, max(0.0, (top.relevance - floor) / (1.0 - floor)))
    rule = config.patterns[pattern].verdict
    conflict = _conflict(results, pattern, config, time)
    if conflict:
        said = ", ".join(f"{_label(s)} says {what}" for s, what in conflict)
        return Verdict("verify", _band(bands.verify_confidence, bands.answer_confidence, strength),
                       f"Sources disagree: {said}", conflict)
    caveat = _staleness(top, rule, pattern, time)
    if caveat:
        return Verdict("verify", _band(bands.verify_confidence, bands.answer_confidence, strength), caveat)
    return Verdict("answer", _band(bands.answer_confidence, 1.0, strength), _found(top, pattern))


def _band(low: float, high: float, strength: float) -> float:
    return round(low + (high - low) * 0.999 * strength, 2)


def is_fresh(s: Scored, rule, pattern: str, time: TimeRef) -> bool:
    """Fresh enough for the pattern to answer without a caveat."""
    if s.age_days is None:
        return False
    if rule.fresh_days is not None:
        about_the_day = time.day is not None and time.day in s.doc.event_dates and s.doc.doc_type == "calendar_event"
        return s.age_days <= rule.fresh_days or about_the_day
    if rule.min_weight is not None:
        return s.decay >= rule.min_weight
    return True


def _staleness(top: Scored, rule, pattern: str, time: TimeRef) -> str | None:
    if top.doc.date_source == "mtime":
        return "Date uncertain: the newest source has no date of its own (file modification time used)"
    if top.doc.source_date is None:
        return "Date uncertain: the best source is undated"
    if not is_fresh(top, rule, pattern, time):
        return f"Possibly outdated: newest source is {top.age_days:.0f} days old ({top.doc.doc_type})"
    return None


def _found(top: Scored, pattern: str) -> str:
    age = f"{top.age_days:.0f} days old" if top.age_days is not None else "undated"
    if pattern == "historical":
        return f"Found in {top.doc.doc_type} from {top.doc.source_date.date().isoformat()} ({age})"
    if top.age_days is not None and top.age_days <= 30:
        return f"Recent information found ({top.doc.doc_type}, {age})"
    return f"Found in {top.doc.doc_type} ({age})"


def _label(s: Scored) -> str:
    when = s.doc.source_date.strftime("%b %-d, %Y") if s.doc.source_date else "undated"
    return f"{s.doc.doc_type} ({when})"


def _conflict(results, pattern, config, time) -> list[tuple[Scored, str]]:
    """Two fresh, relevant, not superseded sources whose answering sentences, about the same
    thing (similar enough), state different values of one fact."""
    if pattern == "historical":
        return []  # old facts differ because things changed; the history is the answer
    rule = config.patterns[pattern].verdict
    strong = [
        s for s in results[:5]
        if s.relevance >= config.verdicts.conflict_min_relevance
        and not s.superseded_by
        and is_fresh(s, rule, pattern, time)
    ]  # fmt: skip
    if len(strong) < 2 or strong[0] is not results[0]:
        return []
    top = results[0].candidate
    top_facts = facts(top.sentence or "")
    for other in strong[1:]:
        if not _same_subject(top, other.candidate, config.verdicts.conflict_min_similarity):
            continue
        other_facts = facts(other.candidate.sentence or "")
        for kind, value in top_facts.items():
            if kind in other_facts and other_facts[kind] != value:
                return [(results[0], value), (other, other_facts[kind])]
    return []


def _same_subject(a, b, threshold: float) -> bool:
    if a.sentence_vector is None or b.sentence_vector is None:
        return False
    return sum(x * y for x, y in zip(a.sentence_vector, b.sentence_vector)) >= threshold
