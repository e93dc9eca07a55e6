"""Hybrid retrieval: semantic (Chroma) and lexical (SQLite FTS5) candidates, one per document.

Candidates come from both indexes, so exact tokens ("16x25x4", a model number, "Maggie") are
never lost to embeddings. They are then scored on absolute scales rather than fused by rank
alone: reciprocal rank fusion orders well but cannot say that nothing is relevant, and a
personal brain must be able to answer "I don't know". Relevance of a chunk is

    (semantic_weight * similarity + lexical_weight * coverage) / (semantic_weight + lexical_weight)
    * (1 + entity_boost) ** (identifiers of the question found verbatim)

where coverage is the IDF-weighted share of the question's words (or their synonyms) the
chunk contains, and similarity is the cosine of the question with the chunk or, for the best
candidates, with the chunk's closest sentence, whichever is higher: a short question is far
from a 150-word chunk in embedding space even when one sentence of it is the answer.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date
from functools import cache, lru_cache

import numpy as np

from brainq.config import Config
from brainq.dates import DAY_WORDS, MONTHS, WEEKDAYS, find_event_dates
from brainq.facts import asked_for, holds
from brainq.store import Store, StoredDocument

STOPWORDS = frozenset(
    """a about above after again all am an and any are as at be been before being below between both
    but by can could did do does doing down during each few for from further had has have having he
    her here hers him his how i if in into is it its itself just me more most my no nor not now of
    off on once only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we were what
    when where which while who whom why will with would you your yours whats what's when's who's
    where's is it's let's tell know remember find show get got one ever last first time us much many
    long put buy happen happening guy thing things stuff need needs want still end up next""".split()
)
_WORD = re.compile(r"[\w][\w'./-]*[\w]|\w", re.UNICODE)
_IDENTIFIER = re.compile(r"^(?=.*\d)[\w./-]{3,}$|^[A-Z]{2,}[\w-]*$")
# Capitalised, but names of days and months: the question's time, handled by timeref.
_CALENDAR_WORDS = frozenset(MONTHS) | frozenset(WEEKDAYS) | frozenset(DAY_WORDS)
# "Now" in other words: the present is what every question asks about unless it says otherwise
# (decay prefers fresh evidence), so "these days" looks for no "day" in the text.
_NOW = re.compile(r"\b(?:these days|nowadays|right now|at the moment|currently|at present)\b", re.IGNORECASE)
# A rate ("each day", "per month") says how often, not what about: "2 cups of kibble at 7 AM
# and 5 PM" answers "how much food does Maggie get each day?" without the word "day".
_RATE = re.compile(r"\b(?:each|every|per|a|an)\s+(?:day|night|week|month|year)\b", re.IGNORECASE)
_QUOTE_START = re.compile(r"^(?:On .{4,160}\bwrote:|-+ ?Original Message ?-+)", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['\u2019]s$", re.IGNORECASE)
_HEADING = re.compile(r"^#{1,6}\s")  # a Markdown heading: what the lines under it are about
_HEADER_LINE = re.compile(r"^(from|to|cc|date|subject|attachments):", re.IGNORECASE)


@dataclass
class Query:
    """What the retrieval needs from a question: its words, synonyms and identifiers."""

    text: str
    keywords: list[str]
    phrases: dict[str, list[str]]  # keyword or phrase -> the synonyms that also count for it
    identifiers: list[str]  # tokens to find verbatim: sizes, codes, model numbers, names
    asks: str | None = None  # the kind of fact wanted: time, amount, size, code, day, number
    # keyword -> the store's words closest to it in meaning, with their similarity (vocabulary.py)
    expansions: dict[str, dict[str, float]] = field(default_factory=dict)

    def alternatives(self, term: str) -> dict[str, float]:
        """The forms that count for a term, each with the credit a match earns: the term and
        its synonyms fully, the store's words of like meaning by their similarity."""
        return {term: 1.0, **{s: 1.0 for s in self.phrases.get(term, [])}, **self.expansions.get(term, {})}


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
    support: str | None = None  # a second sentence nearly as good, if there is one
    sentence_vector: list[float] | None = None
    states_answer: bool = False  # the sentence holds the kind of fact the question asks for
    other_texts: list[str] = field(default_factory=list)  # the document's other chunks found
    bm25: float = 0.0  # the chunk's plain BM25 score for the question's words (0: none of them)
    rank: float = 0.0  # BM25 and similarity fused, each scaled by the question's best: the order
    answer_factor: float = 1.0  # how far its sentence holds the kind of fact asked for
    asks_back: bool = False  # its best sentence is a question itself: no statement of the answer
    copies: int = 0  # other copies of the document found, shown as this one

    def alike(self, other: "Candidate", threshold: float) -> bool:
        """Whether the two answering sentences say something about the same thing."""
        if self.sentence_vector is None or other.sentence_vector is None:
            return False
        return _cosine(self.sentence_vector, other.sentence_vector) >= threshold

    @property
    def answer(self) -> str | None:
        """The answering sentence, with its supporting one, in the document's order: what a
        person reads at a glance, so at most ANSWER_CHARS (the support is left out first)."""
        if not self.sentence:
            return None
        if not self.support or len(self.sentence) + len(self.support) >= ANSWER_CHARS:
            return glance(self.sentence)
        text = without_urls("\n".join([self.text, *self.other_texts]))  # as sentences() gives them
        pair = sorted([self.sentence, self.support], key=lambda s: text.find(s))
        return " ".join(pair)


