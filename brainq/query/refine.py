"""The best candidates read sentence by sentence: the sentence that answers, a second one that
completes it, and what the answering sentence lends its document's relevance and rank.
"""

from __future__ import annotations

import re
from datetime import date

from brainq.config import Config, Retrieval
from brainq.dates import WEEKDAY_RE, find_event_dates
from brainq.facts import LINE_ONLY, MAY_GO_UNSTATED, facts, holds
from brainq.query.analysis import Query, contains, stems
from brainq.query.candidates import Candidate, about_the_day, cosine_similarity, day_factor, fuse, relevance


_WEEKDAY = re.compile(WEEKDAY_RE, re.I)  # a day named, when the reply has no date to place it by
# A bill's or a receipt's total, by the labels they print it under (not a "Subtotal", "Sub
# Total", "Total savings" or "Total tax").
_TOTAL = re.compile(
    r"(?<!sub )(?<!sub-)\b(?:(?:grand )?total|amount (?:due|paid|charged)|balance due|you paid)\b"
    r"(?! (?:savings|saved|tax|discounts?|items?|quantity|qty)\b)",
    re.I,
)


def refine(
    candidates: list[Candidate], query: Query, vector: list[float], embed, config: Config, day: date | None = None
) -> list[Candidate]:
    """Sentence-level similarity for the best candidates (see candidates.py), re-sorted.

    Embedding costs about a millisecond per word on a laptop CPU, so only the sentences of each
    candidate that share the most words with the question are compared.
    """
    r = config.retrieval
    # The best candidates as scoring will see them: for a question about a day, those about
    # that day are lifted there, so they are the ones worth reading sentence by sentence.
    top = sorted(
        candidates, key=lambda c: c.rank * day_factor(day, about_the_day(c.doc, day), r.day_boost), reverse=True
    )[: r.refine]
    on_the_day = {c.chunk_id: _sentences_about_the_day(c, day) for c in top}
    pool = [
        (c, sentence)
        for c in top
        for sentence in _likely_sentences(c, query, r.refine_sentences, on_the_day[c.chunk_id])
    ]
    if not pool:
        return candidates
    vectors = embed([sentence for _, sentence in pool])
    ranked: dict[str, list[tuple[float, str, list[float], bool, bool]]] = {}
    for (cand, sentence), vec in zip(pool, vectors):
        similarity = cosine_similarity(vec, vector)
        # A question in a source ("does anyone know if practice is on?") asks what the
        # question asks; it is no statement of the answer, however alike the two are.
        asking = _is_question(sentence)
        states = bool(query.asks) and not asking and holds(sentence, query.asks, cand.doc.written_day, query.text, cand.doc.day_first)
        # A sentence holding the kind of fact asked for answers better than one that only
        # resembles the question ("what time ...?": the one with a time in it; "how much did
        # we pay to sign Rex up?": the fee, not "Player: Rex Novak"), by the same factors
        # as its document's relevance below; and so does one about the day asked about.
        preference = similarity * _answer_factor(query, states, r, asking)
        preference *= day_factor(day, sentence in on_the_day[cand.chunk_id], r.day_boost)
        ranked.setdefault(cand.chunk_id, []).append((preference, sentence, vec, states, asking))
    # Candidates whose answer goes on into the next sentence, which states the fact ("I changed
    # the garage code today. New code is 5290."): they answer as well as one sentence holding
    # it (an old note's "Garage code: 4817"). An event's or a bill's stating line is not such a
    # sequel: a field trip's "When:" is no answer to when its form is due.
    continued, terms = set(), _terms(query)
    named = [*query.keywords, *query.phrases]  # as the question says them: an item it names
    for cand in top:
        # A sentence holding a fact the answer must state, and sharing a word with the question,
        # answers before any that does not, however much more the other resembles the question
        # ("Account: R-0092714" before the statement's heading "PROPERTY TAX STATEMENT"). Not
        # of an event or a bill, whose stating line completes the best one below.
        firm = query.asks not in MAY_GO_UNSTATED and not _one_subject(cand)
        # "How much was the plumber's invoice?" is asked of its total, not of its likeliest
        # item: but for an item the question names ("how much was the labor?").
        billed = _billed(cand, query)
        read = ranked.get(cand.chunk_id, [])
        item = _item_named(read, named) if billed else lambda sentence: False
        options = sorted(
            read,
            key=lambda o: (
                (firm or item(o[1])) and o[3] and not o[4] and (billed or _overlap(o[1], terms) > 0),
                billed and o[3] and bool(_TOTAL.search(o[1])),
                o[0],
            ),
            reverse=True,
        )
        if options and options[0][4]:
            # A question first ("Ana asked what I made?"): the chunk's best sentence that
            # holds the fact asked for, or for an open question shares its words, answers in its
            # place ("I made a blue bowl."). A mail that only asks stays a question.
            said = next((o for o in options[1:] if not o[4] and (o[3] if query.asks else _overlap(o[1], terms))), None)
            if said is not None:
                options = [said, *[o for o in options if o is not said]]
        if options:
            best, *rest = options
            _, cand.sentence, cand.sentence_vector, cand.states_answer, cand.asks_back = best
            # A second sentence nearly as good completes the answer ("Friday is now a full
            # day." + "Dismissal is at the regular time, 3:05 PM."); a bill's total needs none.
            total = billed and cand.states_answer and _TOTAL.search(cand.sentence)
            if rest and rest[0][0] >= r.support_share * best[0] and not total:
                cand.support = rest[0][1]
            # Where it holds no fact of the kind asked for, an event's title is completed by
            # the line of it that does ("When:"), and a bill's by its amount: every line of an
            # event or a bill is about it, where the next line of a newsletter may hold
            # another's time. Where it is not about the day asked about, the best sentence is
            # completed by the likeliest that is (a lesson's title by "Not on: Wednesday 25
            # November").
            about = on_the_day[cand.chunk_id]
            if _one_subject(cand) and not cand.states_answer and (stating := next((o for o in rest if o[3]), None)):
                cand.support, cand.support_states = stating[1], True
            elif about and cand.sentence not in about and (on_it := next((o for o in rest if o[1] in about), None)):
                cand.support = on_it[1]
            elif query.asks and not cand.states_answer and (after := _stating_next(cand, query)):
                cand.support, cand.support_states = after, True
                continued.add(cand.chunk_id)
    for cand in top:
        cand.says_nothing = _says_nothing(cand, query)
        if cand.sentence_vector is not None:
            # A sentence is read in its context: "Account number: 3301-2245" answers "what is
            # our account number for garbage pickup?" only as far as its bill is the garbage
            # bill.
            closest = cosine_similarity(cand.sentence_vector, vector)
            cand.semantic = max(cand.semantic, (1 - r.sentence_context) * closest + r.sentence_context * cand.semantic)
            states = (cand.states_answer or cand.chunk_id in continued) and query.asks not in LINE_ONLY
            cand.answer_factor = _answer_factor(query, states, r, cand.asks_back or cand.says_nothing)
            cand.relevance = relevance(config, cand.semantic, cand.lexical, len(cand.identifiers))
            cand.relevance *= cand.answer_factor
    fuse(candidates, config)
    return sorted(candidates, key=lambda c: c.rank, reverse=True)


