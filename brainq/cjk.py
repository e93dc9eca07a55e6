"""Chinese, Japanese and Korean text, whose words are not parted by spaces, as the pairs of
characters it is made of.

SQLite's unicode61 tokenizer keeps a run of such characters as one token ("運動会は10月3日"
is two), so neither the full-text index nor a question's words could find "運動会" in it. Cut
into overlapping pairs, as Lucene's CJK analyzer does, a word of any length is the pairs of
its characters in a row, and a question's run of characters shares its words' pairs with
the text, without a dictionary of any of the three languages.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

# Han (with its extensions and compatibility forms), kana, Hangul, and the iteration and
# closing marks written inside words ("人々", "〆切").
CHARACTERS = (
    "\u1100-\u11ff\u3005\u3006\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
RUN = re.compile(f"[{CHARACTERS}]+")
# Han and kana, which Chinese and Japanese write without spaces (Korean parts its words).
UNSPACED = re.compile(
    "[\u3005\u3006\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f]"
)
_KANA = re.compile("[\u3040-\u30ff]")
# A stretch of one script: Han (with the iteration marks), hiragana, katakana, or Hangul. The
# long-vowel mark belongs to the kana it follows ("すごーい", "コーヒー").
_SCRIPT = re.compile(
    "(?P<han>[\u3005\u3006\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+)"
    "|(?P<hiragana>[\u3040-\u309f\u30fc]+)|(?P<katakana>[\u30a0-\u30ff\u31f0-\u31ff]+)"
    "|(?P<hangul>[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+)"
)


def folded(run: str) -> str:
    """A run as the index and questions read it: halfwidth katakana as fullwidth ("ｺﾝｻｰﾄ" is
    "コンサート"), as Lucene's CJK width filter folds them (NFKC, on the run alone: the rest
    of the text is indexed as written)."""
    return unicodedata.normalize("NFKC", run)


def pairs(run: str) -> list[str]:
    """A run's overlapping pairs of characters; a single character is its own."""
    return [run[i : i + 2] for i in range(max(1, len(run) - 1))]


def grams(text: str) -> str:
    """The pairs of every run in the text, space-separated: what the index finds words by."""
    if text.isascii():
        return ""
    return " ".join(pair for run in RUN.findall(text) for pair in pairs(folded(run)))


def spaced(text: str) -> str:
    """The text with each run replaced by its pairs, as words."""
    return RUN.sub(lambda run: " " + " ".join(pairs(folded(run.group()))) + " ", text)


@dataclass(frozen=True)
class Unit:
    """Pairs of a question that stand or fall together: a word's, when the question shows
    where its words end, else every pair of the question in one script."""

    pairs: tuple[str, ...]
    particles: bool = False  # hiragana alone: a pair of it found in no document is no word missing


def question_spaced(question: str) -> str:
    """A question with each run replaced by its pairs (`units`), as words."""
    found: dict[int, list[str]] = {}
    for at, unit in _units(question):
        found.setdefault(at, []).extend(unit.pairs)
    return RUN.sub(lambda run: " " + " ".join(found.get(run.start(), [])) + " ", question)


def units(question: str) -> list[Unit]:
    """The question's pairs, unit by unit.

    Japanese changes script where a word ends ("運動会|は|いつ|です|か"): each stretch of Han
    or katakana is a word's unit, a lone character paired with the next, as the text's pairs
    have it ("行|います": "行い"); a stretch of hiragana is mostly particles and endings, which
    may be in no document without the question asking about anything unknown. Chinese and
    Korean give no such sign: a pair of them found in no document is, more often than not, one
    word's end and the next's start, so the question's pairs in one script are one unit."""
    stretches = [unit for _, unit in _units(question)]
    if _KANA.search(question):
        return stretches
    pooled: dict[str | None, list[str]] = {}
    for unit in stretches:
        pooled.setdefault(_SCRIPT.match(unit.pairs[0]).lastgroup, []).extend(unit.pairs)
    return [Unit(tuple(found)) for found in pooled.values()]


def _units(question: str) -> Iterator[tuple[int, Unit]]:
    """Each run's units, with where the run starts."""
    japanese = bool(_KANA.search(question))
    for run in RUN.finditer(question):
        text = folded(run.group())
        for stretch in _SCRIPT.finditer(text):
            start, end = stretch.span()
            if stretch.lastgroup == "hiragana":
                if end - start > 1:
                    yield run.start(), Unit(tuple(pairs(stretch.group())), particles=True)
                continue
            if japanese and end - start == 1:  # with its neighbour, as the text's pairs have it
                start, end = (start, end + 1) if end < len(text) else (max(0, start - 1), end)
            yield run.start(), Unit(tuple(pairs(text[start:end])))


def words(text: str) -> int:
    """How many words the text is worth to the embedding model: its spaced words, and in a run
    of these characters one more for each one and a half (each is a word piece of its own, as
    an English word is about one and a half), so a chunk of Japanese fits the model's window
    as one of English does."""
    spaced_words = len(text.split())
    return spaced_words if text.isascii() else spaced_words + _characters(text) * 2 // 3


def columns(line: str) -> int:
    """The line's width as a terminal or page sets it: these characters take two columns."""
    return len(line) if line.isascii() else len(line) + _characters(line)


def _characters(text: str) -> int:
    """How many of the text's characters are these scripts'."""
    return sum(len(run) for run in RUN.findall(text))


def rejoined(words: list[str]) -> list[str]:
    """Words as a person wrote them: a question's pairs in a row ("音楽", "楽会") are the word
    they were cut from ("音楽会")."""
    joined: list[str] = []
    for word in words:
        if joined and RUN.fullmatch(word) and RUN.fullmatch(joined[-1]) and joined[-1][-1] == word[0] and len(word) == 2:
            joined[-1] += word[1]
        else:
            joined.append(word)
    return joined