ANSWER_CHARS = 300


def glance(sentence: str) -> str:
    """A sentence cut to ANSWER_CHARS at a word, marked as cut."""
    if len(sentence) <= ANSWER_CHARS:
        return sentence
    return sentence[: ANSWER_CHARS - 1].rsplit(" ", 1)[0] + "\u2026"


def analyse(question: str, config: Config, time_phrases: tuple[str, ...] = ()) -> Query:
    """The question's words, synonyms and identifiers; `time_phrases` (from timeref: "April 3",
    "last year") are the question's time, matched by dates, so none of their words is looked
    for in the text ("3" of "April 3" is not a key word found in "3:05 PM")."""
    about = _RATE.sub(" ", _NOW.sub(" ", question))
    for phrase in time_phrases:
        about = re.sub(rf"(?<!\w){re.escape(phrase)}(?!\w)", " ", about, flags=re.IGNORECASE)
    words = _WORD.findall(about)
    # "teacher's" is "teacher": the full-text index would read it as the phrase "teacher s".
    keywords = [_POSSESSIVE.sub("", w.lower()) for w in words if w.lower() not in STOPWORDS]
    keywords = list(dict.fromkeys(k for k in keywords if k not in STOPWORDS))
    stemmed = stems(about)
    phrases: dict[str, list[str]] = {}
    for group in config.synonyms:
        # By stems, as in the text: "vaccines" and "weighs" name their groups too.
        present = [p for p in group if _contains(stemmed, p) or _separated(stemmed, p)]
        if present:
            phrases[present[0]] = [p for p in group if p != present[0]]
    # Proper names: capitalised words that do not start the question ("Maggie", "Alvarez").
    names = [_POSSESSIVE.sub("", w) for i, w in enumerate(words) if i > 0 and w[:1].isupper()]
    identifiers = [w for w in words if _IDENTIFIER.match(w)] + names
    identifiers = [w for w in identifiers if w.lower() not in STOPWORDS and not _is_time_word(w)]
    return Query(question, keywords, phrases, list(dict.fromkeys(identifiers)), asked_for(question))


def _separated(stemmed: str, phrase: str) -> bool:
    """A two-word verb split by its object, as English does: "pick Harper up" is "pick up"."""
    words = stems(phrase).split()
    if len(words) != 2:
        return False
    return re.search(rf" {re.escape(words[0])}(?: \S+){{1,2}} {re.escape(words[1])} ", stemmed) is not None


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


def lexical_query(query: Query, terms: dict[str, "Term"], common: float, floor: float) -> str:
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


