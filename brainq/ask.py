"""Answer a question: pattern and time of the question, hybrid retrieval, scoring, verdict.

question -> intent/time -> retrieve -> score -> verdict -> answer sentence. Nothing here reads
the clock: `as_of` is a parameter, so `--as-of`, tests and evaluations are deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date

from brainq.config import Bucket, Config
from brainq.dates import MIN_YEAR, impossible_days, set_order
from brainq.errors import StoreError, UsageError
from brainq.extract import calendar
from brainq.intent import Intent, classify
from brainq.paths import printable, unnamable
from brainq.query.analysis import Query, analyse
from brainq.query.candidates import only_time, retrieve, time_alone
from brainq.query.lexical import known_share, term_weights
from brainq.query.refine import read_unrefined, refine
from brainq.query.sentences import glance, without_urls
from brainq.scoring import Scored, score
from brainq.store import Store
from brainq.timeref import QUESTION_CHARS, TimeRef, resolve
from brainq.verdict import Verdict, judge
from brainq.vocabulary import expand

Embed = Callable[[list[str]], list[list[float]]]


@dataclass
class Answer:
    question: str
    as_of: date
    intent: Intent
    time: TimeRef
    verdict: Verdict
    answer: str | None
    results: list[Scored]  # the best candidates, evidence or not, in the order shown
    floor: float = 0.0  # the relevance a result needs to be evidence (see `evidence`)
    source: Scored | None = None  # the first relevant result: what the verdict and the answer line speak of

    @property
    def evidence(self) -> list[Scored]:
        """The results that count: what the verdict and the answer came from."""
        return [s for s in self.results if counts(s, self.floor)]

    def to_json(self) -> dict:
        """`ask --json`: one object, its fields fixed for the scripts that read it."""
        return {
            "question": self.question,
            "as_of": self.as_of.isoformat(),
            "pattern": self.intent.pattern,
            "time": {
                "day": self.time.day.isoformat() if self.time.day else None,
                "range": [d.isoformat() for d in self.time.range] if self.time.range else None,
                "order": self.time.order,
            },
            "verdict": {
                "level": self.verdict.level,
                "confidence": self.verdict.confidence,
                "reason": self.verdict.reason,
                "conflict": [
                    {"doc_id": s.doc.doc_id, "source_date": _iso(s.doc.source_date), "says": what}
                    for s, what in self.verdict.conflict
                ],
            },
            "answer": self.answer,
            "answer_source": self.source.doc.doc_id if self.source else None,  # the result quoted
            # Results go by score, but for "first"/"last" questions, which put the most relevant
            # evidence in order of date: each result carries its rank, and this says what
            # ordered them ("score" when no evidence was there to order).
            "ordered_by": "date" if any(s.dated for s in self.results) else "score",
            "results": [result_json(i, s, self.floor) for i, s in enumerate(self.results, 1)],
        }


def counts(s: Scored, floor: float) -> bool:
    """Whether a result is evidence: relevant enough, and no question itself. A source whose
    best sentence is a question ("what time do I pick her up now?") asks what the question
    asks: it is shown, but is no evidence, nor doubt cast on the evidence below it."""
    return s.candidate.relevance >= floor and not s.candidate.asks_back


def result_json(rank: int, s: Scored, floor: float) -> dict:
    """One source as `ask --json` lists it: where it is, its dates, and every score factor."""
    doc = s.doc
    return {
        "rank": rank,
        "relevant": counts(s, floor),
        "doc_id": doc.doc_id,
        "path": doc.path,
        "locator": doc.locator,
        "source_date": _iso(doc.source_date),
        "date_source": doc.date_source,
        "date_precision": doc.date_precision,
        "doc_type": doc.doc_type,
        "title": doc.title,
        "snippet": glance(s.candidate.sentence) if s.candidate.sentence else _snippet(s.candidate.text),
        "score": round(s.score, 4),
        "dated": s.dated,  # put in order of date ("first"/"last"), not of score
        "age_days": s.age_days,
        "superseded_by": s.superseded_by,
        "copies": s.candidate.copies,
        "ocr": doc.ocr,
        "scores": {
            # What `relevant` compares with the floor: what the source says, before the day
            # factor lifts or lowers it for being about the day asked about (or not).
            "relevance": round(s.candidate.relevance, 4),
            "day_factor": s.day_factor,
            "rank": round(s.rank, 4),
            "bm25": round(s.candidate.bm25, 4),
            "decay": round(s.decay, 4),
            "source_weight": s.source_weight,
            "cutoff": s.cutoff,
            "time_factor": s.time_factor,
            "semantic": round(s.candidate.semantic, 4),
            "lexical": round(s.candidate.lexical, 4),
            "identifiers": s.candidate.identifiers,
        },
    }


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def _snippet(chunk: str, limit: int = 240) -> str:
    body = without_urls(chunk.split("\n", 1)[-1])
    return body if len(body) <= limit else body[: limit - 1].rsplit(" ", 1)[0] + "…"


# The years a question may be asked as of: its time words reach a few years either side ("the
# school year before last"), which for a day near the calendar's ends (year 1 or 9999) lies
# outside it.
AS_OF_YEARS = (1900, 2999)


def check_as_of(as_of: date) -> date:
    if not AS_OF_YEARS[0] <= as_of.year <= AS_OF_YEARS[1]:
        raise UsageError(f"as of {as_of.isoformat()}: brainq answers as of a day in {AS_OF_YEARS[0]} to {AS_OF_YEARS[1]}")
    return as_of


def check_question(question: str, called: str = "question") -> str:
    """The question with its spaces tidied, or a UsageError that calls it as its caller does
    (MCP's search takes a "query")."""
    question = " ".join(question.split())
    if not question:
        raise UsageError(f"the {called} is empty")
    if unnamable(question):  # a lone surrogate, as JSON may carry
        raise UsageError(f"the {called} is not UTF-8 text: {printable(question)[:80]!r}")
    if not any(c.isalnum() for c in question):
        raise UsageError(f"the {called} has no words: {question[:80]!r}")
    if len(question) > QUESTION_CHARS:
        raise UsageError(f"the {called} is {len(question)} characters long; at most {QUESTION_CHARS}")
    return question


def understood(question: str, as_of: date, config: Config, pattern: str | None = None) -> tuple[str, Intent]:
    """The question tidied and classified, or a UsageError: what is wrong with the asking is
    said before anything about the store (which may not be there)."""
    question = check_question(question)
    check_as_of(as_of)
    if impossible := impossible_days(question):
        raise UsageError(f"{impossible[0]!r} is no day of the calendar: which day is meant?")
    return question, classify(question, config, pattern)


@dataclass
class Ranking:
    """Everything a question's evidence was ranked and judged with: what `ask` answers from,
    and what `brainq eval` and the ranking fit (benchmarks/fit.py) look into."""

    intent: Intent
    time: TimeRef
    query: Query
    ranked: list[Scored]  # every candidate, best first
    floor: float  # the relevance a source needs to count as evidence for this question
    missing: list[str]  # the question's words no document contains
    span: tuple[date, date] | None = None  # the days a question naming only them is about (only_time)


_DAY_AS_BOUND = re.compile(r"\b(?:after|before|since|following|from|until|by)\b", re.IGNORECASE)


def rank(question: str, store: Store, config: Config, embed: Embed, as_of: date, pattern: str | None = None) -> Ranking:
    question, intent = understood(question, as_of, config, pattern)
    if not store.chunk_count():  # before the model: nothing to find is no reason to load it
        raise StoreError(
            f"nothing is ingested in {store.home} yet: run `brainq ingest PATH...` first, or name another --store"
        )
    time = resolve(question, as_of, set_order(config.numeric_dates))
    query = analyse(question, config, time.phrases)
    if query.asks == "day" and time.day is not None and not _DAY_AS_BOUND.search(question):
        # "When is the caregiver coming Thursday?": the day is given, its hour is asked (not in
        # "when is the follow-up after the March 3 visit?": a day from that one is).
        query = replace(query, asks="time")
    vector, *keyword_vectors = embed([question, *query.keywords])
    query = expand(query, keyword_vectors, store.nearest_words, config.retrieval)
    terms = term_weights(store, query)
    span = only_time(query, time.day, time.range)
    found = retrieve(store, config, query, vector, terms, span, as_of)
    candidates = refine(found, query, vector, embed, config, time.day)
    # The floor applies to what a source says, not to the day it is about (a newsletter about
    # Wednesday is not evidence about Wednesday's swim lesson), and it rises as the question's
    # key words are missing from the whole store.
    share, missing = known_share(query, terms)
    floor = config.retrieval.relevance_floor / max(share, 0.01) ** config.retrieval.floor_missing_exponent
    ranked = score(candidates, config.patterns[intent.pattern], config.retrieval, time, as_of, floor)
    return Ranking(intent, time, query, ranked, floor, missing, span)


def _nothing_about(first: date, last: date, searched: bool) -> str:
    """Why a question that names only a time has no answer: nothing is about those days (they
    were `searched`), or there are too many of them for what is about them to be the answer
    (only_time)."""
    if searched:
        days = str(first) if first == last else f"{first} to {last}"
        return f"Nothing in the store is about {days}, the only thing the question names"
    opened = first.year < MIN_YEAR  # "before 2019" has no first day
    days, since = (f"up to {last}", "") if opened else (f"{first} to {last}", f" --since {first}")
    return (
        f"The question names only a time, {days}: too long for any one document to answer."
        f" Ask about something in it, or list what was written then (brainq list{since} --until {last})"
    )


def ask(
    question: str,
    store: Store,
    config: Config,
    embed: Embed,
    as_of: date,
    pattern: str | None = None,
    top_k: int = 5,
) -> Answer:
    r = rank(question, store, config, embed, as_of, pattern)
    relevant = [s for s in r.ranked if counts(s, r.floor)][:top_k]
    source = relevant[0] if relevant else None
    first = next((s for s in r.ranked if not s.candidate.asks_back), None)  # a question casts no doubt
    above = first if source and first is not source else None
    if source:
        read_unrefined(source.candidate, r.query, r.time.day)
    verdict = judge(relevant, r.intent.pattern, config, r.time, as_of, r.query.asks, r.missing, above)
    if verdict.level == "unknown" and (days := time_alone(r.query, r.time.day, r.time.range)):
        verdict = replace(verdict, reason=_nothing_about(*days, searched=r.span is not None))
    answer = source.candidate.answer if source else None
    if answer and source.doc.kind == calendar.KIND:
        written = source.doc.written_day
        repeating = calendar.series(source.candidate.text, source.doc.event_dates, written, source.doc.day_first)
        day = occurrence(repeating, r.time, as_of) if repeating else None
        asked = (r.time.day, r.time.day) if r.time.day else r.time.range
        answer = calendar.answer_line(answer, source.doc.title, source.candidate.text, repeating, day, asked)
    if answer and r.time.order and verdict.level != "answer":
        answer = f"I think it was this: {answer}"
    shown = r.ranked[:top_k]
    if source and source not in shown:  # the source an answer quotes is always shown, with its path
        shown = [*shown[: top_k - 1], source]
    return Answer(check_question(question), as_of, r.intent, r.time, verdict, answer, shown, r.floor, source)


def occurrence(repeating: calendar.Series, time: TimeRef, as_of: date) -> date | None:
    """Which day of a repeating event the question is about: the day it names; the first or
    the last in its range, or of the series ("when is the last game?": where the series ends,
    or within the range named); the last before today for a question about the past; else the
    next one to come, or of a range named the last gone ("when is piano this week?" asked on
    Thursday: Tuesday). None where its days listed cannot tell (no day to come is listed)."""
    days = repeating.days
    if time.day:
        return time.day if time.day in days else None
    within = [d for d in days if time.range[0] <= d <= time.range[1]] if time.range else days
    ahead, behind = [d for d in within if d >= as_of], [d for d in within if d < as_of]
    if not within:
        return None
    if "asc" in (time.order, time.events):
        return within[0]
    if time.events == "desc":
        return within[-1] if time.range or repeating.ends else None
    if time.past or time.order == "desc":
        return behind[-1] if behind else None
    return ahead[0] if ahead else (behind[-1] if time.range else None)


UNDATED = "UNDATED"  # after the timeline's buckets: a source of no known age is not "older than a year"


def buckets(timeline: list[Bucket]) -> list[str]:
    """The timeline's buckets, newest first (RECENT, PREVIOUSLY, ESTABLISHED HISTORY), then UNDATED."""
    return [bucket.name for bucket in timeline] + [UNDATED]


def bucket_of(age_days: float | None, timeline: list[Bucket]) -> str:
    """The bucket of `buckets` an age falls into."""
    if age_days is None:
        return UNDATED
    for bucket in timeline:
        if bucket.max_days is not None and age_days <= bucket.max_days:
            return bucket.name
    return timeline[-1].name
