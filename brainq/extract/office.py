"""Office documents: Word (.docx) and Excel (.xlsx) files, OpenDocument texts (.odt) and
spreadsheets (.ods), and the CSV files that spreadsheets and banks export. A household's
letters, leases, forms, budgets, lists and statements, saved in a folder or attached to a
message.

All are zip archives of XML, read by the standard library's parser: nothing a document refers
to (a macro, a linked file, an external entity) is followed, and a part whose XML would inflate
past `limits.max_stream_mb` is refused, as a PDF's stream is. A text is read in order, a
paragraph or heading a line and a table row a line of its cells; a spreadsheet sheet by sheet,
under the sheet's name, a row a line.

Its date is when it was last saved (`dcterms:modified`, `dc:date`), else when it was created: a
letter written this week on a template of 2019 keeps the template's creation date.
"""

from __future__ import annotations

import csv
import io
import itertools
import lzma
import re
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import BinaryIO
from xml.etree import ElementTree

from brainq.config import Limits
from brainq.dates import iso_date
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract.text import UTF16_BOMS, decode, title_of

KIND = "office"

_ZIP_MAGIC = b"PK\x03\x04"
# A Compound File's signature: Office 97-2003 files, Outlook messages, and what Office makes of
# a password-protected file of any age.
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# OpenDocument stores its `mimetype` first and uncompressed, so a file's head names its kind.
_ODF_MIMETYPES = (b"application/vnd.oasis.opendocument.text", b"application/vnd.oasis.opendocument.spreadsheet")
_OFFICE_SUFFIXES = (".docx", ".docm", ".dotx", ".xlsx", ".xlsm", ".xltx")
_ODF_SUFFIXES = (".odt", ".ods")
_CSV_SUFFIXES = (".csv", ".tsv")
XLS_SUFFIXES = (".xls", ".xlt")
LOCKED = "a password-protected Office document: save a copy without the password to ingest it"
_MAX_SPACES = 100  # one `text:s` stands for this many at most, whatever count it claims
# Columns of a sheet read: past them a row is ruled or padded, not written in. A repeated row
# or cell (OpenDocument's `number-rows-repeated`, a million empty rows at a sheet's end) is
# read this many times at most.
MAX_COLUMNS = 64
_MAX_REPEATS = 100
# Day 0 of a workbook's dates: Excel for Windows counts from 1900 (as if it were a leap year), the
# old Excel for Mac from 1904.
EPOCHS = {False: datetime(1899, 12, 30), True: datetime(1904, 1, 1)}
# Excel's built-in number formats that show a date (14-17 and 22; 27-36 and 50-58 in East
# Asian locales) or only a time of day (18-21, 45-47).
_EXCEL_FORMATS = {**dict.fromkeys([*range(14, 18), 22, *range(27, 37), *range(50, 59)], "date"),
                  **dict.fromkeys([*range(18, 22), *range(45, 48)], "time")}  # fmt: skip

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_SHEET = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_RELATION = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PACKAGE = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_DCTERMS = "{http://purl.org/dc/terms/}"
_META = "{urn:oasis:names:tc:opendocument:xmlns:meta:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_CODE_PAGES = {65001: "utf-8", 1200: "utf-16-le", 10000: "mac_roman", 10006: "mac_greek", 10007: "mac_cyrillic",
               10029: "mac_latin2", 10079: "mac_iceland", 10081: "mac_turkish"}  # fmt: skip
_MARGIN_PART = re.compile(r"word/(?:header|footer)\d*\.xml")
_MAX_MARGINS = 6  # header parts read, and as many footer parts
# A header or footer is a few lines: one part is read only to a megabyte.
_MARGIN_LIMITS = Limits(max_stream_mb=1)
# A broken or hostile archive fails in zipfile, zlib or struct, wherever it is read: an
# unsupported version or method, an offset before the start, a stream that does not inflate.
ZIP_ERRORS = (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError, ValueError, zlib.error,
              lzma.LZMAError, struct.error)  # fmt: skip
# zipfile reads a whole central directory into memory, about 750 bytes an entry of at least 46:
# a directory of millions of entries (all pointing at one file) would take gigabytes before a
# single one is read. 16 MB lists 100,000 files under long folder names (a photo export's).
MAX_ZIP_DIRECTORY_MB = 16