def retrieve(
    store: Store, config: Config, query: Query, vector: list[float], terms: dict[str, "Term"]
) -> list[Candidate]:
    """Every document either index finds, scored by its best chunk; `terms` from term_weights."""
    n = config.retrieval.candidates
    semantic = store.semantic(vector, n)
    # IDF as term_weights reckons it, of a word in lexical_max_chunks chunks.
    floor = math.log((store.chunk_count() + 1) / (config.retrieval.lexical_max_chunks + 0.5))
    common = max(math.log(1 / config.retrieval.lexical_max_share), floor)
    match = lexical_query(query, terms, common, floor)
    lexical = store.lexical(match, n)
    cosine = {h.chunk_id: h.score for h in semantic}
    texts = {h.chunk_id: (h.doc_id, h.text) for h in semantic + lexical}
    stored = store.vectors([cid for cid in texts if cid not in cosine])
    if stored:  # in numpy: a python loop over a large store's many lexical hits took ~5 ms
        cosine.update(zip(stored, (np.asarray(list(stored.values()), dtype=float) @ vector).tolist()))
    bm25 = store.bm25(plain_query(query.text), list(texts))
    weights = {t: term.weight for t, term in _about(query, terms).items()}
    docs = store.get_documents(doc_id for doc_id, _ in texts.values())
    chunks: dict[str, list[Candidate]] = {}
    for cid, (doc_id, text) in texts.items():
        if doc_id not in docs:
            continue  # a chunk of a document being replaced right now
        cand = _score_chunk(config, query, weights, docs[doc_id], cid, _unquoted(text), cosine.get(cid, 0.0))
        cand.bm25 = bm25.get(cid, 0.0)
        chunks.setdefault(doc_id, []).append(cand)
    fuse([c for found in chunks.values() for c in found], config)
    best: dict[str, Candidate] = {}
    for found in chunks.values():
        cand = max(found, key=lambda c: c.rank)
        cand.relevance = max(c.relevance for c in found)
        cand.other_texts = [c.text for c in found if c is not cand]
        # Copies of one document (StoredDocument.copy_key) are one result: the best of them.
        key = cand.doc.copy_key or cand.doc.doc_id
        if key in best:
            kept, other = sorted([best[key], cand], key=lambda c: c.rank, reverse=True)
            kept.copies += other.copies + 1
            cand = kept
        best[key] = cand
    return sorted(best.values(), key=lambda c: c.rank, reverse=True)


def plain_query(question: str) -> str:
    """The question's words as an FTS5 query any of them matches: plain BM25's, which orders by
    every word asked (names and common words too), where the lexical search above looks for
    the words that single documents out, and their synonyms."""
    words = dict.fromkeys(w.lower() for w in _FTS_TOKEN.findall(question) if w.lower() not in _PLAIN_STOP)
    return " OR ".join(f'"{w}"' for w in words)


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


_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$")


def _is_time_word(word: str) -> bool:
    """Day and month names and ordinals ("13th"): the question's time, matched by dates."""
    return word.lower() in _CALENDAR_WORDS or bool(_ORDINAL.match(word.lower()))


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


def _about(query: Query, terms: dict[str, Term]) -> dict[str, Term]:
    """The terms that say what the question is about: time words are left out, as the
    question's time is matched by dates ("the 13th" is "Friday, March 13" in a document)."""
    return {t: term for t, term in _counted(query, terms).items() if not _is_time_word(t)}


def known_share(query: Query, terms: dict[str, Term]) -> tuple[float, list[str]]:
    """How much of what the question is about the store has ever heard of: the IDF-weighted
    share of its words (a synonym counts) found in any chunk, and the words found nowhere.

    A question whose key words appear in no document at all ("swim lesson", "chimney") is
    about something the store does not know, however close some sentence comes in embedding
    space.
    """
    about = _about(query, terms)
    total = sum(term.weight for term in about.values())
    known = sum(term.weight * term.known for term in about.values())
    return (known / total if total else 1.0), [t for t, term in about.items() if not term.known]


