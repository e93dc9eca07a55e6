"""Word 97-2003 documents (.doc): the format a decade of school forms, letters and minutes were
written in, and still attached to mail. The text is found through the file's piece table
([MS-DOC] 2.4.1), the dates and title in its summary properties.

The file is a Compound File (olefile reads it, as it does Outlook's .msg). Word 6 and 95 files
(before the piece table's current form) are reported, not read.
"""

from __future__ import annotations

import bisect
import io
import logging
import re
import struct
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import olefile

from brainq.config import Limits
from brainq.dates import MIN_YEAR
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import office
from brainq.extract.text import title_of

KIND = office.KIND  # a Word file of any age is typed and dated alike
logging.getLogger("olefile").setLevel(logging.ERROR)  # it warns of every oddity it reads past

_SUFFIXES = (".doc", ".dot")
_WORD_IDENT, _WORD_6_IDENT = 0xA5EC, 0xA5DC
_WORD_97 = 193  # nFib of Word 97 and every later version's compatible part
_ENCRYPTED, _WHICH_TABLE = 0x0100, 0x0200  # FibBase flags
_CLX = 33  # fcClx/lcbClx is the 34th pair of FibRgFcLcb97
_COMPRESSED = 0x40000000  # an 8-bit piece (FcCompressed.fCompressed), else UTF-16
# What Word writes for structure: a paragraph's end, a line or page break, a table's cell and
# row ends, a non-breaking and an optional hyphen; pictures, objects and note references say
# nothing as text.
_MARKS = str.maketrans({"\r": "\n", "\x0b": "\n", "\x0c": "\n", "\x0e": "\n", "\x1e": "-", "\x1f": None, "\xa0": " ",
                        "\x01": None, "\x02": None, "\x05": None, "\x08": None})  # fmt: skip
_CELL, _ROW_MARK = "\x07", "\x1d"  # a cell's end in the text; a row's, once told by its properties
_ROW_END = re.compile(r"\x07\n?\x07")  # the last cell's mark, then the row's
_PAPX = 13  # fcPlcfBtePapx/lcbPlcfBtePapx: where the paragraphs' properties are
_MAX_PAGES = 100_000  # of paragraph properties (512 bytes each): 50 MB of them
_ROW_SPRMS = (0x2417, 0x244C)  # sprmPFTtp, sprmPFInnerTtp: the paragraph ends a table's row
_OPERAND_SIZES = {0: 1, 1: 1, 2: 2, 3: 4, 4: 2, 5: 2, 7: 3}  # by a property's spra ([MS-DOC] 2.2.5.1)
_OTHER_MARKS = re.compile(r"[\x00-\x08\x0e-\x1f]")  # note separators and anchors, and the like
_FIELD_BEGIN, _FIELD_SEPARATOR, _FIELD_END = "\x13", "\x14", "\x15"
_SUMMARY = "\x05SummaryInformation"
_MAX_SUMMARY = 2**20  # a summary is a few hundred bytes; a larger one is not read past a megabyte
_MAX_PROPERTIES = 1000
_CODEPAGE, _TITLE, _CREATED, _SAVED = 1, 2, 12, 13  # property ids of the summary ([MS-OLEPS] 2.18.2)


def sniff(name: str, head: bytes) -> bool:
    return name.lower().endswith(_SUFFIXES) and head.startswith(office.OLE_MAGIC)


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    try:
        with olefile.OleFileIO(io.BytesIO(item.read())) as ole:
            text = _text(ole, limits)
            title, saved, created = summary(ole)
    except ExtractError:
        raise
    # olefile reads a damaged or hostile file with struct, indexing and its own checks, and
    # fails in whichever of them the damage reaches first.
    except Exception as exc:  # noqa: BLE001
        raise ExtractError(f"a damaged Word 97-2003 document ({type(exc).__name__})") from None
    if not text.strip():
        raise ExtractError("no text in the document")
    when = saved or created
    yield office.document(item, " ".join(title.split()) or title_of(text) or Path(item.name).stem, text, when)


