"""Web pages: a saved confirmation or receipt, an itinerary attached as HTML, a notes export
(Google Keep and Evernote write a page per note). Read as text, titled by `<title>`, dated by
the page's own metadata when it has some.

The converter is the one email reads HTML bodies with (`text_of`), so a page reads alike
attached, saved or sent as a message.
"""

from __future__ import annotations

import codecs
import html
import re
from collections.abc import Iterator
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path

import html2text

from brainq.config import Limits
from brainq.dates import MIN_YEAR, iso_date
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract.text import title_of

KIND = "html"

SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")
_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,5}")  # a file name's kind ("Booking ref. 4471" has none)
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
# A page without a suffix (an attachment named by its sender) by its first markup: an XML
# declaration and comments ("<!-- saved from url=... -->", as browsers write) may come before it.
_MARKUP = re.compile(r"\A\ufeff?\s*(?:<\?xml[^>]*>\s*)?(?:<!--(?:(?!-->).)*-->\s*)*<(?:!doctype\s+html|html[\s>])", re.I | re.S)
# Title and metadata are in the head, near the top; the page's charset is declared in its first
# 1024 bytes (the HTML standard's own limit, with room for pages that ignore it). A tag is read
# to the next "<" at most, and an attribute's name from its start only, so a page of unclosed or
# endless tags costs no more than its length.
_HEAD_CHARS = 64 * 1024
_CHARSET_BYTES = 4096
_CHARSET = re.compile(rb"""(?:<meta[^<>]*?charset|<\?xml[^<>]*?encoding)\s*=\s*["']?\s*([\w.:-]+)""", re.I)
_BODY = re.compile(r"<body\b", re.I)
_TITLE_OPEN, _TITLE_CLOSE = re.compile(r"<title\b[^<>]*>", re.I), re.compile(r"</title", re.I)
_META = re.compile(r"<meta\b[^<>]*>", re.I)
_ATTRIBUTE = re.compile(r"""(?<![\w:.-])([\w:.-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)""")
# A "<" that no ">" closes before the next "<" (comments are taken care of by _never_closed),
# and how many characters the parser may read again for such tags: about a second's work.
_UNCLOSED = re.compile(r"<(?!!--)(?=[^<>]*(?:<|\Z))")
_RESCAN_BUDGET = 15_000_000
# Marked sections Python's HTML parser knows (Word's "<![if !supportLists]>" among them); any
# other "<![" makes it raise.
_UNKNOWN_SECTION = re.compile(r"<!\[(?!(?:if|else|endif|temp|cdata|ignore|include|rcdata)(?![-.\w]))", re.I)
_TAG = re.compile(r"<[^<>]*>")
_SCRIPT_OPEN, _SCRIPT_CLOSE = re.compile(r"<(script|style)\b", re.I), re.compile(r"</(?:script|style)\s*>", re.I)
# A character reference past Unicode with thousands of digits: Python refuses to read so long a
# number (ValueError), in the parser and in html.unescape alike.
_HUGE_REFERENCE = re.compile(r"&#(?:0*\d{8,}|[xX]0*[0-9a-fA-F]{7,});?")
_DAY = re.compile(r"\d{4}-?\d{2}-?\d{2}")
# Dates a page states of itself, by the names its makers give them (Open Graph, schema.org,
# Dublin Core, HTTP): when it was last changed first, as for an Office file (the facts of a page
# updated yesterday are yesterday's), then when it was published or made.
_DATE_NAMES = (
    "article:modified_time", "og:updated_time", "datemodified", "dcterms.modified", "last-modified",
    "article:published_time", "datepublished", "dcterms.issued", "dcterms.created", "dc.date.issued",
    "dc.date.created", "dc.date", "date", "datecreated", "pubdate",
)  # fmt: skip
# Codecs that read ASCII as ASCII but are no page's charset: they turn "+", "\\" and the like into
# other characters.
_NOT_CHARSETS = {"utf-7", "unicode-escape", "raw-unicode-escape"}
# Labels the HTML standard reads as a superset, which is what such pages hold (Python's codec of
# the label itself would leave the superset's characters unread).
_SUPERSETS = {
    **dict.fromkeys(["ascii", "us-ascii", "iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1"], "cp1252"),
    **dict.fromkeys(["iso-8859-9", "iso8859-9", "latin5", "l5"], "cp1254"),
    **dict.fromkeys(["iso-8859-11", "tis-620", "windows-874"], "cp874"),
    **dict.fromkeys(["gb2312", "gb_2312", "gb_2312-80", "x-gbk"], "gbk"),
    **dict.fromkeys(["euc-kr", "ks_c_5601-1987", "ksc5601", "korean"], "cp949"),
    **dict.fromkeys(["shift_jis", "shift-jis", "x-sjis", "sjis", "ms_kanji", "windows-31j"], "cp932"),
    "iso-8859-8-i": "iso-8859-8",
}  # fmt: skip
_PROBE = b"<meta charset=x> 0-9"  # what any charset a page may declare reads as ASCII