# Suffixes and what they become, tried in order, twice ("replacements" -> "replace" -> "replac").
_SUFFIXES = (
    ("ments", ""), ("ment", ""), ("ings", ""), ("ing", ""), ("ians", ""), ("ian", ""),
    ("ics", "ic"), ("ers", ""), ("er", ""), ("ies", "y"), ("ied", "y"), ("es", ""), ("ed", ""),
    ("ly", ""), ("s", ""), ("e", ""),
)  # fmt: skip
_KEEP_S = ("ss", "us", "is")  # "class", "bus", "tennis" are not plurals
_TOKEN = re.compile(r"[a-z0-9]+")


@cache
def stem(word: str) -> str:
    """A crude English stem, applied alike to question and text, so that 'roofer' meets
    'roofing', 'pediatrician' meets 'pediatrics' and 'cancelled' meets 'canceled'."""
    word = word.lower()
    for _ in range(2):
        for suffix, replacement in _SUFFIXES:
            if suffix == "s" and word.endswith(_KEEP_S):
                continue
            # A plain plural may leave three letters ("days", "kids", "dogs"); other suffixes
            # four, so "used" and "ring" stay whole.
            shortest = 3 if suffix == "s" else 4
            if word.endswith(suffix) and len(word) - len(suffix) + len(replacement) >= shortest:
                word = word[: -len(suffix)] + replacement
                if word[-1] == word[-2] and word[-1] not in "aeioulsz":
                    word = word[:-1]  # "swimm" -> "swim", but "install" and "pass" stay
                break
    return word


@lru_cache(maxsize=4096)
def stems(text: str) -> str:
    """The text as space-separated stems, padded, for whole-word and phrase lookups.

    Remembered: scoring a question looks up the same terms and sentences in hundreds of
    passages, and stemming them again each time was a third of a warm answer's time."""
    return " " + " ".join(map(stem, _TOKEN.findall(text.lower().replace("'s", "")))) + " "


def _contains(stemmed: str, term: str) -> bool:
    return stems(term) in stemmed


def refine(
    candidates: list[Candidate], query: Query, vector: list[float], embed, config: Config, day: date | None = None
) -> list[Candidate]:
    """Sentence-level similarity for the best candidates (see the module docstring), re-sorted.

    Embedding costs about a millisecond per word on a laptop CPU, so only the sentences of each
    candidate that share the most words with the question are compared.
    """
    r = config.retrieval
    # The best candidates as scoring will see them: for a question about a day, those about
    # that day are lifted there, so they are the ones worth reading sentence by sentence.
    top = sorted(candidates, key=lambda c: c.rank * _day_lift(c, day, r.day_boost), reverse=True)[: r.refine]
    on_the_day = {c.chunk_id: _about_the_day(c, day) for c in top}
    pool = [
        (c, sentence)
        for c in top
        for sentence in _likely_sentences(c, query, r.refine_sentences, on_the_day[c.chunk_id])
    ]
    if not pool:
        return candidates
    vectors = embed([sentence for _, sentence in pool])
    ranked: dict[str, list[tuple[float, str, list[float], bool]]] = {}
    for (cand, sentence), vec in zip(pool, vectors):
        similarity = _cosine(vec, vector)
        # A question in a source ("does anyone know when the pool opens?") asks what the
        # question asks; it is no statement of the answer, however alike the two are.
        asking = _is_question(sentence)
        states = bool(query.asks) and not asking and holds(sentence, query.asks, _day_of(cand))
        # A sentence holding the kind of fact asked for answers better than one that only
        # resembles the question ("what time ...?": the one with a time in it; "how much did
        # we pay to sign Leo up?": the fee, not "Player: Leo Whitaker"), by the same factors
        # as its document's relevance below; and so does one about the day asked about.
        preference = similarity * _answer_factor(query, states, r.answer_type_boost, asking)
        if day:
            about = sentence in on_the_day[cand.chunk_id]
            preference *= 1.0 + r.day_boost if about else 1.0 - r.day_boost
        ranked.setdefault(cand.chunk_id, []).append((preference, sentence, vec, states, asking))
    for cand in top:
        options = sorted(ranked.get(cand.chunk_id, []), key=lambda o: o[0], reverse=True)
        if options:
            best, *rest = options
            _, cand.sentence, cand.sentence_vector, cand.states_answer, cand.asks_back = best
            # A second sentence nearly as good completes the answer ("Friday is now a full
            # day." + "Dismissal is at the regular time, 3:05 PM.").
            if rest and rest[0][0] >= r.support_share * best[0]:
                cand.support = rest[0][1]
    for cand in top:
        if cand.sentence_vector is not None:
            cand.semantic = max(cand.semantic, _cosine(cand.sentence_vector, vector))
            cand.answer_factor = _answer_factor(query, cand.states_answer, r.answer_type_boost, cand.asks_back)
            cand.relevance = _relevance(config, cand.semantic, cand.lexical, len(cand.identifiers))
            cand.relevance *= cand.answer_factor
    fuse(candidates, config)
    return sorted(candidates, key=lambda c: c.rank, reverse=True)


