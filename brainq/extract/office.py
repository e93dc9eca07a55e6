"""Word (.docx) and OpenDocument (.odt) text documents: a household's letters, leases, forms
and lists, saved in a folder or attached to a message.

Both are zip archives of XML. The body is read in order, a paragraph or heading a line and a
table row a line of its cells, by the standard library's parser: nothing a document refers to
(a macro, a linked file, an external entity) is followed, and a part whose XML would inflate
past `limits.max_stream_mb` is refused, as a PDF's stream is.

Its date is when it was last saved (`dcterms:modified`, `dc:date`), else when it was created: a
letter written this week on a template of 2019 keeps the template's creation date.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from collections.abc import Iterator
from datetime import datetime
from xml.etree import ElementTree

from brainq.config import Limits
from brainq.dates import MIN_YEAR
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract.text import title_of

KIND = "office"

_ZIP_MAGIC = b"PK\x03\x04"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # what Office makes of a password-protected file
_ODT_MIMETYPE = b"application/vnd.oasis.opendocument.text"
_WORD_SUFFIXES = (".docx", ".docm", ".dotx")
_MAX_SPACES = 100  # one `text:s` stands for this many at most, whatever count it claims

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_DCTERMS = "{http://purl.org/dc/terms/}"
_META = "{urn:oasis:names:tc:opendocument:xmlns:meta:1.0}"


def sniff(name: str, head: bytes) -> bool:
    """A Word file by its name (its zip parts come in any order), an OpenDocument text by the
    `mimetype` its zip must store first; an encrypted Word file is a Compound File of that name."""
    lower = name.lower()
    if lower.endswith(_WORD_SUFFIXES):
        return head.startswith((_ZIP_MAGIC, _OLE_MAGIC))
    return head.startswith(_ZIP_MAGIC) and (lower.endswith(".odt") or _ODT_MIMETYPE in head[:100])


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    data = item.read()
    if data.startswith(_OLE_MAGIC):
        raise ExtractError("a password-protected Word document: save a copy without the password to ingest it")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            if "word/document.xml" in names:
                body, properties = _part(archive, "word/document.xml", limits), _part(archive, "docProps/core.xml", limits)
                lines = list(_word_lines(body.find(f"{_W}body")))
                title, saved, created = _word_properties(properties)
            elif "content.xml" in names:
                body, properties = _part(archive, "content.xml", limits), _part(archive, "meta.xml", limits)
                lines = list(_odt_lines(body.find(f".//{_OFFICE}text")))
                title, saved, created = _odt_properties(properties)
            else:
                raise ExtractError("a zip archive, not a Word or OpenDocument text document")
    # A broken or hostile archive fails in zipfile, zlib or struct, wherever it is read: an
    # unsupported version or method, an offset before the start, a stream that does not inflate.
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError, ValueError, zlib.error,
            struct.error) as exc:  # fmt: skip
        raise ExtractError(f"not a readable Word or OpenDocument file ({type(exc).__name__}: {str(exc)[:80]})") from None
    text = "\n".join(line for line in lines if line.strip())
    if not text.strip():
        raise ExtractError("no text in the document")
    when = _date(saved) or _date(created)
    yield Document(
        path=str(item.path),
        locator=None,
        kind=KIND,
        title=" ".join((title or "").split()) or title_of(text) or item.name,
        text=text,
        source_date=when,
        date_source="office_meta" if when else None,
        date_precision="instant" if when else None,
    )


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
        raise ExtractError(f"{name} declares a DTD, which no Word or OpenDocument file holds; not read")
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise ExtractError(f"{name} is not well-formed XML ({exc})") from None


def _word_lines(body: ElementTree.Element | None) -> Iterator[str]:
    for block in body if body is not None else ():
        if block.tag == f"{_W}p":
            yield _word_text(block)
        elif block.tag == f"{_W}tbl":
            for row in block.iter(f"{_W}tr"):
                yield _row([_cell(cell, f"{_W}p", _word_text) for cell in row.findall(f"{_W}tc")])
        elif block.tag == f"{_W}sdt":  # a content control (a form field, a cover page) wraps blocks
            yield from _word_lines(block.find(f"{_W}sdtContent"))


def _word_text(paragraph: ElementTree.Element) -> str:
    parts = []
    for node in paragraph.iter():
        if node.tag == f"{_W}t":  # not w:delText: what tracked changes deleted
            parts.append(node.text or "")
        elif node.tag == f"{_W}tab":
            parts.append("\t")
        elif node.tag in (f"{_W}br", f"{_W}cr"):
            parts.append("\n")
    return "".join(parts)


def _odt_lines(body: ElementTree.Element | None) -> Iterator[str]:
    for block in body if body is not None else ():
        if block.tag in (f"{_TEXT}p", f"{_TEXT}h"):
            yield _odt_text(block)
        elif block.tag == f"{_TABLE}table":
            for row in block.iter(f"{_TABLE}table-row"):
                yield _row([_cell(cell, f"{_TEXT}p", _odt_text) for cell in row.findall(f"{_TABLE}table-cell")])
        elif block.tag in (f"{_TEXT}list", f"{_TEXT}list-item", f"{_TEXT}section"):
            yield from _odt_lines(block)


def _odt_text(paragraph: ElementTree.Element) -> str:
    """A paragraph's text; `text:s` stands for spaces, `text:tab` and `text:line-break` for theirs."""
    parts = [paragraph.text or ""]
    for node in paragraph:
        if node.tag == f"{_TEXT}s":
            count = node.get(f"{_TEXT}c", "1")
            parts.append(" " * min(int(count) if count.isdigit() else 1, _MAX_SPACES))
        elif node.tag == f"{_TEXT}tab":
            parts.append("\t")
        elif node.tag == f"{_TEXT}line-break":
            parts.append("\n")
        elif node.tag not in (f"{_TEXT}note", f"{_TEXT}annotation"):
            parts.append(_odt_text(node))
        parts.append(node.tail or "")
    return "".join(parts)


def _row(cells: list[str]) -> str:
    """A table row as one line, its cells apart; an empty row (a form's blank lines) is none."""
    return "  |  ".join(cells) if any(cells) else ""


def _cell(cell: ElementTree.Element, paragraph: str, read) -> str:
    return " ".join(" ".join(read(p).split()) for p in cell.iter(paragraph)).strip()


def _word_properties(core: ElementTree.Element | None) -> tuple[str | None, str | None, str | None]:
    if core is None:
        return None, None, None
    return core.findtext(f"{_DC}title"), core.findtext(f"{_DCTERMS}modified"), core.findtext(f"{_DCTERMS}created")


def _odt_properties(meta: ElementTree.Element | None) -> tuple[str | None, str | None, str | None]:
    if meta is None:
        return None, None, None
    return meta.findtext(f".//{_DC}title"), meta.findtext(f".//{_DC}date"), meta.findtext(f".//{_META}creation-date")


def _date(raw: str | None) -> datetime | None:
    """An ISO 8601 property (naive when it names no zone, as a PDF's may be); None when missing,
    unreadable or before MIN_YEAR (Word writes 1601 for "never")."""
    if not raw:
        return None
    raw = re.sub(r"(\.\d{6})\d+", r"\1", raw.strip())  # OpenDocument keeps nanoseconds
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        return None
    return when if when.year >= MIN_YEAR else None