def sniff(name: str, head: bytes) -> bool:
    """A page by its name and a head of text; a file without a suffix (an attachment its sender
    did not name so), or a ".doc" or ".xls" (web applications export "Word" and "Excel" files as
    HTML), by its first markup. Other suffixes are other kinds ("<html>" opens PHP and template
    files too)."""
    text = _decoded(head)
    if name.lower().endswith(SUFFIXES):
        return "\x00" not in text
    suffix = Path(name).suffix.lower()
    return (suffix in (".doc", ".xls") or not _SUFFIX.fullmatch(suffix)) and bool(_MARKUP.match(text))


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    """One document; none for an attached page without words, which is no failure of its
    message. A page longer than `limits.max_stream_mb` is read to there: markup is several
    times its text, and the converter's time grows with it."""
    data = item.read()
    notes = []
    if limits.max_stream_mb and len(data) > limits.max_stream_mb * 2**20:
        data = data[: int(limits.max_stream_mb * 2**20)]
        notes.append(f"page read to its first {limits.max_stream_mb:g} MB")
    markup = _decoded(data, item.charset)
    text = text_of(markup)
    if not text.strip():
        if item.depth:  # an attachment: a signature's image, or Outlook's ATT00001.htm trailer
            return
        raise ExtractError("no text in the page")
    # Over-long character references made harmless where title and date are read (text_of does
    # so for the text).
    head = _HUGE_REFERENCE.sub("&#65533;", markup[:_HEAD_CHARS])
    body = _BODY.search(head)
    head = head[: body.start()] if body else head  # an icon's <svg><title> is not the page's
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

    Markup Python's HTML parser raises AssertionError on is taken as text: a marked section it
    does not know ("<![CTADA["). Where the converter still fails (html2text asserts on "<ol
    start>" with no number), the page's words are read without its layout."""
    markup = _UNKNOWN_SECTION.sub("&lt;![", _unclosed_as_text(_never_closed(_HUGE_REFERENCE.sub("&#65533;", markup))))
    try:
        text = _converter().handle(markup)
    except AssertionError:
        text = html.unescape(_TAG.sub(" ", _without_scripts(markup)))
    # NUL ends strings in SQLite and in the embedder's tokenizer.
    return text.replace("\x00", "")


def _unclosed_as_text(markup: str) -> str:
    """A page with many a "<" that no ">" closes before the next "<", those taken as text.
    Python's HTML parser reads each such tag to the end of the page again (10,000 of them took
    10 s, 40,000 nearly 4 minutes) and shows it as text all the same. A page with few is left as
    it is: one may be a quoted value's (`href="?q=<b>"`), which the parser reads right."""
    unclosed = len(_UNCLOSED.findall(markup))
    return _UNCLOSED.sub("&lt;", markup) if unclosed * len(markup) > _RESCAN_BUDGET else markup


def _never_closed(markup: str) -> str:
    """Comment and marked-section openers after the last closer of their kind taken as text:
    the parser reads each to the end of the page again (20,000 of "<!--" took 5 s)."""
    for opener, closer in (("<!--", "-->"), ("<![", "]>")):
        last = markup.rfind(closer) + len(closer) if closer in markup else 0
        if opener in markup[last:]:
            markup = markup[:last] + markup[last:].replace(opener, "&lt;" + opener[1:])
    return markup


def _without_scripts(markup: str) -> str:
    """Markup without its scripts and styles, each end looked for once: when one is not found,
    no later one is either."""
    kept, at = [], 0
    while opened := _SCRIPT_OPEN.search(markup, at):
        closed = _SCRIPT_CLOSE.search(markup, opened.end())
        kept.append(markup[at : opened.start()])
        at = closed.end() if closed else len(markup)
    kept.append(markup[at:])
    return " ".join(kept)


def _converter() -> html2text.HTML2Text:
    converter = html2text.HTML2Text()
    converter.body_width = 0  # no hard wrapping: chunking decides line length
    converter.ignore_images = True
    converter.ignore_emphasis = True
    converter.ignore_links = True
    return converter


def _decoded(data: bytes, sent_as: str | None = None) -> str:
    """The page's text: by its byte-order mark; else UTF-8 when it all reads so (Latin text in
    any other charset almost never does, and a label is wrong more often: a page sent as
    "us-ascii" or "iso-8859-1" that is UTF-8); else the charset its message sent it in
    (`sent_as`), if the page reads in it; else the one the page declares; else UTF-8 if most of
    it reads so (a page cut mid-character, or with a stray byte); else windows-1252 (an old page
    without a declaration)."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(codec, "replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    declared = _CHARSET.search(data[:_CHARSET_BYTES])
    for label, errors in ((sent_as, "strict"), (declared and declared.group(1).decode("ascii", "replace"), "replace")):
        codec = _charset(label)
        if codec:
            try:
                return data.decode(codec, errors)
            except UnicodeError:  # not this page's charset, or a codec without replacement ("idna")
                pass
    escaped = data.decode("utf-8", "surrogateescape")  # each byte UTF-8 cannot read, as a surrogate
    bad = len(escaped) - len(escaped.encode("utf-8", "ignore").decode("utf-8"))
    read = len(escaped) - len(escaped.encode("ascii", "ignore")) - bad  # characters past ASCII read well
    return data.decode("utf-8", "replace") if read >= bad else data.decode("cp1252", "replace")


def _charset(label: str | None) -> str | None:
    """The codec that reads a page labelled so; None for a label that is no page's charset: one
    Python does not know, one that does not read ASCII as ASCII (UTF-16 without its mark, which
    the HTML standard says to ignore; EBCDIC; "base64"), UTF-7 and the escape codecs."""
    if not label:
        return None
    codec = _SUPERSETS.get(label.lower(), label)
    try:
        if codecs.lookup(codec).name in _NOT_CHARSETS:
            return None
        return codec if _PROBE.decode(codec) == _PROBE.decode("ascii") else None
    except (LookupError, UnicodeError, ValueError):
        return None


def _title(head: str) -> str:
    """The first `<title>`'s text (its end looked for once, not by a pattern that would try
    every "<title" of a page left unclosed)."""
    opened = _TITLE_OPEN.search(head)
    closed = opened and _TITLE_CLOSE.search(head, opened.end())
    return title_of(html.unescape(head[opened.end() : closed.start()])) if closed else ""


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
            return when, "day" if _DAY.fullmatch(stated[key]) else "instant"
    return None, None


def _date(raw: str | None) -> datetime | None:
    """ISO 8601, as metadata writes it, or an HTTP date (Last-Modified); None when unreadable or
    before MIN_YEAR."""
    if not raw:
        return None
    when = iso_date(raw)
    if when is not None:
        return when
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return when if when.year >= MIN_YEAR else None