def _day_lift(cand: Candidate, day: date | None, boost: float) -> float:
    if day is None:
        return 1.0
    return 1.0 + boost if day in cand.doc.event_dates else 1.0 - boost


def _answer_factor(query: Query, states: bool, boost: float, asking: bool = False) -> float:
    """Up when a sentence holds the kind of fact asked for, down when the question asks for
    one and it does not (not for "when": the document's own date may be the answer), and down
    when the sentence is itself a question."""
    if asking:
        return 1.0 - boost
    if states:
        return 1.0 + boost
    return 1.0 - boost if query.asks and query.asks != "day" else 1.0


def _is_question(sentence: str) -> bool:
    return sentence.rstrip().rstrip("\"')\u201d").endswith("?")


def _day_of(cand: Candidate):
    return cand.doc.source_date.date() if cand.doc.source_date else None


def _unquoted(chunk: str) -> str:
    """The chunk without the earlier message a reply quotes ("On Tue, ... Priya wrote: > Any
    chance of a makeup practice before Saturday?"): those are someone else's earlier words, in
    the store as their own message, and must not lend the reply their names and days."""
    title, *lines = chunk.split("\n")
    kept = []
    for line in lines:
        if _QUOTE_START.match(line):
            break
        if not line.startswith(">"):
            kept.append(line)
    return "\n".join([title, *kept])


def sentences(chunk: str) -> list[str]:
    """The sentences of a chunk's body (its first line is the document's title), without
    mail header lines, which help find a message but never answer a question, and without
    lines that are mostly links or addresses (a newsletter's tracking links), which no person
    reads as an answer."""
    lines = chunk.split("\n")[1:]  # chunking puts one sentence on each line
    shown = (without_urls(s) for s in lines if not _HEADER_LINE.match(s) and _readable(s))
    return [s for s in shown if len(s.split()) >= 3]


_LINKS = re.compile(r"<?(?:https?://|www\.|mailto:)\S+>?|\S+@\S+\.\w+")
_URLS = re.compile(r"\s*<?(?:https?://|www\.)[^\s<>]*[^\s<>.,;:!?)\]]>?", re.IGNORECASE)


def without_urls(text: str) -> str:
    """`text` without its web addresses: a plain-text newsletter's "Brian Griese
    <http://football299.fantasy...>" reads, and is compared, as "Brian Griese". Mail addresses
    stay: "who do I write to" is answered by one."""
    return _URLS.sub("", text).strip() if _URLS.search(text) else text


def _readable(line: str) -> bool:
    """At most half of the line's characters are links or mail addresses, and it holds a word
    (a phone number is read as an answer; a row of tracking links is not)."""
    linked = sum(len(m) for m in _LINKS.findall(line))
    return linked <= 0.5 * len(line.replace(" ", "")) and re.search(r"[^\W\d_]{2,}", _LINKS.sub("", line)) is not None


def _in_order(cand: Candidate) -> list[str]:
    """The sentences of the candidate's chunks found, once each, in the document's order."""
    return list(dict.fromkeys(s for text in [cand.text, *cand.other_texts] for s in sentences(text)))


