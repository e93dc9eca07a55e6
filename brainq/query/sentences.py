"""A chunk's sentences as a person reads them: its body's lines less mail headers and rows of
links, web addresses dropped, a list read with the line that introduces it, a conversation's
turns with their speaker, an answer cut to a glance.
"""

from __future__ import annotations

import re

from brainq import cjk
from brainq.chunking import DOT_LEADER
from brainq.facts import states_value

ANSWER_CHARS = 300
HEADING = re.compile(r"^#{1,6}\s")  # a Markdown heading: what the lines under it are about, no answer
_MAIL_HEADER_LINE = re.compile(r"^(from|to|cc|date|subject|attachments):", re.IGNORECASE)
# ... unless more fields follow it: a spreadsheet's row under its header ("Date: 2026-02-09;
# Description: CITY WATER; Amount: -48.20") is read, not a message's header.
_MORE_FIELDS = re.compile(r"; [^;:]{1,40}: ")
_LINKS = re.compile(r"<?(?:https?://|www\.|mailto:)\S+>?|\S+@\S+\.\w+")
_URLS = re.compile(r"\s*<?(?:https?://|www\.)[^\s<>]*[^\s<>.,;:!?)\]]>?", re.IGNORECASE)
# A short line ending in a colon introduces the lines after it: "New hours are as follows:"
# says nothing alone, and "Main St ... 7:50 AM" little without it. A longer one
# is a statement of its own. It is read with at most LIST_ITEMS of them, up to LIST_WORDS words
# in all (the model reads every word it is given).
INTRO_WORDS, LIST_ITEMS, LIST_WORDS = 15, 6, 60
_BULLET = re.compile(r"^(?:[-*\u2022\u25aa]|\d{1,3}[.)])\s")
# A turn of a conversation: a speaker's name (one to three capitalised words) and a colon.
_SPEAKER = re.compile(r"^([A-Z][\w'.-]{0,30}(?: [A-Z][\w'.-]{0,30}){0,2}): \S")
TURNS_SPOKEN = 2
_CLOSERS = "\"')]\u201d"  # what may follow a sentence's last stop


def sentences(chunk: str) -> list[str]:
    """The sentences of a chunk's body (its first line is the document's title), without
    mail header lines and Markdown headings, which help find a message or a note's section but
    never answer a question ("# Garden log" for "what did we plant?"), and without lines that
    are mostly links or addresses (a newsletter's tracking links), which no person reads as an
    answer. A line of one or two words ("Hi Pat,") is read only when it states a value: an
    account's "Account 55-2031-7" is the whole answer."""
    lines = chunk.split("\n")[1:]  # chunking puts one sentence on each line
    # A table row's dot leader reads the same as " ... ", at a fraction of the model's cost.
    shown = [
        DOT_LEADER.sub(" ... ", without_urls(s)) for s in lines if not _mail_header(s) and not HEADING.match(s) and _readable(s)
    ]
    return [s for s in _with_their_items(_with_speakers(shown)) if cjk.words(s) >= 3 or states_value(s)]


def _mail_header(line: str) -> bool:
    return bool(_MAIL_HEADER_LINE.match(line)) and not _MORE_FIELDS.search(line)


def _with_speakers(lines: list[str]) -> list[str]:
    """In a conversation written down ("Ana: We went camping. It rained."), every sentence of a
    turn read with its speaker: chunking puts the turn's second sentence on a line of its own,
    where "It rained" says nothing of who it happened to, and the model finds the speaker's
    greeting closer to a question that names her than the sentence that answers it.

    A speaker opens at least TURNS_SPOKEN lines of the chunk, two thirds of them whole
    sentences; a chunk is a conversation when two do. A form's repeated fields ("Contact: Jo
    Park 555-0100") are not turns."""
    labels = [m.group(1) if (m := _SPEAKER.match(line)) else None for line in lines]
    turns: dict[str, list[str]] = {}
    for line, label in zip(lines, labels):
        if label:
            turns.setdefault(label, []).append(line)
    speakers = {
        label for label, said in turns.items()
        if len(said) >= TURNS_SPOKEN and sum(_ends_sentence(line) for line in said) * 3 >= 2 * len(said)
    }  # fmt: skip
    if len(speakers) < 2:
        return lines
    read, speaker = [], None
    for line, label in zip(lines, labels):
        speaker = label if label else speaker
        read.append(f"{speaker}: {line}" if not label and speaker in speakers else line)
    return read


def _ends_sentence(line: str) -> bool:
    return line.rstrip(_CLOSERS).endswith((".", "!", "?"))


def _with_their_items(lines: list[str]) -> list[str]:
    """Each line that introduces a list, read with the list's first items; the items are
    still read on their own too ("what time is the Main St stop?")."""
    read = []
    for i, line in enumerate(lines):
        words = len(line.split())
        if line.endswith(":") and words <= INTRO_WORDS:
            items = []
            for item in lines[i + 1 : i + 1 + LIST_ITEMS]:
                words += len(item.split())
                if not _is_item(item) or words > LIST_WORDS:
                    break
                items.append(item)
            line = " ".join([line, "; ".join(_BULLET.sub("", item) for item in items)]) if items else line
        read.append(line)
    return read


def _is_item(line: str) -> bool:
    """A bullet, or a line that ends no sentence ("Unit: C-114 (10 x 10, drive-up)")."""
    return not line.rstrip(_CLOSERS).endswith(":") and (bool(_BULLET.match(line)) or not _ends_sentence(line))


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


def glance(sentence: str) -> str:
    """A sentence cut to ANSWER_CHARS at a word, marked as cut."""
    if len(sentence) <= ANSWER_CHARS:
        return sentence
    return sentence[: ANSWER_CHARS - 1].rsplit(" ", 1)[0] + "\u2026"
