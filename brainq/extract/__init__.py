"""Extractors: one module per source kind, behind one small interface.

Each module defines `KIND`, `sniff(name, head) -> bool` and `extract(item, limits)`, a generator
of `Document`s and `Failure`s (a mailbox yields many, a broken attachment yields a Failure while
its message still yields a Document). A file that cannot be read at all raises `ExtractError`.
Adding a source kind is one new module plus one line in `EXTRACTORS`.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import calendar, email, msg, pdf, photo, text

# Order matters: content is sniffed in this order, so a mail file named .txt is read as mail.
EXTRACTORS: tuple[ModuleType, ...] = (calendar, pdf, photo, msg, email, text)

SNIFF_BYTES = 4096


def extractor_for(item: Item) -> ModuleType | None:
    """The extractor whose sniff accepts this item's name and first bytes, or None."""
    head = item.head(SNIFF_BYTES)
    for module in EXTRACTORS:
        if module.sniff(item.name, head):
            return module
    return None


def extract_item(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    """Documents and failures of one item; raises ExtractError if it cannot be read at all."""
    module = extractor_for(item)
    if module is None:
        raise ExtractError(f"{item.name}: not a kind brainq reads (email, Outlook .msg, PDF, photo, .ics, text)")
    for found in module.extract(item, limits):
        yield _within_limit(found, limits) if isinstance(found, Document) else found


def _within_limit(doc: Document, limits: Limits) -> Document:
    """Every kind's text is cut at the same limit, with a note saying so. (An extractor that
    could read without end, like pdf's page loop, also stops reading there.)"""
    if len(doc.text) > limits.max_text_chars:
        doc.text = doc.text[: limits.max_text_chars]
        doc.notes.append(f"text cut at {limits.max_text_chars} characters")
    return doc