def sniff(name: str, head: bytes) -> bool:
    """A Word or Excel file by its name (its zip parts come in any order), an OpenDocument file
    by its `mimetype`; an encrypted Word or Excel file is a Compound File of that name. A CSV
    file by its name and a head of text."""
    lower = name.lower()
    if lower.endswith(_CSV_SUFFIXES):
        return head.startswith(UTF16_BOMS) or b"\x00" not in head
    if lower.endswith(_OFFICE_SUFFIXES):
        return head.startswith((_ZIP_MAGIC, OLE_MAGIC))
    if lower.endswith((".doc", ".dot")):  # a .docx saved under the old name
        return head.startswith(_ZIP_MAGIC)
    if lower.endswith(XLS_SUFFIXES):  # an .xlsx, or a bank's or web application's CSV, so named
        return head.startswith(_ZIP_MAGIC) or _text_sheet(head)
    return head.startswith(_ZIP_MAGIC) and (lower.endswith(_ODF_SUFFIXES) or any(m in head[:100] for m in _ODF_MIMETYPES))


def _text_sheet(head: bytes) -> bool:
    """A head of delimited lines (in UTF-16 too: Excel's "Unicode Text"), not markup (a web
    page saved as .xls is one) nor binary."""
    if head.startswith(UTF16_BOMS):
        head = head.decode("utf-16", "replace").encode("utf-8")
    lines = b"\n" in head or b"\r" in head
    return lines and b"\x00" not in head and not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    lower = item.name.lower()
    if lower.endswith(_CSV_SUFFIXES) or (lower.endswith(XLS_SUFFIXES) and _text_sheet(item.head())):
        lines, (title, saved, created) = list(within(_csv_lines(item), limits)), (None, None, None)
    else:
        lines, (title, saved, created) = _archive_lines(item.read(), limits)
    text = "\n".join(line for line in lines if line.strip())
    if not text.strip():
        raise ExtractError("no text in the document")
    when = iso_date(saved) or iso_date(created)
    # A sheet's first cell is a column's name, not the workbook's: its file names it better.
    first_line = title_of(text) if not text.startswith("## ") else " ".join(Path(item.name).stem.split())
    yield document(item, " ".join((title or "").split()) or first_line or item.name, text, when)


def document(item: Item, title: str, text: str, when: datetime | None) -> Document:
    """A word processor's or a spreadsheet's document, of any age and format (Word, Excel,
    OpenDocument, CSV, .doc, .xls, RTF): typed alike, and dated by the time its own properties
    state, else left for annotate to date by its text or file."""
    return Document(
        path=str(item.path),
        locator=None,
        kind=KIND,
        title=title,
        text=text,
        source_date=when,
        date_source="office_meta" if when else None,
        date_precision="instant" if when else None,
    )


