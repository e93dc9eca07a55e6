"""The store's own vocabulary, embedded: how a question's words reach documents worded otherwise.

A hand-kept synonym list knows only the words someone thought of; a household that writes
"trash" where the question says "garbage", or a bill that says "energy" for "power", is not in
it. Every word of every chunk is embedded once, at ingest, into a Chroma collection beside the
chunks' (a word is a model call of a few word pieces, and a household's vocabulary grows far
slower than its mail). A question's words are then expanded with the store's words nearest to
theirs, above a similarity set in patterns.yaml; the expansions count in the full-text search
and in coverage, each by its similarity, so a near synonym helps less than the word itself.
On a Chroma server the collection is shared, so every machine's questions reach every
machine's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from brainq.config import Retrieval
from brainq.query.analysis import STOPWORDS, Query, stems

MIN_LETTERS, MAX_LETTERS = 3, 24
_WORD = re.compile(r"[a-z][a-z'-]*[a-z]")


def words(texts: Iterable[str]) -> set[str]:
    """The words of some texts worth a vector: lower-case, letters, not stop words."""
    found = set()
    for text in texts:
        for w in _WORD.findall(text.lower()):
            if MIN_LETTERS <= len(w) <= MAX_LETTERS and w not in STOPWORDS and "'" not in w:
                found.add(w)
    return found


def new_words(texts: Iterable[str], known: Callable[[set[str]], set[str]]) -> list[str]:
    """The words of `texts` the store has no vector for yet (`known` says which it has)."""
    found = words(texts)
    return sorted(found - known(found))


def expand(query: Query, vectors: list[list[float]], nearest, retrieval: Retrieval) -> Query:
    """The query with each keyword's nearest store words (`vectors` are the keywords', and
    `nearest(vectors, n)` finds the n words nearest each): at least `expansion_min_similarity`
    alike, at most `expansion_per_word` of them, a word of the keyword's own stem left out (it
    is the keyword, already searched)."""
    per_word = retrieval.expansion_per_word
    if not per_word or not query.keywords:
        return query
    found = {}
    for keyword, near in zip(query.keywords, nearest(vectors, per_word + 3)):
        own = stems(keyword)
        close = {w: round(sim, 3) for w, sim in near if sim >= retrieval.expansion_min_similarity and stems(w) != own}
        if close:
            found[keyword] = dict(list(close.items())[:per_word])
    query.expansions = found
    return query
