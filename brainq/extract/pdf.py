"""PDF: the text of each page, a title and the creation date from the document's own metadata."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pypdf import PdfReader, apply_configuration
from pypdf.errors import LimitReachedError

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError

KIND = "pdf"

# pypdf logs a warning for every defect it repairs; brainq reports one reason per file instead.
logging.getLogger("pypdf").setLevel(logging.CRITICAL)

# Acrobat accepts the header anywhere in the first 1024 bytes (PDF 1.7 reference, Annex H).
HEADER_WINDOW = 1024

# D:YYYYMMDDHHmmSSOHH'mm' (PDF 1.7 section 7.9.4), every part after the year optional. Real files
# also write -0100, +02'00 without the closing apostrophe, and Z07'46' (Z names the zone: UTC).
PDF_DATE = re.compile(
    r"(?:D:)?\s*(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*"
    r"(?:([Zz])|([+-])(\d{2})'?(\d{2})?'?)?"
)
PAGE_BREAK = "\n\n"
# How precisely a date is known, by the number of parts it has (year, month, day, hour ...).
PRECISION_BY_PARTS = {1: "year", 2: "month", 3: "day"}

METADATA_FIELDS = ("/Title", "/Author", "/Subject", "/Keywords")

# pypdf's bounds on decompressed output (`pypdf.Configuration`), one per kind of stream encoding.
DECOMPRESSION_LIMITS = (
    "zlib_maximum", "lzw_maximum", "run_length_maximum", "brotli_maximum", "jbig2_maximum",
    "array_based_stream_maximum",
)  # fmt: skip


def sniff(name: str, head: bytes) -> bool:
    """A PDF header near the start; a .pdf name too, so a broken one is reported as a PDF."""
    return b"%PDF-" in head[:HEADER_WINDOW] or name.lower().endswith(".pdf")


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    """One document: page text, title and creation date; metadata alone for a scan."""
    # pypdf reads its limits from a context variable, which a generator shares with its caller
    # while suspended: they are set only while pypdf works, not across the yield.
    with _stream_limits(limits):
        document = _document(item, limits)
    yield document


@contextmanager
def _stream_limits(limits: Limits):
    """pypdf's decompression bounds set to `limits.max_stream_mb` (pypdf reads 0 as no limit)."""
    size = int(limits.max_stream_mb * 1024 * 1024)
    outputs = {f"{codec}_output_length": size for codec in DECOMPRESSION_LIMITS}
    with apply_configuration(**outputs):
        yield


def _document(item: Item, limits: Limits) -> Document:
    data = item.read()
    notes: list[str] = []
    try:
        reader, password = _open(data, limits.passwords)
    except ExtractError as exc:
        if "encrypted" in str(exc):
            raise
        return _read_by_pdfium(item, data, limits, exc)
    metadata = _metadata(reader)
    source_date, date_source, precision = _creation_date(reader, metadata)
    title = (metadata.get("/Title") or Path(item.name).stem)[: limits.max_text_chars]
    try:
        pages = _pages(reader, limits, notes)
    except Exception as exc:  # a hostile page tree raises anything; pdfium may still read it
        if not isinstance(exc, LimitReachedError):  # pdfium would inflate it without the bound
            try:
                return _read_by_pdfium(item, data, limits, ExtractError(f"unreadable PDF ({_why(exc)})"), password)
            except ExtractError:
                pass
        if not (metadata.get("/Title") or source_date):
            raise ExtractError(f"unreadable PDF ({_why(exc)})") from None
        notes.append(f"pages unreadable ({_why(exc)})")  # the metadata is still good
        pages = []
    text, scanned = _text(data, password, pages, limits, notes)
    date_source = "scan" if date_source and scanned else date_source
    if not text.strip():
        notes.append("no text layer found")
        text = _describe(metadata) or title
    return Document(
        path=str(item.path),
        locator=None,
        kind=KIND,
        title=title,
        text=text,
        source_date=source_date,
        date_source=date_source,
        date_precision=precision,
        notes=notes,
    )