def _archive_lines(data: bytes, limits: Limits) -> tuple[list[str], tuple[str | None, str | None, str | None]]:
    """An Office or OpenDocument file's lines, and its title, saved and created dates."""
    if data.startswith(OLE_MAGIC):
        raise ExtractError(LOCKED)
    try:
        with open_zip(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            if "word/document.xml" in names:
                body, properties = _part(archive, "word/document.xml", limits), _part(archive, "docProps/core.xml", limits)
                margins = _margins(archive, _margin_parts(names), _word_lines)
                lines = list(within(after_body(_word_lines(body.find(f"{_W}body")), margins), limits))
                title, saved, created = _core_properties(properties)
            elif "xl/workbook.xml" in names:
                lines = list(within(_excel_lines(archive, limits), limits))
                title, saved, created = _core_properties(_part(archive, "docProps/core.xml", limits))
            elif "content.xml" in names:
                manifest = _part(archive, "META-INF/manifest.xml", limits)
                if manifest is not None and any(e.tag.endswith("encryption-data") for e in manifest.iter()):
                    raise ExtractError(LOCKED)  # its parts are ciphertext
                body, properties = _part(archive, "content.xml", limits), _part(archive, "meta.xml", limits)
                text_body, sheets = body.find(f".//{_OFFICE}text"), body.find(f".//{_OFFICE}spreadsheet")
                if sheets is None:
                    margins = _margins(archive, ["styles.xml"] if "styles.xml" in names else [], _odt_margin_lines)
                    lines = list(within(after_body(_odt_lines(text_body), margins), limits))
                else:
                    lines = list(within(_ods_lines(sheets), limits))
                title, saved, created = _odf_properties(properties)
            else:
                raise ExtractError("a zip archive, not an Office or OpenDocument text or spreadsheet")
    except ZIP_ERRORS as exc:
        raise ExtractError(f"not a readable Office or OpenDocument file ({type(exc).__name__}: {str(exc)[:80]})") from None
    return lines, (title, saved, created)


def open_zip(source: BinaryIO) -> zipfile.ZipFile:
    """A zip file, unless its central directory is larger than MAX_ZIP_DIRECTORY_MB.

    zipfile reads the whole directory before any entry, to the size its end record gives (the
    entry count beside it is not what it reads by): that size is judged, found by zipfile's own
    search for the record, which reads at most the last 64 KB."""
    end = zipfile._EndRecData(source)  # noqa: SLF001  the very search ZipFile() is about to make
    if end and end[zipfile._ECD_SIZE] > MAX_ZIP_DIRECTORY_MB * 2**20:  # noqa: SLF001
        size = end[zipfile._ECD_SIZE] / 2**20  # noqa: SLF001
        raise ExtractError(f"an archive whose list of files takes {size:,.0f} MB, more than the {MAX_ZIP_DIRECTORY_MB} MB brainq reads")
    source.seek(0)
    return zipfile.ZipFile(source)


def within(lines: Iterator[str], limits: Limits) -> Iterator[str]:
    """Lines until they hold `limits.max_text_chars`: the rest would be cut anyway, and a
    file of a few kilobytes can repeat one long text (a shared string, a repeated cell) into
    gigabytes."""
    size = 0
    for line in lines:
        yield line
        size += len(line) + 1
        if size > limits.max_text_chars:
            return


def _csv_lines(item: Item) -> Iterator[str]:
    """A CSV or TSV file (a bank's or a card's statement, a sheet saved as text) read as a sheet
    named after its file. Excel on Windows writes the ANSI code page, or UTF-16 as "Unicode
    text", as often as UTF-8. The delimiter is whichever of , ; tab | the first lines agree on
    (a semicolon where the comma is decimal)."""
    text = decode(item.read(), item.charset)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel_tab if item.name.lower().endswith(".tsv") else csv.excel
    reader = csv.reader(io.StringIO(text, newline=None), dialect)  # lines ending in \r too (an old Mac's)
    try:
        yield from sheet_lines(Path(item.name).stem, (row[:MAX_COLUMNS] for row in reader))
    except csv.Error as exc:  # a NUL, a field past csv's own size limit
        raise ExtractError(f"not a readable CSV file ({exc})") from None


def _part(archive: zipfile.ZipFile, name: str, limits: Limits) -> ElementTree.Element | None:
    """One XML part, parsed; None when the archive lacks it (properties are optional)."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    cap = int(limits.max_stream_mb * 2**20) if limits.max_stream_mb else None
    with archive.open(info) as stream:
        data = stream.read(cap + 1 if cap else -1)
    if cap and len(data) > cap:
        raise ExtractError(f"{name} inflates past {limits.max_stream_mb:g} MB (limits.max_stream_mb); not read")
    if b"<!DOCTYPE" in data[:4096] or b"<!ENTITY" in data:
        raise ExtractError(f"{name} declares a DTD, which no Office or OpenDocument file holds; not read")
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise ExtractError(f"{name} is not well-formed XML ({exc})") from None


def _margin_parts(names: set[str]) -> list[str]:
    """A Word file's headers, then its footers: a letterhead's company, address and phone are
    often only there. At most _MAX_MARGINS of each, in the order Word numbers them (it writes up
    to three of each per section: first page, odd and even pages)."""
    order = lambda name: (len(name), name)  # noqa: E731  header2 before header10
    return [part for kind in ("header", "footer")
            for part in sorted((n for n in names if _MARGIN_PART.fullmatch(n) and kind in n), key=order)[:_MAX_MARGINS]]  # fmt: skip


def _margins(archive: zipfile.ZipFile, parts: list[str], read: Callable[[ElementTree.Element | None], Iterator[str]]) -> Iterator[str]:
    """The lines of the parts that hold headers and footers, one part at a time, each read only
    to _MARGIN_LIMITS' size. A part that cannot be read loses its own lines, not the document's."""
    for name in parts:
        try:
            lines = list(read(_part(archive, name, _MARGIN_LIMITS)))
        except (ExtractError, RecursionError, *ZIP_ERRORS):
            continue
        yield from lines


def _odt_margin_lines(styles: ElementTree.Element | None) -> Iterator[str]:
    """An OpenDocument text's headers and footers: its page styles' (styles.xml)."""
    for page in styles.iter(f"{_STYLE}master-page") if styles is not None else ():
        for margin in page:
            yield from _odt_lines(margin)


def after_body(body: Iterable[str], margins: Iterable[str]) -> Iterator[str]:
    """The body's lines, then the headers', footers' and notes' lines that are not already there
    (a first page's header repeats the others'). After the body, so its first line still titles
    the document. Every word processor's reader (Word, OpenDocument, .doc, RTF) places them so."""
    seen: set[str] = set()
    for line in body:
        seen.add(line)
        yield line
    for line in margins:
        if line.strip() and line not in seen:
            seen.add(line)
            yield line


def _word_lines(body: ElementTree.Element | None) -> Iterator[str]:
    for block in body if body is not None else ():
        if block.tag == f"{_W}p":
            yield _word_text(block)
        elif block.tag == f"{_W}tbl":
            for row in block.findall(f"{_W}tr"):
                yield _row([_cell(_word_lines(cell)) for cell in row.findall(f"{_W}tc")])
        elif block.tag == f"{_W}sdt":  # a content control (a form field, a cover page) wraps blocks
            yield from _word_lines(block.find(f"{_W}sdtContent"))


def _word_text(paragraph: ElementTree.Element, parts: list[str] | None = None) -> str:
    """A paragraph's text: not what tracked changes deleted (`w:delText`), and a text box once
    (Word writes it twice: for new readers, and as a `mc:Fallback` for old ones), its own
    paragraphs on lines of their own."""
    parts = [] if parts is None else parts
    for node in paragraph:
        if node.tag == f"{_W}t":
            parts.append(node.text or "")
        elif node.tag == f"{_W}tab":
            parts.append("\t")
        elif node.tag in (f"{_W}br", f"{_W}cr", f"{_W}p"):
            parts.append("\n")
            if node.tag == f"{_W}p":
                _word_text(node, parts)
        elif node.tag not in (f"{_MC}Fallback", f"{_W}delText"):
            _word_text(node, parts)
    return "".join(parts)


def _odt_lines(body: ElementTree.Element | None) -> Iterator[str]:
    for block in body if body is not None else ():
        if block.tag in (f"{_TEXT}p", f"{_TEXT}h"):
            yield _odt_text(block)
        elif block.tag == f"{_TABLE}table":
            for row in _table_rows(block):
                yield _row([_cell(_odt_lines(cell)) for cell in row.findall(f"{_TABLE}table-cell")])
        elif block.tag in (f"{_TEXT}list", f"{_TEXT}list-item", f"{_TEXT}section"):
            yield from _odt_lines(block)


def _odt_text(paragraph: ElementTree.Element) -> str:
    """A paragraph's text; `text:s` stands for spaces, `text:tab` and `text:line-break` for
    theirs. Footnotes and comments (with their author and date) are no part of it."""
    parts = [paragraph.text or ""]
    for node in paragraph:
        if node.tag == f"{_TEXT}s":
            count = node.get(f"{_TEXT}c", "1")
            parts.append(" " * min(int(count) if count.isdigit() else 1, _MAX_SPACES))
        elif node.tag == f"{_TEXT}tab":
            parts.append("\t")
        elif node.tag == f"{_TEXT}line-break":
            parts.append("\n")
        elif node.tag not in (f"{_TEXT}note", f"{_OFFICE}annotation", f"{_OFFICE}annotation-end"):
            parts.append(_odt_text(node))
        parts.append(node.tail or "")
    return "".join(parts)


def _excel_lines(archive: zipfile.ZipFile, limits: Limits) -> Iterator[str]:
    """Each sheet, in the workbook's order, under its name; its cells as Excel shows their
    values: shared strings looked up, dates as dates (a date is a number in a date format)."""
    workbook = _part(archive, "xl/workbook.xml", limits)
    relations = _part(archive, "xl/_rels/workbook.xml.rels", limits)
    targets = {r.get("Id"): r.get("Target", "") for r in relations.iter(f"{_PACKAGE}Relationship")} if relations is not None else {}
    strings = _part(archive, "xl/sharedStrings.xml", limits)
    shared = [_excel_string(si) for si in strings.iter(f"{_SHEET}si")] if strings is not None else []
    dates = _excel_date_styles(_part(archive, "xl/styles.xml", limits))
    properties = workbook.find(f"{_SHEET}workbookPr")
    epoch = EPOCHS[properties is not None and properties.get("date1904") in ("1", "true")]
    for sheet in workbook.iter(f"{_SHEET}sheet"):
        target = targets.get(sheet.get(f"{_RELATION}id"), "")
        path = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
        cells = _part(archive, path, limits) if target else None
        if cells is None:
            continue
        rows = []
        for row in cells.iter(f"{_SHEET}row"):
            values = {}
            for cell in row.iter(f"{_SHEET}c"):
                column = _column(cell.get("r", ""), len(values))
                if column < MAX_COLUMNS:
                    values[column] = _excel_value(cell, shared, dates, epoch)
            rows.append([values.get(c, "") for c in range(max(values, default=-1) + 1)])
        yield from sheet_lines(sheet.get("name", ""), rows)


def _excel_value(cell: ElementTree.Element, shared: list[str], dates: dict[int, str], epoch: datetime) -> str:
    kind, value = cell.get("t", "n"), cell.findtext(f"{_SHEET}v") or ""
    if kind == "s":
        return shared[int(value)] if value.isdigit() and int(value) < len(shared) else ""
    if kind == "inlineStr":
        return _excel_string(cell.find(f"{_SHEET}is"))
    if kind == "b":
        return "TRUE" if value == "1" else "FALSE"
    if kind != "n" or not value:
        return value  # str (a formula's text), e (an error such as #N/A), d (ISO 8601 already)
    try:
        number = float(value)
    except ValueError:
        return value
    shows = dates.get(int(style)) if (style := cell.get("s", "0")).isdigit() else None
    return excel_number(number, shows, epoch)


def excel_number(number: float, shows: str | None, epoch: datetime) -> str:
    """A number as Excel shows it: a date or a time where its format `shows` one ("date",
    "time"), counted in days from the workbook's `epoch`; else its 15 significant digits."""
    if shows and 0 <= number < 2_958_466:  # Excel's last day: 9999-12-31
        # To the second, rounded: a sheet keeps 15 digits, and 17:00 is 44197.7083333333.
        when = epoch + timedelta(seconds=round(number * 86400))
        if shows == "time" or number < 1:  # a time of day alone is no day of 1899
            return when.strftime("%H:%M")
        return when.date().isoformat() if when.time() == datetime.min.time() else when.strftime("%Y-%m-%d %H:%M")
    return f"{number:.15g}"


def _excel_string(string: ElementTree.Element | None) -> str:
    """A string's text: its own, or its rich-text runs'; not the phonetic guide (`rPh`) that
    Japanese sheets add to it. Excel writes a control character as `_x000D_`."""
    if string is None:
        return ""
    runs = [string, *string.findall(f"{_SHEET}r")]
    text = "".join(t.text or "" for run in runs for t in run.findall(f"{_SHEET}t"))
    text = re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), text)
    # An emoji is written as two such escapes (a surrogate pair): joined here. One alone is no
    # character, and no text holding it can be stored or embedded.
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _excel_date_styles(styles: ElementTree.Element | None) -> dict[int, str]:
    """The cell styles (indexes into `cellXfs`) whose number format shows a date or a time."""
    if styles is None:
        return {}
    custom = {}
    for fmt in styles.iter(f"{_SHEET}numFmt"):
        # Quoted text and [colour] or [$-locale] sections are no part of the date: "d" in
        # "[Red]" or in "\"due\"" is not a day.
        code = re.sub(r'"[^"]*"|\[[^\]]*\]|\\.', "", fmt.get("formatCode", "")).lower()
        custom[fmt.get("numFmtId")] = "date" if "y" in code or "d" in code else "time" if "h" in code else None
    formats = styles.find(f"{_SHEET}cellXfs")
    shown = {}
    for index, xf in enumerate(formats if formats is not None else ()):
        fmt = xf.get("numFmtId", "0")
        if kind := custom.get(fmt, _EXCEL_FORMATS.get(int(fmt)) if fmt.isdigit() else None):
            shown[index] = kind
    return shown


