"""Rich Text Format: what TextEdit and WordPad save by default, and what many a ".doc" written
by other programs really is. Read as the text a person sees, titled and dated by the file's own
`\\info` group when it has one.

RTF is a stream of control words, hexadecimal bytes and text in nested groups; the groups that
hold no text for the reader (fonts, colours, styles, pictures, field codes, anything marked
`\\*`) are passed over, as RTF 1.9.1 tells a reader to.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from brainq.config import Limits
from brainq.dates import MIN_YEAR
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import office
from brainq.extract.text import title_of

KIND = office.KIND  # a word processor's document, typed and dated as a Word file is

_MAGIC = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\{\\rtf", re.I)
_TOKEN = re.compile(
    r"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # a control word and its parameter
    r"|\\'([0-9a-fA-F]{2})"  # a byte in the document's code page
    r"|\\([^a-zA-Z'])"  # a control symbol
    r"|([{}])"
    r"|[\r\n]+"  # line breaks in the file are not the text's
    r"|([^\\{}\r\n]+)",
    re.S,
)
# Groups that hold no text for the reader.
_SKIPPED = {
    "fonttbl", "colortbl", "stylesheet", "listtable", "listoverridetable", "revtbl", "rsidtbl", "generator",
    "pict", "objdata", "objclass", "fldinst", "themedata", "colorschememapping", "datastore", "latentstyles",
    "xmlnstbl", "mmathpr", "filetbl", "pgdsctbl", "xe", "tc", "bkmkstart", "bkmkend", "nonshppict",
    "author", "operator", "company", "comment", "doccomm", "keywords", "subject", "category", "manager",
}  # fmt: skip
_BREAKS = {"par": "\n", "line": "\n", "sect": "\n", "page": "\n", "row": "\n", "tab": "\t", "cell": "  |  ",
           "nestcell": "  |  ", "emdash": "\u2014", "endash": "\u2013", "bullet": "\u2022", "lquote": "\u2018",
           "rquote": "\u2019", "ldblquote": "\u201c", "rdblquote": "\u201d", "emspace": " ", "enspace": " "}  # fmt: skip
_SYMBOLS = {"\\": "\\", "{": "{", "}": "}", "~": "\u00a0", "_": "\u2011", "-": "", "\n": "\n", "\r": "\n"}
_MARGINS = {"header", "headerl", "headerr", "headerf", "footer", "footerl", "footerr", "footerf"}
_TIMES = ("revtim", "creatim")  # when last revised, else when created
_LAST_CELL = re.compile(r"(?:\s+\|)+\s*$")
_MAX_DEPTH = 256  # Word nests a few dozen groups; deeper is built to exhaust memory


@dataclass
class _Group:
    skip: bool = False
    unicode_skip: int = 1  # \ucN: characters standing in for each \uN, for readers without Unicode
    destination: str = ""


@dataclass
class _Reader:
    """Where each group's text goes: the body (to `budget` characters), the title, the headers
    and footers (after the body, as for a Word file), or nowhere."""

    budget: int
    code_page: str = "cp1252"
    body: list[str] = field(default_factory=list)
    size: int = 0
    title: list[str] = field(default_factory=list)
    margins: list[str] = field(default_factory=list)
    times: dict[str, dict[str, int]] = field(default_factory=dict)
    pending: bytearray = field(default_factory=bytearray)  # a run of \'hh bytes: decoded together,
    pending_to: list[str] | None = None  # as a multi-byte code page needs

    def emit(self, chars: str, group: _Group) -> None:
        self.flush()
        self._add(self._target(group), chars)

    def byte(self, value: int, group: _Group) -> None:
        target = self._target(group)
        if target is not None:
            if target is not self.pending_to:
                self.flush()
            self.pending_to = target
            self.pending.append(value)

    def flush(self) -> None:
        if self.pending:
            self._add(self.pending_to, bytes(self.pending).decode(self.code_page, "replace"))
            self.pending.clear()

    def _target(self, group: _Group) -> list[str] | None:
        if group.destination == "title":
            return self.title
        if group.destination == "margin":
            return self.margins
        return None if group.skip else self.body

    def _add(self, target: list[str] | None, chars: str) -> None:
        if target is not None:
            target.append(chars)
            self.size += len(chars) if target is self.body else 0


def sniff(name: str, head: bytes) -> bool:
    """By its opening "{\\rtf", whatever the name: a ".doc" is often RTF."""
    return bool(_MAGIC.match(head))


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    source = item.read().decode("latin-1")  # RTF is 7-bit; other bytes are its text's, by the code page
    reader = _read(source, limits.max_text_chars)
    body, margins = _lines(reader.body), _lines(reader.margins)
    seen = set(body)
    text = "\n".join([*body, *(line for line in dict.fromkeys(margins) if line not in seen)])
    if not text:
        raise ExtractError("no text in the document")
    when = _time(reader.times)
    title = " ".join("".join(reader.title).split())
    yield Document(
        path=str(item.path),
        locator=None,
        kind=KIND,
        title=title or title_of(text) or Path(item.name).stem,
        text=text,
        source_date=when,
        date_source="office_meta" if when else None,
        date_precision="instant" if when else None,
    )


def _read(source: str, budget: int) -> _Reader:
    reader = _Reader(budget)
    stack = [_Group()]
    fallback = 0  # characters still to pass over after a \uN (its stand-in for old readers)
    at = 0
    while at < len(source) and reader.size < budget:
        token = _TOKEN.match(source, at)
        if token is None:  # a lone "\" at the end
            break
        at = token.end()
        word, parameter, hexbyte, symbol, brace, chars = token.groups()
        group = stack[-1]
        if fallback and (hexbyte or symbol or chars):
            if not chars or len(chars) <= fallback:
                fallback -= len(chars) if chars else 1
                continue
            chars, fallback = chars[fallback:], 0
        if brace:
            fallback = 0
            reader.flush()
            if brace == "}":
                if len(stack) > 1:
                    stack.pop()
            elif len(stack) >= _MAX_DEPTH:
                raise ExtractError(f"groups nested deeper than {_MAX_DEPTH}")
            else:
                stack.append(_Group(group.skip, group.unicode_skip, group.destination))
        elif word:
            word = word.lower()
            at = _control(word, parameter, group, reader, at)
            fallback = group.unicode_skip if word == "u" and parameter else 0
        elif hexbyte:
            reader.byte(int(hexbyte, 16), group)
        elif symbol == "*":
            group.skip = True
        elif symbol in _SYMBOLS:
            reader.emit(_SYMBOLS[symbol], group)
        elif chars:
            reader.emit(chars, group)
    reader.flush()
    return reader


def _control(word: str, parameter: str | None, group: _Group, reader: _Reader, at: int) -> int:
    """Acts on one control word; returns where reading goes on (past a \\bin's bytes)."""
    value = int(parameter) if parameter else None
    if word == "bin":
        return at + max(value or 0, 0)
    if word in _SKIPPED:
        group.skip, group.destination = True, word
    elif word in _MARGINS:
        group.destination = "margin"
    elif word == "info":
        group.skip, group.destination = True, "info"
    elif word == "title" and group.destination == "info":
        group.destination = "title"
    elif word in _TIMES and group.destination == "info":
        group.destination = word
        reader.times.setdefault(word, {})
    elif word in ("yr", "mo", "dy", "hr", "min") and group.destination in _TIMES and value is not None:
        reader.times[group.destination][word] = value
    elif word == "ansicpg" and value:
        reader.code_page = _code_page(value)
    elif word == "uc" and value is not None:
        group.unicode_skip = max(value, 0)
    elif word == "u" and value is not None:
        code = value % 65536  # written signed, as a 16-bit word
        reader.emit(chr(code) if not 0xD800 <= code < 0xE000 else "\ufffd", group)
    elif word in _BREAKS:
        reader.emit(_BREAKS[word], group)
    return at


def _lines(parts: list[str]) -> list[str]:
    """Non-empty lines, a table row without the separator its last cell leaves."""
    lines = (_LAST_CELL.sub("", line).strip() for line in "".join(parts).split("\n"))
    return [line for line in lines if line]


def _code_page(number: int) -> str:
    try:
        "".encode(f"cp{number}")
    except LookupError:
        return "cp1252"
    return f"cp{number}"


def _time(times: dict[str, dict[str, int]]) -> datetime | None:
    for name in _TIMES:
        parts = times.get(name, {})
        try:
            when = datetime(parts["yr"], parts["mo"], parts["dy"], parts.get("hr", 0), parts.get("min", 0))
        except (KeyError, ValueError, OverflowError):
            continue
        if when.year >= MIN_YEAR:
            return when
    return None