def _text(ole: olefile.OleFileIO, limits: Limits) -> str:
    """The main story's text, then its text boxes' and its headers' (each line once), read piece
    by piece."""
    if ole.exists("EncryptionInfo"):
        raise ExtractError(office.LOCKED)
    if not ole.exists("WordDocument"):
        raise ExtractError("a Compound File, not a Word document")
    fib = ole.openstream("WordDocument").read()
    ident, version = struct.unpack_from("<HH", fib, 0)
    (flags,) = struct.unpack_from("<H", fib, 0x0A)
    if ident == _WORD_6_IDENT or (ident == _WORD_IDENT and version < _WORD_97):
        raise ExtractError("a Word 6 or Word 95 document, which brainq does not read: save it in a newer format")
    if ident != _WORD_IDENT:
        raise ExtractError("a Compound File, not a Word document")
    if flags & _ENCRYPTED:
        raise ExtractError(office.LOCKED)
    counts, (clx_at, clx_size), (papx_at, papx_size) = _fib(fib)
    table = "1Table" if flags & _WHICH_TABLE else "0Table"
    if not ole.exists(table):
        raise ExtractError(f"a Word document without its {table} stream")
    table_stream = ole.openstream(table).read()
    clx = table_stream[clx_at : clx_at + clx_size]
    rows = _row_ends(fib, table_stream[papx_at : papx_at + papx_size])
    main, footnotes, headers, macros, comments, endnotes, boxes = counts
    # The stories follow one another: main, footnotes, headers, macros, comments, endnotes, text boxes.
    stories = [(0, main), (main + footnotes + headers + macros + comments + endnotes, boxes), (main + footnotes, headers)]
    body, *others = [_lines(_story(fib, clx, rows, start, start + size, limits.max_text_chars)) for start, size in stories]
    return "\n".join(office.after_body(body, (line for other in others for line in other)))


def _fib(fib: bytes) -> tuple[list[int], tuple[int, int], tuple[int, int]]:
    """From the FIB: the stories' lengths in characters (ccpText, ccpFtn, ccpHdd, ccpMcr,
    ccpAtn, ccpEdn, ccpTxbx), and where the piece table (CLX) and the paragraphs' properties
    (PlcBtePapx) lie in the table stream. The FIB's parts are counted, not assumed, so a later
    Word's longer FIB reads alike."""
    at = 32
    (words,) = struct.unpack_from("<H", fib, at)
    at += 2 + 2 * words
    (longs,) = struct.unpack_from("<H", fib, at)
    counts = [max(count, 0) for count in struct.unpack_from("<7i", fib, at + 2 + 4 * 3)]
    at += 2 + 4 * longs
    (pairs,) = struct.unpack_from("<H", fib, at)
    if pairs <= _CLX:
        raise ExtractError("a Word document without a piece table")
    return counts, struct.unpack_from("<II", fib, at + 2 + 8 * _CLX), struct.unpack_from("<II", fib, at + 2 + 8 * _PAPX)


def _pieces(clx: bytes) -> Iterator[tuple[int, int, int, bool]]:
    """(first character, end, file offset, 8-bit?) of each piece of text: the CLX's formatting
    runs (Prc) are passed over to its piece table (Pcdt)."""
    at = 0
    while at < len(clx) and clx[at] == 0x01:
        (size,) = struct.unpack_from("<h", clx, at + 1)
        at += 3 + max(size, 0)
    if at >= len(clx) or clx[at] != 0x02:
        raise ExtractError("a Word document whose piece table cannot be read")
    (size,) = struct.unpack_from("<I", clx, at + 1)
    table = clx[at + 5 : at + 5 + size]
    count = (len(table) - 4) // 12
    for i in range(count):  # one at a time: a hostile table holds millions
        first, end = struct.unpack_from("<II", table, 4 * i)
        (where,) = struct.unpack_from("<I", table, 4 * (count + 1) + 8 * i + 2)
        compressed, offset = bool(where & _COMPRESSED), where & 0x3FFFFFFF
        yield first, end, offset // 2 if compressed else offset, compressed