def _answer_factor(query: Query, states: bool, r: Retrieval, asking: bool) -> float:
    """Up when a sentence holds the kind of fact asked for, down when the question asks for
    one and it does not (not for a kind that MAY_GO_UNSTATED), and further down when the
    sentence is itself a question, or a reply that says nothing (`asking`)."""
    if asking:
        return r.asking_factor
    if states:
        return 1.0 + r.answer_type_boost
    return 1.0 - r.answer_type_boost if query.asks and query.asks not in MAY_GO_UNSTATED else 1.0


def _stating_next(cand: Candidate, query: Query) -> str | None:
    """The sentence after the answering one, where it goes on about a word of the question and
    holds the fact asked for: "Garage door code changed. New code is 4471." A newsletter's next
    line about something else ("Lunch is at 11:30.") shares no word with the question."""
    order = cand.read_sentences()
    at = order.index(cand.sentence) if cand.sentence in order else len(order)
    after = order[at + 1] if at + 1 < len(order) else None
    if after and _overlap(after, _terms(query)) and holds(after, query.asks, cand.doc.written_day, query.text, cand.doc.day_first):
        return after
    return None


def _says_nothing(cand: Candidate, query: Query) -> bool:
    """A reply whose own words share none of the question's and state nothing checkable ("Got
    it, thank you! See you there.") is found by its subject alone: it answers nothing, and
    replaces nothing its thread said before. Its whole text is read, short lines too: "Now
    6pm.", "Cancelled.", "it moves to Thursday" and "now at St. Brendan's Hall" say something."""
    if not cand.doc.headers.get("In-Reply-To"):
        return False
    own = "\n".join(text.split("\n", 1)[1] if "\n" in text else "" for text in [cand.text, *cand.other_texts])
    anchor = cand.doc.written_day
    return not (
        _overlap(own, _terms(query))
        or facts(own, anchor, cand.doc.day_first)
        or any(holds(own, kind, anchor) for kind in ("place", "code", "number"))
        or _WEEKDAY.search(own)
    )


