"""Hybrid retrieval: semantic (Chroma) and lexical (SQLite FTS5) candidates, one per document.

Candidates come from both indexes, so exact tokens ("16x25x4", a model number, "Rex") are
never lost to embeddings. They are then scored on absolute scales rather than fused by rank
alone: reciprocal rank fusion orders well but cannot say that nothing is relevant, and a
personal brain must be able to answer "I don't know". Relevance of a chunk is

    (semantic_weight * similarity + lexical_weight * coverage) / (semantic_weight + lexical_weight)
    * (1 + entity_boost) ** (identifiers of the question found verbatim)

where coverage is the IDF-weighted share of the question's words (or their synonyms) the
chunk contains, and similarity is the cosine of the question with the chunk or, for the best
candidates, with the chunk's closest sentence read in its chunk (refine.py), whichever is
higher: a short question is far from a 150-word chunk in embedding space even when one
sentence of it is the answer.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from datetime import date

import numpy as np

from brainq.chunking import unquoted
from brainq.config import Config
from brainq.query.analysis import IDENTIFIER, Query, latin_base, stem, stems
from brainq.query.lexical import Term, lexical_query, plain_query, terms_about
from brainq.query.sentences import ANSWER_CHARS, HEADING, glance, sentences
from brainq.store import Store, StoredDocument

# The longest time a question naming nothing else is answered about (only_time): a month.
ONLY_TIME_DAYS = 31


@dataclass
class Candidate:
    """A document's best chunk for a question, with the parts of its relevance."""

    doc: StoredDocument
    chunk_id: str
    text: str
    semantic: float = 0.0
    lexical: float = 0.0
    identifiers: list[str] = field(default_factory=list)
    relevance: float = 0.0
    sentence: str | None = None  # the chunk's sentence that answers best
    support: str | None = None  # a second sentence nearly as good, or completing the best one
    support_states: bool = False  # the support holds the kind of fact asked for (an event's "When:")
    sentence_vector: list[float] | None = None
    states_answer: bool = False  # the sentence holds the kind of fact the question asks for
    other_texts: list[str] = field(default_factory=list)  # the document's other chunks found
    bm25: float = 0.0  # the chunk's plain BM25 score for the question's words (0: none of them)
    rank: float = 0.0  # BM25 and similarity fused, each scaled by the question's best: the order
    answer_factor: float = 1.0  # how far its sentence holds the kind of fact asked for
    asks_back: bool = False  # its best sentence is a question itself: no statement of the answer
    says_nothing: bool = False  # a reply found by its subject alone (refine._says_nothing)
    copies: list[str] = field(default_factory=list)  # the places of other copies found, shown as this one

    @property
    def answers_in_kind(self) -> bool:
        """Its answer holds the kind of fact asked for, as ranking counts it (refine's answer
        factor): in its sentence or the next one, and of a kind that ranks (facts.LINE_ONLY)."""
        return self.answer_factor > 1.0

    def alike(self, other: "Candidate", threshold: float) -> bool:
        """Whether the two answering sentences say something about the same thing."""
        if self.sentence_vector is None or other.sentence_vector is None:
            return False
        return cosine_similarity(self.sentence_vector, other.sentence_vector) >= threshold

    @property
    def answer_lines(self) -> tuple[str, ...]:
        """The answering sentence and its support, whole: what the days it speaks of are read
        from (the answer shown may leave the support out). Each is read apart, so that one's
        last word and the next one's first ("... in March." "19 kids ...") never make a date.
        No lines where no sentence was read (refine reads the best few): a chunk may name days
        that are another matter ("the lease ends June 30, 2027")."""
        return tuple(filter(None, [self.sentence, self.support]))

    @property
    def answer(self) -> str | None:
        """The answering sentence, with its supporting one, in the document's order: what a
        person reads at a glance, so at most ANSWER_CHARS (the support is left out first)."""
        if not self.sentence:
            return None
        if not self.support or len(self.sentence) + len(self.support) >= ANSWER_CHARS:
            return glance(self.sentence)
        order = self.read_sentences()
        return " ".join(sorted([self.sentence, self.support], key=order.index))

    def read_sentences(self) -> list[str]:
        """The sentences of its chunks found, once each, in the document's order."""
        return list(dict.fromkeys(s for text in [self.text, *self.other_texts] for s in sentences(text)))