def _open(data: bytes, passwords: tuple[str, ...]) -> tuple[PdfReader, str]:
    """A reader over `data` and the password that opened it: the empty one, as every viewer
    tries first, or else the first of `passwords` that does."""
    if not data:
        raise ExtractError("empty file")
    if b"%PDF-" not in data[:HEADER_WINDOW]:
        raise ExtractError("not a PDF (no %PDF- header)")
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        encrypted = reader.is_encrypted
    except Exception as exc:  # malformed files make pypdf raise anything, not only PdfReadError
        raise ExtractError(f"unreadable PDF ({_why(exc)})") from None
    if encrypted:
        # Many PDFs are encrypted only to restrict printing or copying: the empty user password
        # opens them, as it does in every viewer.
        for password in ("", *passwords):
            try:
                if reader.decrypt(password):
                    return reader, password
            except Exception as exc:
                raise ExtractError(f"encrypted: cannot decrypt ({_why(exc)})") from None
        tried = f"none of the {len(passwords)} passwords given opens it" if passwords else "name a passwords file with --passwords"
        raise ExtractError(f"encrypted: needs a password ({tried})")
    return reader, ""


def _metadata(reader: PdfReader) -> dict[str, str]:
    """The Info dictionary's descriptive fields and date, cleaned; {} if unreadable."""
    try:
        info = reader.metadata
        raw = {key: info.get(key) for key in (*METADATA_FIELDS, "/CreationDate")} if info else {}
    except Exception:
        return {}
    cleaned = {key: _clean(str(value)) for key, value in raw.items() if value is not None}
    title = cleaned.get("/Title", "")
    # "untitled" is a producer's placeholder; a leading "þÿ" is UTF-16 pypdf could not decode.
    if title.lower() == "untitled" or title.startswith("\u00fe\u00ff"):
        del cleaned["/Title"]
    return {key: value for key, value in cleaned.items() if value}


def _creation_date(
    reader: PdfReader, metadata: dict[str, str]
) -> tuple[datetime | None, str | None, str | None]:
    """(date, date_source, precision): Info /CreationDate, else XMP CreateDate, else Nones."""
    parsed = parse_pdf_date(metadata.get("/CreationDate", ""))
    if parsed:
        return parsed[0], "pdf_meta", parsed[1]
    try:
        xmp = reader.xmp_metadata
        created = xmp.xmp_create_date if xmp is not None else None
    except Exception:
        created = None
    if created:
        # pypdf converts XMP dates to UTC and drops the zone.
        return created.replace(tzinfo=timezone.utc), "xmp", "instant"
    return None, None, None


def parse_pdf_date(raw: str) -> tuple[datetime, str] | None:
    """A PDF date string as (datetime, precision); naive when it names no zone; None if invalid."""
    match = PDF_DATE.match(raw.strip())
    if not match:
        return None
    year, month, day, hour, minute, second, utc, sign, zone_h, zone_m = match.groups()
    parts = [int(p) for p in (year, month, day, hour, minute, second) if p is not None]
    try:
        when = datetime(*parts, *[1] * (3 - len(parts)))  # a missing month or day is the first
        if utc:
            when = when.replace(tzinfo=timezone.utc)
        elif sign:
            offset = timedelta(hours=int(zone_h), minutes=int(zone_m or 0))
            when = when.replace(tzinfo=timezone(-offset if sign == "-" else offset))
    except ValueError:  # month 13, hour 25, an offset of a day or more
        return None
    return when, PRECISION_BY_PARTS.get(len(parts), "instant")


def _pages(reader: PdfReader, limits: Limits, notes: list[str]) -> list[str | None]:
    """Each page's text up to `limits`, None for a page that cannot be read; notes say what
    was left out."""
    count = len(reader.pages)
    if count > limits.max_pages:
        notes.append(f"only the first {limits.max_pages} of {count} pages read")
    texts: list[str] = []
    size = 0
    unreadable = 0
    for number in range(min(count, limits.max_pages)):
        try:
            page_text = _page_text(reader.pages[number], limits.max_text_chars - size)
        except Exception:  # one broken page (bad font, bad stream) must not lose the others
            unreadable += 1
            page_text = None
        texts.append(page_text)
        page_text = page_text or ""
        size += len(page_text) + len(PAGE_BREAK) * (len(texts) > 1)
        if size > limits.max_text_chars:
            notes.append(f"text cut at {limits.max_text_chars} characters")
            break
    if unreadable:
        notes.append(f"text of {unreadable} page(s) unreadable")
    return texts