def _story(fib: bytes, clx: bytes, rows: list[tuple[int, int]], start: int, end: int, budget: int) -> str:
    """The characters from `start` to `end`, at most `budget` of them: 8-bit pieces are Windows
    code page 1252 ([MS-DOC] 2.4.1 maps them so), the others UTF-16. A cell mark that ends a
    table's row (by `rows`, the file ranges of such paragraphs) is written as _ROW_MARK."""
    parts, size = [], 0
    if start >= end:
        return ""
    for first, last, offset, compressed in _pieces(clx):
        low, high = max(first, start), min(last, end, start + budget)
        if low >= high:
            continue
        skip, count = low - first, high - low
        width = 1 if compressed else 2
        chunk = fib[offset + width * skip : offset + width * (skip + count)].decode("cp1252" if compressed else "utf-16-le", "replace")
        chunk = chunk.replace(_ROW_MARK, "\x1c")  # the text's own U+001D is no row's end (and is dropped)
        if rows and _CELL in chunk:
            chars, base, i = list(chunk), offset + width * skip, chunk.find(_CELL)
            while i >= 0:
                if _in(rows, base + width * i):
                    chars[i] = _ROW_MARK
                i = chunk.find(_CELL, i + 1)
            chunk = "".join(chars)
        parts.append(chunk)
        size += len(chunk)
        if size >= budget:
            break
    return "".join(parts)


def _row_ends(fib: bytes, plc: bytes) -> list[tuple[int, int]]:
    """The file ranges of the paragraphs that end a table's row ("TTP"), from the paragraphs'
    properties (PlcBtePapx, its PapxFkp pages, [MS-DOC] 2.8.6 and 2.9.175): a row's end and an
    empty cell are the same mark in the text. Sorted; empty where they cannot be read, and rows
    are then told by the marks alone."""
    count = (len(plc) - 4) // 8
    ranges, read = [], set()
    for i in range(max(0, min(count, _MAX_PAGES))):
        (page_number,) = struct.unpack_from("<I", plc, 4 * (count + 1) + 4 * i)
        page_number &= 0x3FFFFF
        page = fib[page_number * 512 : page_number * 512 + 512]
        if len(page) < 512 or page_number in read:  # a hostile table names one page many times
            continue
        read.add(page_number)
        runs = page[511]
        for j in range(runs):
            if 4 * (runs + 1) + 13 * j >= 511:
                break
            first, end = struct.unpack_from("<II", page, 4 * j)
            papx = 2 * page[4 * (runs + 1) + 13 * j]
            if papx and _ends_row(page, papx):
                ranges.append((first, end))
    return sorted(ranges)


def _ends_row(page: bytes, at: int) -> bool:
    """Whether a PapxInFkp's properties say its paragraph ends a row (sprmPFTtp or
    sprmPFInnerTtp set)."""
    size = page[at] * 2 - 1 if page[at] else 2 * page[at + 1] if at + 1 < len(page) else 0
    start = at + (1 if page[at] else 2) + 2  # past the size and the style (istd)
    properties, i = page[start : start + max(size - 2, 0)], 0
    while i + 2 <= len(properties):
        (sprm,) = struct.unpack_from("<H", properties, i)
        i += 2
        if sprm in _ROW_SPRMS:
            return i < len(properties) and properties[i] == 1
        kind = sprm >> 13
        if kind == 6:  # the operand says its size: in two bytes for sprmTDefTable, else one
            if sprm == 0xD608:
                if i + 2 > len(properties):
                    return False
                i += struct.unpack_from("<H", properties, i)[0] + 1
            elif i < len(properties):
                i += properties[i] + 1
            else:
                return False
        else:
            i += _OPERAND_SIZES[kind]
    return False


def _in(ranges: list[tuple[int, int]], position: int) -> bool:
    found = bisect.bisect_right(ranges, (position, 2**32)) - 1
    return found >= 0 and ranges[found][0] <= position < ranges[found][1]