def retrieve(
    store: Store,
    config: Config,
    query: Query,
    vector: list[float],
    terms: dict[str, Term],
    span: tuple[date, date] | None = None,
    as_of: date | None = None,
) -> list[Candidate]:
    """Every document either index finds, scored by its best chunk; `terms` from term_weights.
    A question that names only a time (`span`, from only_time) also finds what the catalog
    holds about that time, written by `as_of`."""
    n = config.retrieval.candidates
    semantic = store.semantic(vector, n)
    # IDF as term_weights reckons it, of a word in lexical_max_chunks chunks.
    floor = math.log((store.chunk_count() + 1) / (config.retrieval.lexical_max_chunks + 0.5))
    common = max(math.log(1 / config.retrieval.lexical_max_share), floor)
    match = lexical_query(query, terms, common, floor)
    lexical = store.lexical(match, n)
    dated = store.about_time(*span, as_of or date.max, n) if span else []
    cosine = {h.chunk_id: h.score for h in semantic}
    texts = {h.chunk_id: (h.doc_id, h.text) for h in semantic + lexical + dated}
    stored = store.vectors([cid for cid in texts if cid not in cosine])
    if stored:  # in numpy: a python loop over a large store's many lexical hits took ~5 ms
        cosine.update(zip(stored, (np.asarray(list(stored.values()), dtype=float) @ vector).tolist()))
    bm25 = store.bm25(plain_query(query.text), list(texts))
    weights = {t: term.weight for t, term in terms_about(query, terms).items()}
    docs = store.get_documents(doc_id for doc_id, _ in texts.values())
    chunks: dict[str, list[Candidate]] = {}
    for cid, (doc_id, text) in texts.items():
        if doc_id not in docs:
            continue  # a chunk of a document being replaced right now
        cand = _score_chunk(config, query, weights, docs[doc_id], cid, unquoted(text), cosine.get(cid, 0.0))
        if span:  # the time is all the question asks about: a document about it covers it whole
            cand.lexical = 1.0 if about_the_time(docs[doc_id], *span) else 0.0
            cand.relevance = relevance(config, cand.semantic, cand.lexical, 0)
        cand.bm25 = bm25.get(cid, 0.0)
        chunks.setdefault(doc_id, []).append(cand)
    fuse([c for found in chunks.values() for c in found], config)
    best: dict[str, Candidate] = {}
    for found in chunks.values():
        cand = max(found, key=lambda c: c.rank)
        cand.relevance = max(c.relevance for c in found)
        cand.other_texts = [c.text for c in found if c is not cand]
        # Copies of one document (StoredDocument.copy_key) are one result: the best of them,
        # and of equals one whose file is there (a folder renamed is read under its new name,
        # while the old one, not found, keeps its documents until it is forgotten).
        key = cand.doc.copy_key or cand.doc.doc_id
        if key in best:
            kept, other = sorted([best[key], cand], key=lambda c: (c.rank, os.path.exists(c.doc.path)), reverse=True)
            kept.copies += [other.doc.place, *other.copies]
            cand = kept
        best[key] = cand
    return sorted(best.values(), key=lambda c: c.rank, reverse=True)


def fuse(candidates: list[Candidate], config: Config) -> None:
    """Each candidate's rank: its plain BM25 and its similarity, each as a share of the best of
    the question's candidates, and its coverage (already a share), weighed as patterns.yaml
    says: scaled by score, not by rank as reciprocal rank fusion is, so that a clear winner of
    either search stays one. The weights were fit on the development sets (benchmarks/fit.py)."""
    r = config.retrieval
    top_bm25 = max((c.bm25 for c in candidates), default=0.0) or 1.0
    top_cosine = max((c.semantic for c in candidates), default=0.0) or 1.0
    total = r.rank_lexical_weight + r.rank_dense_weight + r.rank_coverage_weight or 1.0
    for c in candidates:
        share = (
            r.rank_lexical_weight * c.bm25 / top_bm25
            + r.rank_dense_weight * max(c.semantic, 0.0) / top_cosine
            + r.rank_coverage_weight * c.lexical
        )
        c.rank = share / total * c.answer_factor