# A page with less text than this has no text layer worth the name (a scan, perhaps with a
# stamped page number): it is read by OCR.
SCANNED_PAGE_CHARS = 20


def _text(data: bytes, password: str, pages: list[str | None], limits: Limits, notes: list[str]) -> tuple[str, bool]:
    """The document's text: its pages in turn (read by OCR where they have no text layer),
    the words hyphenated at a line's end whole again; and whether OCR read every page. Then
    the document is a scan, and its metadata's date the scanner's: when the paper was scanned,
    which annotate puts after the date printed on it (a 2025 bill scanned today is no news)."""
    read, images = _scanned_pages_read(data, password, pages, limits, notes)
    text = rejoin_hyphenated(PAGE_BREAK.join(read))[: limits.max_text_chars]
    return text, bool(read) and images == len(read)


# A hyphen (or soft hyphen) ending a line between two letters; the words around it are read
# from the match's ends, so a page of one endless "word" costs linear time, not quadratic.
_LINE_END_HYPHEN = re.compile(r"(?<=[^\W\d_])[-\u00ad][ \t]*\n[ \t]*(?=[^\W\d_])")
_LETTERS = re.compile(r"[^\W\d_]+")
_LAST_LETTERS = re.compile(r"[^\W\d_]+$")
_WORD_CHARS = 64  # of the word before a break, enough to look it up


