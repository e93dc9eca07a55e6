"""The question against the full-text index (SQLite FTS5): how rare each of its words is
there, how much of it the store has heard of, and the FTS5 queries of the lexical search and of
plain BM25.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from brainq import cjk
from brainq.facts import names_kind
from brainq.query.analysis import LIGHT_VERBS, Query, is_time_word
from brainq.store import Store

_FTS_TOKEN = re.compile(r"[^\W_]+")  # what FTS5's unicode61 tokenizer keeps as a word
# The usual English stop words, all plain BM25 leaves out.
_PLAIN_STOP = frozenset(
    """a about after all also am an and any are as at be been before being between both but by can
    could did do does doing during each for from had has have having he her here hers him his how i
    if in into is it its just me more most my no nor not now of off on once only or other our ours
    out over own same she should so some such than that the their theirs them then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with would you your yours""".split()
)


def _fts_term(text: str) -> str:
    """The text as an FTS5 phrase of the words FTS5 sees in it: written so, "half-day" and
    "half day" are one phrase, counted and searched once (a phrase of common words reads
    their long lists of positions)."""
    return '"' + " ".join(_FTS_TOKEN.findall(text)) + '"'


@dataclass(frozen=True)
class Term:
    """A keyword or synonym phrase of the question, as the store knows it."""

    known: float  # how far the store knows it: 1 when a form of it is in a chunk, else the best
    # similarity of a store word of like meaning, else 0
    forms: dict[str, float]  # the term, its synonyms and its expansions, each with its own IDF
    credit: dict[str, float]  # what a match of each form earns (Query.alternatives)

    @property
    def weight(self) -> float:
        """IDF: rare words matter more; a phrase takes its rarest form's (not an expansion's:
        a word of like meaning may be rarer than the word asked)."""
        return max(max(idf for form, idf in self.forms.items() if self.credit[form] == 1.0), 0.1)


def term_weights(store: Store, query: Query) -> dict[str, Term]:
    """Every keyword and synonym phrase of the question, looked up once in the lexical index."""
    total = max(store.chunk_count(), 1)
    terms = {}
    for term in [*query.keywords, *query.phrases]:
        credit = query.alternatives(term)
        counts = {t: store.document_frequency(_fts_term(t)) for t in credit}
        forms = {t: math.log((total + 1) / (count + 0.5)) for t, count in counts.items()}
        known = max((credit[t] for t, count in counts.items() if count), default=0.0)
        terms[term] = Term(known, forms, credit)
    return terms


def _counted(query: Query, terms: dict[str, Term]) -> dict[str, Term]:
    """The terms that count: a keyword inside a synonym phrase ("filter" of "hvac filter")
    counts once, as the phrase."""
    phrase_words = {w for p in query.phrases for w in p.split()} - set(query.phrases)
    return {t: term for t, term in terms.items() if t not in phrase_words}


def terms_about(query: Query, terms: dict[str, Term]) -> dict[str, Term]:
    """The terms that say what the question is about: time words are left out, as the
    question's time is matched by dates ("the 13th" is "Friday, March 13" in a document).

    Nor are pairs of Chinese, Japanese or Korean characters that no chunk holds, of a unit
    (cjk.units) others of which are found: such a pair is one word's end and the next's start,
    or a particle."""
    about = {t: term for t, term in _counted(query, terms).items() if not is_time_word(t)}
    for unit in cjk.units(query.text):
        asked = [p for p in unit.pairs if p in about]
        if unit.particles or any(about[p].known for p in asked):
            for pair in asked:
                if not about[pair].known:
                    del about[pair]
    return about


def known_share(query: Query, terms: dict[str, Term]) -> tuple[float, list[str]]:
    """How much of what the question is about the store has ever heard of: the IDF-weighted
    share of its words (a synonym counts) found in any chunk, and the words found nowhere.

    A question whose key words appear in no document at all ("swim lesson", "chimney") is
    about something the store does not know, however close some sentence comes in embedding
    space. Words naming the kind of fact asked for ("phone number") are no such key words, nor
    are light verbs ("coming", "taking").
    """
    about = {
        t: term
        for t, term in terms_about(query, terms).items()
        if not names_kind(t, query.asks) and t not in LIGHT_VERBS
    }
    total = sum(term.weight for term in about.values())
    known = sum(term.weight * term.known for term in about.values())
    return (known / total if total else 1.0), cjk.rejoined([t for t, term in about.items() if not term.known])


def lexical_query(query: Query, terms: dict[str, Term], common: float, floor: float) -> str:
    """The question's words and synonyms as one FTS5 query, less those weighing under `common`
    (the IDF of a word in a large share of all chunks): such a word singles out no document,
    and its long list of chunks is what makes a full-text query slow in a large store. It still
    counts in coverage. Each synonym is weighed on its own: a rare word's common synonym
    ("dismissed" for "half-day") would bring that long list back. When every form is that
    common, the rarest stays, unless it weighs under `floor` (the IDF of a word in a fixed
    number of chunks): FTS5 scores every chunk a query matches, ~2 us each, so in an archive of
    a million chunks a word in a fifth of them would cost 0.4 s, to pick 60 of its 200,000
    chunks by little more than how often they repeat it."""
    searched = {
        form: weight * entry.credit[form]
        for term, entry in terms.items()
        for form, weight in entry.forms.items()
        if form != term or term in query.keywords  # a phrase is searched by its synonyms
    }
    rarest = sorted(searched, key=searched.get)[-1:]
    kept = [f for f, weight in searched.items() if weight >= common] or [f for f in rarest if searched[f] >= floor]
    return " OR ".join(dict.fromkeys(_fts_term(form) for form in kept))


def plain_query(question: str) -> str:
    """The question's words as an FTS5 query any of them matches: plain BM25's, which orders by
    every word asked (names and common words too), where the lexical search above looks for
    the words that single documents out, and their synonyms."""
    words = dict.fromkeys(w.lower() for w in _FTS_TOKEN.findall(cjk.spaced(question)) if w.lower() not in _PLAIN_STOP)
    return " OR ".join(f'"{w}"' for w in words)
