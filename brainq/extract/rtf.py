"""Rich Text Format: what TextEdit and WordPad save by default, and what many a ".doc" written
by other programs really is. Read as the text a person sees, titled and dated by the file's own
`\\info` group when it has one.

RTF is a stream of control words, hexadecimal bytes and text in nested groups; the groups that
hold no text for the reader (fonts, colours, styles, pictures, field codes, anything marked
`\\*`) are passed over, as RTF 1.9.1 tells a reader to.
"""

from __future__ import annotations

import codecs
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
    r"|\\'"  # ... or a broken one, passed over
    r"|\\([^a-zA-Z'])"  # a control symbol
    r"|([{}])"
    r"|[\r\n]+"  # line breaks in the file are not the text's
    r"|([^\\{}\r\n]+)",
    re.S,
)
# Groups that hold no text for the reader.
_SKIPPED = {
    "colortbl", "stylesheet", "listtable", "listoverridetable", "revtbl", "rsidtbl", "generator", "pict",
    "objdata", "objclass", "fldinst", "themedata", "colorschememapping", "datastore", "latentstyles", "xmlnstbl",
    "mmathpr", "filetbl", "pgdsctbl", "xe", "tc", "bkmkstart", "bkmkend", "nonshppict", "pn", "pntxta", "pntxtb",
    "author", "operator", "company", "comment", "doccomm", "keywords", "subject", "category", "manager",
}  # fmt: skip
# Headers, footers and notes: read after the body, as a Word file's are.
_MARGINS = {"header", "headerl", "headerr", "headerf", "footer", "footerl", "footerr", "footerf", "footnote"}
_HIDING = {"v", "deleted"}  # hidden text and tracked deletions, until the word again with 0
_CELL = "\x1f"  # a cell's end while reading; a row's last is dropped, the others become "  |  "
_BREAKS = {"par": "\n", "line": "\n", "sect": "\n", "page": "\n", "row": "\n", "tab": "\t", "cell": _CELL,
           "nestcell": _CELL, "emdash": "\u2014", "endash": "\u2013", "bullet": "\u2022", "lquote": "\u2018",
           "rquote": "\u2019", "ldblquote": "\u201c", "rdblquote": "\u201d", "emspace": " ", "enspace": " "}  # fmt: skip
_SYMBOLS = {"\\": "\\", "{": "{", "}": "}", "~": "\u00a0", "_": "\u2011", "-": "", "\n": "\n", "\r": "\n"}
_TIMES = ("revtim", "creatim")  # when last revised, else when created
_MAX_DEPTH = 256  # Word nests a few dozen groups; deeper is built to exhaust memory
_MAX_TITLE = 300
# A font's \fcharsetN as the Windows code page it stands for, and \mac, \pc, \pca as theirs.
_CHARSETS = {77: 10000, 128: 932, 129: 949, 130: 1361, 134: 936, 136: 950, 161: 1253, 162: 1254, 163: 1258,
             177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250, 254: 437, 255: 850}  # fmt: skip
_SETS = {"mac": 10000, "pc": 437, "pca": 850}


@dataclass
class _Group:
    """What a group's text is: its destination ("" for the body; "title", "margin", a time of
    \\info; "skip" for what is no text), whether it is hidden, its font, and how many characters
    stand in for each \\uN (\\ucN)."""

    destination: str = ""
    hidden: bool = False
    font: int | None = None
    unicode_skip: int = 1


