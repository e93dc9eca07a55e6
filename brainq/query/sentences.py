"""A chunk's sentences as a person reads them: its body's lines less mail headers and rows of
links, web addresses dropped, an answer cut to a glance.
"""

from __future__ import annotations

import re

ANSWER_CHARS = 300
_MAIL_HEADER_LINE = re.compile(r"^(from|to|cc|date|subject|attachments):", re.IGNORECASE)
_LINKS = re.compile(r"<?(?:https?://|www\.|mailto:)\S+>?|\S+@\S+\.\w+")
_URLS = re.compile(r"\s*<?(?:https?://|www\.)[^\s<>]*[^\s<>.,;:!?)\]]>?", re.IGNORECASE)


def sentences(chunk: str) -> list[str]:
    """The sentences of a chunk's body (its first line is the document's title), without
    mail header lines, which help find a message but never answer a question, and without
    lines that are mostly links or addresses (a newsletter's tracking links), which no person
    reads as an answer."""
    lines = chunk.split("\n")[1:]  # chunking puts one sentence on each line
    shown = (without_urls(s) for s in lines if not _MAIL_HEADER_LINE.match(s) and _readable(s))
    return [s for s in shown if len(s.split()) >= 3]


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