def _item_named(read: list[tuple], words: list[str]):
    """Whether a bill's line is an item the question names ("how much was the labor?"): one
    of the question's words picks it out of the bill's lines with an amount. A word on several
    of them ("Electricity delivery charge", "Electricity supply charge") is the bill's subject."""
    stating = [o[1] for o in read if o[3] and not o[4]]
    picking = [w for w in words if sum(_overlap(line, [w]) > 0 for line in stating) == 1]
    return lambda sentence: _overlap(sentence, picking) > 0


def _billed(cand: Candidate, query: Query) -> bool:
    """Whether the question asks how much of a bill or a receipt, whose total answers it."""
    return query.asks == "amount" and _one_subject(cand)


def _one_subject(cand: Candidate) -> bool:
    """Whether every line of the document is about one thing: an event, a bill, a receipt."""
    return cand.doc.kind == "calendar" or cand.doc.doc_type in ("invoice", "receipt")


def _terms(query: Query) -> list[str]:
    """The question's words and phrases, each with its alternatives."""
    return [form for term in [*query.keywords, *query.phrases] for form in query.alternatives(term)]


def _overlap(sentence: str, terms: list[str]) -> int:
    return sum(contains(stems(sentence), t) for t in terms)


def _is_question(sentence: str) -> bool:
    return sentence.rstrip().rstrip("\"')\u201d").endswith("?")


def _sentences_about_the_day(cand: Candidate, day: date | None) -> set[str]:
    """The sentences about the day asked about: those naming it, and a sentence naming no day
    that follows one of them ("Friday, March 13 will now be a full school day. Students will be
    dismissed at 3:05 PM.": the time is that Friday's)."""
    if day is None:
        return set()
    about, previous = set(), False
    for sentence in cand.read_sentences():
        days = find_event_dates(sentence, cand.doc.written_day, day_first=cand.doc.day_first)
        previous = day in days or (previous and not days)
        if previous:
            about.add(sentence)
    return about


def read_unrefined(cand: Candidate, query: Query, day: date | None) -> None:
    """Give a candidate that was not read sentence by sentence (refine reads the best few by
    rank; time and type may still put another first) its likeliest sentence, by the words it
    shares with the question, the fact and the day asked about, unembedded: its answer line,
    and what the verdict reads."""
    if cand.sentence is None:
        likely = _likely_sentences(cand, query, 1, _sentences_about_the_day(cand, day))
        cand.sentence = likely[0] if likely else None


def _likely_sentences(cand: Candidate, query: Query, n: int, on_the_day: set[str]) -> list[str]:
    """The sentences sharing most words with the question, those holding the kind of fact it
    asks for or about the day it asks about first among equals.

    A sentence with none of these rarely answers, and costs a model call like one that might:
    such sentences are left out, but for the first when no sentence has any (so a document
    found by meaning alone is still read). On corpus_samples' questions this embeds a quarter
    fewer sentences, and the eval's figures stay the same."""
    terms, anchor = _terms(query), cand.doc.written_day
    billed = _billed(cand, query)  # a bill's total first among equals

    def promise(sentence: str) -> tuple[int, int]:
        # Words shared, the fact asked for and the day asked about counting as one each; among
        # equals, those two first ("Contract price $9,800.00" before "Thank you for choosing
        # Hilltop Roofing" for "how much did the roof cost?").
        overlap = _overlap(sentence, terms)
        fitting = (query.asks is not None and holds(sentence, query.asks, anchor, query.text, cand.doc.day_first)) + (sentence in on_the_day)
        return overlap + fitting, fitting + (fitting and billed and bool(_TOTAL.search(sentence)))

    ranked = sorted(((promise(s), s) for s in cand.read_sentences()), key=lambda pair: pair[0], reverse=True)
    likely = [sentence for i, ((score, _), sentence) in enumerate(ranked[:n]) if score > 0 or i == 0]
    # Of a bill or an event, the likeliest sentence holding the fact asked for (or about the day
    # asked about) is read too, though others share more words: "Amount due: $156.40" shares
    # none with "how much was the October bill?"
    stating = next((sentence for (_, fitting), sentence in ranked[n:] if fitting), None)
    if query.asks and _one_subject(cand) and stating and not any(fitting for (_, fitting), _ in ranked[:n]):
        likely.append(stating)
    return likely