@dataclass
class _Reader:
    """Where each group's text goes: the body, the title, the headers, footers and notes (after
    the body), or nowhere; `budget` characters in all."""

    budget: int
    code_page: str = "cp1252"
    fonts: dict[int, str] = field(default_factory=dict)  # a font's code page, by its number
    font: int | None = None  # the font the font table describes now
    body: list[str] = field(default_factory=list)
    title: list[str] = field(default_factory=list)
    margins: list[str] = field(default_factory=list)
    size: int = 0
    times: dict[str, dict[str, int]] = field(default_factory=dict)
    pending: bytearray = field(default_factory=bytearray)  # a run of \'hh bytes, decoded together,
    pending_as: tuple[list[str] | None, str] = (None, "")  # as a multi-byte code page needs
    high: int | None = None  # the first half of a character written as two \uN (an emoji)

    def emit(self, chars: str, group: _Group) -> None:
        if self.pending and chars and self._awaits_trail():
            # Outlook writes a double-byte character's second byte as itself when it is ASCII
            # ("\'83A" for "ア").
            self.byte(ord(chars[0]), group)
            chars = chars[1:]
        self.flush()
        self._add(self._target(group), chars)

    def byte(self, value: int, group: _Group) -> None:
        target = self._target(group)
        if target is not None:
            key = (target, self.fonts.get(group.font, self.code_page))
            if key != self.pending_as:
                self.flush()
            self.pending_as = key
            self.pending.append(value)
            self.size += 1

    def unicode(self, code: int, group: _Group) -> None:
        if 0xD800 <= code < 0xDC00:
            self.high = code
            return
        if 0xDC00 <= code < 0xE000:
            chars = chr(0x10000 + (self.high - 0xD800) * 0x400 + code - 0xDC00) if self.high else "\ufffd"
        else:
            chars = chr(code)
        self.high = None
        self.emit(chars, group)

    def _awaits_trail(self) -> bool:
        """Whether the bytes so far end with the first byte of a two-byte character."""
        decoder = codecs.getincrementaldecoder(self.pending_as[1])("replace")
        decoder.decode(bytes(self.pending))
        return bool(decoder.getstate()[0])

    def flush(self) -> None:
        if self.pending:
            target, code_page = self.pending_as
            target.append(bytes(self.pending).decode(code_page, "replace"))
            self.pending.clear()

    def _target(self, group: _Group) -> list[str] | None:
        if group.hidden:
            return None
        return {"": self.body, "title": self.title, "margin": self.margins}.get(group.destination)

    def _add(self, target: list[str] | None, chars: str) -> None:
        if target is not None:
            target.append(chars)
            self.size += len(chars)


def sniff(name: str, head: bytes) -> bool:
    """By its opening "{\\rtf", whatever the name: a ".doc" is often RTF."""
    return bool(_MAGIC.match(head))


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    source = item.read().decode("latin-1")  # RTF is 7-bit; other bytes are its text's, by the code page
    reader = _read(source, limits.max_text_chars)
    text = "\n".join(office.after_body(_lines(reader.body), _lines(reader.margins)))
    if not text:
        raise ExtractError("no text in the document")
    when = _time(reader.times)
    title = " ".join("".join(reader.title).split())[:_MAX_TITLE]
    yield office.document(item, title or title_of(text) or Path(item.name).stem, text, when)


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
        if fallback and not brace and token.group() not in ("\r", "\n", "\r\n"):
            # Each byte, symbol or control word stands in for one character, text for its length.
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
                stack.append(_Group(group.destination, group.hidden, group.font, group.unicode_skip))
        elif word:
            word = word.lower()
            at = _control(word, int(parameter) if parameter else None, group, reader, at)
            fallback = group.unicode_skip if word == "u" and parameter else 0
        elif hexbyte:
            reader.byte(int(hexbyte, 16), group)
        elif symbol == "*":
            group.destination = "skip"
        elif symbol in _SYMBOLS:
            reader.emit(_SYMBOLS[symbol], group)
        elif chars:
            reader.emit(chars, group)
    reader.flush()
    return reader


def _control(word: str, value: int | None, group: _Group, reader: _Reader, at: int) -> int:
    """Acts on one control word; returns where reading goes on (past a \\bin's bytes)."""
    if word == "bin":
        return at + max(value or 0, 0)
    if group.destination == "fonttbl":
        if word == "f":
            reader.font = value
        elif word == "fcharset" and value in _CHARSETS and reader.font is not None:
            reader.fonts[reader.font] = office.code_page(_CHARSETS[value])
    elif word == "fonttbl":
        group.destination = "fonttbl"
    elif word in _SKIPPED:
        group.destination = "skip"
    elif word in _MARGINS and group.destination == "":
        group.destination = "margin"
    elif word == "info":
        group.destination = "info"
    elif word == "title" and group.destination == "info":
        group.destination = "title"
    elif word in _TIMES and group.destination == "info":
        group.destination = word
        reader.times.setdefault(word, {})
    elif word in ("yr", "mo", "dy", "hr", "min") and group.destination in _TIMES and value is not None:
        reader.times[group.destination][word] = value
    elif word == "ansicpg" and value:
        reader.code_page = office.code_page(value)
    elif word in _SETS:
        reader.code_page = office.code_page(_SETS[word])
    elif word == "f":
        group.font = value
    elif word in _HIDING:
        group.hidden = value != 0
    elif word == "uc" and value is not None:
        group.unicode_skip = max(value, 0)
    elif word == "u" and value is not None:
        reader.unicode(value % 65536, group)  # written signed, as a 16-bit word
    elif word in _BREAKS:
        reader.emit(_BREAKS[word], group)
    return at


def _lines(parts: list[str]) -> list[str]:
    """Non-empty lines; in a table's row, the cells apart and the last cell's end dropped."""
    lines = "".join(parts).split("\n")
    return [line.strip().rstrip(_CELL + " \t").replace(_CELL, "  |  ") for line in lines if line.strip(_CELL + " \t")]


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
