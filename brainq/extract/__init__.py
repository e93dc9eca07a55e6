"""Extractors: one module per source kind, behind one small interface.

Each module defines `KIND`, `sniff(name, head) -> bool` and `extract(item, limits)`, a generator
of `Document`s and `Failure`s (a mailbox yields many, a broken attachment yields a Failure while
its message still yields a Document), and of `Nested` items inside it (attachments), which the
registry reads with whichever extractor fits: no extractor imports the registry. A file that cannot be read at all raises `ExtractError`.
Adding a source kind is one new module plus one line in `EXTRACTORS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from types import ModuleType

from brainq.config import Limits
from brainq.documents import Document, Failure, Item, Nested
from brainq.errors import ExtractError
from brainq.extract import archive, calendar, email, html, msg, msword, office, pdf, photo, rtf, text, xls

# Order matters: content is sniffed in this order, so a mail file named .txt is read as mail,
# and a note that is a page of markup as a page. An archive comes first: it takes only a name
# and the bytes of one (and no OpenDocument file), and its first file's bytes lie within its
# head, where a PDF is known by them.
EXTRACTORS: tuple[ModuleType, ...] = (archive, calendar, pdf, photo, msg, office, msword, xls, rtf, email, html, text)

SNIFF_BYTES = 4096

# A file with one of these endings that cannot be read is a failure; any other is just not ours.
KNOWN_SUFFIXES = (
    ".eml", ".emlx", ".mbox", ".msg", ".pdf", ".doc", ".dot", ".xls", ".xlt", ".rtf", ".docx", ".docm", ".dotx", ".xlsx", ".xlsm",
    ".xltx", ".odt", ".ods", ".csv", ".tsv", ".html", ".htm", ".xhtml", ".mhtml", ".mht", ".jpg", ".jpeg",
    ".png", ".tif", ".tiff", ".heic", ".heif", ".webp", ".ics", ".txt", ".md", ".markdown", ".zip",
    ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz", ".tbz2", ".tar.xz", ".txz", ".7z",
)  # fmt: skip


def extractor_for(item: Item) -> ModuleType | None:
    """The extractor whose sniff accepts this item's name and first bytes, or None."""
    head = item.head(SNIFF_BYTES)
    for module in EXTRACTORS:
        if module.sniff(item.name, head):
            return module
    return None


def extract_item(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    """Documents and failures of one item and the items inside it (attachments); raises
    ExtractError if the item itself cannot be read at all."""
    module = extractor_for(item)
    on_disk = item.allowance is None  # else inside a file on disk, whose path names that file
    if on_disk:  # one allowance for the file on disk, shared by every archive inside it
        item.allowance = [int(limits.max_file_mb * 2**20)]
    if module is None:
        name = "" if on_disk else f"{item.name}: "
        if item.name.lower().endswith(text.SUFFIXES):  # a binary "notes.txt", or one in Shift-JIS
            raise ExtractError(f"{name}not text brainq reads (binary, or in a code page but UTF-8, UTF-16 and Windows' Western one)")
        if item.name.lower().endswith(KNOWN_SUFFIXES):  # a "photo.jpg" of text
            raise ExtractError(f"{name}its content is not what its name says, nor any kind brainq reads")
        raise ExtractError(f"{name}not a kind brainq reads (email, Outlook .msg, PDF, Word, Excel, OpenDocument, Rich Text, web page, photo, .ics, text, zip, tar, 7z)")
    yield from resolved(module.extract(item, limits), limits)


def resolved(results: Iterable[Document | Failure | Nested], limits: Limits) -> Iterator[Document | Failure]:
    """An extractor's results with the items inside it read too, every text within limits and
    without control codes."""
    for found in results:
        # An attachment's results are placed under its message, with its name, after its
        # own reading: they are cleaned here again.
        for result in _nested(found, limits) if isinstance(found, Nested) else [found]:
            if isinstance(result, Document):
                yield _within_limit(_without_controls(result), limits)
            else:
                yield Failure(result.path, _CONTROLS.sub("", result.reason))


# Terminal control codes: C0 (but tab, newline, vertical tab, form feed and carriage return),
# DEL and C1. No document means them, and printed as written they would drive the reader's
# terminal: an ESC in a spam subject or an attachment's name can clear the screen or retitle it.
# An escape sequence goes whole (ECMA-48: "ESC [ 31 m" colours, "ESC ] 0 ; title BEL" retitles),
# or "[31m" would be left in the text. Only after ESC: the 8-bit forms' C1 codes (0x9B, 0x9D)
# are also what UTF-8 quotes read as Latin-1 leave ("\u00e2\x80\x9d"), and go alone.
_CONTROLS = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # a control sequence (CSI)
    r"|\x1b\][^\x07\x1b\n]{0,256}(?:\x07|\x1b\\)"  # an operating system command (OSC)
    r"|\x1b[@-Z\\-_]"  # another escape of two characters
    r"|[\x00-\x08\x0e-\x1f\x7f-\x9f]"
)


def _without_controls(doc: Document) -> Document:
    doc.title, doc.text = _CONTROLS.sub("", doc.title), _CONTROLS.sub("", doc.text)
    doc.locator = doc.locator and _CONTROLS.sub("", doc.locator)
    doc.sender = doc.sender and _CONTROLS.sub("", doc.sender)
    doc.headers = {name: _CONTROLS.sub("", value) for name, value in doc.headers.items()}
    return doc


def _nested(nested: Nested, limits: Limits) -> Iterator[Document | Failure]:
    """An attachment's documents and failures, placed under its message; one that only names
    an unreadable kind is skipped."""
    path, item = str(nested.item.path), nested.item
    if nested.optional and (not item.read().strip() or extractor_for(item) is None):
        return  # named in the message's text, nothing more to read
    if item.depth > limits.max_depth:
        yield Failure(path, f"{nested.label}: deeper than the nesting limit of {limits.max_depth}")
    elif not item.read().strip():
        yield Failure(path, f"{nested.label}: empty")
    else:
        try:
            for result in extract_item(item, limits):
                yield nested.adopt(result)
        except ExtractError as exc:
            # extract_item names the item; the label already does
            yield Failure(path, f"{nested.label}: {str(exc).removeprefix(item.name + ': ')}")


def _within_limit(doc: Document, limits: Limits) -> Document:
    """Every kind's text is cut at the same limit, with a note saying so. (An extractor that
    could read without end, like pdf's page loop, also stops reading there.)"""
    if len(doc.text) > limits.max_text_chars:
        doc.text = doc.text[: limits.max_text_chars]
        doc.notes.append(f"text cut at {limits.max_text_chars} characters")
    return doc
