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

# Han (with its extensions and compatibility forms), kana, Hangul, and the iteration and
# closing marks written inside words ("人々", "〆切").
_CJK = (
    "\u1100-\u11ff\u3005\u3006\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
RUN = re.compile(f"[{_CJK}]+")
_HIRAGANA = re.compile("[\u3040-\u309f]+")
# A stretch of one script: Han (with the iteration marks), hiragana, katakana, or Hangul.
_SCRIPT = re.compile(
    "[\u3005\u3006\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+|[\u3040-\u309f]+"
    "|[\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]+|[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+"
)


def pairs(run: str) -> list[str]:
    """A run's overlapping pairs of characters; a single character is its own."""
    return [run[i : i + 2] for i in range(max(1, len(run) - 1))]


def grams(text: str) -> str:
    """The pairs of every run in the text, space-separated: what the index finds words by."""
    return " ".join(pair for run in RUN.findall(text) for pair in pairs(run))


def spaced(text: str) -> str:
    """The text with each run replaced by its pairs, as words."""
    return RUN.sub(lambda run: " " + " ".join(pairs(run.group())) + " ", text)


def question_spaced(question: str) -> str:
    """A question with each run replaced by the pairs that say what it is about. Japanese
    changes script where a word ends ("運動会|は|いつ|です|か"): pairs are made within each
    stretch of one script, a lone character paired with the next ("行|います": "行い"), and
    stretches of hiragana alone are left out, as they are the particles and endings between
    words."""

    def split(run: re.Match) -> str:
        text = run.group()
        kept = []
        for stretch in _SCRIPT.finditer(text):
            if _HIRAGANA.fullmatch(stretch.group()):
                continue
            start, end = stretch.span()
            if end - start == 1:  # with its neighbour, as the text's pairs have it
                start, end = (start, end + 1) if end < len(text) else (max(0, start - 1), end)
            kept.extend(pairs(text[start:end]))
        return " " + " ".join(kept) + " "

    return RUN.sub(split, question)


def words(text: str) -> int:
    """How many words the text is worth to the embedding model: its spaced words, and in a run
    of these characters one more for each one and a half (each is a word piece of its own, as
    an English word is about one and a half), so a chunk of Japanese fits the model's window
    as one of English does."""
    spaced_words = len(text.split())
    if text.isascii():
        return spaced_words
    return spaced_words + sum(len(run) for run in RUN.findall(text)) * 2 // 3


def columns(line: str) -> int:
    """The line's width as a terminal or page sets it: these characters take two columns."""
    return len(line) if line.isascii() else len(line) + sum(len(run) for run in RUN.findall(line))


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