def rejoin_hyphenated(text: str) -> str:
    """Words a typeset page hyphenated at a line's end ("pur-" / "chase") whole again: split,
    each half is a word of its own to the full-text index and the model, and neither is the
    word a question asks for. Only before a lower-case letter (not "Smith-" / "Jones"), and
    the hyphen stays where the document writes the word with one elsewhere ("self-employed")
    and never without."""
    words = None

    def joined(m: re.Match) -> str:
        nonlocal words
        right = _LETTERS.match(text, m.end()).group()
        if not right[0].islower():
            return m.group(0)
        left = _LAST_LETTERS.search(text, max(0, m.start() - _WORD_CHARS), m.start()).group()
        if words is None:
            words = {w.lower() for w in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", text)}
        whole, compound = (left + right).lower(), f"{left}-{right}".lower()
        return "-" if compound in words and whole not in words else ""

    return _LINE_END_HYPHEN.sub(joined, text)


def _scanned_pages_read(
    data: bytes, password: str, pages: list[str | None], limits: Limits, notes: list[str]
) -> tuple[list[str], int]:
    """The pages, those without a text layer read by OCR (at most `limits.ocr_pages`; a page
    slower than `limits.ocr_seconds_per_page` ends it), rendered by pdfium; and how many were
    images, read by OCR or blank (a duplex scan's back).

    A page pypdf could not read (None) is not rendered either: its fault may be a stream that
    inflates to gigabytes, which pdfium would inflate without pypdf's bound."""
    scanned = [i for i, text in enumerate(pages) if text is not None and len(text.strip()) < SCANNED_PAGE_CHARS]
    pages = [text or "" for text in pages]
    if not limits.ocr or not scanned:
        return pages, 0
    import pypdfium2

    from brainq import ocr

    read, blank = [], 0
    document = None
    try:
        document = pypdfium2.PdfDocument(data, password=password)  # parsed once for every page
        for number in scanned[: limits.ocr_pages]:
            image = _render(document[number], limits)
            if ocr.blank(image):
                blank += 1
                continue
            reading = ocr.read(image, limits)
            if reading.text:
                pages[number] = reading.text
                read.append(number + 1)
            if reading.seconds > limits.ocr_seconds_per_page:
                notes.append(f"OCR stopped after page {number + 1}: it took {reading.seconds:.0f} s")
                break
    except Exception as exc:  # pdfium or the OCR engine on a hostile page: the text layer stays
        notes.append(f"OCR failed ({_why(exc)})")
    finally:
        if document is not None:
            document.close()
    if len(scanned) > limits.ocr_pages:
        notes.append(f"only the first {limits.ocr_pages} of {len(scanned)} scanned pages read by OCR")
    if read:
        notes.append(f"text of page(s) {', '.join(map(str, read))} read by OCR")
    return pages, len(read) + blank


def _render(page, limits: Limits):
    """A pdfium page as a PIL image at `limits.ocr_dpi`, or coarser where that would exceed
    `limits.ocr_max_megapixels` (a page can declare itself a kilometre wide)."""
    width, height = page.get_size()  # in points, 72 to the inch
    scale = min(limits.ocr_dpi / 72, (limits.ocr_max_megapixels * 1e6 / max(width * height, 1)) ** 0.5)
    return page.render(scale=scale).to_pil().convert("RGB")


def _read_by_pdfium(item: Item, data: bytes, limits: Limits, error: ExtractError, password: str = "") -> Document:
    """A PDF pypdf cannot open or walk, read by pdfium (Chrome's PDF engine) instead; `error`
    is pypdf's, raised again when pdfium cannot open it either."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(data, password=password)
    except Exception:  # pdfium's PdfiumError and others: neither reader can open it
        raise error from None
    notes = [f"read by pdfium ({str(error).removeprefix('unreadable PDF ')})"]
    pages: list[str | None] = []
    try:
        metadata = {f"/{k}": _clean(str(v)) for k, v in document.get_metadata_dict().items() if v}
        for number in range(min(len(document), limits.max_pages)):
            try:
                pages.append(document[number].get_textpage().get_text_range()[: limits.max_text_chars])
            except Exception:  # pdfium's PdfiumError: one page of a broken tree, not the others
                pages.append(None)
    except Exception as exc:
        raise ExtractError(f"unreadable PDF ({_why(exc)})") from None
    finally:
        document.close()
    if not metadata and not any(text is not None for text in pages):
        raise error  # opened, but nothing in it could be read either
    if None in pages:
        notes.append(f"text of {pages.count(None)} page(s) unreadable")
    text, scanned = _text(data, password, pages, limits, notes)
    parsed = parse_pdf_date(metadata.get("/CreationDate", ""))
    title = (metadata.get("/Title") or Path(item.name).stem)[: limits.max_text_chars]
    return Document(
        path=str(item.path),
        locator=None,
        kind=KIND,
        title=title,
        text=text if text.strip() else (_describe(metadata) or title),
        source_date=parsed[0] if parsed else None,
        date_source=("scan" if scanned else "pdf_meta") if parsed else None,
        date_precision=parsed[1] if parsed else None,
        notes=notes if text.strip() else [*notes, "no text layer found"],
    )


class _TextFull(Exception):
    """A page has given more text than the document may keep."""


def _page_text(page, budget: int) -> str:
    """The page's text, read only until it is longer than `budget` characters.

    A page can hold far more text than its size suggests (a stream that inflates 1000-fold, a
    font mapping each glyph to a long string); pypdf hands the text over line by line, so
    reading stops once the document has all it may keep.
    """
    pieces: list[str] = []
    size = 0

    def collect(text, *_):
        nonlocal size
        pieces.append(text)
        size += len(text)
        if size > budget:
            raise _TextFull

    try:
        return page.extract_text(visitor_text=collect) or ""
    except _TextFull:
        return "".join(pieces)


def _describe(metadata: dict[str, str]) -> str:
    """The metadata as searchable lines, for a PDF without a text layer."""
    return "\n".join(f"{key[1:]}: {metadata[key]}" for key in METADATA_FIELDS if key in metadata)


def _clean(value: str) -> str:
    """Text without control characters (NUL padding, line breaks in titles) or extra spaces."""
    return " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", value).split())


def _why(exc: Exception) -> str:
    """A short reason from a library exception: its first line, or its type when it has none."""
    lines = str(exc).strip().splitlines()
    return lines[0][:120] if lines else type(exc).__name__