def _lines(story: str) -> list[str]:
    """Word's marks made text, line by line: paragraphs and breaks as lines, a table's row as a line of cells
    (`cell  |  cell`, as the other readers write it), a field as what it shows (a date, a page
    number, a link's words), not its code."""
    paired = _paired_fields(story)
    shown, hidden = [], 0  # fields nest: hidden counts the open ones still in their code
    levels: list[bool] = []
    for at, char in enumerate(story):
        if char == _FIELD_BEGIN and at in paired:
            levels.append(False)
            hidden += 1
        elif char == _FIELD_SEPARATOR and levels and not levels[-1]:
            levels[-1] = True
            hidden -= 1
        elif char == _FIELD_END and at in paired:
            hidden -= not levels.pop()
        elif char not in (_FIELD_BEGIN, _FIELD_SEPARATOR, _FIELD_END) and not hidden:
            shown.append(char)
    text = "".join(shown).translate(_MARKS)
    if _ROW_MARK in text:  # rows told by their properties: a row's last cell mark ends it
        text = text.replace(_CELL + _ROW_MARK, "\n").replace(_ROW_MARK, "\n")
    else:  # by the marks alone: an empty cell before a row's end reads as the end
        text = _ROW_END.sub("\n", text)
    text = text.replace(_CELL, "  |  ")
    text = _OTHER_MARKS.sub("", text)
    # A row of empty cells (a form's blank lines) is no line, as in the other readers.
    return [line.strip() for line in text.split("\n") if line.replace("|", "").strip()]


def _paired_fields(story: str) -> set[int]:
    """Where the fields that end begin and end: a begin mark without its end (a file cut, or
    damaged) would hide the rest of the story as field code."""
    paired, opened = set(), []
    for at, char in enumerate(story):
        if char == _FIELD_BEGIN:
            opened.append(at)
        elif char == _FIELD_END and opened:
            paired.update((opened.pop(), at))
    return paired


def summary(ole: olefile.OleFileIO) -> tuple[str, datetime | None, datetime | None]:
    """Title, last saved and created times from the SummaryInformation property set ([MS-OLEPS])
    that every Office 97-2003 file carries, read here rather than by olefile: its reader loops
    for each of the 4 billion elements a damaged vector may claim, and no timer can stop it."""
    try:
        title, saved, created = _properties(ole.openstream(_SUMMARY).read(_MAX_SUMMARY)) if ole.exists(_SUMMARY) else ("", None, None)
    except (struct.error, LookupError, ValueError):
        return "", None, None  # a damaged summary costs the title and dates, not the text
    return title, _date(saved), _date(created)


def _properties(data: bytes) -> tuple[str, int | None, int | None]:
    (section,) = struct.unpack_from("<I", data, 44)  # past the header and the first section's FMTID
    count = min(struct.unpack_from("<I", data, section + 4)[0], _MAX_PROPERTIES)
    found = {}
    for i in range(count):
        pid, offset = struct.unpack_from("<II", data, section + 8 + 8 * i)
        if pid in (_CODEPAGE, _TITLE, _CREATED, _SAVED):
            found[pid] = section + offset
    codepage = _property(data, found.get(_CODEPAGE), "cp1252")
    title = _property(data, found.get(_TITLE), office.code_page(codepage if isinstance(codepage, int) else None))
    saved, created = (_property(data, found.get(pid), "cp1252") for pid in (_SAVED, _CREATED))
    return (title if isinstance(title, str) else "", *(t if isinstance(t, int) else None for t in (saved, created)))


def _property(data: bytes, at: int | None, charset: str) -> str | int | None:
    """A property's value: a code page (VT_I2), a string (VT_LPSTR in `charset`, VT_LPWSTR),
    a FILETIME (VT_FILETIME); None for any other type."""
    if at is None:
        return None
    (kind,) = struct.unpack_from("<I", data, at)
    if kind == 0x02:
        return struct.unpack_from("<H", data, at + 4)[0]
    if kind in (0x1E, 0x1F):
        (length,) = struct.unpack_from("<I", data, at + 4)
        raw = data[at + 8 : at + 8 + length * (2 if kind == 0x1F else 1)]
        return raw.decode("utf-16-le" if kind == 0x1F else charset, "replace").split("\x00")[0]
    if kind == 0x40:
        return struct.unpack_from("<Q", data, at + 4)[0]
    return None


def _date(filetime: int | None) -> datetime | None:
    """A FILETIME (100 ns since 1601, UTC); Word writes 1601 for "never"."""
    if not filetime:
        return None
    try:
        when = datetime(1601, 1, 1, tzinfo=timezone.utc) + timedelta(microseconds=filetime // 10)
    except OverflowError:
        return None
    return when if when.year >= MIN_YEAR else None