def _column(reference: str, default: int) -> int:
    """A cell reference's column from 0 ("C7" is 2); a cell without one follows the last."""
    letters = re.match(r"[A-Z]{1,3}", reference)
    if not letters:
        return default
    number = 0
    for letter in letters.group():
        number = number * 26 + ord(letter) - 64
    return number - 1


def _ods_lines(spreadsheet: ElementTree.Element) -> Iterator[str]:
    """Each sheet under its name; a cell's value as it is shown, a date as the date it holds."""
    for table in spreadsheet.iter(f"{_TABLE}table"):
        rows = []
        for row in _table_rows(table):
            cells: list[str] = []
            for cell in row:
                if cell.tag not in (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"):
                    continue
                value = cell.get(f"{_OFFICE}date-value") or _cell(_odt_lines(cell))
                cells += [value] * _repeats(cell, "number-columns-repeated", MAX_COLUMNS - len(cells))
            while cells and not cells[-1]:
                cells.pop()  # the empty cells repeated to the sheet's last column
            if cells:
                rows += [cells] * _repeats(row, "number-rows-repeated", _MAX_REPEATS)
        yield from sheet_lines(table.get(f"{_TABLE}name", ""), rows)


def _repeats(element: ElementTree.Element, attribute: str, most: int) -> int:
    count = element.get(f"{_TABLE}{attribute}", "1")
    return max(0, min(int(count) if count.isdigit() else 1, most))


def sheet_lines(name: str, rows: Iterable[list[str]]) -> Iterator[str]:
    """A sheet's rows as lines, under its name (none for an empty sheet). A first row naming three or more columns, and holding no
    number, is their header: each row under it says which column each value is in ("Cost:
    $14,500"), as a reader looking down the sheet knows. Two columns are usually a list of
    names and values ("Wi-Fi password", "Alarm code"), so they stay as they are."""
    filled = (row for row in ([" ".join(c.split()) for c in row] for row in rows) if any(row))
    header, second = next(filled, None), next(filled, None)
    if header is None:
        return
    yield f"## {name}"
    yield _row(header)
    named = [c for c in header if c]
    labelled = len(named) >= 3 and not any(_numeric(c) for c in named)
    for row in itertools.chain([second] if second else [], filled):
        if labelled:
            yield "; ".join(f"{header[i]}: {v}" if i < len(header) and header[i] else v for i, v in enumerate(row) if v)
        else:
            yield _row(row)


def _numeric(text: str) -> bool:
    return bool(re.fullmatch(r"[-+$€£¥]?[\d.,]+%?|\d{4}-\d{2}-\d{2}.*", text))


def code_page(number: int | None) -> str:
    """The codec of a Windows code page as Office formats number it (a .doc's properties, an
    RTF's \\ansicpg), where Python does not name it "cpN"; Windows-1252 for one it lacks."""
    name = _CODE_PAGES.get(number, f"cp{number}") if number else "cp1252"
    try:
        "".encode(name)
    except LookupError:
        return "cp1252"
    return name


def _row(cells: list[str]) -> str:
    """A table row as one line, its cells apart; an empty row (a form's blank lines) is none."""
    return "  |  ".join(cells) if any(cells) else ""


def _table_rows(table: ElementTree.Element) -> Iterator[ElementTree.Element]:
    """A table's own rows, in the groups OpenDocument may put them in; a table inside a cell
    is that cell's text."""
    for child in table:
        if child.tag == f"{_TABLE}table-row":
            yield child
        elif child.tag in (f"{_TABLE}table-rows", f"{_TABLE}table-header-rows", f"{_TABLE}table-row-group"):
            yield from _table_rows(child)


def _cell(lines: Iterator[str]) -> str:
    return " ".join(" ".join(line.split()) for line in lines).strip()


def _core_properties(core: ElementTree.Element | None) -> tuple[str | None, str | None, str | None]:
    if core is None:
        return None, None, None
    return core.findtext(f"{_DC}title"), core.findtext(f"{_DCTERMS}modified"), core.findtext(f"{_DCTERMS}created")


def _odf_properties(meta: ElementTree.Element | None) -> tuple[str | None, str | None, str | None]:
    if meta is None:
        return None, None, None
    return meta.findtext(f".//{_DC}title"), meta.findtext(f".//{_DC}date"), meta.findtext(f".//{_META}creation-date")