def _about_the_day(cand: Candidate, day: date | None) -> set[str]:
    """The sentences about the day asked about: those naming it, and a sentence naming no day
    that follows one of them ("Friday, March 13 will now be a full school day. Students will be
    dismissed at 3:05 PM.": the time is that Friday's)."""
    if day is None:
        return set()
    about, previous = set(), False
    for sentence in _in_order(cand):
        days = find_event_dates(sentence, _day_of(cand))
        previous = day in days or (previous and not days)
        if previous:
            about.add(sentence)
    return about


def _likely_sentences(cand: Candidate, query: Query, n: int, on_the_day: set[str]) -> list[str]:
    """The sentences sharing most words with the question, those holding the kind of fact it
    asks for or about the day it asks about first among equals.

    A sentence with none of these rarely answers, and costs a model call like one that might:
    such sentences are left out, but for the first when no sentence has any (so a document
    found by meaning alone is still read). On corpus_samples' questions this embeds a quarter
    fewer sentences, and the eval's figures stay the same."""
    terms = [form for term in [*query.keywords, *query.phrases] for form in query.alternatives(term)]
    anchor = _day_of(cand)

    def promise(sentence: str) -> float:
        overlap = sum(_contains(stems(sentence), t) for t in terms)
        states = query.asks is not None and holds(sentence, query.asks, anchor)
        return overlap + states + (sentence in on_the_day)

    ranked = sorted(((promise(s), s) for s in _in_order(cand)), key=lambda pair: pair[0], reverse=True)[:n]
    return [sentence for i, (score, sentence) in enumerate(ranked) if score > 0 or i == 0]


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def _relevance(config: Config, similarity: float, coverage: float, identifiers: int) -> float:
    r = config.retrieval
    base = (r.semantic_weight * max(similarity, 0.0) + r.lexical_weight * coverage) / (
        r.semantic_weight + r.lexical_weight
    )
    return base * (1.0 + r.entity_boost) ** identifiers


def _score_chunk(config, query, weights, doc, chunk_id, text, cosine) -> Candidate:
    found = [ident for ident in query.identifiers if _names(text, ident, query.identifiers)]
    # A name the text does not name ("Maggie" in "Grandma Maggie") is no word of it either.
    unnamed = {stem(i) for i in query.identifiers if i not in found and i[:1].isupper()}
    coverage = _coverage(text, query, weights, config.retrieval.passage_lines, unnamed)
    return Candidate(doc, chunk_id, text, cosine, coverage, found, _relevance(config, cosine, coverage, len(found)))


def _names(text: str, identifier: str, identifiers: list[str]) -> bool:
    """Whether the text names the identifier itself: "Maggie" is not named by "Grandma Maggie"
    (another capitalised word just before it, not opening its line or ending a sentence),
    unless the question also says "Grandma"; sizes and codes are found anywhere, even inside a
    longer token."""
    if not identifier[:1].isupper() or _IDENTIFIER.match(identifier):
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
    weights = {t: w for t, w in weights.items() if stems(t).strip() not in unnamed}
    title, *lines = chunk.split("\n")
    best = 0.0
    for start in range(max(1, len(lines) - passage_lines + 1)):
        heading = next((line for line in reversed(lines[:start]) if _HEADING.match(line)), "")
        passage = stems("\n".join([title, heading, *lines[start : start + passage_lines]]))
        covered = sum(weight * _found(passage, term, query) for term, weight in weights.items())
        best = max(best, covered / total)
    return best


def _found(passage: str, term: str, query: Query) -> float:
    """The credit of the best form of a term in the passage (Query.alternatives), or 0; a
    phrase is found also when all its words are ("your furnace now takes a 4-inch media
    filter" is about the furnace filter)."""
    return max(
        (credit for alt, credit in query.alternatives(term).items()
         if _contains(passage, alt) or all(_contains(passage, w) for w in alt.split())),
        default=0.0,
    )  # fmt: skip
