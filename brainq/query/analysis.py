"""The question's words as retrieval looks for them: key words, synonyms, identifiers, stems.

Nothing here reads the store; lexical.py weighs these words in its full-text index.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache

from brainq import cjk
from brainq.config import Config
from brainq.dates import DAY_WORDS, MONTHS, WEEKDAYS
from brainq.facts import asked_for

STOPWORDS = frozenset(
    """a about above after again all am an and any are as at be been before being below between both
    but by can could did do does doing down during each few for from further had has have having he
    her here hers him his how i if in into is it its itself just me more most my no nor not now of
    off on once only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we were what
    when where which while who whom why will with would you your yours whats what's when's who's
    where's is it's let's tell know remember find show get got one ever last first time us much many
    long put buy happen happens happened happening guy thing things stuff need needs want still end up next
    whether supposed anyone anybody someone somebody anything something everything""".split()
)
# Verbs that say how, not what ("what dose is Dad taking?", "when is the nurse coming?"): they
# are still searched for, but they do not count in how much of the question the store knows
# (lexical.known_share), as their absence is no sign it does not know what is asked about.
LIGHT_VERBS = frozenset("take takes taking took taken come comes coming came go goes going went gone".split())
_WORD = re.compile(r"[\w][\w'./-]*[\w]|\w", re.UNICODE)
# Found verbatim: a token of three or more characters with a digit ("16x25x4"), or opening
# with two capitals ("HVAC").
IDENTIFIER = re.compile(r"^(?=.*\d)[\w./-]{3,}$|^[A-Z]{2,}[\w-]*$")
# Capitalised, but names of days and months: the question's time, handled by timeref.
_CALENDAR_WORDS = frozenset(MONTHS) | frozenset(WEEKDAYS) | frozenset(DAY_WORDS)
# "Now" in other words: the present is what every question asks about unless it says otherwise
# (decay prefers fresh evidence), so "these days" looks for no "day" in the text.
_NOW = re.compile(r"\b(?:these days|nowadays|right now|at the moment|currently|at present)\b", re.IGNORECASE)
# A rate ("each day", "per month") says how often, not what about: "2 cups of dry food at 7 AM
# and 5 PM" answers "how much food does the dog get each day?" without the word "day".
_RATE = re.compile(r"\b(?:each|every|per|a|an)\s+(?:day|night|week|month|year)\b", re.IGNORECASE)
_DAY_PART = "(?-i:morning|afternoon|evening|night)"  # in lower case: "Tuesday Night Book Club" is a name
_POSSESSIVE = re.compile(r"['\u2019]s$", re.IGNORECASE)
# What a family calls its own, written as a name ("Dad's doctor") but no name a document about
# them writes (it says "your father", or his name): a word of the question, no name to find.
_KIN = frozenset(
    "mom mum mommy mummy mama dad daddy papa grandma grandpa granny grandad granddad nana gran".split()
)


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


def analyse(question: str, config: Config, time_phrases: tuple[str, ...] = ()) -> Query:
    """The question's words, synonyms and identifiers; `time_phrases` (from timeref: "April 3",
    "last year") are the question's time, matched by dates, so none of their words is looked
    for in the text ("3" of "April 3" is not a key word found in "3:05 PM")."""
    about = _RATE.sub(" ", _NOW.sub(" ", question))
    for phrase in time_phrases:
        # With the part of its day ("tomorrow night", "Friday afternoon"): a time too, which
        # a document writes as "7:00 PM", and its word alone is in other days' lines. And with
        # a possessive's "s" ("Friday night's game"), no word of its own.
        about = re.sub(rf"(?<!\w){re.escape(phrase)}(?:\s+{_DAY_PART})?(?:['\u2019]s)?(?!\w)", " ", about,
                       flags=re.IGNORECASE)  # fmt: skip
    words = _WORD.findall(cjk.question_spaced(about))
    # "teacher's" is "teacher": the full-text index would read it as the phrase "teacher s".
    keywords = [_POSSESSIVE.sub("", w.lower()) for w in words if w.lower() not in STOPWORDS]
    keywords = list(dict.fromkeys(k for k in keywords if k not in STOPWORDS))
    stemmed = stems(about)
    phrases: dict[str, list[str]] = {}
    for group in config.synonyms:
        # By stems, as in the text: "vaccines" and "weighs" name their groups too.
        present = [p for p in group if contains(stemmed, p) or _separated(stemmed, p)]
        if present:
            phrases[present[0]] = [p for p in group if p != present[0]]
    # Proper names: capitalised words that do not start the question ("Rex", "Novak").
    names = [_POSSESSIVE.sub("", w) for i, w in enumerate(words) if i > 0 and w[:1].isupper()]
    names = [name for name in names if name.lower() not in _KIN]
    identifiers = [w for w in words if IDENTIFIER.match(w)] + names
    identifiers = [w for w in identifiers if w.lower() not in STOPWORDS and not is_time_word(w)]
    return Query(question, keywords, phrases, list(dict.fromkeys(identifiers)), asked_for(question))


def _separated(stemmed: str, phrase: str) -> bool:
    """A two-word verb split by its object, as English does: "pick Harper up" is "pick up"."""
    words = stems(phrase).split()
    if len(words) != 2:
        return False
    return re.search(rf" {re.escape(words[0])}(?: \S+){{1,2}} {re.escape(words[1])} ", stemmed) is not None


_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$")


def is_time_word(word: str) -> bool:
    """Day and month names and ordinals ("13th"): the question's time, matched by dates."""
    return word.lower() in _CALENDAR_WORDS or bool(_ORDINAL.match(word.lower()))


# Suffixes and what they become, tried in order, twice ("replacements" -> "replace" -> "replac").
_SUFFIXES = (
    ("ments", ""), ("ment", ""), ("ings", ""), ("ing", ""), ("ians", ""), ("ian", ""),
    ("ics", "ic"), ("ers", ""), ("er", ""), ("ies", "y"), ("ied", "y"), ("es", ""), ("ed", ""),
    ("ly", ""), ("s", ""), ("e", ""),
)  # fmt: skip
_KEEP_S = ("ss", "us", "is")  # "class", "bus", "tennis" are not plurals
_TOKEN = re.compile(rf"[a-z0-9]+|{cjk.RUN.pattern}")


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
    text = text.lower().replace("'s", "")
    if not text.isascii():
        text = cjk.spaced(latin_base(text))  # its Chinese, Japanese and Korean as pairs of characters
    return " " + " ".join(map(stem, _TOKEN.findall(text))) + " "


def latin_base(text: str) -> str:
    """Latin letters with a diacritic as their base letter ("í" as "i"), one for one, as the
    full-text index reads them (FTS5's unicode61 removes diacritics): "Lucia" and "Lucía" are
    one name, typed either way. Other scripts keep their marks (a kana's voicing is a letter)."""
    return text.translate(_LATIN_BASE)


_LATIN_BASE = {
    code: base
    for code in range(0xC0, 0x250)
    if (base := unicodedata.normalize("NFKD", chr(code))[0]).isascii() and base.isalpha() and base != chr(code)
}


def contains(stemmed: str, term: str) -> bool:
    """Whether the term's stems are among `stemmed` (from stems()), as whole words in order."""
    return stems(term) in stemmed
