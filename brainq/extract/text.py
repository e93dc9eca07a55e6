"""Plain-text and Markdown notes: the text as written, titled by its first heading or line."""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError

KIND = "text"

SUFFIXES = (".txt", ".md", ".markdown")
MAX_TITLE_CHARS = 80
# A heading further down titles a section, not the note.
TITLE_SEARCH_LINES = 20

# YAML front matter, as Jekyll, Hugo and Obsidian write it: metadata, not the note's first line.
FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?:.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
HEADING = re.compile(r" {0,3}#{1,6}\s")  # an ATX heading starts "## " (and may end " ##")


def sniff(name: str, head: bytes) -> bool:
    """A note's name, and a head that is UTF-8 text (no NUL; a character cut at the end is fine)."""
    if not name.lower().endswith(SUFFIXES) or b"\x00" in head:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    """One document; the date is left to the pipeline (dates in the text, else the file's mtime)."""
    # The head was UTF-8; a stray bad byte further on must not lose the note.
    text = item.read().decode("utf-8-sig", "replace")
    if not text.strip():
        raise ExtractError("empty file")
    yield Document(
        path=str(item.path),
        locator=None,
        kind=KIND,
        title=title_of(text) or Path(item.name).stem,
        text=text,
    )


def title_of(text: str) -> str:
    """The first Markdown heading near the top, else the first line that names something."""
    body = FRONT_MATTER.sub("", text, count=1)
    # A line without a letter or digit is a rule or a fence ("---", "```"), not a title.
    named = (line for line in body.splitlines() if any(c.isalnum() for c in line))
    lines = list(itertools.islice(named, TITLE_SEARCH_LINES))
    for line in lines:
        heading = _heading(line)
        if heading:
            return _shorten(heading)
    return _shorten(lines[0]) if lines else ""


def _heading(line: str) -> str:
    """The text of an ATX heading line ("## Title ##" is "Title"), or "".

    Done without a regular expression: one that also strips the closing #s backtracks on a
    long run of spaces, and a 40 kB line took half a minute.
    """
    opener = HEADING.match(line)
    if not opener:
        return ""
    text = line[opener.end() :].strip()
    content = text.rstrip("#")
    if content != text and content[-1:].isspace():  # a closing sequence needs a space before it
        text = content.rstrip()
    return text


def _shorten(line: str) -> str:
    """At most MAX_TITLE_CHARS, cut at a word boundary when there is one."""
    line = " ".join(line.split())
    if len(line) <= MAX_TITLE_CHARS:
        return line
    cut = line[: MAX_TITLE_CHARS - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"
