"""Web pages: a saved confirmation or receipt, an itinerary attached as HTML, a notes export
(Google Keep and Evernote write a page per note). Read as text, titled by `<title>`, dated by
the page's own metadata when it has some.

The converter is the one email reads HTML bodies with (`text_of`), so a page reads alike
attached, saved or sent as a message.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path

import html2text

from brainq.config import Limits
from brainq.dates import MIN_YEAR
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract.text import title_of

KIND = "html"

SUFFIXES = (".html", ".htm", ".xhtml")
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
# A page by its first markup, whatever its name: an XML declaration and comments ("<!-- saved
# from url=... -->", as browsers write) may come before it.
_MARKUP = re.compile(r"\A\ufeff?\s*(?:<\?xml[^>]*>\s*)?(?:<!--(?:(?!-->).)*-->\s*)*<(?:!doctype\s+html|html[\s>])", re.I | re.S)
# Title and metadata are in the head, near the top; the page's charset is declared in its first
# 1024 bytes (the HTML standard's own limit, with room for pages that ignore it). A tag is read
# to the next "<" at most, so a page of unclosed tags costs no more than its length.
_HEAD_CHARS = 64 * 1024
_CHARSET_BYTES = 4096
_CHARSET = re.compile(rb"<meta[^<>]*?charset\s*=\s*[\"']?\s*([\w.:-]+)", re.I)
_META = re.compile(r"<meta\b[^<>]*>", re.I)
_ATTRIBUTE = re.compile(r"""([\w:.-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)""")
# Dates a page states of itself, by the names its makers give them (Open Graph, schema.org,
# Dublin Core, HTTP): when it was last changed first, as for an Office file (the facts of a page
# updated yesterday are yesterday's), then when it was published or made.
_DATE_NAMES = (
    "article:modified_time", "og:updated_time", "datemodified", "dcterms.modified", "last-modified",
    "article:published_time", "datepublished", "dcterms.issued", "dcterms.created", "dc.date.issued",
    "dc.date.created", "dc.date", "date", "datecreated", "pubdate",
)  # fmt: skip
# Labels that the HTML standard reads as windows-1252, which is what such pages hold.
_AS_WINDOWS_1252 = {"ascii", "us-ascii", "iso-8859-1", "iso8859-1", "latin-1", "latin1"}


def sniff(name: str, head: bytes) -> bool:
    """A page by its name and a head of text, or by its first markup (an attachment may have no
    name: "<!DOCTYPE html>" tells it)."""
    text = _decoded(head, strict=False)
    if name.lower().endswith(SUFFIXES):
        return "\x00" not in text
    return bool(_MARKUP.match(text))


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    """One document. A page longer than `limits.max_stream_mb` is read to there: markup is
    several times its text, and the converter's time grows with it."""
    data = item.read()
    notes = []
    if limits.max_stream_mb and len(data) > limits.max_stream_mb * 2**20:
        data = data[: int(limits.max_stream_mb * 2**20)]
        notes.append(f"page read to its first {limits.max_stream_mb:g} MB")
    markup = _decoded(data)
    text = text_of(markup)
    if not text.strip():
        raise ExtractError("no text in the page")
    head = markup[:_HEAD_CHARS]
    when, precision = _page_date(head)
    yield Document(
        path=str(item.path),
        locator=None,
        kind=KIND,
        title=_title(head) or title_of(text) or Path(item.name).stem,
        text=text,
        source_date=when,
        date_source="html_meta" if when else None,
        date_precision=precision,
        notes=notes,
    )


def text_of(markup: str) -> str:
    """Markup as text a person reads: headings, paragraphs, lists, a table a row a line; no
    scripts, styles, images or URLs (a link keeps its words).

    Python's HTML parser raises AssertionError on a marked section it does not know
    ("<![CTADA["); the page is then read again with every "<![" taken as text."""
    try:
        text = _converter().handle(markup)
    except AssertionError:
        text = _converter().handle(markup.replace("<![", "&lt;!["))
    # NUL ends strings in SQLite and in the embedder's tokenizer.
    return text.replace("\x00", "")


def _converter() -> html2text.HTML2Text:
    converter = html2text.HTML2Text()
    converter.body_width = 0  # no hard wrapping: chunking decides line length
    converter.ignore_images = True
    converter.ignore_emphasis = True
    converter.ignore_links = True
    return converter


def _decoded(data: bytes, strict: bool = True) -> str:
    """The page's text by its byte-order mark, else the charset it declares, else UTF-8, else
    windows-1252 (the HTML standard's fallback, and what an old page without a declaration
    holds). `strict=False` reads a head cut mid-character."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(codec, "replace")
    declared = _CHARSET.search(data[:_CHARSET_BYTES])
    codec = declared.group(1).decode("ascii", "replace").lower() if declared else None
    if codec in _AS_WINDOWS_1252:
        codec = "cp1252"
    if codec and not codec.startswith("utf-16"):  # a page that says UTF-16 without a BOM is not
        try:
            return data.decode(codec, "replace")
        except LookupError:  # not a charset Python knows, or not a text encoding ("base64")
            pass
    try:
        return data.decode("utf-8") if strict else data.decode("utf-8", "ignore")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


def _title(head: str) -> str:
    """The first `<title>`'s text (found by position, not a pattern that would try every
    "<title" of a page left unclosed)."""
    lower = head.lower()
    start = lower.find(">", lower.find("<title") + 1) if "<title" in lower else -1
    end = lower.find("</title", start)
    return title_of(html.unescape(head[start + 1 : end])) if start >= 0 and end >= 0 else ""


def _page_date(head: str) -> tuple[datetime | None, str | None]:
    """The first date by _DATE_NAMES' order that reads, with its precision; a date alone
    ("2026-03-02") is a day's."""
    stated = {}
    for tag in _META.findall(head):
        attributes = {k.lower(): v.strip("\"'") for k, v in _ATTRIBUTE.findall(tag)}
        key = (attributes.get("property") or attributes.get("name") or attributes.get("itemprop")
               or attributes.get("http-equiv") or "").lower()  # fmt: skip
        if key in _DATE_NAMES and "content" in attributes:
            stated.setdefault(key, html.unescape(attributes["content"]).strip())
    for key in _DATE_NAMES:
        when = _date(stated.get(key))
        if when is not None:
            return when, "instant" if ":" in stated[key] else "day"
    return None, None


def _date(raw: str | None) -> datetime | None:
    """ISO 8601, as metadata writes it, or an HTTP date (Last-Modified); None when unreadable or
    before MIN_YEAR."""
    if not raw:
        return None
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
    return when if when.year >= MIN_YEAR else None
