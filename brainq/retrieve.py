"""Hybrid retrieval: semantic (Chroma) and lexical (SQLite FTS5) candidates, one per document.

Candidates come from both indexes, so exact tokens ("16x25x4", a model number, "Maggie") are
never lost to embeddings. They are then scored on absolute scales rather than fused by rank
alone: reciprocal rank fusion orders well but cannot say that nothing is relevant, and a
personal brain must be able to answer "I don't know". Relevance of a chunk is

    semantic_weight * cosine + lexical_weight * coverage + entity_boost * exact identifiers,

divided by the two weights' sum, where coverage is the IDF-weighted share of the question's
words (or their synonyms) the chunk contains.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from brainq.config import Config
from brainq.store import Store, StoredDocument

STOPWORDS = frozenset(
    """a about above after again all am an and any are as at be been before being below between both
    but by can could did do does doing down during each few for from further had has have having he
    her here hers him his how i if in into is it its itself just me more most my no nor not now of
    off on once only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we were what
    when where which while who whom why will with would you your yours whats what's when's who's
    where's is it's let's tell know remember find show get got one ever last first time us""".split()
)
_WORD = re.compile(r"[\w][\w'./-]*[\w]|\w", re.UNICODE)
_IDENTIFIER = re.compile(r"^(?=.*\d)[\w./-]{3,}$|^[A-Z]{2,}[\w-]*$")


@dataclass
class Query:
    """What the retrieval needs from a question: its words, synonyms and identifiers."""

    text: str
    keywords: list[str]
    phrases: dict[str, list[str]]  # keyword or phrase -> the synonyms that also count for it
    identifiers: list[str]  # tokens to find verbatim: sizes, codes, model numbers, names


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


def analyse(question: str, config: Config) -> Query:
    words = _WORD.findall(question)
    keywords = list(dict.fromkeys(w.lower() for w in words if w.lower() not in STOPWORDS))
    lowered = question.lower()
    phrases: dict[str, list[str]] = {}
    for group in config.synonyms:
        present = [p for p in group if re.search(rf"\b{re.escape(p)}\b", lowered)]
        if present:
            phrases[present[0]] = [p for p in group if p != present[0]]
    # Proper names: capitalised words that do not start the question ("Maggie", "Alvarez").
    names = [w for i, w in enumerate(words) if i > 0 and w[:1].isupper() and w.lower() not in STOPWORDS]
    identifiers = [w for w in words if _IDENTIFIER.match(w) and w.lower() not in STOPWORDS]
    return Query(question, keywords, phrases, list(dict.fromkeys(identifiers + names)))


def _fts_term(text: str) -> str:
    return '"' + text.replace('"', " ") + '"'


def lexical_query(query: Query) -> str:
    terms = [_fts_term(k) for k in query.keywords]
    for synonyms in query.phrases.values():
        terms.extend(_fts_term(s) for s in synonyms)
    return " OR ".join(dict.fromkeys(terms))


def retrieve(store: Store, config: Config, query: Query, vector: list[float]) -> list[Candidate]:
    """Every document either index finds, scored by its best chunk."""
    n = config.retrieval.candidates
    semantic = store.semantic(vector, n)
    lexical = store.lexical(lexical_query(query), n)
    cosine = {h.chunk_id: h.score for h in semantic}
    texts = {h.chunk_id: (h.doc_id, h.text) for h in semantic + lexical}
    missing = [cid for cid in texts if cid not in cosine]
    for cid, vec in store.vectors(missing).items():
        cosine[cid] = sum(a * b for a, b in zip(vec, vector))
    weights = _term_weights(store, query)
    docs = store.get_documents(doc_id for doc_id, _ in texts.values())
    best: dict[str, Candidate] = {}
    for cid, (doc_id, text) in texts.items():
        if doc_id not in docs:
            continue  # a chunk of a document being replaced right now
        cand = _score_chunk(config, query, weights, docs[doc_id], cid, text, cosine.get(cid, 0.0))
        if doc_id not in best or cand.relevance > best[doc_id].relevance:
            best[doc_id] = cand
    return sorted(best.values(), key=lambda c: c.relevance, reverse=True)


def _term_weights(store: Store, query: Query) -> dict[str, float]:
    """IDF of each keyword (rare words matter more), taking the best of its synonyms."""
    total = max(store.chunk_count(), 1)
    weights = {}
    for keyword in query.keywords:
        df = store.document_frequency(_fts_term(keyword))
        weights[keyword] = math.log((total + 1) / (df + 0.5))
    for phrase, synonyms in query.phrases.items():
        df = min(store.document_frequency(_fts_term(s)) for s in [phrase, *synonyms])
        weights[phrase] = math.log((total + 1) / (df + 0.5))
    return {k: max(w, 0.1) for k, w in weights.items()}


def _contains(text: str, term: str) -> bool:
    stem = _stem(term)
    return re.search(rf"\b{re.escape(stem)}", text) is not None


def _stem(word: str) -> str:
    """A light English stem so 'filters' finds 'filter' and 'cancelled' finds 'cancel'."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _score_chunk(config, query, weights, doc, chunk_id, text, cosine) -> Candidate:
    r = config.retrieval
    lowered = text.lower()
    phrase_words = {w for p in query.phrases for w in p.split()}
    covered = total = 0.0
    for term, weight in weights.items():
        if term in phrase_words:
            continue  # counted once, through its phrase
        total += weight
        alternatives = [term, *query.phrases.get(term, [])]
        if any(_contains(lowered, alt) for alt in alternatives):
            covered += weight
    coverage = covered / total if total else 0.0
    found = [ident for ident in query.identifiers if ident.lower() in lowered]
    relevance = (r.semantic_weight * max(cosine, 0.0) + r.lexical_weight * coverage) / (
        r.semantic_weight + r.lexical_weight
    ) + r.entity_boost * len(found)
    return Candidate(doc, chunk_id, text, cosine, coverage, found, min(relevance, 1.0))