def cosine_similarity(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def time_alone(query: Query, day: date | None, span: tuple[date, date] | None) -> tuple[date, date] | None:
    """The days a question asks about when it names nothing else ("What's on Saturday?",
    "What did we do last spring?"): no word, name or phrase is left to look for."""
    if query.keywords or query.identifiers or query.phrases:
        return None
    return (day, day) if day else span


def only_time(query: Query, day: date | None, span: tuple[date, date] | None) -> tuple[date, date] | None:
    """The days of time_alone, whatever is about them the answer, whatever it says. Not more
    than a month of them: of "What's on in 2026?" any document of the year would be the answer."""
    days = time_alone(query, day, span)
    return days if days and (days[1] - days[0]).days <= ONLY_TIME_DAYS else None


def about_the_time(doc: StoredDocument, first: date, last: date) -> bool:
    """Whether a document is about a day from `first` to `last`: it names one, or it was
    written on one (what happened on a day is written down on it: "what did the plumber say
    on March 2?"). A file's modification day says nothing of when it was written."""
    if any(first <= day <= last for day in doc.event_dates):
        return True
    to_the_day = doc.date_source != "mtime" and doc.date_precision not in ("month", "year")
    return to_the_day and doc.written_day is not None and first <= doc.written_day <= last


def about_the_day(doc: StoredDocument, day: date | None) -> bool:
    """Whether a document is about the day a question names (about_the_time)."""
    return day is not None and about_the_time(doc, day, day)


def day_factor(day: date | None, about_the_day: bool, boost: float) -> float:
    """A question about a day lifts what is about that day and lowers the rest: documents in
    scoring; in refine, also the best candidates to read and a document's sentences."""
    if day is None:
        return 1.0
    return 1.0 + boost if about_the_day else 1.0 - boost


def relevance(config: Config, similarity: float, coverage: float, identifiers: int) -> float:
    """A chunk's relevance, as the module docstring writes it."""
    r = config.retrieval
    base = (r.semantic_weight * max(similarity, 0.0) + r.lexical_weight * coverage) / (
        r.semantic_weight + r.lexical_weight
    )
    return base * (1.0 + r.entity_boost) ** identifiers


def _score_chunk(config, query, weights, doc, chunk_id, text, cosine) -> Candidate:
    found = [ident for ident in query.identifiers if _names(text, ident, query.identifiers)]
    # A name the text does not name ("Rex" in "Uncle Rex") is no word of it either.
    unnamed = {stem(i) for i in query.identifiers if i not in found and i[:1].isupper()}
    coverage = _coverage(text, query, weights, config.retrieval.passage_lines, unnamed)
    return Candidate(doc, chunk_id, text, cosine, coverage, found, relevance(config, cosine, coverage, len(found)))


def _names(text: str, identifier: str, identifiers: list[str]) -> bool:
    """Whether the text names the identifier itself: "Rex" is not named by "Uncle Rex"
    (another capitalised word just before it, not opening its line or ending a sentence),
    unless the question also says "Uncle"; sizes and codes are found anywhere, even inside a
    longer token. Diacritics aside ("Lucia" names "Lucía")."""
    text, identifier = latin_base(text), latin_base(identifier)
    if not identifier[:1].isupper() or IDENTIFIER.match(identifier):
        return identifier.lower() in text.lower()
    asked = {i.lower() for i in identifiers}
    for m in re.finditer(rf"(?<!\w){re.escape(identifier)}(?!\w)", text, re.IGNORECASE):
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = text[line_start : m.start()].split()
        if len(before) <= 1:
            return True
        word = before[-1]
        if not word[:1].isupper() or word[-1] in ".,:;!?" or word.lower() in asked:
            return True
    return False


def _coverage(
    chunk: str, query: Query, weights: dict[str, float], passage_lines: int, unnamed: frozenset[str] = frozenset()
) -> float:
    """IDF-weighted share of the question's words found close together: within `passage_lines`
    (sentences) of the chunk plus its title line and the heading of their section. Words
    scattered over 160 words of an unrelated newsletter are weak evidence; the same words in
    one or two sentences are strong, and a note's "## Internet" says what the lines under it
    are about ("account number: 8834-..."). Words of `unnamed` (stems of names the chunk
    does not name) count as missing."""
    total = sum(weights.values())
    if not total:
        return 0.0
    forms = [(weight, _forms(term, query)) for term, weight in weights.items() if stems(term).strip() not in unnamed]
    title, *lines = chunk.split("\n")
    best = 0.0
    for start in range(max(1, len(lines) - passage_lines + 1)):
        heading = next((line for line in reversed(lines[:start]) if HEADING.match(line)), "")
        passage = stems("\n".join([title, heading, *lines[start : start + passage_lines]]))
        covered = sum(weight * _found(passage, options) for weight, options in forms)
        best = max(best, covered / total)
    return best


def _forms(term: str, query: Query) -> list[tuple[float, str, list[str]]]:
    """The forms that count for a term (Query.alternatives) as stems, whole and word by word,
    best credit first: a chunk is read passage by passage, and stemming them once per chunk,
    not once per passage, was most of scoring's time."""
    forms = [(credit, stems(alt), [stems(w) for w in alt.split()]) for alt, credit in query.alternatives(term).items()]
    return sorted(forms, key=lambda form: form[0], reverse=True)


def _found(passage: str, forms: list[tuple[float, str, list[str]]]) -> float:
    """The credit of the best form found in the passage, or 0; a phrase is found also when all
    its words are ("your furnace now takes a 4-inch media filter" is about the furnace filter)."""
    return next(
        (credit for credit, whole, words in forms if whole in passage or all(w in passage for w in words)),
        0.0,
    )
